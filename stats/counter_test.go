package stats_test

import (
	"context"
	"encoding/base64"
	"encoding/hex"
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
	c, err := stats.NewCounter(st, clock, tehran, nil)
	if err != nil {
		t.Fatal(err)
	}
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
	c, err := stats.NewCounter(st, nil, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
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

// On PostgreSQL two replicas' counters given the same secret derive the same day's key and
// share the marks: visitors whose requests reach both (round robin) are counted once a day,
// whichever flushes first, and a new day has a new key, the same on both too. The key itself is
// nowhere in the database.
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
	secret := []byte("the cluster's secret, 32 bytes!!")
	cs := make([]*stats.Counter, 2)
	for i, st := range []*store.Store{a, b} {
		if cs[i], err = stats.NewCounter(st, clock, time.UTC, secret); err != nil {
			t.Fatal(err)
		}
	}
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
	// Neither day's key is in any table, in any encoding a column could hold it in.
	for _, day := range []string{"2026-03-21", "2026-03-22"} {
		assertNotStored(t, a, stats.DayKey(secret, day))
	}
	// The day before's marks go with the leader's prune; today's stay.
	if _, err := a.PruneShared(ctx, "2026-03-22"); err != nil {
		t.Fatal(err)
	}
	var old, today int
	if err := a.DB().QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM stats_seen WHERE day < '2026-03-22'),
		(SELECT COUNT(*) FROM stats_seen WHERE day = '2026-03-22')`).Scan(&old, &today); err != nil {
		t.Fatal(err)
	}
	if old != 0 || today != 1 {
		t.Fatalf("after the prune: %d rows of past days left (want 0), %d marks of today (want 1)", old, today)
	}
}

// Without a secret each replica draws its own day's key, as one process does: the same visitor
// reaching both replicas counts once on each (the documented cost of leaving --stats-secret out).
func TestCounterReplicasWithoutSecret(t *testing.T) {
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
	clock := func() time.Time { return time.Date(2026, 3, 21, 8, 0, 0, 0, time.UTC) }
	for _, st := range []*store.Store{a, b} {
		c, err := stats.NewCounter(st, clock, time.UTC, nil)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			c.Count(c.VisitorOf("10.0.0.1", "Mozilla/5.0 Firefox/140.0"), p.ID, store.StatView, "")
		}
		if err := c.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := a.ProfileStats(ctx, p.ID, "2026-03-21", "2026-03-21")
	if err != nil {
		t.Fatal(err)
	}
	var views int64
	for _, r := range rows {
		views += r.N
	}
	if views != 2 {
		t.Fatalf("one visitor through two replicas without a secret: %d views, want 2 (once on each)", views)
	}
	if _, err := stats.NewCounter(a, clock, time.UTC, []byte("short")); err == nil {
		t.Fatal("a 5-byte secret was taken")
	}
}

// assertNotStored fails when key is in any table of st's schema, as bytes (bytea's hex text),
// as hex or as base64 within a row's text.
func assertNotStored(t *testing.T, st *store.Store, key [32]byte) {
	t.Helper()
	ctx := context.Background()
	rows, err := st.DB().QueryContext(ctx, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	if len(tables) < 10 {
		t.Fatalf("found only %d tables: %v", len(tables), tables)
	}
	hexKey := hex.EncodeToString(key[:])
	b64 := base64.StdEncoding.EncodeToString(key[:])
	for _, name := range tables {
		if name == "stats_keys" {
			t.Errorf("the table stats_keys still exists")
		}
		var n int
		q := fmt.Sprintf(`SELECT COUNT(*) FROM %q r WHERE strpos(lower(r::text), ?) > 0 OR strpos(r::text, ?) > 0`, name)
		if err := st.DB().QueryRowContext(ctx, q, hexKey, b64).Scan(&n); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n != 0 {
			t.Errorf("the day's key is in %d rows of %s", n, name)
		}
	}
}
