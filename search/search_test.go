package search_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"kardan/search"
	"kardan/store"
	"kardan/store/storetest"
)

type fixture struct {
	t     *testing.T
	dir   string
	st    *store.Store
	ix    *search.Index
	owner int64
	n     int
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	st, ix := storetest.Indexed(t)
	dir := storetest.Dir(st)
	return &fixture{t: t, dir: dir, st: st, ix: ix}
}

// add creates an accepted profile (each under a new owner, so categories never clash).
func (f *fixture) add(name, desc string, province, city, field, cat int64, lat, long float64) *store.Profile {
	f.t.Helper()
	ctx := context.Background()
	f.n++
	u := &store.User{NumberPhone: fmt.Sprintf("0912%07d", f.n), Name: "owner", PasswordHash: "x"}
	if err := f.st.CreateUser(ctx, u); err != nil {
		f.t.Fatal(err)
	}
	p, err := f.st.CreateProfile(ctx, u.ID, &store.ProfileInput{
		ProfileName: name, Descriotion: desc, ProvinceID: province, CityID: city, RangeWorker: field,
		CategoryList: []int64{cat}, Location: &store.Location{Lat: lat, Long: long},
		Services: []store.Service{{Title: "خدمات عمومی", Price: 0}},
	}, false)
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

// open opens the fixture's index again, after a Close, and makes it the fixture's.
func (f *fixture) open() {
	f.t.Helper()
	ix, err := search.Open(context.Background(), filepath.Join(f.dir, "index"), f.st)
	if err != nil {
		f.t.Fatal(err)
	}
	f.ix = ix
	f.t.Cleanup(func() { ix.Close() })
}

func (f *fixture) sync() {
	f.t.Helper()
	if err := f.ix.Sync(context.Background()); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) search(q search.ProfileQuery) *search.ProfileHits {
	f.t.Helper()
	if q.Take == 0 {
		q.Take = 100
	}
	h, err := f.ix.SearchProfiles(context.Background(), q)
	if err != nil {
		f.t.Fatal(err)
	}
	return h
}

// raw opens the database file directly, to play the part of writes this package does not make.
func (f *fixture) raw() *sql.DB {
	db, err := sql.Open("sqlite3", filepath.Join(f.dir, "kardan.db")+"?_busy_timeout=5000")
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { db.Close() })
	return db
}

