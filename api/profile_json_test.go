package api

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"kardan/store"
)

// tricky are strings encoding/json treats specially: quotes, backslashes, control characters,
// HTML, the line and paragraph separators, invalid UTF-8, Persian with a zero-width non-joiner.
var tricky = []string{"", "ساده", `quote " and \ backslash`, "tab\tnew\nline\rcr\bbs\fff\x00\x1f", "<b>&amp;</b>",
	"line\u2028para\u2029", "bad \xff\xfe utf8", "لوله‌کش ۲۴ ساعته", "emoji 🙂", "\x7f del"}

func randomForm(rng *rand.Rand) *profileForm {
	pick := func() string { return tricky[rng.IntN(len(tricky))] }
	maybeStrings := func() []string {
		switch rng.IntN(3) {
		case 0:
			return nil
		case 1:
			return []string{}
		}
		return []string{pick(), pick()}
	}
	id := int64(rng.IntN(1000))
	f := &profileForm{
		ID: rng.Int64N(1 << 40), Active: rng.IntN(2) == 0, Display: rng.IntN(2) == 0, Option: maybeStrings(),
		UserID:       profileOwnerForm{UserID: rng.Int64N(1 << 30), Name: pick(), ProfileImage: pick()},
		CategoryList: []categoryRef{}, ProfileImage: pick(), ProfileName: pick(), KeyWord: pick(),
		WorkHistoryYears: rng.IntN(80), Descriotion: pick(), LevelScore: []float64{0, 4.3, 1e-7, 3e21, -2.5, 5}[rng.IntN(6)],
		CountScorer: rng.IntN(100), Score: float64(rng.IntN(50)) / 10, Location: []float64{51.123456, 35.654321},
		AreaWorking: maybeStrings(), Address: pick(), AccountStatus: "Accepted", PortfolioImages: maybeStrings(),
		CreateAt: isoTime(rng.Int64N(2e9)), UpdateAt: isoTime(rng.Int64N(2e9)),
		ListObject: []json.RawMessage{nil, json.RawMessage("[]"), json.RawMessage(` [ {"a" : "<x>"}, 2 ] `), json.RawMessage("{}")}[rng.IntN(4)],
		Logo:       pick(), Slug: pick(), OpenStatus: pick(),
	}
	if rng.IntN(2) == 0 {
		d := isoTime(rng.Int64N(2e9))
		f.DeleteAt = &d
		f.RegisterAdmin = registerAdmin{AdminRegisterID: &id, Description: pick()}
		f.UserID.NumberPhone = "09121234567"
	}
	if rng.IntN(3) > 0 {
		f.RangeWorker = &categoryRef{ID: 1, FarsiName: pick(), EnglishName: pick(), Slag: pick(), ParentIDs: []int64{}}
		f.CategoryList = append(f.CategoryList, categoryRef{ID: 101, FarsiName: pick(), Slag: pick(), ParentIDs: []int64{1}})
	}
	if rng.IntN(4) == 0 {
		f.CategoryList = nil
	}
	if rng.IntN(3) > 0 {
		f.SocialNetwork = []store.SocialLink{{Type: "mobile", Link: pick()}}
		f.Services = []store.Service{{Title: pick(), Price: rng.Int64N(1e12), Description: pick()}, {}}
	}
	if rng.IntN(3) > 0 {
		f.HoursOfWork = store.Hours{"saturday": {Time: []store.Slot{{Open: 28800, Close: 61200}}}, "friday": {Closed: true},
			"monday": {Boarding: true, Time: []store.Slot{}}}
	}
	if rng.IntN(2) == 0 {
		f.Province = &provinceRef{ID: 8, FarsiName: pick(), EnglishName: pick()}
		f.City = &cityRef{ID: 1, FarsiName: pick(), EnglishName: pick(), Slag: pick()}
	}
	if rng.IntN(2) == 0 {
		d := rng.Int64N(200000)
		f.Distance = &d
	}
	switch rng.IntN(3) {
	case 0:
		f.SpecialDays = []store.SpecialDay{{Date: "2027-03-21", Closed: true, Time: []store.Slot{}, Note: pick()},
			{Date: "2026-12-01", Time: []store.Slot{{Open: 36000, Close: 43200}, {Open: 50400, Close: 86400}}}}
		f.OpenOnHolidays = true
	case 1:
		f.SpecialDays = []store.SpecialDay{}
	}
	if rng.IntN(2) == 0 {
		at := isoTime(rng.Int64N(2e9))
		f.Verified, f.VerifiedAt = true, &at
	}
	f.Claimable = rng.IntN(2) == 0
	if rng.IntN(2) == 0 {
		loc := time.FixedZone("IRST", 3*3600+1800)
		f.NextChange = &store.Change{At: time.Unix(rng.Int64N(2e9), 0).In(loc), Status: pick()}
	}
	if rng.IntN(2) == 0 {
		// The reference forms refs encodes once; encoding/json does not see those bytes.
		if f.RangeWorker != nil {
			f.RangeWorker.json = appendCategoryRef(nil, f.RangeWorker)
		}
		for i := range f.CategoryList {
			f.CategoryList[i].json = appendCategoryRef(nil, &f.CategoryList[i])
		}
		if f.Province != nil {
			f.Province.json, f.City.json = appendProvinceRef(nil, f.Province), appendCityRef(nil, f.City)
		}
	}
	return f
}

func TestProfileFormJSONMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 2000; i++ {
		f := randomForm(rng)
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendProfileForm(nil, f); !bytes.Equal(got, want) {
			t.Fatalf("form %d:\ngot  %s\nwant %s", i, got, want)
		}
	}
}

func TestProfileAnswersMatchWriteJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	forms := []*profileForm{randomForm(rng), randomForm(rng), randomForm(rng)}
	for _, tc := range []struct {
		name  string
		fast  func(*httptest.ResponseRecorder)
		plain func(*httptest.ResponseRecorder)
	}{
		{"List", func(w *httptest.ResponseRecorder) { writeFormList(w, forms, 42) },
			func(w *httptest.ResponseRecorder) { ok(w, map[string]any{"profiles": forms, "count": 42}) }},
		{"EmptyList", func(w *httptest.ResponseRecorder) { writeFormList(w, []*profileForm{}, 0) },
			func(w *httptest.ResponseRecorder) { ok(w, map[string]any{"profiles": []*profileForm{}, "count": 0}) }},
		{"One", func(w *httptest.ResponseRecorder) { writeForm(w, forms[0]) },
			func(w *httptest.ResponseRecorder) { ok(w, forms[0]) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fast, plain := httptest.NewRecorder(), httptest.NewRecorder()
			tc.fast(fast)
			tc.plain(plain)
			if fast.Code != plain.Code || fast.Body.String() != plain.Body.String() {
				t.Fatalf("got %d %s\nwant %d %s", fast.Code, fast.Body, plain.Code, plain.Body)
			}
			for _, h := range []string{"Content-Type", "Cache-Control"} {
				if fast.Header().Get(h) != plain.Header().Get(h) {
					t.Errorf("%s: got %q, want %q", h, fast.Header().Get(h), plain.Header().Get(h))
				}
			}
			if !strings.HasSuffix(fast.Body.String(), "\n") {
				t.Error("answer does not end with a newline")
			}
		})
	}
}

// appendString writes any string exactly as encoding/json does.
func FuzzAppendString(f *testing.F) {
	for _, s := range tricky {
		f.Add(s)
	}
	f.Add("\xd8")              // a two-byte sequence cut short
	f.Add("\xd8\x41 \xc0\x80") // a bad continuation byte; an overlong encoding
	f.Add("\xe2\x80")          // a cut three-byte sequence
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}
