package admin

import (
	"math"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

var slugRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func loadRef(t *testing.T) *ReferenceData {
	t.Helper()
	d, err := LoadReferenceData()
	if err != nil {
		t.Fatalf("LoadReferenceData: %v", err)
	}
	return d
}

// distanceKm is the great-circle distance between two points.
func distanceKm(lat1, lon1, lat2, lon2 float64) float64 {
	const r = 6371.0
	rad := math.Pi / 180
	dLat := (lat2 - lat1) * rad
	dLon := (lon2 - lon1) * rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * r * math.Asin(math.Sqrt(h))
}

func insideIran(lat, long float64) bool {
	return lat >= 25 && lat <= 40 && long >= 44 && long <= 63.5
}

// checkPersian reports why s is not a well-formed Persian name, or "".
func checkPersian(s string) string {
	if s == "" {
		return "empty"
	}
	if strings.TrimSpace(s) != s || strings.Contains(s, "  ") {
		return "stray spaces"
	}
	if strings.HasPrefix(s, "\u200c") || strings.HasSuffix(s, "\u200c") ||
		strings.Contains(s, " \u200c") || strings.Contains(s, "\u200c ") || strings.Contains(s, "\u200c\u200c") {
		return "misplaced ZWNJ"
	}
	letters := 0
	for _, r := range s {
		switch {
		case r == 'ي' || r == 'ك':
			return "Arabic ye or kaf (use Persian ی U+06CC and ک U+06A9)"
		case r == ' ' || r == '\u200c' || r == '+' || r == '(' || r == ')':
		case r >= 0x0600 && r <= 0x06FF:
			if unicode.IsLetter(r) {
				letters++
			}
		default:
			return "character outside the Arabic block: " + string(r)
		}
	}
	if letters == 0 {
		return "no letters"
	}
	return ""
}

// checkEnglish reports why s is not a plain ASCII English name, or "".
func checkEnglish(s string) string {
	if s == "" || strings.TrimSpace(s) != s {
		return "empty or stray spaces"
	}
	for _, r := range s {
		if r > unicode.MaxASCII || !unicode.IsPrint(r) {
			return "non-ASCII character " + string(r)
		}
	}
	return ""
}

func TestProvinces(t *testing.T) {
	d := loadRef(t)
	if len(d.Provinces) != 31 {
		t.Fatalf("got %d provinces, want 31", len(d.Provinces))
	}
	slugs := map[string]bool{}
	for i, p := range d.Provinces {
		if p.ID != int64(i+1) {
			t.Errorf("province %q: id %d, want %d (ids are 1..31 in order)", p.EnglishName, p.ID, i+1)
		}
		if !slugRE.MatchString(p.Slug) {
			t.Errorf("province %d: bad slug %q", p.ID, p.Slug)
		}
		if slugs[p.Slug] {
			t.Errorf("province %d: duplicate slug %q", p.ID, p.Slug)
		}
		slugs[p.Slug] = true
		if why := checkPersian(p.FarsiName); why != "" {
			t.Errorf("province %d: farsi_name %q: %s", p.ID, p.FarsiName, why)
		}
		if why := checkEnglish(p.EnglishName); why != "" {
			t.Errorf("province %d: english_name %q: %s", p.ID, p.EnglishName, why)
		}
		if !insideIran(p.Lat, p.Long) {
			t.Errorf("province %d (%s): position %.4f,%.4f outside Iran", p.ID, p.EnglishName, p.Lat, p.Long)
		}
	}
}

func TestCities(t *testing.T) {
	d := loadRef(t)
	if len(d.Cities) < 1400 {
		t.Errorf("got %d cities, want every official city (1,400+)", len(d.Cities))
	}
	provinces := map[int64]RefProvince{}
	for _, p := range d.Provinces {
		provinces[p.ID] = p
	}
	capitals := map[int64][]RefCity{}
	count := map[int64]int{}
	ids := map[int64]bool{}
	slugs := map[string]int64{}
	for _, c := range d.Cities {
		if ids[c.ID] {
			t.Errorf("city %d: duplicate id", c.ID)
		}
		ids[c.ID] = true
		if _, ok := provinces[c.ProvinceID]; !ok {
			t.Errorf("city %d (%s): unknown province_id %d", c.ID, c.EnglishName, c.ProvinceID)
			continue
		}
		count[c.ProvinceID]++
		if c.Capital {
			capitals[c.ProvinceID] = append(capitals[c.ProvinceID], c)
		}
		if !slugRE.MatchString(c.Slug) {
			t.Errorf("city %d: bad slug %q", c.ID, c.Slug)
		}
		if other, dup := slugs[c.Slug]; dup {
			t.Errorf("city %d: slug %q already used by city %d", c.ID, c.Slug, other)
		}
		slugs[c.Slug] = c.ID
		if why := checkPersian(c.FarsiName); why != "" {
			t.Errorf("city %d: farsi_name %q: %s", c.ID, c.FarsiName, why)
		}
		if why := checkEnglish(c.EnglishName); why != "" {
			t.Errorf("city %d: english_name %q: %s", c.ID, c.EnglishName, why)
		}
		if !insideIran(c.Lat, c.Long) {
			t.Errorf("city %d (%s): position %.4f,%.4f outside Iran", c.ID, c.EnglishName, c.Lat, c.Long)
		}
	}
	for i, c := range d.Cities {
		if c.ID != int64(i+1) {
			t.Errorf("city %s: id %d, want %d (ids are sequential)", c.EnglishName, c.ID, i+1)
			break
		}
	}
	for _, p := range d.Provinces {
		if count[p.ID] == 0 {
			t.Errorf("province %d (%s) has no cities", p.ID, p.EnglishName)
		}
		caps := capitals[p.ID]
		if len(caps) != 1 {
			t.Errorf("province %d (%s) has %d capitals, want 1", p.ID, p.EnglishName, len(caps))
			continue
		}
		// The province's position is its capital's.
		if km := distanceKm(p.Lat, p.Long, caps[0].Lat, caps[0].Long); km > 5 {
			t.Errorf("province %d (%s): position is %.0f km from its capital %s", p.ID, p.EnglishName, km, caps[0].EnglishName)
		}
	}
	// Every city lies near its province's capital. This catches swapped lat/long and cities filed
	// under the wrong province. The limit is 500 km because Sistan and Baluchestan is long: Chabahar
	// lies about 470 km south of Zahedan.
	const maxKm = 500
	for _, c := range d.Cities {
		caps := capitals[c.ProvinceID]
		if len(caps) != 1 {
			continue
		}
		if km := distanceKm(c.Lat, c.Long, caps[0].Lat, caps[0].Long); km > maxKm {
			t.Errorf("city %d (%s) is %.0f km from its province capital %s (max %d)", c.ID, c.EnglishName, km, caps[0].EnglishName, maxKm)
		}
	}
}

func TestCategories(t *testing.T) {
	d := loadRef(t)
	if len(d.Fields) < 40 {
		t.Errorf("got %d fields, want at least 40", len(d.Fields))
	}
	ids := map[int64]string{}
	slugs := map[string]string{}
	categories, favFields, favCats := 0, 0, 0
	check := func(kind string, id int64, fa, en, slug string, synonyms []string) {
		if prev, dup := ids[id]; dup {
			t.Errorf("%s %q: id %d already used by %s", kind, en, id, prev)
		}
		ids[id] = en
		if !slugRE.MatchString(slug) {
			t.Errorf("%s %d: bad slug %q", kind, id, slug)
		}
		if prev, dup := slugs[slug]; dup {
			t.Errorf("%s %d: slug %q already used by %s", kind, id, slug, prev)
		}
		slugs[slug] = en
		if why := checkPersian(fa); why != "" {
			t.Errorf("%s %d: farsi_name %q: %s", kind, id, fa, why)
		}
		if why := checkEnglish(en); why != "" {
			t.Errorf("%s %d: english_name %q: %s", kind, id, en, why)
		}
		if len(synonyms) < 2 {
			t.Errorf("%s %d (%s): %d synonyms, want a few for search", kind, id, en, len(synonyms))
		}
		for _, w := range synonyms {
			if w == "" || strings.TrimSpace(w) != w || strings.Contains(w, "  ") {
				t.Errorf("%s %d: synonym %q has stray spaces", kind, id, w)
			}
		}
	}
	for i, f := range d.Fields {
		if f.ID != int64(i+1) {
			t.Errorf("field %q: id %d, want %d (field ids are 1..N)", f.EnglishName, f.ID, i+1)
		}
		check("field", f.ID, f.FarsiName, f.EnglishName, f.Slug, f.Synonyms)
		if f.Favourite {
			favFields++
		}
		if len(f.Children) < 4 {
			t.Errorf("field %d (%s) has %d categories, want at least 4", f.ID, f.EnglishName, len(f.Children))
		}
		for _, c := range f.Children {
			check("category", c.ID, c.FarsiName, c.EnglishName, c.Slug, c.Synonyms)
			categories++
			if c.Favourite {
				favCats++
			}
		}
	}
	if categories < 450 {
		t.Errorf("got %d categories, want at least 450", categories)
	}
	if favFields == 0 || favCats == 0 {
		t.Errorf("favourites: %d fields, %d categories; want some of each", favFields, favCats)
	}
	if favCats > 16 {
		t.Errorf("%d favourite categories; the home page quick access wants about a dozen", favCats)
	}
}

func TestKnownFacts(t *testing.T) {
	d := loadRef(t)
	provinceSlug := map[int64]string{}
	for _, p := range d.Provinces {
		provinceSlug[p.ID] = p.Slug
	}
	city := func(name string) RefCity {
		t.Helper()
		var found []RefCity
		for _, c := range d.Cities {
			if c.EnglishName == name {
				found = append(found, c)
			}
		}
		if len(found) != 1 {
			t.Fatalf("want exactly one city named %q, found %d", name, len(found))
		}
		return found[0]
	}
	for _, tc := range []struct {
		city, province string
		capital        bool
	}{
		{"Tehran", "tehran", true},
		{"Tabriz", "east-azerbaijan", true},
		{"Urmia", "west-azerbaijan", true},
		{"Mashhad", "razavi-khorasan", true},
		{"Shiraz", "fars", true},
		{"Karaj", "alborz", true},
		{"Isfahan", "isfahan", true},
		{"Ahvaz", "khuzestan", true},
		{"Sanandaj", "kurdistan", true},
		{"Rasht", "gilan", true},
		{"Sari", "mazandaran", true},
		{"Bandar Abbas", "hormozgan", true},
		{"Zahedan", "sistan-and-baluchestan", true},
		{"Birjand", "south-khorasan", true},
		{"Bojnurd", "north-khorasan", true},
		{"Yasuj", "kohgiluyeh-and-boyer-ahmad", true},
		{"Shahrekord", "chaharmahal-and-bakhtiari", true},
		{"Kashan", "isfahan", false},
		{"Eslamshahr", "tehran", false},
		{"Kish", "hormozgan", false},
		{"Chabahar", "sistan-and-baluchestan", false},
		{"Tabas", "south-khorasan", false},
		{"Maragheh", "east-azerbaijan", false},
		{"Khoy", "west-azerbaijan", false},
	} {
		c := city(tc.city)
		if got := provinceSlug[c.ProvinceID]; got != tc.province {
			t.Errorf("%s is in %s, want %s", tc.city, got, tc.province)
		}
		if c.Capital != tc.capital {
			t.Errorf("%s capital = %v, want %v", tc.city, c.Capital, tc.capital)
		}
	}
	for _, tc := range []struct {
		city      string
		lat, long float64
	}{
		{"Tabriz", 38.08, 46.29},
		{"Isfahan", 32.65, 51.67},
		{"Tehran", 35.69, 51.39},
		{"Mashhad", 36.30, 59.60},
		{"Shiraz", 29.61, 52.54},
		{"Bandar Abbas", 27.19, 56.27},
		{"Chabahar", 25.29, 60.64},
	} {
		c := city(tc.city)
		if km := distanceKm(c.Lat, c.Long, tc.lat, tc.long); km > 15 {
			t.Errorf("%s at %.4f,%.4f is %.0f km from %.2fN %.2fE", tc.city, c.Lat, c.Long, km, tc.lat, tc.long)
		}
	}
}
