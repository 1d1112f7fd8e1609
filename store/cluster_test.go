package store_test

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"kardan/store"
	"kardan/store/storetest"
)

// replicas opens n stores on one PostgreSQL database, as n replicas of Kardan would.
func replicas(t *testing.T, n int) []*store.Store {
	t.Helper()
	if !storetest.Postgres() {
		t.Skip("replicas share a PostgreSQL database: run with " + storetest.EngineEnv + "=postgres")
	}
	first := storetest.Open(t)
	out := []*store.Store{first}
	for i := 1; i < n; i++ {
		st, err := store.Open(context.Background(), first.Path())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		out = append(out, st)
	}
	return out
}

// The outbox gap: with several writers, a row drawn earlier can commit later, and a follower
// that moved its cursor past the later id would never see it. Two replicas append from eight
// writers whose transactions sleep a random while after drawing their id (so, without the
// writer lock, they would commit out of order), while a follower reads `id > cursor` as the
// index does. It must see every row exactly once.
func TestOutboxHasNoGapAcrossWriters(t *testing.T) {
	rs := replicas(t, 2)
	ctx := context.Background()
	const writers, each = 8, 20
	stop := make(chan struct{})
	seen := map[int64]int{}
	var cursor int64
	follow := func() {
		rows, err := rs[0].OutboxAfter(ctx, cursor, 1000)
		if err != nil {
			t.Error(err)
			return
		}
		for _, r := range rows {
			seen[r.ID]++
			cursor = r.ID
		}
	}
	followed := make(chan struct{})
	go func() {
		defer close(followed)
		for {
			select {
			case <-stop:
				follow()
				return
			default:
				follow()
			}
		}
	}()
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(st *store.Store) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				err := st.TxForTest(ctx, func(tx *sql.Tx) error {
					if err := store.QueueIndexForTest(ctx, tx, int64(i)); err != nil {
						return err
					}
					time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}(rs[w%2])
	}
	wg.Wait()
	close(stop)
	<-followed
	if len(seen) != writers*each {
		t.Fatalf("the follower saw %d of %d rows: it skipped rows that committed after a higher id", len(seen), writers*each)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("row %d seen %d times", id, n)
		}
	}
}

// A transaction holding an outbox id blocks the other replica's appends until it commits, so ids
// commit in the order they were drawn: the deterministic half of the test above.
func TestOutboxAppendsCommitInIDOrder(t *testing.T) {
	rs := replicas(t, 2)
	ctx := context.Background()
	drawn, release := make(chan struct{}), make(chan struct{})
	aDone, bDone := make(chan error, 1), make(chan error, 1)
	go func() {
		aDone <- rs[0].TxForTest(ctx, func(tx *sql.Tx) error {
			if err := store.QueueIndexForTest(ctx, tx, 1); err != nil {
				return err
			}
			close(drawn)
			<-release
			return nil
		})
	}()
	<-drawn
	released := false
	defer func() {
		if !released {
			close(release) // a failed test must not leave A's transaction holding the writer
		}
	}()
	go func() {
		bDone <- rs[1].TxForTest(ctx, func(tx *sql.Tx) error { return store.QueueIndexForTest(ctx, tx, 2) })
	}()
	select {
	case err := <-bDone:
		t.Fatalf("replica B committed (%v) while A held an earlier outbox id uncommitted", err)
	case <-time.After(300 * time.Millisecond):
	}
	if rows, _ := rs[1].OutboxAfter(ctx, 0, 10); len(rows) != 0 {
		t.Fatalf("a follower saw %v before the first append committed", rows)
	}
	close(release)
	released = true
	if err := <-aDone; err != nil {
		t.Fatal(err)
	}
	if err := <-bDone; err != nil {
		t.Fatal(err)
	}
	rows, err := rs[1].OutboxAfter(ctx, 0, 10)
	if err != nil || len(rows) != 2 || rows[0].EntityID != 1 || rows[1].EntityID != 2 {
		t.Fatalf("got %+v (%v), want A's row then B's", rows, err)
	}
}

// One replica leads; when its connection is killed the other takes over within a few tries,
// and the old leader steps down.
func TestLeadershipMovesWhenTheLeaderDies(t *testing.T) {
	rs := replicas(t, 2)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, st := range rs {
		wg.Add(1)
		go func() { defer wg.Done(); st.RunLeadership(ctx, 50*time.Millisecond) }()
	}
	defer func() { cancel(); wg.Wait() }()
	leaders := func() (n int, who int) {
		for i, st := range rs {
			if st.IsLeader() {
				n, who = n+1, i
			}
		}
		return
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); !ok(); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	waitFor("a leader", func() bool { n, _ := leaders(); return n == 1 })
	_, first := leaders()
	// Kill the leader's session, as a crash or a cut cable would end it.
	if _, err := rs[1-first].DB().Exec(`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	waitFor("the other replica to lead alone", func() bool { n, who := leaders(); return n == 1 && who == 1-first })
	t.Logf("leadership moved in %v", time.Since(start))
	// It stays put: the old leader does not take it back.
	time.Sleep(200 * time.Millisecond)
	if n, who := leaders(); n != 1 || who != 1-first {
		t.Fatalf("after the handover: %d leaders, replica %d", n, who)
	}
}

// A rate limit holds for the cluster: 100 callers split over three replicas reserve against one
// limit of 10 at once, and exactly 10 get through.
func TestRateLimitHoldsAcrossReplicas(t *testing.T) {
	rs := replicas(t, 3)
	ctx := context.Background()
	l := store.Limit{Kind: "test", Key: "cluster", Max: 10, Window: time.Hour}
	start := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	got, refused := 0, 0
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func(st *store.Store) {
			defer wg.Done()
			<-start
			_, err := st.RateReserve(ctx, l)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				got++
			case store.ErrorCode(err) == store.ETooMany:
				refused++
			default:
				t.Error(err)
			}
		}(rs[i%3])
	}
	close(start)
	wg.Wait()
	if got != 10 || refused != 90 {
		t.Fatalf("got %d reserved and %d refused across 3 replicas, want 10 and 90", got, refused)
	}
}
