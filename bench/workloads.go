package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"strings"
	"unicode/utf8"

	"kardan/search"
	"kardan/store"
)

// workload is one kind of call with its mix of requests; PG and Harness say whether those peers
// answer it too.
type workload struct {
	Name    string
	Title   string
	Reqs    []request
	PG      bool
	Harness bool
	// Search marks the searchUser workloads that DESIGN.md §5 bounds by latency.
	Search bool
}

// suggestWorkload is the name of the suggestions-as-you-type workload, which #19 bounds by
// p99 < 5 ms; only Kardan answers it.
const suggestWorkload = "suggest"

// suggestRequest makes a GET of /v1/search/suggest for what a visitor has typed so far: the
// start of a category's Persian or English name or of a city's (one letter and up), or of the
// profile's own name, and a third of the time within the profile's city, as the search bar asks.
func (d *demoData) suggestRequest(rng *rand.Rand, p *demoProfile) request {
	cat := d.categories[p.CategoryIDs[0]]
	var text string
	switch k := rng.IntN(100); {
	case k < 45:
		text = cat.Fa
	case k < 65:
		text = strings.ToLower(cat.En)
	case k < 80:
		text = d.cities[p.CityID]
	default:
		text = p.Name
	}
	r := []rune(text)
	typed := strings.TrimSpace(string(r[:1+rng.IntN(min(len(r), 8))]))
	if typed == "" {
		typed = string(r[:1])
	}
	v := url.Values{"q": {typed}}
	if rng.IntN(3) == 0 {
		v.Set("city_slag", d.cities[p.CityID])
	}
	return request{Method: "GET", Path: "/v1/search/suggest?" + v.Encode()}
}

// demoProfile is what the query mixes borrow from one sampled demo profile.
type demoProfile struct {
	ID          int64
	Slug        string
	Name        string
	Lat, Long   float64
	CityID      int64
	CategoryIDs []int64
	Services    []string
	CountScorer int
}

type categoryRow struct {
	ID       int64
	Slag     string
	Fa, En   string
	IsField  bool
	ParentID int64
}

// demoData is a deterministic sample of the demo data and the reference rows the queries name.
type demoData struct {
	profiles   []demoProfile
	categories map[int64]categoryRow
	cities     map[int64]string // id → slug
}

