package search_test

import (
	"slices"
	"testing"

	"kardan/search"
)

// TestPriceRange: a price range keeps the profiles with a service priced within it (not those
// whose cheapest and dearest services merely straddle it), in every kind of search, with the
// count following the filter; the facts follow an edit of the services and a reopened index.
func TestPriceRange(t *testing.T) {
	f := newFixture(t)
	free := f.add("مشاوره رایگان", "لوله کش", 1, 1, 1, 101, 35.70, 51.40)
	wide := f.add("لوله کشی ارزان و گران", "لوله کش", 1, 1, 1, 101, 35.70, 51.41)
	mid := f.add("لوله کشی میانه", "لوله کش", 1, 1, 1, 101, 35.71, 51.40)
	db := f.raw()
	setServices := func(id int64, services string) {
		t.Helper()
		if _, err := db.Exec(`UPDATE profiles SET services = ? WHERE id = ?`, services, id); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO index_outbox (entity, entity_id, create_at) VALUES ('profile', ?, 0)`, id); err != nil {
			t.Fatal(err)
		}
	}
	setServices(wide.ID, `[{"title":"بازدید","price":200000,"description":""},{"title":"لوله کشی کامل","price":900000,"description":""}]`)
	setServices(mid.ID, `[{"title":"باز کردن لوله","price":500000,"description":""}]`)
	f.sync()

	check := func(when string, cases []struct {
		lo, hi int64
		want   []int64
	}) {
		t.Helper()
		for _, c := range cases {
			for _, q := range []search.ProfileQuery{
				{PriceMin: c.lo, PriceMax: c.hi},
				{PriceMin: c.lo, PriceMax: c.hi, Text: "لوله کش"},
				{PriceMin: c.lo, PriceMax: c.hi, HasPoint: true, Lat: 35.70, Long: 51.40, Radius: 5000, Order: search.OrderNearest},
				{PriceMin: c.lo, PriceMax: c.hi, OpenNow: false, City: "tehran", CityID: 1, Order: search.OrderBest},
			} {
				h := f.search(q)
				got := slices.Clone(h.IDs)
				slices.Sort(got)
				if !slices.Equal(got, c.want) || h.Total != len(c.want) {
					t.Errorf("%s: %d..%d %+v: %v of %d, want %v", when, c.lo, c.hi, q, got, h.Total, c.want)
				}
			}
		}
	}
	type tc = struct {
		lo, hi int64
		want   []int64
	}
	check("indexed", []tc{
		{0, 0, ids(free, wide, mid)},
		{100_000, 0, ids(wide, mid)},
		{300_000, 400_000, nil}, // wide's 200,000 and 900,000 straddle it, but neither is in it
		{0, 250_000, ids(free, wide)},
		{600_000, 0, ids(wide)},
		{500_000, 500_000, ids(mid)},
	})
	setServices(mid.ID, `[{"title":"باز کردن لوله","price":100000,"description":""}]`)
	f.sync()
	check("after an edit", []tc{{300_000, 600_000, nil}, {50_000, 150_000, ids(mid)}})
	if err := f.ix.Close(); err != nil {
		t.Fatal(err)
	}
	f.open()
	check("reopened", []tc{{300_000, 600_000, nil}, {50_000, 150_000, ids(mid)}, {200_000, 200_000, ids(wide)}})
}
