package stats_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"kardan/stats"
	"kardan/store"
	"kardan/store/storetest"
)

func TestCounter(t *testing.T) {
	ctx := context.Background()
	st := storetest.Seeded(t)
	owner := &store.User{NumberPhone: "09120000001", Name: "Owner", PasswordHash: "x"}
	if err := st.CreateUser(ctx, owner); err != nil {
		t.Fatal(err)
	}
	p, err := st.CreateProfile(ctx, owner.ID, &store.ProfileInput{ProfileName: "Plumbing", ProvinceID: 1, CityID: 1, RangeWorker: 1, CategoryList: []int64{101}}, false)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 21, 20, 0, 0, 0, time.UTC) // 23:30 in Tehran
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	tehran, _ := time.LoadLocation("Asia/Tehran")
	c := stats.NewCounter(st, clock, tehran)
	const ua = "Mozilla/5.0 Firefox/140.0"

	t.Run("OncePerVisitorAndDay", func(t *testing.T) {
		// Many visitors at once, each several times: each counts once.
		var wg sync.WaitGroup
		for i := range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v := c.VisitorOf(fmt.Sprintf("10.0.0.%d", i), ua)
				for range 5 {
					c.Count(v, p.ID, store.StatView, "")
					c.CountAll(v, []int64{p.ID}, store.StatAppearance)
				}
			}()
		}
		wg.Wait()
		// The same address with another browser is another visitor; a bot is none.
		if !c.Count(c.VisitorOf("10.0.0.1", "Mozilla/5.0 Chrome/130"), p.ID, store.StatView, "") {
			t.Error("another browser was not counted")
		}
		if c.Count(c.VisitorOf("10.0.0.99", "Googlebot/2.1"), p.ID, store.StatView, "") || c.Count(c.VisitorOf("10.0.0.99", ""), p.ID, store.StatView, "") {
			t.Error("a bot was counted")
		}
		if err := c.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		rows, err := st.ProfileStats(ctx, p.ID, "2026-03-21", "2026-03-22")
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		for _, r := range rows {
			if r.Day != "2026-03-21" {
				t.Errorf("counted on %s, want the Tehran day 2026-03-21", r.Day)
			}
			got[r.Kind] += r.N
		}
		if got[store.StatView] != 51 || got[store.StatAppearance] != 50 {
			t.Fatalf("counts %v, want 51 views and 50 appearances", got)
		}
	})

	t.Run("NextDayNewKey", func(t *testing.T) {
		v := c.VisitorOf("10.0.0.1", ua)
		mu.Lock()
		now = now.Add(time.Hour) // past midnight in Tehran
		mu.Unlock()
		// Named under yesterday's key: not counted on today's.
		if c.Count(v, p.ID, store.StatCall, "") {
			t.Error("a visitor of yesterday was counted today")
		}
		if !c.Count(c.VisitorOf("10.0.0.1", ua), p.ID, store.StatCall, "") {
			t.Error("today's visitor was not counted")
		}
		if err := c.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		rows, _ := st.ProfileStats(ctx, p.ID, "2026-03-22", "2026-03-22")
		if len(rows) != 1 || rows[0].Kind != store.StatCall || rows[0].N != 1 {
			t.Fatalf("next day: %+v", rows)
		}
	})

	t.Run("FailedFlushKeepsCounts", func(t *testing.T) {
		c.Count(c.VisitorOf("10.0.0.2", ua), p.ID, store.StatShare, "")
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if err := c.Flush(cancelled); err == nil {
			t.Fatal("a flush with a cancelled context succeeded")
		}
		if err := c.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		rows, _ := st.ProfileStats(ctx, p.ID, "2026-03-22", "2026-03-22")
		var share int64
		for _, r := range rows {
			if r.Kind == store.StatShare {
				share += r.N
			}
		}
		if share != 1 {
			t.Fatalf("after a failed flush: %+v", rows)
		}
	})
}

