package admin

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// province polygons (OSM, simplified by refdata/gen to about 200 m) for the point-in-province test.
type testArea struct {
	Properties map[string]string `json:"properties"`
	Geometry   struct {
		Coordinates [][][][2]float64 `json:"coordinates"`
	} `json:"geometry"`
}

func loadAreas(t *testing.T) map[string]*testArea {
	t.Helper()
	b, err := os.ReadFile("testdata/provinces.geojson")
	if err != nil {
		t.Fatal(err)
	}
	var fc struct{ Features []*testArea }
	if err := json.Unmarshal(b, &fc); err != nil {
		t.Fatal(err)
	}
	out := map[string]*testArea{}
	for _, f := range fc.Features {
		out[f.Properties["name:fa"]] = f
	}
	return out
}

// contains applies the even-odd rule over every ring of each polygon.
func (a *testArea) contains(lat, long float64) bool {
	for _, poly := range a.Geometry.Coordinates {
		in := false
		for _, r := range poly {
			for i, j := 0, len(r)-1; i < len(r); j, i = i, i+1 {
				xi, yi, xj, yj := r[i][0], r[i][1], r[j][0], r[j][1]
				if (yi > lat) != (yj > lat) && long < (xj-xi)*(lat-yi)/(yj-yi)+xi {
					in = !in
				}
			}
		}
		if in {
			return true
		}
	}
	return false
}

// distanceToEdgeKm is how far a point lies from the area's border (a flat approximation, good
// to a few per cent at these distances).
func (a *testArea) distanceToEdgeKm(lat, long float64) float64 {
	best := math.Inf(1)
	kx := 111.32 * math.Cos(lat*math.Pi/180)
	for _, poly := range a.Geometry.Coordinates {
		for _, r := range poly {
			for i := 1; i < len(r); i++ {
				ax, ay := (r[i-1][0]-long)*kx, (r[i-1][1]-lat)*110.57
				bx, by := (r[i][0]-long)*kx, (r[i][1]-lat)*110.57
				dx, dy := bx-ax, by-ay
				tt := 0.0
				if dx != 0 || dy != 0 {
					tt = math.Max(0, math.Min(1, -(ax*dx+ay*dy)/(dx*dx+dy*dy)))
				}
				best = math.Min(best, math.Hypot(ax+tt*dx, ay+tt*dy))
			}
		}
	}
	return best
}

// TestCityPointsInProvince checks every city's point against its province's OSM polygon. The
// generator checks the full polygons; these are simplified to about 200 m, so a point within
// 1 km of the border counts as inside.
func TestCityPointsInProvince(t *testing.T) {
	d := loadRef(t)
	areas := loadAreas(t)
	prov := map[int64]RefProvince{}
	for _, p := range d.Provinces {
		prov[p.ID] = p
		if areas[p.FarsiName] == nil {
			t.Fatalf("no polygon for province %s", p.FarsiName)
		}
	}
	outside := 0
	for _, c := range d.Cities {
		a := areas[prov[c.ProvinceID].FarsiName]
		if a.contains(c.Lat, c.Long) {
			continue
		}
		if km := a.distanceToEdgeKm(c.Lat, c.Long); km > 1 {
			outside++
			t.Errorf("city %d %s (%s) at %.4f,%.4f lies %.1f km outside %s", c.ID, c.EnglishName, c.FarsiName, c.Lat, c.Long,
				km, prov[c.ProvinceID].EnglishName)
		}
	}
	for _, p := range d.Provinces {
		if !areas[p.FarsiName].contains(p.Lat, p.Long) && areas[p.FarsiName].distanceToEdgeKm(p.Lat, p.Long) > 1 {
			t.Errorf("province %s: its point lies outside it", p.EnglishName)
		}
	}
	// The polygons must be able to fail: Tabas's point is not in Yazd, where the data had it.
	for _, c := range d.Cities {
		if c.Slug == "tabas" && areas["یزد"].contains(c.Lat, c.Long) {
			t.Errorf("Tabas's point lies in Yazd")
		}
	}
}

// readSlugList reads "id slug" lines, skipping comments.
func readSlugList(t *testing.T, path string) map[int64]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[int64]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var id int64
		var slug string
		if _, err := fmt.Sscan(line, &id, &slug); err != nil {
			t.Fatalf("%s: %q: %v", path, line, err)
		}
		out[id] = slug
	}
	return out
}