// sampleDemo draws up to n visible profiles at random (seeded, so every run asks the same
// questions of the same data).
func sampleDemo(ctx context.Context, db *sql.DB, n int, seed uint64) (*demoData, error) {
	d := &demoData{categories: map[int64]categoryRow{}, cities: map[int64]string{}}
	rows, err := db.QueryContext(ctx, `SELECT id, slag, farsi_name, english_name, COALESCE(parent_id, 0) FROM work_categories`)
	if err != nil {
		return nil, fmt.Errorf("sample categories: %w", err)
	}
	for rows.Next() {
		var c categoryRow
		if err := rows.Scan(&c.ID, &c.Slag, &c.Fa, &c.En, &c.ParentID); err != nil {
			rows.Close()
			return nil, err
		}
		c.IsField = c.ParentID == 0
		d.categories[c.ID] = c
	}
	rows.Close()
	rows, err = db.QueryContext(ctx, `SELECT id, slag FROM cities`)
	if err != nil {
		return nil, fmt.Errorf("sample cities: %w", err)
	}
	for rows.Next() {
		var id int64
		var slag string
		if err := rows.Scan(&id, &slag); err != nil {
			rows.Close()
			return nil, err
		}
		d.cities[id] = slag
	}
	rows.Close()

	var maxID int64
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM profiles`).Scan(&maxID); err != nil {
		return nil, fmt.Errorf("sample profiles: %w", err)
	}
	if maxID == 0 {
		return nil, fmt.Errorf("sample profiles: the store has no profiles")
	}
	rng := rand.New(rand.NewPCG(seed, 0xbe7c4))
	seen := map[int64]bool{}
	for tries := 0; len(d.profiles) < n && tries < 20*n; tries++ {
		id := 1 + rng.Int64N(maxID)
		if seen[id] {
			continue
		}
		seen[id] = true
		var p demoProfile
		var services, cats string
		err := db.QueryRowContext(ctx, `SELECT id, slug, profile_name, COALESCE(lat, 0), COALESCE(long, 0), city_id, services, count_scorer,
			(SELECT json_group_array(category_id) FROM profile_categories WHERE profile_id = p.id)
			FROM profiles p WHERE id = ? AND visible = 1`, id).
			Scan(&p.ID, &p.Slug, &p.Name, &p.Lat, &p.Long, &p.CityID, &services, &p.CountScorer, &cats)
		if err == sql.ErrNoRows {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("sample profiles: %w", err)
		}
		var svc []store.Service
		if err := json.Unmarshal([]byte(services), &svc); err != nil {
			return nil, fmt.Errorf("profile %d services: %w", p.ID, err)
		}
		for _, s := range svc {
			p.Services = append(p.Services, s.Title)
		}
		if err := json.Unmarshal([]byte(cats), &p.CategoryIDs); err != nil || len(p.CategoryIDs) == 0 {
			continue
		}
		d.profiles = append(d.profiles, p)
	}
	if len(d.profiles) == 0 {
		return nil, fmt.Errorf("sample profiles: no visible profile found")
	}
	return d, nil
}

// searchBody is the searchUser body the web app sends.
type searchBody struct {
	Take         int      `json:"take"`
	Skip         int      `json:"skip"`
	CategorySlag string   `json:"category_slag,omitempty"`
	CitySlag     string   `json:"city_slag,omitempty"`
	Lat          *float64 `json:"lat,omitempty"`
	Long         *float64 `json:"long,omitempty"`
	Radius       float64  `json:"radius,omitempty"`
	SearchTxt    string   `json:"search_txt,omitempty"`
	Order        string   `json:"order,omitempty"`
}

const searchPath = "/v1/user-technical/searchUser"

// searchRequest makes the HTTP call and the harness query of one searchUser body, resolving
// slugs as the API does.
func (d *demoData) searchRequest(b searchBody) request {
	raw, _ := json.Marshal(b)
	q := &search.ProfileQuery{Text: store.CleanText(b.SearchTxt, false), Order: b.Order, Take: b.Take, Skip: b.Skip}
	if b.CitySlag != "" {
		for id, slag := range d.cities {
			if slag == b.CitySlag {
				q.City, q.CityID = slag, id
			}
		}
	}
	if b.CategorySlag != "" {
		for _, c := range d.categories {
			if c.Slag != b.CategorySlag {
				continue
			}
			if c.IsField {
				q.Field, q.FieldID = c.Slag, c.ID
			} else {
				q.Category, q.CategoryID = c.Slag, c.ID
			}
		}
	}
	if b.Lat != nil && b.Long != nil {
		q.HasPoint, q.Lat, q.Long, q.Radius = true, *b.Lat, *b.Long, b.Radius
	}
	return request{Method: "POST", Path: searchPath, Body: raw, Query: q}
}

// searchText makes a query a visitor could type to find p: its category (as typed, half typed,
// with a typo, with Arabic letters, in English), with the owner's family name, or a service.
func (d *demoData) searchText(rng *rand.Rand, p *demoProfile) string {
	cat := d.categories[p.CategoryIDs[0]]
	fa := cat.Fa
	switch k := rng.IntN(100); {
	case k < 35:
		return fa
	case k < 50:
		last := strings.Fields(strings.TrimPrefix(p.Name, fa+" "))
		if len(last) > 0 {
			return fa + " " + last[0]
		}
		return fa
	case k < 65:
		return halfTyped(rng, fa)
	case k < 75:
		return withTypo(rng, fa)
	case k < 85:
		return strings.ToLower(cat.En)
	case k < 95:
		if len(p.Services) > 1 {
			return p.Services[1+rng.IntN(len(p.Services)-1)]
		}
		return fa
	default:
		return strings.NewReplacer("ی", "ي", "ک", "ك").Replace(fa)
	}
}

// halfTyped cuts the last word of s as someone still typing it (at least three letters).
func halfTyped(rng *rand.Rand, s string) string {
	words := strings.Fields(s)
	last := []rune(words[len(words)-1])
	if len(last) <= 3 {
		return s
	}
	words[len(words)-1] = string(last[:3+rng.IntN(len(last)-3)])
	return strings.Join(words, " ")
}

// withTypo changes one letter (not the first) of a word of five letters or more.
func withTypo(rng *rand.Rand, s string) string {
	words := strings.Fields(s)
	var long []int
	for i, w := range words {
		if utf8.RuneCountInString(w) >= 5 {
			long = append(long, i)
		}
	}
	if len(long) == 0 {
		return s
	}
	i := long[rng.IntN(len(long))]
	r := []rune(words[i])
	letters := []rune("ابپتثجچحخدذرزسشصضطظعغفقکگلمنوهی")
	at := 1 + rng.IntN(len(r)-1)
	for {
		c := letters[rng.IntN(len(letters))]
		if c != r[at] {
			r[at] = c
			break
		}
	}
	words[i] = string(r)
	return strings.Join(words, " ")
}

// near answers a point within metres of (lat, long), uniformly over the disc.
func near(rng *rand.Rand, lat, long, metres float64) (float64, float64) {
	dist := metres * math.Sqrt(rng.Float64())
	angle := rng.Float64() * 2 * math.Pi
	dLat := dist * math.Cos(angle) / store.EarthRadius * 180 / math.Pi
	dLong := dist * math.Sin(angle) / (store.EarthRadius * math.Cos(lat*math.Pi/180)) * 180 / math.Pi
	return math.Round((lat+dLat)*1e5) / 1e5, math.Round((long+dLong)*1e5) / 1e5
}

// buildWorkloads makes every workload's request mix: size requests each, drawn from the sample.
// The home page and asset workloads are filled in once the server's index page is known.
func (d *demoData) buildWorkloads(size int, seed uint64) []*workload {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b9))
	pick := func() *demoProfile { return &d.profiles[rng.IntN(len(d.profiles))] }
	ws := []*workload{
		{Name: "text", Title: "searchUser: text", PG: true, Harness: true, Search: true},
		{Name: "text_city", Title: "searchUser: text + city", PG: true, Harness: true, Search: true},
		{Name: "category_radius", Title: "searchUser: category + 5 km radius, nearest", PG: true, Harness: true, Search: true},
		{Name: "map_radius", Title: "searchUser: map, 1 km radius (take 100)", PG: true, Harness: true, Search: true},
		{Name: "browse_best", Title: "searchUser: no filter, best first", PG: true, Harness: true, Search: true},
		{Name: "slug", Title: "searchUserSlag (profile page)", PG: true, Harness: true},
		{Name: "comments", Title: "comment/get (a profile's comments)", PG: true, Harness: true},
		{Name: suggestWorkload, Title: "search/suggest (as you type, 1–8 letters)"},
	}
	var commented []*demoProfile
	for i := range d.profiles {
		if d.profiles[i].CountScorer > 0 {
			commented = append(commented, &d.profiles[i])
		}
	}
	for i := 0; i < size; i++ {
		p := pick()
		ws[0].Reqs = append(ws[0].Reqs, d.searchRequest(searchBody{Take: 20, SearchTxt: d.searchText(rng, p)}))

		p = pick()
		ws[1].Reqs = append(ws[1].Reqs, d.searchRequest(searchBody{Take: 20, SearchTxt: d.searchText(rng, p), CitySlag: d.cities[p.CityID]}))

		p = pick()
		lat, long := near(rng, p.Lat, p.Long, 1500)
		ws[2].Reqs = append(ws[2].Reqs, d.searchRequest(searchBody{Take: 20, CategorySlag: d.categories[p.CategoryIDs[0]].Slag,
			Lat: &lat, Long: &long, Radius: 5000, Order: "nearest"}))

		p = pick()
		lat, long = near(rng, p.Lat, p.Long, 500)
		ws[3].Reqs = append(ws[3].Reqs, d.searchRequest(searchBody{Take: 100, Lat: &lat, Long: &long, Radius: 1000, Order: "nearest"}))

		take := 20
		if rng.IntN(10) < 3 {
			take = 8 // the home page's top professionals
		}
		skip := []int{0, 0, 0, 20, 40, 60, 80, 100}[rng.IntN(8)]
		ws[4].Reqs = append(ws[4].Reqs, d.searchRequest(searchBody{Take: take, Skip: skip, Order: "best"}))

		p = pick()
		body, _ := json.Marshal(map[string]string{"slug": p.Slug})
		ws[5].Reqs = append(ws[5].Reqs, request{Method: "POST", Path: "/v1/user-technical/searchUserSlag", Body: body, Slug: p.Slug})

		if len(commented) > 0 {
			p = commented[rng.IntN(len(commented))]
			body, _ = json.Marshal(map[string]int64{"user_technical_id": p.ID, "skip": 0, "take": 20})
			ws[6].Reqs = append(ws[6].Reqs, request{Method: "POST", Path: "/v1/comment/get", Body: body, CommentsOf: p.ID})
		}

		ws[7].Reqs = append(ws[7].Reqs, d.suggestRequest(rng, pick()))
	}
	return ws
}
