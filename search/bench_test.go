package search_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
