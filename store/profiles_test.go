package store_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"kardan/store"
	"kardan/store/storetest"
)

// profileFixture is a seeded store with two users and a clock.
type profileFixture struct {
	st           *store.Store
	clock        *clock
	owner, other *store.User
	admin        *store.User
}

func newProfileFixture(t *testing.T) *profileFixture {
	t.Helper()
	st := storetest.Seeded(t)
	ctx := context.Background()
	f := &profileFixture{st: st, clock: withClock(st)}
	for i, u := range []**store.User{&f.owner, &f.other, &f.admin} {
		nu := &store.User{NumberPhone: "0912000000" + string(rune('1'+i)), Name: "کاربر", PasswordHash: "x"}
		if i == 2 {
			nu.Role = store.RoleAdmin
		}
		if err := st.CreateUser(ctx, nu); err != nil {
			t.Fatal(err)
		}
		*u = nu
	}
	return f
}

// validInput is a correct plumber's profile in Tehran.
func validInput() *store.ProfileInput {
	return &store.ProfileInput{
		ProfileName:      "لوله‌کشی علی",
		WorkHistoryYears: 12,
		Descriotion:      "لوله‌کشی آب و گاز، رفع نشتی",
		ProvinceID:       1,
		CityID:           1,
		RangeWorker:      1,
		CategoryList:     []int64{101},
		Location:         &store.Location{Lat: 35.70, Long: 51.40},
		AreaWorking:      []string{"منطقه ۱", "منطقه ۳"},
		Address:          "تهران، خیابان ولیعصر",
		Services:         []store.Service{{Title: "باز کردن لوله", Price: 350000}, {Title: "مشاوره", Price: 0}},
		HoursOfWork: store.Hours{
			"saturday": {Time: []store.Slot{{Open: 8 * 3600, Close: 13 * 3600}, {Open: 16 * 3600, Close: 20 * 3600}}},
			"friday":   {Closed: true},
		},
		SocialNetwork: []store.SocialLink{{Type: "telegram", Link: "@ali_plumber"}, {Type: "mobile", Link: "+98 912 345 6789"}},
	}
}

func fieldOf(err error) (string, string) {
	var e *store.Error
	if errors.As(err, &e) && len(e.Fields) > 0 {
		return e.Fields[0].Field, e.Fields[0].Key
	}
	if errors.As(err, &e) {
		return "", e.Key
	}
	return "", ""
}

func TestCreateProfile(t *testing.T) {
	ctx := context.Background()
	f := newProfileFixture(t)

	t.Run("OK", func(t *testing.T) {
		p, err := f.st.CreateProfile(ctx, f.owner.ID, validInput(), true)
		if err != nil {
			t.Fatal(err)
		}
		if p.AccountStatus != store.StatusPending || p.Visible() {
			t.Errorf("got status %s visible %v, want Pending and invisible", p.AccountStatus, p.Visible())
		}
		if p.Slug != "لوله-کشی-علی" {
			t.Errorf("slug: got %q", p.Slug)
		}
		for _, w := range []string{"لوله‌کشی علی", "تهران", "Tehran", "Building services", "Plumber", "لوله‌کش"} {
			if !strings.Contains(p.KeyWord, w) {
				t.Errorf("key_word %q lacks %q", p.KeyWord, w)
			}
		}
		if p.SocialNetwork[0].Type != "Telegram" || p.SocialNetwork[1].Link != "09123456789" {
			t.Errorf("links not normalised: %+v", p.SocialNetwork)
		}
		if p.Services[1].Price != 0 || len(p.HoursOfWork["saturday"].Time) != 2 {
			t.Errorf("services or hours lost: %+v %+v", p.Services, p.HoursOfWork)
		}
	})

	t.Run("SameNameGetsCitySlug", func(t *testing.T) {
		in := validInput()
		in.CategoryList = []int64{102}
		p, err := f.st.CreateProfile(ctx, f.other.ID, in, true)
		if err != nil {
			t.Fatal(err)
		}
		if p.Slug != "لوله-کشی-علی-tehran" {
			t.Errorf("slug: got %q", p.Slug)
		}
	})

	t.Run("ModerationOffIsAccepted", func(t *testing.T) {
		in := validInput()
		in.RangeWorker, in.CategoryList = 4, []int64{401}
		p, err := f.st.CreateProfile(ctx, f.owner.ID, in, false)
		if err != nil || p.AccountStatus != store.StatusAccepted || !p.Visible() {
			t.Fatalf("got %+v %v", p, err)
		}
	})

	t.Run("ErrOnePerCategory", func(t *testing.T) {
		_, err := f.st.CreateProfile(ctx, f.owner.ID, validInput(), true)
		if store.ErrorCode(err) != store.EConflict {
			t.Fatalf("got %v, want conflict", err)
		}
		if _, key := fieldOf(err); key != "one_profile_per_cat" {
			t.Fatalf("got key %s", key)
		}
	})
}