// setScores sets a profile's scores and queues it for the index, as a comment would.
func (f *fixture) setScores(id int64, score float64, count int, level float64) {
	f.t.Helper()
	db := f.raw()
	if _, err := db.Exec(`UPDATE profiles SET score = ?, count_scorer = ?, level_score = ? WHERE id = ?`, score, count, level, id); err != nil {
		f.t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO index_outbox (entity, entity_id, create_at) VALUES ('profile', ?, 0)`, id); err != nil {
		f.t.Fatal(err)
	}
}

func ids(ps ...*store.Profile) []int64 {
	out := make([]int64, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}

func sorted(in []int64) []int64 {
	out := slices.Clone(in)
	slices.Sort(out)
	return out
}

// Tehran (province 1, city 1) and Tabriz (province 6, city 129).
const (
	tehranLat, tehranLong = 35.6892, 51.3890
	tabrizLat, tabrizLong = 38.0800, 46.2919
)

func TestSpellingVariants(t *testing.T) {
	f := newFixture(t)
	plumber := f.add("لوله‌کشی علی", "تعمیر لوله و شیرآلات", 1, 1, 1, 101, tehranLat, tehranLong)
	tiler := f.add("کاشی‌کاری کریمی", "کاشی و سرامیک", 1, 1, 1, 105, tehranLat, tehranLong)
	salon := f.add("آرایشگاه زیبا", "کوتاهی مو", 6, 129, 6, 601, tabrizLat, tabrizLong)
	dentist := f.add("دندانپزشکی دکتر مهرابی", "ایمپلنت و ارتودنسی", 1, 1, 5, 501, tehranLat, tehranLong)
	mechanic := f.add("مکانیک خودرو ۲۴ ساعته", "تعمیرات موتور", 6, 129, 4, 401, tabrizLat, tabrizLong)
	f.sync()

	for _, tc := range []struct {
		query string
		want  *store.Profile
	}{
		{"علی", plumber},
		{"علي", plumber},            // Arabic yeh
		{"لوله‌کش", plumber},        // with ZWNJ
		{"لولهکش", plumber},         // joined, no ZWNJ
		{"لوله کش", plumber},        // split by a space
		{"كاشي", tiler},             // Arabic kaf and yeh
		{"کاشیکاری", tiler},         // joined
		{"کاشی کاری", tiler},        // split
		{"دَندانپِزشکی", dentist},   // diacritics
		{"دندانپـــزشکی", dentist},  // tatweel
		{"دندانپزشگی", dentist},     // one typo in a long word
		{"دندان", dentist},          // the start of a word
		{"ارایشگاه", salon},         // alef without madda
		{"زيبا", salon},             // Arabic yeh
		{"24", mechanic},            // Latin digits for Persian ones
		{"۲۴", mechanic},            // Persian digits
		{"٢٤", mechanic},            // Arabic digits
		{"Plumber", plumber},        // the category's English name
		{"plumbers", plumber},       // English plural
		{"dentist tehran", dentist}, // English words across fields
		{"تبریز مکانیک", mechanic},  // city and trade
		{"ارتودنسی", dentist},       // the description
	} {
		hits := f.search(search.ProfileQuery{Text: tc.query})
		if !slices.Contains(hits.IDs, tc.want.ID) {
			t.Errorf("%q: got %v, want %d (%s)", tc.query, hits.IDs, tc.want.ID, tc.want.ProfileName)
		}
	}
	// A query for one trade does not drown in the others.
	if hits := f.search(search.ProfileQuery{Text: "دندانپزشکی"}); hits.Total != 1 {
		t.Errorf("dentist: got %d hits, want 1", hits.Total)
	}
	if hits := f.search(search.ProfileQuery{Text: "نانوایی"}); hits.Total != 0 {
		t.Errorf("baker: got %d hits, want 0", hits.Total)
	}
}

func TestFilters(t *testing.T) {
	f := newFixture(t)
	a := f.add("لوله‌کشی تهران یک", "", 1, 1, 1, 101, tehranLat, tehranLong)
	b := f.add("برق‌کاری تهران", "", 1, 1, 1, 102, tehranLat, tehranLong)
	c := f.add("لوله‌کشی ری", "", 1, 8, 1, 101, 35.5883, 51.4358)
	d := f.add("لوله‌کشی تبریز", "", 6, 129, 1, 101, tabrizLat, tabrizLong)
	e := f.add("دندانپزشکی تبریز", "", 6, 129, 5, 501, tabrizLat, tabrizLong)
	f.setScores(a.ID, 4.5, 10, 4.3)
	f.setScores(b.ID, 3.0, 2, 3.4)
	f.setScores(c.ID, 5.0, 1, 4.1) // 4.1 as a float32 is below 4.1: the sifting must compare exactly
	f.sync()

	for _, tc := range []struct {
		name string
		q    search.ProfileQuery
		want []int64
	}{
		{"All", search.ProfileQuery{}, ids(a, b, c, d, e)},
		{"City", search.ProfileQuery{City: "tehran", CityID: 1}, ids(a, b)},
		{"CityText", search.ProfileQuery{City: "tehran", Text: "تهران"}, ids(a, b)},
		{"Province", search.ProfileQuery{Province: 1}, ids(a, b, c)},
		{"Category", search.ProfileQuery{Category: "plumber", CategoryID: 101}, ids(a, c, d)},
		{"CategoryText", search.ProfileQuery{Category: "plumber", Text: "لوله"}, ids(a, c, d)},
		{"Field", search.ProfileQuery{Field: "building-services", FieldID: 1}, ids(a, b, c, d)},
		{"FieldPoint", search.ProfileQuery{Field: "building-services", HasPoint: true, Lat: tehranLat, Long: tehranLong, Radius: 100000}, ids(a, b, c)},
		{"CategoryAndCity", search.ProfileQuery{Category: "plumber", CategoryID: 101, City: "tabriz", CityID: 129}, ids(d)},
		{"TextAndCity", search.ProfileQuery{Text: "لوله‌کشی", City: "rey"}, ids(c)},
		{"MinScore", search.ProfileQuery{MinScore: ptr(4.0)}, ids(a, c)},
		{"MinScoreText", search.ProfileQuery{MinScore: ptr(4.0), Text: "لوله"}, ids(a, c)},
		{"MinLevelScore", search.ProfileQuery{MinLevelScore: ptr(3.5)}, ids(a, c)},
		// The scores are the facts table's, not the index's: every way to a page sifts them.
		{"MinScoreEqual", search.ProfileQuery{MinScore: ptr(4.5)}, ids(a, c)},
		{"MinLevelScoreEqual", search.ProfileQuery{MinLevelScore: ptr(4.1)}, ids(a, c)},
		{"MinScorePoint", search.ProfileQuery{MinScore: ptr(4.0), HasPoint: true, Lat: tehranLat, Long: tehranLong}, ids(a, c)},
		{"MinScoreRadius", search.ProfileQuery{MinScore: ptr(4.0), HasPoint: true, Lat: tehranLat, Long: tehranLong, Radius: 100000}, ids(a, c)},
		{"MinScoreCategory", search.ProfileQuery{MinScore: ptr(4.0), Category: "plumber", CategoryID: 101, Order: search.OrderReviews}, ids(a, c)},
		{"MinBothText", search.ProfileQuery{MinScore: ptr(4.0), MinLevelScore: ptr(4.2), Text: "لوله‌کشی"}, ids(a)},
		{"Nothing", search.ProfileQuery{City: "shiraz", CityID: 60}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hits := f.search(tc.q)
			if !slices.Equal(sorted(hits.IDs), sorted(tc.want)) || hits.Total != len(tc.want) {
				t.Fatalf("got %v (total %d), want %v", hits.IDs, hits.Total, tc.want)
			}
		})
	}

	t.Run("OrderBest", func(t *testing.T) {
		hits := f.search(search.ProfileQuery{Order: search.OrderBest, Province: 1})
		if !slices.Equal(hits.IDs, ids(a, c, b)) {
			t.Fatalf("got %v, want %v", hits.IDs, ids(a, c, b))
		}
	})
	t.Run("OrderReviews", func(t *testing.T) {
		hits := f.search(search.ProfileQuery{Order: search.OrderReviews, Province: 1})
		if !slices.Equal(hits.IDs, ids(a, b, c)) {
			t.Fatalf("got %v", hits.IDs)
		}
	})
	t.Run("OrderNewest", func(t *testing.T) {
		hits := f.search(search.ProfileQuery{Order: search.OrderNewest})
		if len(hits.IDs) != 5 {
			t.Fatalf("got %v", hits.IDs)
		}
	})
	t.Run("Paging", func(t *testing.T) {
		var seen []int64
		for skip := 0; skip < 6; skip += 2 {
			h := f.search(search.ProfileQuery{Order: search.OrderBest, Skip: skip, Take: 2})
			if h.Total != 5 {
				t.Fatalf("total: got %d", h.Total)
			}
			seen = append(seen, h.IDs...)
		}
		if !slices.Equal(sorted(seen), sorted(ids(a, b, c, d, e))) {
			t.Fatalf("pages gave %v", seen)
		}
	})
}

func ptr(f float64) *float64 { return &f }

// offset answers the point metres north and east of (lat, long).
func offset(lat, long, north, east float64) (float64, float64) {
	dLat := north / store.EarthRadius * 180 / math.Pi
	dLong := east / (store.EarthRadius * math.Cos(lat*math.Pi/180)) * 180 / math.Pi
	return lat + dLat, long + dLong
}

func TestRadius(t *testing.T) {
	f := newFixture(t)
	centreLat, centreLong := 35.7000, 51.4000
	type placed struct {
		p    *store.Profile
		dist float64
	}
	var all []placed
	for i, m := range []struct{ north, east float64 }{
		{300, 0}, {0, 700}, {-900, 0}, {650, 650}, {0, -1150}, {2500, 0}, {-3000, -3000}, {4800, 0}, {0, 6000}, {12000, 0},
		// Just inside and just outside the circles: the index's cells cover more than the circle,
		// and the cut (and the count) must follow the distance.
		{0, 990}, {-712, -712}, {0, 5040}, {3560, -3560}, {-9980, 0}, {7100, 7100},
	} {
		lat, long := offset(centreLat, centreLong, m.north, m.east)
		p := f.add(fmt.Sprintf("کارگاه %d", i), "", 1, 1, 1, 101, lat, long)
		all = append(all, placed{p, store.Haversine(centreLat, centreLong, lat, long)})
	}
	f.sync()
	for _, radius := range []float64{1000, 5000, 10000} {
		var want []int64
		for _, a := range all {
			if a.dist <= radius {
				want = append(want, a.p.ID)
			}
		}
		hits := f.search(search.ProfileQuery{HasPoint: true, Lat: centreLat, Long: centreLong, Radius: radius})
		if !slices.Equal(sorted(hits.IDs), sorted(want)) || hits.Total != len(want) {
			t.Errorf("radius %.0f: got %v (total %d), want %v", radius, hits.IDs, hits.Total, want)
		}
		// A page of the circle counts the whole circle.
		if page := f.search(search.ProfileQuery{HasPoint: true, Lat: centreLat, Long: centreLong, Radius: radius, Take: 1,
			Order: search.OrderNearest}); page.Total != len(want) || len(page.IDs) != 1 {
			t.Errorf("radius %.0f, one per page: got %v (total %d), want total %d", radius, page.IDs, page.Total, len(want))
		}
	}
	// Nearest first, by great-circle distance.
	hits := f.search(search.ProfileQuery{HasPoint: true, Lat: centreLat, Long: centreLong, Radius: 20000, Order: search.OrderNearest})
	slices.SortFunc(all, func(x, y placed) int { return int(x.dist - y.dist) })
	var want []int64
	for _, a := range all {
		want = append(want, a.p.ID)
	}
	if !slices.Equal(hits.IDs, want) {
		t.Errorf("nearest: got %v, want %v", hits.IDs, want)
	}
	// Far away there is nothing.
	if h := f.search(search.ProfileQuery{HasPoint: true, Lat: tabrizLat, Long: tabrizLong, Radius: 5000}); h.Total != 0 {
		t.Errorf("Tabriz: got %v", h.IDs)
	}
}

// TestRadiusAtTheCellsEdge: a workshop 4,998.8 m from a point of central Tehran was in no cell of
// the covering Bleve's plugin gave for 5 km (it measures with an Earth of 6,378 km), so a 5 km
// search did not find it.
func TestRadiusAtTheCellsEdge(t *testing.T) {
	f := newFixture(t)
	centreLat, centreLong := 35.683287, 51.404340
	p := f.add("کارگاه لبه", "", 1, 1, 1, 101, 35.726486, 51.389015)
	f.add("کارگاه بیرون", "", 1, 1, 1, 101, 35.7266, 51.3889) // a few metres further: outside
	f.sync()
	if d := store.Haversine(centreLat, centreLong, 35.726486, 51.389015); d > 5000 || d < 4998 {
		t.Fatalf("the workshop is %.2f m away", d)
	}
	for _, order := range []string{search.OrderBest, search.OrderNearest} {
		hits := f.search(search.ProfileQuery{HasPoint: true, Lat: centreLat, Long: centreLong, Radius: 5000, Order: order})
		if hits.Total != 1 || !slices.Equal(hits.IDs, []int64{p.ID}) {
			t.Errorf("order %s: got %v (total %d), want [%d]", order, hits.IDs, hits.Total, p.ID)
		}
		plain, err := search.SearchProfilesPlain(context.Background(), f.ix, search.ProfileQuery{HasPoint: true, Lat: centreLat,
			Long: centreLong, Radius: 5000, Order: order, Take: 20})
		if err != nil || plain.Total != 1 || !slices.Equal(plain.IDs, []int64{p.ID}) {
			t.Errorf("order %s, Bleve's searchers: got %+v, %v, want [%d]", order, plain, err, p.ID)
		}
	}
}

func TestVisibility(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	admin := &store.User{NumberPhone: "09350000000", Name: "admin", PasswordHash: "x", Role: store.RoleAdmin}
	if err := f.st.CreateUser(ctx, admin); err != nil {
		t.Fatal(err)
	}
	keep := f.add("نجاری پایدار", "", 1, 1, 1, 106, tehranLat, tehranLong)
	rejected := f.add("نجاری رد", "", 1, 1, 1, 106, tehranLat, tehranLong)
	blocked := f.add("نجاری مسدود", "", 1, 1, 1, 106, tehranLat, tehranLong)
	hidden := f.add("نجاری پنهان", "", 1, 1, 1, 106, tehranLat, tehranLong)
	deleted := f.add("نجاری حذف", "", 1, 1, 1, 106, tehranLat, tehranLong)
	inactive := f.add("نجاری غیرفعال", "", 1, 1, 1, 106, tehranLat, tehranLong)
	f.sync()
	if h := f.search(search.ProfileQuery{Text: "نجاری"}); h.Total != 6 {
		t.Fatalf("before: got %d", h.Total)
	}
	// Rejection is only from Pending: put it back to review through a block and an edit is not
	// possible, so reject a fresh pending copy instead.
	f.raw().Exec(`UPDATE profiles SET account_status = 'Pending' WHERE id = ?`, rejected.ID)
	if _, err := f.st.SetProfileStatus(ctx, nil, rejected.ID, store.StatusRejected, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.SetProfileStatus(ctx, nil, blocked.ID, store.StatusBlocked, ""); err != nil {
		t.Fatal(err)
	}
	no := false
	if _, err := f.st.SetProfileFlags(ctx, admin, hidden.ID, nil, &no); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.SetProfileFlags(ctx, admin, inactive.ID, &no, nil); err != nil {
		t.Fatal(err)
	}
	if err := f.st.DeleteProfile(ctx, admin, deleted.ID); err != nil {
		t.Fatal(err)
	}
	f.sync()
	if h := f.search(search.ProfileQuery{Text: "نجاری"}); !slices.Equal(h.IDs, ids(keep)) {
		t.Fatalf("after: got %v, want only %d", h.IDs, keep.ID)
	}
	if _, err := f.st.RestoreProfile(ctx, admin, deleted.ID); err != nil {
		t.Fatal(err)
	}
	f.sync()
	if h := f.search(search.ProfileQuery{Text: "نجاری"}); h.Total != 2 {
		t.Fatalf("restored: got %v", h.IDs)
	}
}

// TestReviewIndexesNoDocument: a review changes only its profile's scores, which the facts table
// holds, so the drain indexes no document, and min_score and the best order see the new scores
// at once. A change to what the document holds (the text, visibility) is indexed as before.
func TestReviewIndexesNoDocument(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	a := f.add("لوله‌کشی آرش", "", 1, 1, 1, 101, tehranLat, tehranLong)
	b := f.add("لوله‌کشی بهار", "", 1, 1, 1, 101, tehranLat, tehranLong)
	f.sync()
	before := search.IndexedProfiles(f.ix)
	if before != 2 {
		t.Fatalf("indexed %d documents for two new profiles", before)
	}
	review := func(p *store.Profile, score int) {
		t.Helper()
		f.n++
		u := &store.User{NumberPhone: fmt.Sprintf("0913%07d", f.n), Name: "reviewer", PasswordHash: "x"}
		if err := f.st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		in := &store.CommentInput{ProfileID: p.ID, CategoryList: store.IDList{101}, Description: "کار تمیز و به موقع انجام شد", Score: score}
		if _, err := f.st.AddComment(ctx, u, in); err != nil {
			t.Fatal(err)
		}
	}
	review(a, 5)
	review(b, 2)
	f.sync()
	if got := search.IndexedProfiles(f.ix) - before; got != 0 {
		t.Errorf("reviews indexed %d documents, want none", got)
	}
	four := 4.0
	if h := f.search(search.ProfileQuery{Text: "لوله‌کشی", MinScore: &four}); !slices.Equal(h.IDs, ids(a)) || h.Total != 1 {
		t.Fatalf("min_score 4 after the reviews: got %v (%d), want %v", h.IDs, h.Total, ids(a))
	}
	if h := f.search(search.ProfileQuery{Category: "plumber", CategoryID: 101, HasPoint: true, Lat: tehranLat, Long: tehranLong, Order: search.OrderBest}); !slices.Equal(h.IDs, ids(a, b)) {
		t.Fatalf("best after the reviews: got %v", h.IDs)
	}
	review(b, 5)
	review(b, 5)
	f.sync()
	if h := f.search(search.ProfileQuery{Category: "plumber", CategoryID: 101, HasPoint: true, Lat: tehranLat, Long: tehranLong, Order: search.OrderReviews}); !slices.Equal(h.IDs, ids(b, a)) {
		t.Fatalf("most reviewed after more reviews: got %v", h.IDs)
	}
	if got := search.IndexedProfiles(f.ix) - before; got != 0 {
		t.Errorf("reviews indexed %d documents, want none", got)
	}

	// The text changes: the document is indexed again and its new word found.
	db := f.raw()
	if _, err := db.Exec(`UPDATE profiles SET descriotion = 'شیرآلات ساختمانی' WHERE id = ?`, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO index_outbox (entity, entity_id, create_at) VALUES ('profile', ?, 0)`, a.ID); err != nil {
		t.Fatal(err)
	}
	f.sync()
	if got := search.IndexedProfiles(f.ix) - before; got != 1 {
		t.Errorf("an edit indexed %d documents, want 1", got)
	}
	if h := f.search(search.ProfileQuery{Text: "شیرآلات"}); !slices.Equal(h.IDs, ids(a)) {
		t.Fatalf("the edited text: got %v", h.IDs)
	}
	// Hidden, then shown as it was: the document left the index, so it is indexed again.
	admin := &store.User{NumberPhone: "09350000001", Name: "admin", PasswordHash: "x", Role: store.RoleAdmin}
	if err := f.st.CreateUser(ctx, admin); err != nil {
		t.Fatal(err)
	}
	no, yes := false, true
	if _, err := f.st.SetProfileFlags(ctx, admin, b.ID, nil, &no); err != nil {
		t.Fatal(err)
	}
	f.sync()
	if h := f.search(search.ProfileQuery{Text: "بهار"}); h.Total != 0 {
		t.Fatalf("hidden: got %v", h.IDs)
	}
	if _, err := f.st.SetProfileFlags(ctx, admin, b.ID, nil, &yes); err != nil {
		t.Fatal(err)
	}
	f.sync()
	if h := f.search(search.ProfileQuery{Text: "بهار"}); !slices.Equal(h.IDs, ids(b)) {
		t.Fatalf("shown again: got %v", h.IDs)
	}
	if got := search.IndexedProfiles(f.ix) - before; got != 2 {
		t.Errorf("an edit and a profile shown again indexed %d documents, want 2", got)
	}
}

