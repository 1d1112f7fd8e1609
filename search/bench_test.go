package search_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"kardan/admin"
	"kardan/search"
	"kardan/store"
)

// benchIndex opens the store and index in $KARDAN_BENCH_DATA, or builds a fresh data directory
// of $BENCH_N demo profiles (default 100,000) in a temporary directory.
func benchIndex(b *testing.B) (*store.Store, *search.Index) {
	b.Helper()
	ctx := context.Background()
	dir := os.Getenv("KARDAN_BENCH_DATA")
	fresh := dir == ""
	if fresh {
		dir = b.TempDir()
	}
	st, err := store.Open(ctx, filepath.Join(dir, "kardan.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	if fresh {
		n := 100000
		if v, err := strconv.Atoi(os.Getenv("BENCH_N")); err == nil && v > 0 {
			n = v
		}
		if _, err := admin.SeedReference(ctx, st); err != nil {
			b.Fatal(err)
		}
		if _, err := admin.SeedDemo(ctx, st, admin.DemoOptions{Profiles: n, PasswordHash: "x", Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	start := time.Now()
	ix, err := search.Open(ctx, filepath.Join(dir, "index"), st)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	b.Logf("index ready in %.1f s", time.Since(start).Seconds())
	return st, ix
}

// latencies records each query's wall time and, where the system tells, the processor time of
// the benchmark's thread: on a machine shared with other work the wall time's tail is mostly
// waiting for a core, the processor time is what the query cost.
type latencies struct {
	wall, cpu []time.Duration
}

// measure runs fn once and records it.
func (l *latencies) measure(fn func()) {
	c0, okCPU := threadCPU()
	start := time.Now()
	fn()
	l.wall = append(l.wall, time.Since(start))
	if c1, ok := threadCPU(); okCPU && ok {
		l.cpu = append(l.cpu, c1-c0)
	}
}

// report gives the median and 99th percentile of both.
func (l *latencies) report(b *testing.B) {
	ms := func(ds []time.Duration, q int) float64 {
		slices.Sort(ds)
		return float64(ds[min(len(ds)-1, len(ds)*q/100)].Microseconds()) / 1000
	}
	b.ReportMetric(ms(l.wall, 50), "p50-ms")
	b.ReportMetric(ms(l.wall, 99), "p99-ms")
	if len(l.cpu) == len(l.wall) && len(l.cpu) > 0 {
		b.ReportMetric(ms(l.cpu, 50), "cpu-p50-ms")
		b.ReportMetric(ms(l.cpu, 99), "cpu-p99-ms")
	}
}

// BenchmarkSearchUser measures each searchUser query shape on the index and reports the median
// and 99th percentile of single queries besides the mean.
func BenchmarkSearchUser(b *testing.B) {
	_, ix := benchIndex(b)
	shapes := []struct {
		name string
		qs   []search.ProfileQuery
	}{
		{"Text", []search.ProfileQuery{{Text: "لوله کش"}, {Text: "دندانپزشک"}, {Text: "مکانیک خودرو"}, {Text: "آرایشگاه"}, {Text: "وکیل"}}},
		// What people type: inflected, Finglish, English, a category with a city, words no profile has together.
		{"TextTyped", []search.ProfileQuery{{Text: "لوله کشی"}, {Text: "lolekesh"}, {Text: "dentist tehran"}, {Text: "دکتر دندان"}, {Text: "لوله کش شبانه روزی"}}},
		// Broad: the demo's service titles, each in hundreds of thousands of profiles at a million.
		{"TextBroad", []search.ProfileQuery{{Text: "بازدید و مشاوره در محل"}, {Text: "خدمات فوری"}, {Text: "تعمیر و نگهداری"}, {Text: "نصب و راه‌اندازی"}}},
		{"TextCity", []search.ProfileQuery{{Text: "دندانپزشک", City: "tehran", CityID: 1}, {Text: "لوله کش", City: "shiraz", CityID: 60},
			{Text: "آرایشگاه", City: "tabriz", CityID: 129}}},
		{"CategoryRadiusNearest", []search.ProfileQuery{
			{Category: "plumber", CategoryID: 101, HasPoint: true, Lat: 35.70, Long: 51.40, Radius: 5000, Order: search.OrderNearest},
			{Category: "dentist", CategoryID: 501, HasPoint: true, Lat: 35.75, Long: 51.35, Radius: 5000, Order: search.OrderNearest},
			{Category: "car-mechanic", CategoryID: 401, HasPoint: true, Lat: 29.61, Long: 52.53, Radius: 5000, Order: search.OrderNearest}}},
		{"MapRadius1000", []search.ProfileQuery{{HasPoint: true, Lat: 35.70, Long: 51.40, Radius: 1000}, {HasPoint: true, Lat: 36.30, Long: 59.60, Radius: 1000},
			{HasPoint: true, Lat: 32.65, Long: 51.67, Radius: 1000}}},
		{"BrowseBest", []search.ProfileQuery{{Order: search.OrderBest}, {Order: search.OrderBest, Skip: 20}, {Order: search.OrderBest, CityID: 1, City: "tehran"}}},
		// A price range with no text reads every profile's prices in the facts table (the browse
		// of SQLite knows no prices): in all of Iran by a scan of the table, not through Bleve.
		{"PriceRange", []search.ProfileQuery{{PriceMin: 500_000, PriceMax: 2_000_000}, {PriceMin: 1_000_000, City: "tehran", CityID: 1},
			{Text: "لوله کش", PriceMax: 1_000_000}}},
		// Open now in all of Iran and in a city (the week of every profile read at one moment).
		{"OpenNow", []search.ProfileQuery{{OpenNow: true, Now: time.Now()}, {OpenNow: true, Now: time.Now(), City: "tehran", CityID: 1}}},
	}
	for _, shape := range shapes {
		b.Run(shape.name, func(b *testing.B) {
			defer lockThread()()
			ctx := context.Background()
			var l latencies
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				q := shape.qs[i%len(shape.qs)]
				q.Take = 20
				var err error
				l.measure(func() { _, err = ix.SearchProfiles(ctx, q) })
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			l.report(b)
		})
	}
}

// BenchmarkCircleCells measures a category within 5 km of a point, nearest first, with the
// circle's cells read and with the category's profiles cut by distance alone: what
// cellsWorthReading weighs. The categories are small, middling and large in the demo data.
func BenchmarkCircleCells(b *testing.B) {
	_, ix := benchIndex(b)
	points := [][2]float64{{35.70, 51.40}, {35.75, 51.35}, {29.61, 52.53}, {32.65, 51.67}}
	for _, c := range []struct {
		slug string
		id   int64
	}{{"plumber", 101}, {"official-translator", 703}, {"petrol-station", 3901}} {
		for _, way := range []struct {
			name string
			from uint64
		}{{"cells", 0}, {"cut", 1 << 40}} {
			b.Run(c.slug+"/"+way.name, func(b *testing.B) {
				defer search.SetCellsWorthReading(way.from)()
				ctx := context.Background()
				for i := 0; i < b.N; i++ {
					p := points[i%len(points)]
					q := search.ProfileQuery{Category: c.slug, CategoryID: c.id, HasPoint: true, Lat: p[0], Long: p[1], Radius: 5000,
						Order: search.OrderNearest, Take: 20}
					if _, err := ix.SearchProfiles(ctx, q); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkCategoryRadiusMany measures category + 5 km, nearest first, over 2,000 queries of
// every category at points around ten cities, as bench's workload asks, with the processor's
// caches stirred between queries as a server's other work stirs them: BenchmarkSearchUser's
// three queries repeated keep their profiles' rows cached, which a server's searches do not.
func BenchmarkCategoryRadiusMany(b *testing.B) {
	st, ix := benchIndex(b)
	ctx := context.Background()
	tree, err := st.CategoryTree(ctx)
	if err != nil {
		b.Fatal(err)
	}
	var cats []*store.Category
	for _, field := range tree.Roots {
		cats = append(cats, field.Children...)
	}
	centres := [][2]float64{{35.70, 51.40}, {36.30, 59.60}, {32.65, 51.67}, {29.61, 52.53}, {38.08, 46.29}, {34.64, 50.88},
		{31.32, 48.67}, {37.28, 49.58}, {30.28, 57.08}, {34.31, 47.06}}
	rng := rand.New(rand.NewPCG(1, 2))
	qs := make([]search.ProfileQuery, 2000)
	for i := range qs {
		c, p := cats[rng.IntN(len(cats))], centres[rng.IntN(len(centres))]
		qs[i] = search.ProfileQuery{Category: c.Slag, CategoryID: c.ID, HasPoint: true, Lat: p[0] + (rng.Float64()-0.5)*0.2,
			Long: p[1] + (rng.Float64()-0.5)*0.2, Radius: 5000, Order: search.OrderNearest, Take: 20}
	}
	stir := make([]byte, 8<<20)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		for j := 0; j < len(stir); j += 64 {
			stir[j]++
		}
		b.StartTimer()
		if _, err := ix.SearchProfiles(ctx, qs[i%len(qs)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSuggest measures suggestions for prefixes of one to several letters, Persian, English
// and Finglish, and reports the median and 99th percentile (wall and processor time).
func BenchmarkSuggest(b *testing.B) {
	_, ix := benchIndex(b)
	prefixes := []string{"ل", "لو", "لوله ک", "دندانپ", "آرای", "plum", "lolek", "dandanp", "تهر", "مکانیک خ"}
	defer lockThread()()
	ctx := context.Background()
	var l latencies
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var err error
		l.measure(func() { _, err = ix.Suggest(ctx, prefixes[i%len(prefixes)], "") })
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	l.report(b)
}

// BenchmarkSearchTextMix runs the text workload of `make bench` in process: queries drawn as
// bench/workloads.go's searchText draws them (a sampled profile's category as typed, with a
// family name, half typed, with a typo, in English, one of its services, in Arabic letters),
// a page of 20 each, with relevance pages from the tiers (Tiers; TiersCity in the sampled
// profile's city, as the text + city workload asks) and from the plain path that weighs every
// hit (Plain). It reports the median and 99th percentile of the processor time a
// query took, and logs the slowest queries with their hit counts.
func BenchmarkSearchTextMix(b *testing.B) {
	st, ix := benchIndex(b)
	qs := textMix(b, st, 2000)
	for _, mode := range []struct {
		name string
		city bool
		run  func(context.Context, search.ProfileQuery) (*search.ProfileHits, error)
	}{
		{"Tiers", false, ix.SearchProfiles},
		{"TiersCity", true, ix.SearchProfiles},
		{"Plain", false, func(ctx context.Context, q search.ProfileQuery) (*search.ProfileHits, error) {
			return search.SearchProfilesPlain(ctx, ix, q)
		}},
	} {
		b.Run(mode.name, func(b *testing.B) {
			defer lockThread()()
			ctx := context.Background()
			type slow struct {
				text  string
				cpu   time.Duration
				total int
			}
			var worst []slow
			var l latencies
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				q := qs[i%len(qs)].query(mode.city)
				var h *search.ProfileHits
				var err error
				l.measure(func() { h, err = mode.run(ctx, q) })
				if err != nil {
					b.Fatal(err)
				}
				if len(l.cpu) > 0 {
					worst = append(worst, slow{q.Text, l.cpu[len(l.cpu)-1], h.Total})
				}
			}
			b.StopTimer()
			slices.SortFunc(worst, func(a, b slow) int { return int(b.cpu - a.cpu) })
			for _, w := range worst[:min(8, len(worst))] {
				b.Logf("%6.2f ms  %7d hits  %s", float64(w.cpu.Microseconds())/1000, w.total, w.text)
			}
			l.report(b)
		})
	}
}

// mixEntry is a query of the text mix and the city of the profile it was drawn from.
type mixEntry struct {
	text   string
	city   string
	cityID int64
}

// query answers the entry's search, in its city when city is set.
func (m mixEntry) query(city bool) search.ProfileQuery {
	q := search.ProfileQuery{Text: store.CleanText(m.text, false), Take: 20}
	if city {
		q.City, q.CityID = m.city, m.cityID
	}
	return q
}

// textMix draws n queries as bench/workloads.go's text workload does, from profiles sampled
// with a fixed seed.
func textMix(b *testing.B, st *store.Store, n int) []mixEntry {
	b.Helper()
	ctx := context.Background()
	db := st.DB()
	type cat struct{ fa, en string }
	cats := map[int64]cat{}
	rows, err := db.QueryContext(ctx, `SELECT id, farsi_name, english_name FROM work_categories`)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var c cat
		if err := rows.Scan(&id, &c.fa, &c.en); err != nil {
			b.Fatal(err)
		}
		cats[id] = c
	}
	rows.Close()
	var maxID int64
	if err := db.QueryRowContext(ctx, `SELECT MAX(id) FROM profiles`).Scan(&maxID); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 0xbe7c4))
	var out []mixEntry
	for tries := 0; len(out) < n && tries < 20*n; tries++ {
		var name, services, city string
		var catID, cityID int64
		err := db.QueryRowContext(ctx, `SELECT profile_name, services,
			(SELECT category_id FROM profile_categories WHERE profile_id = p.id ORDER BY rowid LIMIT 1),
			p.city_id, (SELECT slag FROM cities WHERE id = p.city_id)
			FROM profiles p WHERE id = ? AND visible = 1`, 1+rng.Int64N(maxID)).Scan(&name, &services, &catID, &cityID, &city)
		if err != nil {
			continue
		}
		var svc []store.Service
		_ = json.Unmarshal([]byte(services), &svc)
		c := cats[catID]
		fa := c.fa
		var text string
		switch k := rng.IntN(100); {
		case k < 35:
			text = fa
		case k < 50:
			text = fa
			if last := strings.Fields(strings.TrimPrefix(name, fa+" ")); len(last) > 0 {
				text = fa + " " + last[0]
			}
		case k < 65:
			words := strings.Fields(fa)
			last := []rune(words[len(words)-1])
			if len(last) > 3 {
				words[len(words)-1] = string(last[:3+rng.IntN(len(last)-3)])
			}
			text = strings.Join(words, " ")
		case k < 75:
			words := strings.Fields(fa)
			text = fa
			for i, w := range words {
				r := []rune(w)
				if len(r) >= 5 {
					at := 1 + rng.IntN(len(r)-1)
					letters := []rune("ابپتثجچحخدذرزسشصضطظعغفقکگلمنوهی")
					for c := letters[rng.IntN(len(letters))]; ; c = letters[rng.IntN(len(letters))] {
						if c != r[at] {
							r[at] = c
							break
						}
					}
					words[i] = string(r)
					text = strings.Join(words, " ")
					break
				}
			}
		case k < 85:
			text = strings.ToLower(c.en)
		case k < 95:
			text = fa
			if len(svc) > 1 {
				text = svc[1+rng.IntN(len(svc)-1)].Title
			}
		default:
			text = strings.NewReplacer("ی", "ي", "ک", "ك").Replace(fa)
		}
		out = append(out, mixEntry{text, city, cityID})
	}
	if len(out) == 0 {
		b.Fatal("no profile sampled")
	}
	return out
}