// TestSlugsStable: every city and category slug ever shipped keeps its id and spelling (shared
// links and profiles use them), and all slugs are unique.
func TestSlugsStable(t *testing.T) {
	d := loadRef(t)
	cities := map[int64]string{}
	seen := map[string]int64{}
	for _, c := range d.Cities {
		cities[c.ID] = c.Slug
		if other, dup := seen[c.Slug]; dup {
			t.Errorf("city slug %q used by %d and %d", c.Slug, other, c.ID)
		}
		seen[c.Slug] = c.ID
	}
	for id, slug := range readSlugList(t, "testdata/city_slugs.txt") {
		if cities[id] != slug {
			t.Errorf("city %d: slug %q, shipped as %q", id, cities[id], slug)
		}
	}
	cats := map[int64]string{}
	for _, f := range d.Fields {
		cats[f.ID] = f.Slug
		for _, c := range f.Children {
			cats[c.ID] = c.Slug
		}
	}
	for id, slug := range readSlugList(t, "testdata/category_slugs.txt") {
		if cats[id] != slug {
			t.Errorf("category %d: slug %q, shipped as %q", id, cats[id], slug)
		}
	}
}

// TestCounties: every county has cities and exactly one seat among them, its seat_city_id names
// it, and every city names a county of its own province.
func TestCounties(t *testing.T) {
	d := loadRef(t)
	counties := map[int64]RefCounty{}
	slugs := map[string]bool{}
	for _, k := range d.Counties {
		counties[k.ID] = k
		if !slugRE.MatchString(k.Slug) || slugs[k.Slug] {
			t.Errorf("county %d: bad or duplicate slug %q", k.ID, k.Slug)
		}
		slugs[k.Slug] = true
		if why := checkPersian(k.FarsiName); why != "" {
			t.Errorf("county %d: farsi_name %q: %s", k.ID, k.FarsiName, why)
		}
		if why := checkEnglish(k.EnglishName); why != "" {
			t.Errorf("county %d: english_name %q: %s", k.ID, k.EnglishName, why)
		}
	}
	members := map[int64]int{}
	seats := map[int64][]RefCity{}
	for _, c := range d.Cities {
		k, ok := counties[c.CountyID]
		if !ok {
			t.Errorf("city %d %s: unknown county %d", c.ID, c.EnglishName, c.CountyID)
			continue
		}
		if k.ProvinceID != c.ProvinceID {
			t.Errorf("city %d %s: in province %d, its county %s in %d", c.ID, c.EnglishName, c.ProvinceID, k.FarsiName, k.ProvinceID)
		}
		members[k.ID]++
		if c.Seat {
			seats[k.ID] = append(seats[k.ID], c)
		}
		if c.Capital && !c.Seat {
			t.Errorf("capital %s is not its county's seat", c.EnglishName)
		}
		for _, a := range c.Aliases {
			if why := checkPersian(a); why != "" {
				t.Errorf("city %d alias %q: %s", c.ID, a, why)
			}
		}
	}
	for _, k := range d.Counties {
		if members[k.ID] == 0 {
			t.Errorf("county %s has no city", k.FarsiName)
		}
		if len(seats[k.ID]) != 1 {
			t.Errorf("county %s has %d seats", k.FarsiName, len(seats[k.ID]))
		} else if seats[k.ID][0].ID != k.SeatCityID {
			t.Errorf("county %s: seat_city_id %d, seat %d", k.FarsiName, k.SeatCityID, seats[k.ID][0].ID)
		}
	}
}