func TestProfileValidation(t *testing.T) {
	ctx := context.Background()
	f := newProfileFixture(t)
	long := strings.Repeat("ب", 101)
	for _, tc := range []struct {
		name      string
		change    func(in *store.ProfileInput)
		wantField string
		wantKey   string
	}{
		{"ErrNameRequired", func(in *store.ProfileInput) { in.ProfileName = "  \u200f " }, "profile_name", "enter"},
		{"ErrNameTooLong", func(in *store.ProfileInput) { in.ProfileName = long }, "profile_name", "too_long"},
		{"ErrYearsNegative", func(in *store.ProfileInput) { in.WorkHistoryYears = -1 }, "work_history_years", "out_of_range"},
		{"ErrYearsHuge", func(in *store.ProfileInput) { in.WorkHistoryYears = 81 }, "work_history_years", "out_of_range"},
		{"ErrFieldMissing", func(in *store.ProfileInput) { in.RangeWorker = 0 }, "range_worker", "enter"},
		{"ErrFieldUnknown", func(in *store.ProfileInput) { in.RangeWorker = 9999 }, "range_worker", "enter_correct"},
		{"ErrFieldIsCategory", func(in *store.ProfileInput) { in.RangeWorker = 101 }, "range_worker", "enter_correct"},
		{"ErrNoCategory", func(in *store.ProfileInput) { in.CategoryList = nil }, "category_list", "enter"},
		{"ErrCategoryOfOtherField", func(in *store.ProfileInput) { in.CategoryList = []int64{501} }, "category_list", "category_not_in_field"},
		{"ErrCategoryUnknown", func(in *store.ProfileInput) { in.CategoryList = []int64{777777} }, "category_list", "category_not_in_field"},
		{"ErrCityOfOtherProvince", func(in *store.ProfileInput) { in.CityID = 129 }, "city_id", "city_not_in_province"},
		{"ErrCityUnknown", func(in *store.ProfileInput) { in.CityID = 99999 }, "city_id", "enter_correct"},
		{"ErrProvinceUnknown", func(in *store.ProfileInput) { in.ProvinceID = 77 }, "province_id", "enter_correct"},
		{"ErrLocationOutsideIran", func(in *store.ProfileInput) { in.Location = &store.Location{Lat: 48.85, Long: 2.35} }, "location", "location_outside_iran"},
		{"ErrServiceNoTitle", func(in *store.ProfileInput) { in.Services = []store.Service{{Title: " ", Price: 5}} }, "services", "service_title_required"},
		{"ErrServiceNegativePrice", func(in *store.ProfileInput) { in.Services = []store.Service{{Title: "x", Price: -1}} }, "services", "service_bad_price"},
		{"ErrTooManyServices", func(in *store.ProfileInput) { in.Services = make([]store.Service, 51) }, "services", "too_many_items"},
		{"ErrHoursIrregular", func(in *store.ProfileInput) {
			in.HoursOfWork = store.Hours{"monday": {Time: []store.Slot{{Open: 28801, Close: 36000}}}}
		}, "hours_of_work", "hours_irregular"},
		{"ErrHoursBackwards", func(in *store.ProfileInput) {
			in.HoursOfWork = store.Hours{"monday": {Time: []store.Slot{{Open: 36000, Close: 28800}}}}
		}, "hours_of_work", "hours_open_before_close"},
		{"ErrHoursOverlap", func(in *store.ProfileInput) {
			in.HoursOfWork = store.Hours{"monday": {Time: []store.Slot{{Open: 28800, Close: 43200}, {Open: 36000, Close: 50400}}}}
		}, "hours_of_work", "hours_overlap"},
		{"ErrHoursPastMidnight", func(in *store.ProfileInput) {
			in.HoursOfWork = store.Hours{"monday": {Time: []store.Slot{{Open: 79200, Close: 87300}}}}
		}, "hours_of_work", "hours_irregular"},
		{"ErrHoursBadDay", func(in *store.ProfileInput) { in.HoursOfWork = store.Hours{"funday": {}} }, "hours_of_work", "hours_bad_day"},
		{"ErrHoursBoardingAndClosed", func(in *store.ProfileInput) {
			in.HoursOfWork = store.Hours{"monday": {Boarding: true, Closed: true}}
		}, "hours_of_work", "hours_boarding_closed"},
		{"ErrSocialType", func(in *store.ProfileInput) { in.SocialNetwork = []store.SocialLink{{Type: "Myspace", Link: "x"}} }, "social_network", "social_bad_type"},
		{"ErrSocialEmail", func(in *store.ProfileInput) {
			in.SocialNetwork = []store.SocialLink{{Type: "Email", Link: "not-an-email"}}
		}, "social_network", "social_bad_link"},
		{"ErrSocialSite", func(in *store.ProfileInput) {
			in.SocialNetwork = []store.SocialLink{{Type: "Site", Link: "javascript:alert(1)"}}
		}, "social_network", "social_bad_link"},
		{"ErrSocialMobileLandline", func(in *store.ProfileInput) {
			in.SocialNetwork = []store.SocialLink{{Type: "mobile", Link: "02188776655"}}
		}, "social_network", "social_bad_link"},
		{"ErrSocialPhoneLetters", func(in *store.ProfileInput) { in.SocialNetwork = []store.SocialLink{{Type: "phone", Link: "call me"}} }, "social_network", "social_bad_link"},
		{"ErrImageNotOwned", func(in *store.ProfileInput) { in.Logo = "/uploads/ab/abcdef.jpg" }, "logo", "image_not_yours"},
		{"ErrPortfolioNotOwned", func(in *store.ProfileInput) { in.PortfolioImages = []string{"/uploads/x.jpg"} }, "portfolio_images", "image_not_yours"},
		{"ErrListObjectNotArray", func(in *store.ProfileInput) { in.ListObject = []byte(`{"a":1}`) }, "list_object", "enter_correct"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := validInput()
			tc.change(in)
			_, err := f.st.CreateProfile(ctx, f.owner.ID, in, true)
			if store.ErrorCode(err) != store.EInvalid {
				t.Fatalf("got %v, want invalid", err)
			}
			field, key := fieldOf(err)
			if field != tc.wantField || key != tc.wantKey {
				t.Fatalf("got %s/%s, want %s/%s", field, key, tc.wantField, tc.wantKey)
			}
		})
	}

	t.Run("OKAllSocialTypes", func(t *testing.T) {
		in := validInput()
		in.CategoryList = []int64{105}
		in.SocialNetwork = []store.SocialLink{
			{Type: "Whatsap", Link: "۰۹۱۲۳۴۵۶۷۸۹"}, {Type: "Instagram", Link: "https://instagram.com/ali"},
			{Type: "Email", Link: "ali@example.ir"}, {Type: "Site", Link: "https://ali.ir"}, {Type: "phone", Link: "021-8877 6655"},
			{Type: "fax", Link: "02188776656"}, {Type: "Eitaa", Link: "ali_eitaa"}, {Type: "Ather", Link: "کانال آپارات"},
		}
		p, err := f.st.CreateProfile(ctx, f.owner.ID, in, true)
		if err != nil {
			t.Fatal(err)
		}
		if p.SocialNetwork[0].Link != "09123456789" || p.SocialNetwork[4].Link != "02188776655" {
			t.Errorf("numbers not normalised: %+v", p.SocialNetwork)
		}
	})

	t.Run("OKHoursOnAnyWholeMinute", func(t *testing.T) {
		in := validInput()
		in.CategoryList = []int64{107}
		// 08:10 to 13:55 and 16:07 to 23:59: not quarter hours, but real opening times.
		in.HoursOfWork = store.Hours{"monday": {Time: []store.Slot{{Open: 58020, Close: 86340}, {Open: 29400, Close: 50100}}}}
		p, err := f.st.CreateProfile(ctx, f.owner.ID, in, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.HoursOfWork["monday"].Time; len(got) != 2 || got[0] != (store.Slot{Open: 29400, Close: 50100}) || got[1] != (store.Slot{Open: 58020, Close: 86340}) {
			t.Errorf("stored %+v", got)
		}
	})

	t.Run("NoPinUsesCityCentre", func(t *testing.T) {
		in := validInput()
		in.CategoryList = []int64{106}
		in.Location = nil
		p, err := f.st.CreateProfile(ctx, f.owner.ID, in, true)
		if err != nil || p.Lat != 35.6892 || p.Long != 51.389 {
			t.Fatalf("got %v,%v %v", p.Lat, p.Long, err)
		}
	})
}