func TestOutboxRecoveryAndReindex(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.add("قنادی اول", "", 1, 1, 1, 101, tehranLat, tehranLong)
	f.sync()
	// The index stops (a crash) while writes go on.
	if err := f.ix.Close(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		f.add(fmt.Sprintf("قنادی %d", i+2), "", 1, 1, 1, 101, tehranLat, tehranLong)
	}
	f.open()
	live := f.search(search.ProfileQuery{Text: "قنادی", Order: search.OrderNewest})
	if live.Total != 6 {
		t.Fatalf("after recovery: got %d, want 6", live.Total)
	}
	head, _ := f.st.OutboxHead(ctx)
	if applied, _ := f.ix.Applied(); applied != head {
		t.Fatalf("applied %d, outbox head %d", applied, head)
	}

	// A rebuild from scratch answers the same.
	f.ix.Close()
	if err := search.Rebuild(ctx, filepath.Join(f.dir, "index"), f.st); err != nil {
		t.Fatal(err)
	}
	f.open()
	for _, q := range []search.ProfileQuery{
		{Text: "قنادی", Order: search.OrderNewest}, {City: "tehran"}, {HasPoint: true, Lat: tehranLat, Long: tehranLong, Radius: 1000},
	} {
		a, b := live, f.search(q)
		if q.Text == "" {
			a = b
		}
		if !slices.Equal(sorted(a.IDs), sorted(b.IDs)) || a.Total != b.Total {
			t.Errorf("%+v: live %v, rebuilt %v", q, a.IDs, b.IDs)
		}
	}
}