// TestAuditFixes checks what AUDIT.md found wrong (shared/research/iran-places).
func TestAuditFixes(t *testing.T) {
	d := loadRef(t)
	bySlug := map[string]RefCity{}
	for _, c := range d.Cities {
		bySlug[c.Slug] = c
	}
	prov := map[int64]string{}
	for _, p := range d.Provinces {
		prov[p.ID] = p.Slug
	}
	countyName := map[int64]string{}
	for _, k := range d.Counties {
		countyName[k.ID] = k.FarsiName
	}
	if c := bySlug["tabas"]; prov[c.ProvinceID] != "south-khorasan" || countyName[c.CountyID] != "طبس" || !c.Seat {
		t.Errorf("Tabas: province %s, county %s, seat %v; want the seat of طبس in South Khorasan", prov[c.ProvinceID],
			countyName[c.CountyID], c.Seat)
	}
	// The misplaced cities, against the references the audit found agreeing (km allowed).
	for _, tc := range []struct {
		slug      string
		lat, long float64
	}{
		{"rudbar-kerman", 28.0323, 57.9934},     // Rudbar-e Jonubi: A+G+O
		{"qaleh-khvajeh", 32.2059, 49.4494},     // A+G
		{"qorveh-e-darjazin", 35.3131, 49.1019}, // A, inside Dargazin
		{"joghatai", 36.6379, 57.0737},          // A+G+O
		{"chaqabol", 33.2818, 47.5098},          // G, inside Rumeshkan
		{"gowharan", 26.5969, 57.8951},          // A
		{"meymeh", 33.4403, 51.1694},            // by Vazvan (see refdata/gen/overrides.go)
	} {
		c, ok := bySlug[tc.slug]
		if !ok {
			t.Errorf("no city %s", tc.slug)
			continue
		}
		if km := distanceKm(c.Lat, c.Long, tc.lat, tc.long); km > 2 {
			t.Errorf("%s at %.4f,%.4f is %.1f km from %.4f,%.4f", tc.slug, c.Lat, c.Long, km, tc.lat, tc.long)
		}
	}
	// Counties the old data left without a city, the five of the 2020s among them.
	hasCity := map[string]bool{}
	for _, c := range d.Cities {
		hasCity[countyName[c.CountyID]] = true
	}
	for _, k := range []string{"زیرکوه", "ریگان", "تفتان", "هامون", "سرچهان", "بام و صفی آباد", "لیلان", "چهاربرج", "باروق",
		"میرآباد", "کرخه", "دزپارت", "صیدون", "کوه چنار", "خفر", "گنبکی", "جازموریان", "زبرخان", "میان جلگه", "جرقویه",
		"سرباز", "گلشن", "لاشار", "زرآباد", "خانمیرزا", "فلارد", "معمولان", "هلیلان", "چوار", "انگوت", "مانه", "طبس"} {
		if !hasCity[k] {
			t.Errorf("county %s has no city", k)
		}
	}
	// Renamed: the current name shows, the old one is an alias (Zaboli is Mehrestan since 2012);
	// where the official list keeps a former name, the current one shows and the list's is an alias.
	for slug, want := range map[string][2]string{"zaboli": {"مهرستان", "زابلی"}, "gomishan": {"گمیشان", "گمیش تپه"},
		"suryan": {"سوریان", "بوانات"}} {
		c := bySlug[slug]
		if c.FarsiName != want[0] || len(c.Aliases) == 0 || c.Aliases[0] != want[1] {
			t.Errorf("%s: %s with aliases %v, want %s with alias %s", slug, c.FarsiName, c.Aliases, want[0], want[1])
		}
	}
}

// TestReferenceCounts prints the reference data's size (go test -v -run TestReferenceCounts ./admin).
func TestReferenceCounts(t *testing.T) {
	d := loadRef(t)
	seats, cats := 0, 0
	for _, c := range d.Cities {
		if c.Seat {
			seats++
		}
	}
	for _, f := range d.Fields {
		cats += len(f.Children)
	}
	t.Logf("provinces %d, counties %d, cities %d, county seats %d, fields %d, categories %d",
		len(d.Provinces), len(d.Counties), len(d.Cities), seats, len(d.Fields), cats)
	if len(d.Provinces) != 31 || len(d.Counties) < 480 || len(d.Cities) < 1400 || seats != len(d.Counties) {
		t.Errorf("want 31 provinces, 480+ counties, 1,400+ cities and a seat per county")
	}
}

