// Command gen builds Kardan's embedded places (admin/refdata/cities.json and counties.json) from
// the research files in ../shared/research/iran-places: the official divisions (sajaddp_*.csv:
// provinces, counties and their cities), masterking's English names and coordinates, and OSM's
// province polygons, against which every point is checked before it is taken. It keeps the ids
// and slugs of every city already in cities.json (profiles and shared links use them), so running
// it again on its own output changes nothing. It also writes the simplified province polygons the
// tests check every point against (admin/testdata/provinces.geojson).
// One long file on purpose: a generator run by hand, read top to bottom, not part of the binary.
//
//	go run ./admin/refdata/gen -src ../shared/research/iran-places
package main

import (
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// province is a row of admin/refdata/provinces.json (hand-kept, not generated).
type province struct {
	ID          int64   `json:"id"`
	FarsiName   string  `json:"farsi_name"`
	EnglishName string  `json:"english_name"`
	Slug        string  `json:"slug"`
	Lat         float64 `json:"lat"`
	Long        float64 `json:"long"`
}

// county is a row of counties.json.
type county struct {
	ID          int64  `json:"id"`
	ProvinceID  int64  `json:"province_id"`
	FarsiName   string `json:"farsi_name"`
	EnglishName string `json:"english_name"`
	Slug        string `json:"slug"`
	SeatCityID  int64  `json:"seat_city_id"`
}

// city is a row of cities.json.
type city struct {
	ID          int64    `json:"id"`
	ProvinceID  int64    `json:"province_id"`
	CountyID    int64    `json:"county_id"`
	FarsiName   string   `json:"farsi_name"`
	EnglishName string   `json:"english_name"`
	Slug        string   `json:"slug"`
	Lat         float64  `json:"lat"`
	Long        float64  `json:"long"`
	Capital     bool     `json:"capital"`
	Seat        bool     `json:"seat"`
	Aliases     []string `json:"aliases"`
	OfficialID  int64    `json:"official_id"`
}

type mkCity struct {
	ProvinceID int64           `json:"province_id"`
	IsCounty   bool            `json:"is_county"`
	Name       string          `json:"name"`
	EnName     *string         `json:"en_name"`
	Lat        json.RawMessage `json:"lat"`
	Lon        json.RawMessage `json:"lon"`
}

func (m *mkCity) point() (float64, float64, bool) {
	parse := func(r json.RawMessage) (float64, bool) {
		s := strings.Trim(string(r), `"`)
		if s == "" || s == "null" {
			return 0, false
		}
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	}
	lat, ok1 := parse(m.Lat)
	lon, ok2 := parse(m.Lon)
	return lat, lon, ok1 && ok2
}

// stats counts what the build decided, for its report.
type stats struct {
	kept, fromSource, overridden, movedOut, fallbackSeat, fallbackCounty, fallbackCapital int
	enSource, enKept, enTranslit                                                          int
	farFromSeat                                                                           []string
	unmatchedLegacy                                                                       []string
}

func main() {
	src := flag.String("src", "../../shared/research/iran-places", "the research directory with the source files")
	out := flag.String("out", "refdata", "where cities.json and counties.json are written (provinces.json is read there)")
	testdata := flag.String("testdata", "testdata", "where the simplified province polygons are written")
	flag.Parse()
	if err := run(*src, *out, *testdata, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func readCSV(path string) ([]map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// handMadeUpTo is the last id of the 486 cities written by hand before this generator: their
// English names are kept; later ones are derived from the sources on every run.
const handMadeUpTo = 486

var numbered = regexp.MustCompile(`[0-9_]`)

func run(src, out, testdata string, report io.Writer) error {
	var provinces []province
	if err := readJSON(filepath.Join(out, "provinces.json"), &provinces); err != nil {
		return err
	}
	provByKey := map[string]*province{}
	provByID := map[int64]*province{}
	for i := range provinces {
		provByKey[key(provinces[i].FarsiName)] = &provinces[i]
		provByID[provinces[i].ID] = &provinces[i]
	}
	pid := func(name string) (int64, error) {
		p := provByKey[key(name)]
		if p == nil {
			return 0, fmt.Errorf("unknown province %q", name)
		}
		return p.ID, nil
	}

	// OSM polygons, by product province id.
	areas, err := readAreas(filepath.Join(src, "osm_provinces.min.geojson"))
	if err != nil {
		return err
	}
	areaOf := map[int64]*area{}
	for i := range areas {
		id, err := pid(areas[i].FarsiName)
		if err != nil {
			return fmt.Errorf("osm: %w", err)
		}
		areaOf[id] = &areas[i]
	}
	if len(areaOf) != len(provinces) {
		return fmt.Errorf("osm: %d province polygons for %d provinces", len(areaOf), len(provinces))
	}

	// The official divisions.
	sProv, err := readCSV(filepath.Join(src, "sajaddp_provinces.csv"))
	if err != nil {
		return err
	}
	sProvID := map[string]int64{}
	for _, r := range sProv {
		if sProvID[r["id"]], err = pid(r["name"]); err != nil {
			return fmt.Errorf("sajaddp: %w", err)
		}
	}
	sCounties, err := readCSV(filepath.Join(src, "sajaddp_counties.csv"))
	if err != nil {
		return err
	}
	counties := map[int64]*county{}
	var countyIDs []int64
	for _, r := range sCounties {
		id, _ := strconv.ParseInt(r["id"], 10, 64)
		counties[id] = &county{ID: id, ProvinceID: sProvID[r["province_id"]], FarsiName: tidyFarsi(r["name"])}
		countyIDs = append(countyIDs, id)
	}
	sort.Slice(countyIDs, func(i, j int) bool { return countyIDs[i] < countyIDs[j] })
	sCities, err := readCSV(filepath.Join(src, "sajaddp_cities.csv"))
	if err != nil {
		return err
	}
	type official struct {
		ID, ProvinceID, CountyID int64
		Name                     string
	}
	var officials []official
	for _, r := range sCities {
		if numbered.MatchString(r["name"]) {
			continue // a numbered zone of a big city (اراک 1) or a district of one, not a city
		}
		id, _ := strconv.ParseInt(r["id"], 10, 64)
		cid, _ := strconv.ParseInt(r["county_id"], 10, 64)
		if counties[cid] == nil {
			return fmt.Errorf("sajaddp: city %s in unknown county %d", r["name"], cid)
		}
		officials = append(officials, official{ID: id, ProvinceID: sProvID[r["province_id"]], CountyID: cid, Name: tidyFarsi(r["name"])})
	}
	sort.Slice(officials, func(i, j int) bool { return officials[i].ID < officials[j].ID })

	// masterking: English names and coordinates, by province and folded name.
	var mkProv map[string]struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}
	if err := readJSON(filepath.Join(src, "masterking_provinces.json"), &mkProv); err != nil {
		return err
	}
	mkPID := map[int64]int64{}
	for _, p := range mkProv {
		if mkPID[p.ID], err = pid(p.Name); err != nil {
			return fmt.Errorf("masterking: %w", err)
		}
	}
	var mkAll map[string]*mkCity
	if err := readJSON(filepath.Join(src, "masterking_cities_sorted.json"), &mkAll); err != nil {
		return err
	}
	mkKeys := make([]string, 0, len(mkAll))
	for k := range mkAll {
		mkKeys = append(mkKeys, k)
	}
	sort.Slice(mkKeys, func(i, j int) bool { a, _ := strconv.Atoi(mkKeys[i]); b, _ := strconv.Atoi(mkKeys[j]); return a < b })
	mk := map[string][]*mkCity{}
	for _, k := range mkKeys {
		m := mkAll[k]
		p := mkPID[m.ProvinceID]
		mk[fmt.Sprint(p, "/", key(m.Name))] = append(mk[fmt.Sprint(p, "/", key(m.Name))], m)
		if k2 := key2(m.Name); k2 != key(m.Name) {
			mk[fmt.Sprint(p, "/2/", k2)] = append(mk[fmt.Sprint(p, "/2/", k2)], m)
		}
	}
	mkFind := func(p int64, name string) []*mkCity {
		if r := mk[fmt.Sprint(p, "/", key(name))]; len(r) > 0 {
			return r
		}
		if r := mk[fmt.Sprint(p, "/2/", key2(name))]; len(r) > 0 {
			return r
		}
		return mk[fmt.Sprint(p, "/", key2(name))]
	}

	// The cities already shipped: their ids and slugs never change.
	var prev []city
	if err := readJSON(filepath.Join(out, "cities.json"), &prev); err != nil {
		return err
	}
	prevByOfficial := map[int64]*city{}
	var legacy []*city // cities not yet tied to an official row
	maxID := int64(0)
	slugs := map[string]bool{}
	for i := range prev {
		c := &prev[i]
		maxID = max(maxID, c.ID)
		slugs[c.Slug] = true
		if c.OfficialID != 0 {
			prevByOfficial[c.OfficialID] = c
		} else {
			legacy = append(legacy, c)
		}
	}
	// Tie each legacy city to an official row: by a rename, a known spelling, then by folded name
	// within its province.
	officialByName := map[string][]int{}
	for i, o := range officials {
		officialByName[fmt.Sprint(o.ProvinceID, "/", key(o.Name))] = append(officialByName[fmt.Sprint(o.ProvinceID, "/", key(o.Name))], i)
		officialByName[fmt.Sprint(o.ProvinceID, "/2/", key2(o.Name))] = append(officialByName[fmt.Sprint(o.ProvinceID, "/2/", key2(o.Name))], i)
	}
	var st stats
	claimed := map[int]*city{}
	for _, c := range legacy {
		p, name := c.ProvinceID, c.FarsiName
		if r, ok := renamed[c.Slug]; ok {
			if p, err = pid(r.Province); err != nil {
				return err
			}
			name = r.Name
		} else if s, ok := sameAs[c.Slug]; ok {
			name = s
		}
		cands := officialByName[fmt.Sprint(p, "/", key(name))]
		if len(cands) == 0 {
			cands = officialByName[fmt.Sprint(p, "/2/", key2(name))]
		}
		var free []int
		for _, i := range cands {
			if claimed[i] == nil {
				free = append(free, i)
			}
		}
		if len(free) == 0 {
			st.unmatchedLegacy = append(st.unmatchedLegacy, c.Slug)
			continue
		}
		// Two official cities of the same name in one province: the one whose county is named
		// like the city, else the first.
		pick := free[0]
		for _, i := range free {
			if key(counties[officials[i].CountyID].FarsiName) == key(officials[i].Name) {
				pick = i
				break
			}
		}
		claimed[pick] = c
		o := officials[pick]
		c.OfficialID = o.ID
		if c.ProvinceID != o.ProvinceID {
			st.movedOut++
			fmt.Fprintf(report, "moved: %s from %s to %s (the official list's province)\n", c.Slug, provByID[c.ProvinceID].EnglishName, provByID[o.ProvinceID].EnglishName)
			c.ProvinceID = o.ProvinceID
		}
		if r, ok := renamed[c.Slug]; ok && r.English != "" {
			c.Aliases = appendAlias(c.Aliases, c.FarsiName)
			c.FarsiName = o.Name
			c.EnglishName = r.English
		} else if key(o.Name) != key(c.FarsiName) {
			c.Aliases = appendAlias(c.Aliases, o.Name)
		}
		prevByOfficial[o.ID] = c
	}

	// Build the full list: every official city, plus any legacy city no official row claims.
	var cities []*city
	byOfficial := map[int64]*city{}
	for _, o := range officials {
		c := prevByOfficial[o.ID]
		isNew := c == nil
		if isNew {
			c = &city{OfficialID: o.ID, ProvinceID: o.ProvinceID, FarsiName: o.Name}
		}
		c.CountyID = o.CountyID
		if c.Aliases == nil {
			c.Aliases = []string{}
		}
		ms := mkFind(o.ProvinceID, o.Name)
		if isNew {
			maxID++
			c.ID = maxID
		}
		if c.ID > handMadeUpTo {
			c.EnglishName = "" // derived again each run, so a better rule improves every such name
		}
		if en, ok := englishFor[c.FarsiName]; ok {
			c.EnglishName = en
		}
		if c.EnglishName == "" {
			for _, m := range ms {
				if m.EnName != nil && *m.EnName != "" {
					c.EnglishName = tidyEnglish(*m.EnName)
					break
				}
			}
			if c.EnglishName != "" {
				st.enSource++
			} else {
				c.EnglishName = transliterate(c.FarsiName)
				st.enTranslit++
			}
		} else {
			st.enKept++
		}
		if c.Slug == "" {
			c.Slug = uniqueSlug(slugs, slugify(c.EnglishName), provByID[c.ProvinceID].Slug, counties[o.CountyID].FarsiName, c.ID)
		}
		a := areaOf[c.ProvinceID]
		if pt, ok := pointFor[c.Slug]; ok {
			c.Lat, c.Long = pt.Lat, pt.Long
			st.overridden++
		} else if !isNew && c.Lat != 0 && a.contains(c.Lat, c.Long) {
			st.kept++
		} else {
			c.Lat, c.Long = 0, 0
			best := math.Inf(1)
			for _, m := range ms {
				lat, lon, ok := m.point()
				if !ok || !a.contains(lat, lon) {
					continue
				}
				d := 0.0
				if !isNew && c.Lat != 0 {
					d = haversineKm(c.Lat, c.Long, lat, lon)
				}
				if d < best {
					best = d
					c.Lat, c.Long = round(lat, 4), round(lon, 4)
				}
			}
			if c.Lat != 0 {
				st.fromSource++
			}
		}
		cities = append(cities, c)
		byOfficial[o.ID] = c
	}
	for _, c := range legacy {
		if c.OfficialID == 0 {
			c.Aliases = nonNil(c.Aliases)
			cities = append(cities, c)
		}
	}

	// Seats: the capital of each province, a city masterking marks as a county's centre, a city
	// named like its county, or the audit's seat table.
	byCounty := map[int64][]*city{}
	for _, c := range cities {
		byCounty[c.CountyID] = append(byCounty[c.CountyID], c)
	}
	var noSeat []string
	for _, cid := range countyIDs {
		k := counties[cid]
		members := byCounty[cid]
		var seat *city
		for _, c := range members {
			if c.Capital {
				seat = c
			}
		}
		if seat == nil {
			if name, ok := seatOf[provByID[k.ProvinceID].FarsiName+"/"+k.FarsiName]; ok {
				for _, c := range members {
					if key(c.FarsiName) == key(name) || hasAlias(c, name) {
						seat = c
					}
				}
				if seat == nil {
					fmt.Fprintf(report, "seat table: %s/%s names %s, not a city of the county\n", provByID[k.ProvinceID].FarsiName, k.FarsiName, name)
				}
			}
		}
		if seat == nil {
			for _, c := range members {
				if key(c.FarsiName) == key(k.FarsiName) || key2(c.FarsiName) == key2(k.FarsiName) || hasAlias(c, k.FarsiName) {
					seat = c
					break
				}
			}
		}
		if seat == nil {
			for _, c := range members {
				for _, m := range mkFind(c.ProvinceID, c.FarsiName) {
					if m.IsCounty && seat == nil {
						seat = c
					}
				}
			}
		}
		if seat == nil && len(members) == 1 {
			seat = members[0]
		}
		if seat == nil {
			names := []string{}
			for _, c := range members {
				names = append(names, c.FarsiName)
			}
			noSeat = append(noSeat, fmt.Sprintf("%s/%s: %v", provByID[k.ProvinceID].FarsiName, k.FarsiName, names))
			continue
		}
		seat.Seat = true
		k.SeatCityID = seat.ID
		switch {
		case key(seat.FarsiName) == key(k.FarsiName) || key2(seat.FarsiName) == key2(k.FarsiName) ||
			strings.TrimPrefix(key(seat.FarsiName), "بندر") == key(k.FarsiName): // بندر دیر is the seat of دیر
			k.EnglishName = seat.EnglishName
		default:
			k.EnglishName = transliterate(k.FarsiName)
			for _, c := range cities {
				if c.ProvinceID == k.ProvinceID && key(c.FarsiName) == key(k.FarsiName) {
					k.EnglishName = c.EnglishName
				}
			}
			if en, ok := englishFor[k.FarsiName]; ok {
				k.EnglishName = en
			}
		}
	}
	if len(noSeat) > 0 {
		return fmt.Errorf("counties without a seat:\n%s", strings.Join(noSeat, "\n"))
	}
	countySlugs := map[string]bool{}
	for _, cid := range countyIDs {
		k := counties[cid]
		k.Slug = uniqueSlug(countySlugs, slugify(k.EnglishName), provByID[k.ProvinceID].Slug, "", k.ID)
	}

	// Fallbacks for cities no source places in their province, and a sanity check on the rest: a
	// point more than 150 km from its county's seat is a source's error (no county is that wide
	// around its seat but the desert ones, whose cities lie near it).
	seatOfCounty := func(c *city) *city {
		for _, m := range byCounty[c.CountyID] {
			if m.Seat {
				return m
			}
		}
		return nil
	}
	capitalOf := map[int64]*city{}
	for _, c := range cities {
		if c.Capital {
			capitalOf[c.ProvinceID] = c
		}
	}
	for _, c := range cities {
		seat := seatOfCounty(c)
		if c.Lat == 0 || seat == nil || seat == c || seat.Lat == 0 {
			continue
		}
		if _, fixed := pointFor[c.Slug]; !fixed {
			if d := haversineKm(c.Lat, c.Long, seat.Lat, seat.Long); d > 150 {
				st.farFromSeat = append(st.farFromSeat, fmt.Sprintf("%s (%.0f km from %s)", c.Slug, d, seat.Slug))
				c.Lat, c.Long = 0, 0
				st.fromSource--
			}
		}
	}
	fill := func(c *city) {
		if seat := seatOfCounty(c); seat != nil && seat != c && seat.Lat != 0 {
			c.Lat, c.Long = seat.Lat, seat.Long
			st.fallbackSeat++
			return
		}
		var lat, lon float64
		n := 0
		for _, m := range byCounty[c.CountyID] {
			if m != c && m.Lat != 0 {
				lat, lon, n = lat+m.Lat, lon+m.Long, n+1
			}
		}
		if n > 0 && areaOf[c.ProvinceID].contains(lat/float64(n), lon/float64(n)) {
			c.Lat, c.Long = round(lat/float64(n), 4), round(lon/float64(n), 4)
			st.fallbackCounty++
		} else if cp := capitalOf[c.ProvinceID]; cp != nil {
			c.Lat, c.Long = cp.Lat, cp.Long
			st.fallbackCapital++
		}
	}
	for _, seats := range []bool{true, false} {
		for _, c := range cities {
			if c.Lat == 0 && c.Seat == seats && c.CountyID != 0 {
				fill(c)
			}
		}
	}
	// Legacy cities no official row claims keep their county by the nearest city of their province.
	for _, c := range cities {
		if c.CountyID != 0 {
			continue
		}
		best := math.Inf(1)
		for _, m := range cities {
			if m.CountyID != 0 && m.ProvinceID == c.ProvinceID {
				if d := haversineKm(c.Lat, c.Long, m.Lat, m.Long); d < best {
					best, c.CountyID = d, m.CountyID
				}
			}
		}
	}

	// Every point must now lie in its province.
	for _, c := range cities {
		if !areaOf[c.ProvinceID].contains(c.Lat, c.Long) {
			return fmt.Errorf("city %s (%s) at %.4f,%.4f lies outside %s", c.Slug, c.FarsiName, c.Lat, c.Long, provByID[c.ProvinceID].EnglishName)
		}
	}
	sort.Slice(cities, func(i, j int) bool { return cities[i].ID < cities[j].ID })
	var countyList []*county
	for _, cid := range countyIDs {
		countyList = append(countyList, counties[cid])
	}
	if err := writeRows(filepath.Join(out, "cities.json"), cities); err != nil {
		return err
	}
	if err := writeRows(filepath.Join(out, "counties.json"), countyList); err != nil {
		return err
	}
	if err := os.MkdirAll(testdata, 0o755); err != nil {
		return err
	}
	if err := writeSimplified(filepath.Join(testdata, "provinces.geojson"), areas, 0.002); err != nil {
		return err
	}
	seats := 0
	for _, c := range cities {
		if c.Seat {
			seats++
		}
	}
	fmt.Fprintf(report, "provinces %d, counties %d, cities %d (%d official, %d kept from before), seats %d\n",
		len(provinces), len(countyList), len(cities), len(officials), len(prev), seats)
	fmt.Fprintf(report, "points: %d kept, %d from masterking (inside the province polygon), %d set by hand, %d moved province\n",
		st.kept, st.fromSource, st.overridden, st.movedOut)
	fmt.Fprintf(report, "fallbacks: %d at the county seat, %d at the mean of the county's cities, %d at the province capital\n",
		st.fallbackSeat, st.fallbackCounty, st.fallbackCapital)
	fmt.Fprintf(report, "english names: %d kept, %d from masterking, %d transliterated by rule\n", st.enKept, st.enSource, st.enTranslit)
	if len(st.farFromSeat) > 0 {
		fmt.Fprintf(report, "source points > 150 km from their seat, replaced by a fallback: %s\n", strings.Join(st.farFromSeat, "; "))
	}
	if len(st.unmatchedLegacy) > 0 {
		fmt.Fprintf(report, "existing cities not in the official list (kept as they are): %s\n", strings.Join(st.unmatchedLegacy, ", "))
	}
	return nil
}

func appendAlias(list []string, name string) []string {
	for _, a := range list {
		if a == name {
			return list
		}
	}
	return append(list, name)
}

func hasAlias(c *city, name string) bool {
	for _, a := range c.Aliases {
		if key(a) == key(name) {
			return true
		}
	}
	return false
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// uniqueSlug takes base, else base-province, else base-province-county, else base-id.
func uniqueSlug(taken map[string]bool, base, provSlug, countyFa string, id int64) string {
	if base == "" {
		base = "city"
	}
	cands := []string{base, base + "-" + provSlug}
	if countyFa != "" {
		cands = append(cands, base+"-"+slugify(transliterate(countyFa))+"-"+provSlug)
	}
	cands = append(cands, fmt.Sprintf("%s-%d", base, id))
	for _, c := range cands {
		if !taken[c] {
			taken[c] = true
			return c
		}
	}
	panic("slug " + base)
}

// writeRows writes a JSON array with one row per line, so a change reads as a one-line diff.
func writeRows[T any](path string, rows []T) error {
	var b strings.Builder
	b.WriteString("[\n")
	for i, r := range rows {
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		b.WriteString("  ")
		b.Write(line)
		if i < len(rows)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