// BenchmarkSearchAppearances is what a public search answer adds to its work: naming the
// visitor and counting the page's 20 profiles, in memory.
func BenchmarkSearchAppearances(b *testing.B) {
	st := storetest.Open(b)
	c := stats.NewCounter(st, nil, nil)
	ids := make([]int64, 20)
	for i := range ids {
		ids[i] = int64(i + 1)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		c.CountAll(c.VisitorOf(fmt.Sprintf("10.1.%d.%d", i>>8&255, i&255), "Mozilla/5.0 Firefox/140.0"), ids, store.StatAppearance)
		if i%100_000 == 0 {
			_ = c.Flush(context.Background())
		}
	}
}

// On PostgreSQL two replicas' counters share the day's key and marks: visitors whose requests
// reach both (round robin) are counted once a day, whichever flushes first, and a new day has a
// new key, shared too.
func TestCounterAcrossReplicas(t *testing.T) {
	if !storetest.Postgres() {
		t.Skip("replicas share a PostgreSQL database: run with " + storetest.EngineEnv + "=postgres")
	}
	ctx := context.Background()
	a := storetest.Seeded(t)
	b, err := store.Open(ctx, a.Path())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	owner := &store.User{NumberPhone: "09120000001", Name: "Owner", PasswordHash: "x"}
	if err := a.CreateUser(ctx, owner); err != nil {
		t.Fatal(err)
	}
	p, err := a.CreateProfile(ctx, owner.ID, &store.ProfileInput{ProfileName: "Plumbing", ProvinceID: 1, CityID: 1, RangeWorker: 1, CategoryList: []int64{101}}, false)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 21, 8, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	cs := []*stats.Counter{stats.NewCounter(a, clock, time.UTC), stats.NewCounter(b, clock, time.UTC)}
	const ua = "Mozilla/5.0 Firefox/140.0"

	count := func(day string) map[string]int64 {
		t.Helper()
		var wg sync.WaitGroup
		for _, c := range cs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := c.Flush(ctx); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		rows, err := a.ProfileStats(ctx, p.ID, day, day)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		for _, r := range rows {
			got[r.Kind] += r.N
		}
		return got
	}
	// 20 visitors, each through both replicas three times; half of them flushed in between.
	for round := range 3 {
		for i := range 20 {
			for _, c := range cs {
				v := c.VisitorOf(fmt.Sprintf("10.0.0.%d", i), ua)
				c.Count(v, p.ID, store.StatView, "")
				c.CountAll(v, []int64{p.ID}, store.StatAppearance)
			}
		}
		if round == 1 {
			count("2026-03-21")
		}
	}
	if got := count("2026-03-21"); got[store.StatView] != 20 || got[store.StatAppearance] != 20 {
		t.Fatalf("counts across two replicas: %v, want 20 views and 20 appearances (each visitor once)", got)
	}

	mu.Lock()
	now = now.Add(24 * time.Hour)
	mu.Unlock()
	for _, c := range cs {
		c.Count(c.VisitorOf("10.0.0.1", ua), p.ID, store.StatView, "")
	}
	if got := count("2026-03-22"); got[store.StatView] != 1 {
		t.Fatalf("the next day: %v, want the visitor's view once", got)
	}
	// The day before's marks and key go with the leader's prune; today's stay.
	if _, err := a.PruneShared(ctx, "2026-03-22"); err != nil {
		t.Fatal(err)
	}
	var old, today int
	if err := a.DB().QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM stats_seen WHERE day < '2026-03-22') + (SELECT COUNT(*) FROM stats_keys WHERE day < '2026-03-22'),
		(SELECT COUNT(*) FROM stats_seen WHERE day = '2026-03-22')`).Scan(&old, &today); err != nil {
		t.Fatal(err)
	}
	if old != 0 || today != 1 {
		t.Fatalf("after the prune: %d rows of past days left (want 0), %d marks of today (want 1)", old, today)
	}
}