func TestCorruptIndexIsRebuilt(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.add("صافکاری", "", 1, 1, 4, 403, tehranLat, tehranLong)
	f.sync()
	f.ix.Close()
	// Scribble over the index's metadata.
	if err := writeFile(filepath.Join(f.dir, "index", "index_meta.json"), "{not json"); err != nil {
		t.Fatal(err)
	}
	ix, err := search.Open(ctx, filepath.Join(f.dir, "index"), f.st)
	if err != nil {
		t.Fatalf("a corrupt index must be rebuilt, got %v", err)
	}
	f.ix = ix
	t.Cleanup(func() { ix.Close() })
	if h := f.search(search.ProfileQuery{Text: "صافکاری"}); h.Total != 1 {
		t.Fatalf("got %d", h.Total)
	}
}

// TestOrdersAcrossPages pages through more hits than one page holds, in every order the index
// answers: each page follows the last, nothing repeats, and the total counts every hit.
func TestOrdersAcrossPages(t *testing.T) {
	f := newFixture(t)
	centreLat, centreLong := 35.7000, 51.4000
	var all []*store.Profile
	for i := 0; i < 9; i++ {
		// Same words, same city: the text scores tie and level_score decides.
		lat, long := offset(centreLat, centreLong, float64(200+i*300), 0)
		all = append(all, f.add("نقاشی ساختمان", "", 1, 1, 1, 101, lat, long))
	}
	levels := []float64{3.1, 4.7, 2.2, 4.9, 3.8, 1.5, 4.1, 2.9, 3.3}
	for i, p := range all {
		f.setScores(p.ID, levels[i], i+1, levels[i])
	}
	f.sync()
	byLevel := slices.Clone(all)
	slices.SortFunc(byLevel, func(a, b *store.Profile) int {
		return int(math.Round(10 * (levels[slices.Index(all, b)] - levels[slices.Index(all, a)])))
	})
	reversed := slices.Clone(all)
	slices.Reverse(reversed)
	for _, tc := range []struct {
		name string
		q    search.ProfileQuery
		want []int64
	}{
		{"Relevance", search.ProfileQuery{Text: "نقاشی"}, ids(byLevel...)},
		{"Best", search.ProfileQuery{Text: "نقاشی", Order: search.OrderBest}, ids(byLevel...)},
		{"Reviews", search.ProfileQuery{Text: "ساختمان", Order: search.OrderReviews}, ids(reversed...)},
		{"Nearest", search.ProfileQuery{HasPoint: true, Lat: centreLat, Long: centreLong, Radius: 10000, Order: search.OrderNearest}, ids(all...)},
		{"NearestText", search.ProfileQuery{Text: "نقاشی", HasPoint: true, Lat: centreLat, Long: centreLong, Radius: 10000, Order: search.OrderNearest}, ids(all...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []int64
			for skip := 0; skip < len(all); skip += 2 {
				q := tc.q
				q.Skip, q.Take = skip, 2
				h := f.search(q)
				if h.Total != len(all) {
					t.Fatalf("skip %d: total %d, want %d", skip, h.Total, len(all))
				}
				got = append(got, h.IDs...)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
	// Newest first: every profile once, whatever the creation times.
	h := f.search(search.ProfileQuery{Text: "نقاشی", Order: search.OrderNewest, Take: 3})
	if h.Total != len(all) || len(h.IDs) != 3 {
		t.Fatalf("newest: got %v of %d", h.IDs, h.Total)
	}
}

// TestRebuildIsDeterministic builds the index of the same data three times: every build must
// answer the same pages in the same order, or a restore or reindex would reshuffle results.
func TestRebuildIsDeterministic(t *testing.T) {
	ctx := context.Background()
	st := storetest.Seeded(t)
	dir := storetest.Dir(st)
	storetest.Demo(t, st, 300, 1)
	queries := []search.ProfileQuery{
		{Text: "تعمیر", City: "tehran", CityID: 1},
		{Text: "لوله کش"},
		{Text: "آرایشگاه زنانه"},
		{HasPoint: true, Lat: tehranLat, Long: tehranLong, Radius: 20000, Order: search.OrderNearest},
		{Text: "دندانپزشک", Order: search.OrderBest},
	}
	var first [][]int64
	for build := 0; build < 3; build++ {
		d := filepath.Join(dir, fmt.Sprintf("index-%d", build))
		if err := search.Rebuild(ctx, d, st); err != nil {
			t.Fatal(err)
		}
		ix, err := search.Open(ctx, d, st)
		if err != nil {
			t.Fatal(err)
		}
		for i, q := range queries {
			q.Take = 20
			h, err := ix.SearchProfiles(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if build == 0 {
				first = append(first, h.IDs)
			} else if !slices.Equal(first[i], h.IDs) {
				t.Errorf("build %d, %+v: got %v, first build %v", build, q, h.IDs, first[i])
			}
		}
		ix.Close()
	}
}

// TestRebuildIsOneSegment: a rebuild ends in one segment (compact.go), and answers every page,
// count and order as the same rebuild left in the many segments its batches made.
func TestRebuildIsOneSegment(t *testing.T) {
	ctx := context.Background()
	st := storetest.Seeded(t)
	dir := storetest.Dir(st)
	storetest.Demo(t, st, 300, 2)
	queries := []search.ProfileQuery{
		{Text: "تعمیر"},
		{Text: "تعمیر", City: "tehran", CityID: 1},
		{Text: "لوله کش", Order: search.OrderBest},
		{Text: "آرایشگاه زنانه", Skip: 5},
		{Text: "سرویس", Order: search.OrderReviews},
		{Text: "tamir"},
		{HasPoint: true, Lat: tehranLat, Long: tehranLong, Radius: 20000, Order: search.OrderNearest},
		{Text: "ضمانت", HasPoint: true, Lat: tehranLat, Long: tehranLong, Radius: 50000},
	}
	answers := func(compacted bool) ([]*search.ProfileHits, int) {
		d := filepath.Join(dir, fmt.Sprintf("index-%v", compacted))
		if err := search.RebuildInSegments(20, compacted, func() error { return search.Rebuild(ctx, d, st) }); err != nil {
			t.Fatal(err)
		}
		ix, err := search.Open(ctx, d, st)
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		segments := search.Segments(ix)
		if _, _, err := search.CheckDocIDs(ctx, ix); err != nil {
			t.Fatal(err)
		}
		var out []*search.ProfileHits
		for _, q := range queries {
			q.Take = 20
			h, err := ix.SearchProfiles(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, h)
		}
		return out, segments
	}
	plain, many := answers(false)
	compact, one := answers(true)
	if many < 2 || one != 1 {
		t.Fatalf("segments: %d left, %d compacted; want several and one", many, one)
	}
	for i, q := range queries {
		if plain[i].Total == 0 && q.Skip == 0 {
			t.Errorf("%+v: no hits, so nothing is compared", q)
		}
		if plain[i].Total != compact[i].Total || !slices.Equal(plain[i].IDs, compact[i].IDs) {
			t.Errorf("%+v: in %d segments %d %v, in one %d %v", q, many, plain[i].Total, plain[i].IDs, compact[i].Total, compact[i].IDs)
		}
	}
}

// A search keeps one page, whatever the number of hits: it must not allocate for a thousand
// matches up front, as Bleve does unless told otherwise (a quarter of a megabyte a search, half
// of what a radius answer allocated). A memory bound, not a timing.
func TestSearchAllocatesForItsPage(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 30; i++ {
		lat, long := offset(tehranLat, tehranLong, float64(100*i), float64(-50*i))
		f.add(fmt.Sprintf("نقاشی ساختمان %d", i), "نقاشی و کاغذ دیواری", 1, 1, 1, 101, lat, long)
	}
	f.sync()
	qs := []search.ProfileQuery{{Text: "نقاشی"}, {HasPoint: true, Lat: tehranLat, Long: tehranLong, Radius: 5000, Order: search.OrderNearest},
		{Text: "نقاشی", HasPoint: true, Lat: tehranLat, Long: tehranLong, Radius: 5000}}
	for _, q := range qs {
		f.search(q) // warm: the first search of a kind builds what later ones reuse
	}
	const runs = 30
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < runs; i++ {
		if h := f.search(qs[i%len(qs)]); h.Total == 0 {
			t.Fatalf("%+v found nothing", qs[i%len(qs)])
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > 96<<10 {
		t.Fatalf("a search of a 30-profile index allocated %d KiB", per>>10)
	}
}

// TestWordsCutAsQueriesAre checks that the index cuts a profile's text into words where a query
// is cut: a number or a model written with a point, a comma or an underscore inside is found by
// the same writing (Bleve's Unicode tokenizer kept «10.25» whole in the index while the query
// looked for «10» and «25»).
func TestWordsCutAsQueriesAre(t *testing.T) {
	f := newFixture(t)
	gpu := f.add("فروشگاه سخت‌افزار", "کارت گرافیک rtx_4090 و پاور 1,250 وات", 1, 1, 1, 101, tehranLat, tehranLong)
	shop := f.add("قطعات دقیق", "پیچ 10.25 میلیمتری", 1, 1, 1, 101, tehranLat, tehranLong)
	f.sync()
	for _, tc := range []struct {
		query string
		want  *store.Profile
	}{
		{"rtx_4090", gpu},
		{"rtx 4090", gpu},
		{"1,250", gpu},
		{"10.25", shop},
		{"پیچ 10.25", shop},
	} {
		hits := f.search(search.ProfileQuery{Text: tc.query})
		if !slices.Contains(hits.IDs, tc.want.ID) {
			t.Errorf("%q: got %v, want %d (%s)", tc.query, hits.IDs, tc.want.ID, tc.want.ProfileName)
		}
	}
}

// A change made while a rebuild reads the documents (serve builds a large index while it answers
// writes) is in the index once it opens: the rebuild records the outbox head it read before the
// documents, and opening applies the outbox from there.
func TestChangesDuringARebuildAreApplied(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	gone := f.add("قنادی اول", "", 1, 1, 1, 101, tehranLat, tehranLong)
	f.add("قنادی دوم", "", 1, 1, 1, 101, tehranLat, tehranLong)
	f.sync()
	if err := f.ix.Close(); err != nil {
		t.Fatal(err)
	}
	var added *store.Profile
	defer search.SetRebuildRead(func() {
		added = f.add("قنادی سوم", "", 1, 1, 1, 101, tehranLat, tehranLong)
		if err := f.st.DeleteProfile(ctx, &store.User{ID: gone.UserID}, gone.ID); err != nil {
			t.Error(err)
		}
	})()
	if err := search.Rebuild(ctx, filepath.Join(f.dir, "index"), f.st); err != nil {
		t.Fatal(err)
	}
	f.open()
	got := f.search(search.ProfileQuery{Text: "قنادی", Order: search.OrderNewest})
	if added == nil || got.Total != 2 || !slices.Contains(got.IDs, added.ID) || slices.Contains(got.IDs, gone.ID) {
		t.Fatalf("after a rebuild with changes midway: %+v (added %v, deleted %d)", got, added, gone.ID)
	}
}

// Two rebuilds of one index at once (a serve building it while it answers, and a kardan reindex)
// would write one new directory: the second is refused, and the first ends well.
func TestRebuildsDoNotOverlap(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.add("قنادی اول", "", 1, 1, 1, 101, tehranLat, tehranLong)
	f.sync()
	if err := f.ix.Close(); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(f.dir, "index")
	var second error
	asked := false
	defer search.SetRebuildRead(func() {
		if !asked {
			asked = true
			second = search.Rebuild(ctx, dir, f.st)
		}
	})()
	if err := search.Rebuild(ctx, dir, f.st); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(second, search.ErrRebuilding) {
		t.Fatalf("a rebuild during another: %v, want ErrRebuilding", second)
	}
	f.open()
	if got := f.search(search.ProfileQuery{Text: "قنادی"}); got.Total != 1 {
		t.Fatalf("after the refused rebuild: %+v", got)
	}
}