func TestProfileLifecycle(t *testing.T) {
	ctx := context.Background()
	f := newProfileFixture(t)
	p, err := f.st.CreateProfile(ctx, f.owner.ID, validInput(), true)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("ErrOtherUserCannotEdit", func(t *testing.T) {
		_, err := f.st.UpdateProfile(ctx, f.other, p.ID, validInput(), true)
		if store.ErrorCode(err) != store.EForbidden {
			t.Fatalf("got %v", err)
		}
		if err := f.st.DeleteProfile(ctx, f.other, p.ID); store.ErrorCode(err) != store.EForbidden {
			t.Fatalf("delete: got %v", err)
		}
	})

	t.Run("Moderation", func(t *testing.T) {
		if _, err := f.st.SetProfileStatus(ctx, &f.admin.ID, p.ID, store.StatusBlocked, ""); store.ErrorCode(err) != store.EConflict {
			t.Fatalf("Pending→Blocked: got %v, want conflict", err)
		}
		got, err := f.st.SetProfileStatus(ctx, &f.admin.ID, p.ID, store.StatusRejected, "عکس مناسب نیست")
		if err != nil || got.AccountStatus != store.StatusRejected || got.AdminNote != "عکس مناسب نیست" {
			t.Fatalf("reject: %+v %v", got, err)
		}
		// The owner's edit sends a rejected profile back to review.
		in := validInput()
		in.Descriotion = "بهتر شد"
		got, err = f.st.UpdateProfile(ctx, f.owner, p.ID, in, true)
		if err != nil || got.AccountStatus != store.StatusPending {
			t.Fatalf("resubmit: %+v %v", got, err)
		}
		got, err = f.st.SetProfileStatus(ctx, nil, p.ID, store.StatusAccepted, "")
		if err != nil || !got.Visible() {
			t.Fatalf("accept: %+v %v", got, err)
		}
		// Edits keep an accepted profile accepted.
		got, err = f.st.UpdateProfile(ctx, f.owner, p.ID, validInput(), true)
		if err != nil || got.AccountStatus != store.StatusAccepted {
			t.Fatalf("edit accepted: %+v %v", got, err)
		}
		for _, to := range []string{store.StatusBlocked, store.StatusAccepted} {
			if _, err := f.st.SetProfileStatus(ctx, &f.admin.ID, p.ID, to, ""); err != nil {
				t.Fatalf("→%s: %v", to, err)
			}
		}
		log, err := f.st.AuditLog(ctx, "profile", p.ID)
		if err != nil || len(log) != 4 || log[0].ToStatus != store.StatusRejected || log[0].Note != "عکس مناسب نیست" || log[1].ActorID != nil {
			t.Fatalf("audit log: %+v %v", log, err)
		}
	})

	t.Run("HiddenIsInvisible", func(t *testing.T) {
		no := false
		got, err := f.st.SetProfileFlags(ctx, f.owner, p.ID, nil, &no)
		if err != nil || got.Visible() {
			t.Fatalf("got %+v %v", got, err)
		}
		yes := true
		got, _ = f.st.SetProfileFlags(ctx, f.owner, p.ID, nil, &yes)
		if !got.Visible() {
			t.Fatal("shown again is not visible")
		}
	})

	t.Run("DeleteLocksFieldThenRestore", func(t *testing.T) {
		if err := f.st.DeleteProfile(ctx, f.owner, p.ID); err != nil {
			t.Fatal(err)
		}
		got, _ := f.st.Profile(ctx, p.ID)
		if got.Visible() || got.ShownStatus() != store.StatusDeleted || got.Active {
			t.Fatalf("deleted: %+v", got)
		}
		in := validInput()
		in.CategoryList = []int64{103} // another category of the same field
		_, err := f.st.CreateProfile(ctx, f.owner.ID, in, true)
		if _, key := fieldOf(err); key != "field_locked" {
			t.Fatalf("got %v, want field_locked", err)
		}
		// Another field is not locked.
		in.RangeWorker, in.CategoryList = 2, []int64{201}
		if _, err := f.st.CreateProfile(ctx, f.owner.ID, in, true); err != nil {
			t.Fatalf("other field: %v", err)
		}
		f.clock.advance(10 * 24 * time.Hour)
		got, err = f.st.RestoreProfile(ctx, f.owner, p.ID)
		if err != nil || got.DeleteAt != nil || !got.Active || !got.Visible() {
			t.Fatalf("restore: %+v %v", got, err)
		}
	})

	t.Run("ErrRestoreAfter30Days", func(t *testing.T) {
		if err := f.st.DeleteProfile(ctx, f.owner, p.ID); err != nil {
			t.Fatal(err)
		}
		f.clock.advance(31 * 24 * time.Hour)
		_, err := f.st.RestoreProfile(ctx, f.owner, p.ID)
		if _, key := fieldOf(err); key != "restore_expired" {
			t.Fatalf("got %v", err)
		}
		// The lock ends with the retention.
		in := validInput()
		in.CategoryList = []int64{103}
		if _, err := f.st.CreateProfile(ctx, f.owner.ID, in, true); err != nil {
			t.Fatalf("after the lock: %v", err)
		}
		n, _, err := f.st.PurgeDeletedProfiles(ctx)
		if err != nil || n != 1 {
			t.Fatalf("purge: %d %v", n, err)
		}
		if _, err := f.st.Profile(ctx, p.ID); store.ErrorCode(err) != store.ENotFound {
			t.Fatalf("purged profile still there: %v", err)
		}
	})

	t.Run("OutboxRecordsEveryChange", func(t *testing.T) {
		rows, err := f.st.OutboxAfter(ctx, 0, 1000)
		if err != nil || len(rows) < 10 {
			t.Fatalf("got %d rows %v", len(rows), err)
		}
		for i := 1; i < len(rows); i++ {
			if rows[i].ID <= rows[i-1].ID {
				t.Fatal("outbox ids do not grow")
			}
		}
	})
}

