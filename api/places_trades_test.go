package api_test

import (
	"encoding/json"
	"testing"

	"kardan/admin"
	"kardan/store"
)

// The reference answers carry what issue 17 added: a province's cities with their county, seat
// flag and former names (Mehrestan found as Zaboli, Tabas in South Khorasan), the capital first,
// and the category tree's search synonyms; the nearest city of a point at a county seat is the
// seat, not a city placed there for want of its own point.
func TestPlacesAndTradesAnswers(t *testing.T) {
	ts := newTestServer(t)
	cities := func(province int64) []store.City {
		a := ts.do(t, "GET", "/v1/locations/cities/list/"+jsonNumber(province), "", "", "")
		var cs []store.City
		if err := json.Unmarshal(a.Payload, &cs); err != nil || a.Status != 200 {
			t.Fatalf("cities of %d: %d %v", province, a.Status, err)
		}
		return cs
	}
	var provinces []store.Province
	json.Unmarshal(ts.do(t, "GET", "/v1/locations/province/list", "", "", "").Payload, &provinces)
	bySlug := map[string]int64{}
	for _, p := range provinces {
		bySlug[p.Slug] = p.ID
	}
	sk := cities(bySlug["south-khorasan"])
	if !sk[0].Capital || sk[0].Slag != "birjand" {
		t.Errorf("South Khorasan's first city: %+v, want its capital Birjand", sk[0])
	}
	found := false
	for _, c := range sk {
		if c.Slag == "tabas" {
			found = c.Seat && c.CountyID != 0
		}
	}
	if !found {
		t.Errorf("Tabas is not a county seat of South Khorasan")
	}
	for _, c := range cities(bySlug["sistan-and-baluchestan"]) {
		if c.Slag == "zaboli" && (c.FarsiName != "مهرستان" || len(c.Aliases) == 0 || c.Aliases[0] != "زابلی") {
			t.Errorf("zaboli: %+v", c)
		}
	}

	// A city placed at its county seat for want of its own point: the seat is the nearest city.
	d, err := admin.LoadReferenceData()
	if err != nil {
		t.Fatal(err)
	}
	seatOf := map[int64]admin.RefCity{}
	for _, c := range d.Cities {
		if c.Seat {
			seatOf[c.CountyID] = c
		}
	}
	shared := 0
	for _, c := range d.Cities {
		if s := seatOf[c.CountyID]; !c.Seat && c.Lat == s.Lat && c.Long == s.Long {
			shared++
			a := ts.do(t, "GET", "/v1/locations/nearest?lat="+jsonFloat(c.Lat)+"&long="+jsonFloat(c.Long), "", "", "")
			var got store.City
			json.Unmarshal(a.Payload, &got)
			if got.Slag != s.Slug {
				t.Errorf("nearest to %s's point (shared with its seat %s): %s", c.Slug, s.Slug, got.Slag)
			}
		}
	}
	if shared == 0 {
		t.Errorf("no city shares its seat's point: the check checks nothing")
	}

	a := ts.do(t, "GET", "/v1/work_category/getTreeById?id=0", "", "", "")
	var tree []store.Category
	if err := json.Unmarshal(a.Payload, &tree); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range tree {
		for _, c := range f.Children {
			n++
			if len(c.Synonyms) == 0 {
				t.Errorf("category %s answers no synonyms", c.Slag)
			}
		}
	}
	if len(tree) < 40 || n < 450 {
		t.Errorf("tree: %d fields, %d categories", len(tree), n)
	}
}

func jsonFloat(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

func jsonNumber(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
