package api_test

import (
	"strings"
	"sync"
	"testing"
)

// TestSearchPriceRange: searchUser's optional price_min and price_max keep the profiles with a
// service priced within them; the spec's bodies without them answer as before.
func TestSearchPriceRange(t *testing.T) {
	w := newProfileWorld(t)
	p := w.acceptedPlumber(t) // services at 350,000 and free
	for body, want := range map[string]int{
		`{"search_txt": "لوله کش"}`:                                          1,
		`{"search_txt": "لوله کش", "price_min": 300000}`:                     1,
		`{"search_txt": "لوله کش", "price_min": 400000}`:                     0,
		`{"price_min": 100000, "price_max": 300000}`:                         0,
		`{"price_min": 300000, "price_max": 400000, "city_slag": "tehran"}`:  1,
		`{"price_max": 1000}`:                                                1, // the free service
		`{"price_min": 0, "price_max": 0}`:                                   1, // no bound
		`{"price_min": null, "price_max": null, "category_slag": "plumber"}`: 1,
		`{"price_min": 300000, "lat": 35.70, "long": 51.40, "radius": 2000}`: 1,
		`{"price_min": 400000, "lat": 35.70, "long": 51.40, "radius": 2000}`: 0,
	} {
		got := w.search(t, body)
		if got.Count != want || len(got.Profiles) != want || want == 1 && got.Profiles[0].ID != p.ID {
			t.Errorf("%s: %+v, want %d", body, got, want)
		}
	}
}

// TestSearchFilterRefusals: a negative or absurd price, a lowest price above the highest, and a
// radius out of bounds are localized 400s naming the field, never a 500 or an empty answer; the
// same bad bodies sent at once all get their 400.
func TestSearchFilterRefusals(t *testing.T) {
	w := newProfileWorld(t)
	w.acceptedPlumber(t)
	cases := []struct{ body, field, fa, en string }{
		{`{"price_min": -1}`, "price_min", "کمترین قیمت باید بین", "Lowest price must be between 0 and"},
		{`{"price_max": -5000}`, "price_max", "بیشترین قیمت باید بین", "Highest price must be between 0 and"},
		{`{"price_max": 1000000000000000}`, "price_max", "بیشترین قیمت باید بین", "Highest price must be between 0 and"},
		{`{"price_min": 500000, "price_max": 100000}`, "price_min", "کمترین قیمت نمی‌تواند از بیشترین قیمت بیشتر باشد", "The lowest price cannot be above the highest price"},
		{`{"price_min": 1.5}`, "price_min", "", ""},
		{`{"price_min": "cheap"}`, "price_min", "", ""},
		{`{"lat": 35.7, "long": 51.4, "radius": -100}`, "radius", "شعاع باید بین", "Radius must be between 1 and"},
		{`{"lat": 35.7, "long": 51.4, "radius": 40000000}`, "radius", "شعاع باید بین", "Radius must be between 1 and"},
	}
	for _, c := range cases {
		for _, lang := range []string{"fa", "en"} {
			a := w.send(t, req{method: "POST", path: "/v1/user-technical/searchUser", body: c.body, lang: lang})
			want := c.fa
			if lang == "en" {
				want = c.en
			}
			if a.Status != 400 || !strings.Contains(a.Body, c.field) || !strings.Contains(a.Body, want) {
				t.Errorf("%s (%s): %d %s", c.body, lang, a.Status, a.Body)
			}
		}
	}
	var wg sync.WaitGroup
	statuses := make([]int, 40)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = w.send(t, req{method: "POST", path: "/v1/user-technical/searchUser", body: cases[i%len(cases)].body}).Status
		}()
	}
	wg.Wait()
	for i, s := range statuses {
		if s != 400 {
			t.Errorf("concurrent %s: %d", cases[i%len(cases)].body, s)
		}
	}
}
