package store_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kardan/store"
	"kardan/store/storetest"
)

// On SQLite the one process's memory is the site's: the shared forms refuse, so nobody uses
// them by mistake.
func TestSharedFormsRefuseOnSQLite(t *testing.T) {
	st := storetest.OpenSQLite(t)
	ctx := context.Background()
	if _, _, err := st.TakeToken(ctx, "search", "a", 1, 1, time.Now()); !errors.Is(err, store.ErrNotShared) {
		t.Errorf("TakeToken on SQLite: got %v, want ErrNotShared", err)
	}
	if err := st.AddStatsMarked(ctx, []store.StatMark{{ProfileID: 1, Day: "2026-03-21", Kind: store.StatView, Mark: 1}}); !errors.Is(err, store.ErrNotShared) {
		t.Errorf("AddStatsMarked on SQLite: got %v, want ErrNotShared", err)
	}
	if n, err := st.PruneShared(ctx, "2026-03-21"); n != 0 || err != nil {
		t.Errorf("PruneShared on SQLite: got %d, %v; want 0, nil", n, err)
	}
}

// A bucket of burst 5 refilled at 1 a second, shared by two replicas: one client taking from
// both, in turn and all at once, gets 5 in total, not 10; a second later one more.
func TestSharedBucketHoldsAcrossReplicas(t *testing.T) {
	rs := replicas(t, 2)
	ctx := context.Background()
	now := time.Unix(1_800_000_000, 0)
	took := 0
	for i := 0; i < 10; i++ {
		ok, wait, err := rs[i%2].TakeToken(ctx, "search", "203.0.113.7", 1, 5, now)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			took++
		} else if wait != time.Second {
			t.Errorf("take %d refused with a wait of %v, want 1s", i+1, wait)
		}
	}
	if took != 5 {
		t.Fatalf("two replicas allowed %d of a burst of 5", took)
	}
	if ok, _, _ := rs[1].TakeToken(ctx, "search", "198.51.100.9", 1, 5, now); !ok {
		t.Error("another client was refused")
	}
	if ok, _, _ := rs[0].TakeToken(ctx, "stats_beacon", "203.0.113.7", 1, 5, now); !ok {
		t.Error("another limit of the same client was refused")
	}
	// A replica whose clock is behind neither refills the bucket nor winds it back.
	if ok, _, _ := rs[1].TakeToken(ctx, "search", "203.0.113.7", 1, 5, now.Add(-time.Minute)); ok {
		t.Error("a replica with a slow clock was given a token")
	}
	now = now.Add(time.Second)
	if ok, _, _ := rs[1].TakeToken(ctx, "search", "203.0.113.7", 1, 5, now); !ok {
		t.Error("the token refilled after a second was refused")
	}
	if ok, _, _ := rs[0].TakeToken(ctx, "search", "203.0.113.7", 1, 5, now); ok {
		t.Error("more than the refill was allowed")
	}

	// All at once: 40 takes from both replicas, of a fresh burst of 7.
	var granted atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(st *store.Store) {
			defer wg.Done()
			ok, _, err := st.TakeToken(ctx, "search", "192.0.2.1", 0.001, 7, now)
			if err != nil {
				t.Error(err)
			}
			if ok {
				granted.Add(1)
			}
		}(rs[i%2])
	}
	wg.Wait()
	if n := granted.Load(); n != 7 {
		t.Fatalf("40 concurrent takes on two replicas: %d granted, want the burst of 7", n)
	}
}

// A mark flushed by two replicas, or twice by one (a flush whose answer was lost), counts once;
// PruneShared deletes the past days' marks and the idle buckets.
func TestMarkedStatsCountOnceAcrossReplicas(t *testing.T) {
	rs := replicas(t, 2)
	ctx := context.Background()
	storetest.Seed(t, rs[0])
	owner := &store.User{NumberPhone: "09120000001", Name: "Owner", PasswordHash: "x"}
	if err := rs[0].CreateUser(ctx, owner); err != nil {
		t.Fatal(err)
	}
	p, err := rs[0].CreateProfile(ctx, owner.ID, &store.ProfileInput{ProfileName: "Plumbing", ProvinceID: 1, CityID: 1, RangeWorker: 1, CategoryList: []int64{101}}, false)
	if err != nil {
		t.Fatal(err)
	}
	view := func(mark int64, day string) store.StatMark {
		return store.StatMark{ProfileID: p.ID, Day: day, Kind: store.StatView, Mark: mark}
	}
	for _, step := range []struct {
		st    *store.Store
		marks []store.StatMark
	}{
		{rs[0], []store.StatMark{view(1, "2026-03-21"), view(2, "2026-03-21")}},
		{rs[1], []store.StatMark{view(2, "2026-03-21"), view(3, "2026-03-21"), view(2, "2026-03-22")}},
		{rs[1], []store.StatMark{view(3, "2026-03-21")}},
		{rs[0], []store.StatMark{{ProfileID: p.ID + 1000, Day: "2026-03-21", Kind: store.StatView, Mark: 9}}}, // purged since
	} {
		if err := step.st.AddStatsMarked(ctx, step.marks); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := rs[1].ProfileStats(ctx, p.ID, "2026-03-21", "2026-03-22")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, r := range rows {
		got[r.Day] += r.N
	}
	if got["2026-03-21"] != 3 || got["2026-03-22"] != 1 {
		t.Fatalf("views by day: got %v, want 3 on the 21st (marks 1, 2, 3) and 1 on the 22nd", got)
	}

	rs[0].Now = func() time.Time { return time.Unix(1_800_000_000, 0) }
	if _, _, err := rs[0].TakeToken(ctx, "search", "old", 1, 5, time.Unix(1_800_000_000, 0).Add(-2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := rs[0].TakeToken(ctx, "search", "recent", 1, 5, time.Unix(1_800_000_000, 0).Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	n, err := rs[0].PruneShared(ctx, "2026-03-22")
	if err != nil {
		t.Fatal(err)
	}
	// The old bucket, the 21st's four marks (1, 2, 3 and the purged profile's 9).
	if n != 5 {
		t.Errorf("pruned %d rows, want 5", n)
	}
	var left int
	if err := rs[0].DB().QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM limit_buckets) + (SELECT COUNT(*) FROM stats_seen)`).Scan(&left); err != nil || left != 2 {
		t.Errorf("left after pruning: %d rows (%v), want 2 (the recent bucket, the 22nd's mark)", left, err)
	}
}