func TestOpenStatus(t *testing.T) {
	tehran, _ := time.LoadLocation("Asia/Tehran")
	h := store.Hours{
		"saturday": {Time: []store.Slot{{Open: 8 * 3600, Close: 12 * 3600}, {Open: 16 * 3600, Close: 86400}}},
		"sunday":   {Time: []store.Slot{{Open: 0, Close: 2 * 3600}}},
		"monday":   {Boarding: true},
		"tuesday":  {Closed: true, Time: []store.Slot{{Open: 0, Close: 86400}}},
	}
	// 2026-11-21 is a Saturday.
	at := func(day, hh, mm, ss int) time.Time { return time.Date(2026, 11, 21+day, hh, mm, ss, 0, tehran) }
	for _, tc := range []struct {
		name string
		t    time.Time
		want string
	}{
		{"AtOpeningIsClosed", at(0, 8, 0, 0), store.StatusClosed},
		{"JustAfterOpening", at(0, 8, 0, 1), store.StatusOpen},
		{"JustBeforeClosing", at(0, 11, 59, 59), store.StatusOpen},
		{"AtClosingIsClosed", at(0, 12, 0, 0), store.StatusClosed},
		{"BetweenSlots", at(0, 14, 0, 0), store.StatusClosed},
		{"LateEvening", at(0, 23, 59, 59), store.StatusOpen},
		{"AfterMidnightNextDay", at(1, 1, 0, 0), store.StatusOpen},
		{"SundayAfterSlot", at(1, 3, 0, 0), store.StatusClosed},
		{"Boarding", at(2, 3, 0, 0), store.StatusBoarding},
		{"ClosedFlagWins", at(3, 10, 0, 0), store.StatusClosed},
		{"MissingDayIsClosed", at(4, 10, 0, 0), store.StatusClosed},
		{"UTCInstantReadInTehran", time.Date(2026, 11, 21, 5, 0, 0, 0, time.UTC).In(tehran), store.StatusOpen}, // 08:30 in Tehran
	} {
		if got := h.OpenStatus(tc.t); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"علي", "علی"},
		{"كاشي", "کاشی"},
		{"مُهَنْدِس", "مهندس"},
		{"مهـــندس", "مهندس"},
		{"۰۹۱۲", "0912"},
		{"٠٩١٢", "0912"},
		{"Plumber", "plumber"},
		{"خانة", "خانه"},
	} {
		if got := store.FoldPersian(tc.in); got != tc.want {
			t.Errorf("FoldPersian(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"لوله‌کشی علی", "لوله-کشی-علی"},
		{"Ali's  Plumbing!!", "ali-s-plumbing"},
		{"كافه ۲۴", "کافه-24"},
		{"---", ""},
	} {
		if got := store.Slugify(tc.in); got != tc.want {
			t.Errorf("Slugify(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := store.CleanText("a\u202eb\x00c\u200cd  e\n\nf", false); got != "abc\u200cd e f" {
		t.Errorf("CleanText: got %q", got)
	}
	if got := store.CleanText("line1\r\n\n\n\nline2", true); got != "line1\n\nline2" {
		t.Errorf("CleanText multiline: got %q", got)
	}
	if got := store.CleanText("a\xffb", false); got != "ab" {
		t.Errorf("CleanText invalid UTF-8: got %q", got)
	}
}

// A suggestion reads six columns of the visible profiles (VisibleProfileCards) where it read
// whole profiles and kept the visible ones: both ways must answer the same profiles, in order.
func TestProfileCardsMatchTheProfiles(t *testing.T) {
	ctx := context.Background()
	f := newProfileFixture(t)
	storetest.Demo(t, f.st, 60, 5)
	var all []int64
	for id := int64(1); id <= 70; id++ {
		all = append(all, id)
	}
	ps, err := f.st.ProfilesByIDs(ctx, all)
	if err != nil || len(ps) < 50 {
		t.Fatalf("demo profiles: %d (%v)", len(ps), err)
	}
	// Some leave the public view: blocked by an admin, hidden by the owner's switch, deleted.
	no := false
	for i, p := range ps[:9] {
		owner, err := f.st.UserByID(ctx, p.UserID)
		if err != nil {
			t.Fatal(err)
		}
		switch i % 3 {
		case 0:
			_, err = f.st.SetProfileStatus(ctx, &f.admin.ID, p.ID, store.StatusBlocked, "")
		case 1:
			_, err = f.st.SetProfileFlags(ctx, owner, p.ID, nil, &no)
		default:
			err = f.st.DeleteProfile(ctx, owner, p.ID)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	// Every id, reversed, with missing ids and one asked twice.
	var ids []int64
	for i := len(all) - 1; i >= 0; i-- {
		ids = append(ids, all[i])
	}
	ids = append(ids, 1<<40, ps[20].ID)
	for _, ask := range [][]int64{ids, ids[:7], {ps[0].ID}, {ps[30].ID}, nil} {
		long, err := f.st.ProfilesByIDs(ctx, ask)
		if err != nil {
			t.Fatal(err)
		}
		want := []store.ProfileCard{}
		for _, p := range long {
			if p.Visible() {
				want = append(want, store.ProfileCard{ID: p.ID, ProfileName: p.ProfileName, Slug: p.Slug, CityID: p.CityID,
					ProfileImage: p.ProfileImage, Logo: p.Logo})
			}
		}
		got, err := f.st.VisibleProfileCards(ctx, ask)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("asked %v:\ngot  %+v\nwant %+v", ask, got, want)
		}
	}
}

// TestProfilesByIDsAsProfile: the read of many profiles shares the decoded hours of equal weeks
// (readShared) where the read of one decodes every list: both must answer the same profiles.
func TestProfilesByIDsAsProfile(t *testing.T) {
	ctx := context.Background()
	f := newProfileFixture(t)
	storetest.Demo(t, f.st, 40, 7)
	ids := []int64{1 << 40}
	for id := int64(40); id >= 1; id-- {
		ids = append(ids, id)
	}
	for round := 0; round < 2; round++ { // the second round's weeks come from the cache
		ps, err := f.st.ProfilesByIDs(ctx, ids)
		if err != nil || len(ps) < 30 {
			t.Fatalf("demo profiles: %d (%v)", len(ps), err)
		}
		weeks := map[string]bool{}
		for _, p := range ps {
			one, err := f.st.Profile(ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p, one) {
				t.Fatalf("profile %d:\nmany %+v\none  %+v", p.ID, p, one)
			}
			weeks[fmt.Sprint(p.HoursOfWork)] = true
		}
		if len(weeks) < 2 {
			t.Fatalf("the demo profiles keep %d week(s): the test needs several", len(weeks))
		}
	}
}

// TestCategoryIDsFollowTheCategories: the category ids copied into the profile row (kept by
// triggers, 0070_profile_category_ids.sql) equal the rows of profile_categories after the
// store's writes (create, edit) and a tool's own (rows inserted, moved and deleted by SQL), on
// the engine of the run.
func TestCategoryIDsFollowTheCategories(t *testing.T) {
	ctx := context.Background()
	f := newProfileFixture(t)
	storetest.Demo(t, f.st, 30, 3)
	in := validInput()
	in.CategoryList = []int64{102, 101}
	p, err := f.st.CreateProfile(ctx, f.owner.ID, in, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.CategoryIDs, []int64{101, 102}) {
		t.Fatalf("created with %v, want [101 102]", p.CategoryIDs)
	}
	in.CategoryList = []int64{103}
	if p, err = f.st.UpdateProfile(ctx, f.owner, p.ID, in, false); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.CategoryIDs, []int64{103}) {
		t.Fatalf("edited to %v, want [103]", p.CategoryIDs)
	}
	for _, q := range []string{
		`INSERT INTO profile_categories (profile_id, category_id) VALUES (?, 104), (?, 101)`,
		`UPDATE profile_categories SET profile_id = 1 WHERE profile_id = ? AND category_id = 104 AND ? > 0`,
		`DELETE FROM profile_categories WHERE profile_id = 2 AND ? > 0 AND ? > 0`,
	} {
		if err := store.Exec(f.st, q, p.ID, p.ID); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	rows, err := f.st.DB().QueryContext(ctx, `SELECT p.id, p.category_ids,
		(SELECT COALESCE(json_group_array(category_id ORDER BY category_id), '[]') FROM profile_categories WHERE profile_id = p.id)
		FROM profiles p`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id int64
		var copied, rowsOf string
		if err := rows.Scan(&id, &copied, &rowsOf); err != nil {
			t.Fatal(err)
		}
		if strings.ReplaceAll(copied, " ", "") != strings.ReplaceAll(rowsOf, " ", "") {
			t.Errorf("profile %d: copied %s, profile_categories hold %s", id, copied, rowsOf)
		}
		n++
	}
	if err := rows.Err(); err != nil || n < 30 {
		t.Fatalf("%d profiles compared (%v)", n, err)
	}
	for id, want := range map[int64][]int64{p.ID: {101, 103}, 2: {}} {
		got, err := f.st.Profile(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.CategoryIDs, want) {
			t.Errorf("profile %d reads %v, want %v", id, got.CategoryIDs, want)
		}
	}
}

// TestIDsInMatchesTheList: the ids' condition of the reads by id (one JSON array on SQLite)
// keeps exactly the rows a plain IN list keeps: lists of 1 to 150 ids, with missing ids, ids
// asked twice, zero and negatives.
func TestIDsInMatchesTheList(t *testing.T) {
	f := newProfileFixture(t)
	storetest.Demo(t, f.st, 80, 5)
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		n := 1 + rng.IntN(150)
		ids := make([]int64, n)
		for i := range ids {
			ids[i] = int64(rng.IntN(120)) - 5 // some below 1, some above the last profile
		}
		if round%7 == 0 {
			ids = append(ids, ids[0], 1<<40)
		}
		viaIn, plain, err := store.IDsInBothWays(f.st, ids)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(viaIn, plain) {
			t.Fatalf("ids %v:\n idsIn %v\n plain %v", ids, viaIn, plain)
		}
	}
}