// TestTradesCoverage: the kinds people commonly look for (the audit's gap checklist, issue 17)
// each have a category, in the field where people look for them; the odd names are fixed and the
// near-duplicate pairs read as different trades.
func TestTradesCoverage(t *testing.T) {
	d := loadRef(t)
	type node struct {
		fa, en string
		field  string
	}
	bySlug := map[string]node{}
	for _, f := range d.Fields {
		bySlug[f.Slug] = node{f.FarsiName, f.EnglishName, ""}
		for _, c := range f.Children {
			bySlug[c.Slug] = node{c.FarsiName, c.EnglishName, f.Slug}
		}
	}
	for _, want := range [][2]string{
		{"hospital", "hospitals-clinics"}, {"clinic", "hospitals-clinics"}, {"cardiologist", "health-medical"},
		{"paediatrician", "health-medical"}, {"gynaecologist", "health-medical"}, {"ent-specialist", "health-medical"},
		{"dermatologist", "health-medical"}, {"orthopaedist", "health-medical"}, {"ophthalmologist", "health-medical"},
		{"internist", "health-medical"}, {"occupational-therapy", "health-medical"}, {"traditional-medicine", "health-medical"},
		{"midwife", "health-medical"}, {"pharmacy", "health-medical"}, {"medical-laboratory", "health-medical"},
		{"radiology", "health-medical"}, {"spa", "beauty"}, {"tattoo", "beauty"},
		{"satellite-antenna", "building-services"}, {"gas-piping", "building-services"}, {"floor-polishing", "building-services"},
		{"handyman", "building-services"}, {"well-digging", "construction"}, {"demolition", "construction"},
		{"solar-panels", "construction"}, {"pool-construction", "construction"}, {"excavator-hire", "machinery-hire"},
		{"crane-hire", "machinery-hire"}, {"car-upholstery", "vehicles"}, {"car-glass", "vehicles"}, {"car-batteries", "vehicles"},
		{"police-plus-10", "government-offices"}, {"post-office", "government-offices"}, {"petrol-station", "fuel-parking"},
		{"cng-station", "fuel-parking"}, {"car-park", "fuel-parking"}, {"bicycle", "sports"}, {"watch-repair", "jewellery-watches"},
		{"gold-shop", "jewellery-watches"}, {"bank-branch", "banks"}, {"atm", "banks"}, {"qard-al-hasan", "banks"},
		{"insurance-branch", "banks"}, {"supermarket", "grocery-food-shops"}, {"butcher", "grocery-food-shops"},
		{"greengrocer", "grocery-food-shops"}, {"mens-clothing", "clothing-shops"}, {"bookshop", "other-shops"},
		{"hardware-store", "hardware-shops"}, {"mobile-shop", "electronics-shops"}, {"computer-shop", "electronics-shops"},
		{"appliance-store", "electronics-shops"}, {"hotel", "hotels-accommodation"}, {"guest-house", "hotels-accommodation"},
		{"eco-lodge", "hotels-accommodation"}, {"cinema", "entertainment"}, {"escape-room", "entertainment"},
		{"gamenet", "entertainment"}, {"amusement-park", "entertainment"}, {"tea-house", "food"}, {"pizzeria", "food"},
		{"seafood-restaurant", "food"}, {"party-equipment-hire", "events"}, {"wedding-spread", "events"},
		{"university", "schools"}, {"cooking-classes", "education"}, {"hairdressing-courses", "education"},
		{"warehouse", "transport"}, {"mosque", "religious-cultural"},
	} {
		n, ok := bySlug[want[0]]
		if !ok {
			t.Errorf("no category %s", want[0])
		} else if n.field != want[1] {
			t.Errorf("%s is in %s, want %s", want[0], n.field, want[1])
		}
	}
	for slug, bad := range map[string]string{"kebab-house": "Kebab and traditional cookery", "security-guards": "نگهبانی و حراست",
		"cooler-boiler-repair": "Cooler and boiler repair"} {
		if n := bySlug[slug]; n.fa == bad || n.en == bad {
			t.Errorf("%s still reads %q", slug, bad)
		}
	}
	if n := bySlug["kebab-house"]; !strings.Contains(n.en, "kalleh-pacheh") {
		t.Errorf("kebab-house: %q does not say what a طباخی sells", n.en)
	}
	for _, pair := range [][2]string{{"movers", "freight"}, {"home-nursing", "patient-care"}, {"official-translator", "translation"},
		{"dj", "music-teacher"}} {
		a, b := bySlug[pair[0]], bySlug[pair[1]]
		if a.fa == b.fa || a.en == b.en || strings.Contains(a.fa, b.fa) || strings.Contains(b.fa, a.fa) {
			t.Errorf("%s (%s) and %s (%s) read alike", pair[0], a.fa, pair[1], b.fa)
		}
	}
}
