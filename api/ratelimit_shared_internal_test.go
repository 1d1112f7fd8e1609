package api

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"kardan/store"
	"kardan/store/storetest"
)

// The fast path against the plain one: the in-memory bucket SQLite uses and the shared bucket of
// PostgreSQL answer the same allow or refuse, and the same wait, for the same requests at the
// same (fake) times: bursts, refills to the microsecond, exact boundaries and idle spells.
func TestSharedBucketMatchesMemory(t *testing.T) {
	if !storetest.Postgres() {
		t.Skip("the shared bucket lives on PostgreSQL: run with " + storetest.EngineEnv + "=postgres")
	}
	st := storetest.Open(t)
	now := time.Unix(1_800_000_000, 0)
	st.Now = func() time.Time { return now }
	ctx := context.Background()
	for _, c := range []struct {
		rate  float64
		burst int
	}{{2, 3}, {30, 60}, {0.5, 1}, {7, 0}} {
		mem := newTokenBucket(c.rate, c.burst, func() time.Time { return now })
		shared := newLimiter(st, fmt.Sprintf("match-%v-%d", c.rate, c.burst), c.rate, c.burst)
		if _, ok := shared.(*sharedBucket); !ok {
			t.Fatalf("on PostgreSQL the limiter is a %T, want the shared bucket", shared)
		}
		allowed, refused := 0, 0
		rng := rand.New(rand.NewPCG(1, uint64(c.burst)))
		// Whole microseconds: the shared table keeps times as Unix microseconds (a step of a third
		// of a second in nanoseconds would truncate differently: a microsecond of refill apart).
		steps := []time.Duration{0, 0, time.Microsecond, time.Millisecond, 500 * time.Millisecond, 333_334 * time.Microsecond, 333_333 * time.Microsecond, 2 * time.Second, time.Minute}
		for i := 0; i < 200; i++ {
			now = now.Add(steps[rng.IntN(len(steps))])
			key := fmt.Sprintf("203.0.113.%d", rng.IntN(3))
			n := 1
			if rng.IntN(10) == 0 {
				n = int(mem.burst) + 3 // a burst past the bucket at one instant
			}
			for j := 0; j < n; j++ {
				mOK, mWait := mem.take(ctx, key)
				sOK, sWait := shared.take(ctx, key)
				if mOK != sOK || mWait != sWait {
					t.Fatalf("rate %v burst %d, request %d.%d (%s at %v): memory answered %v %v, shared %v %v",
						c.rate, c.burst, i+1, j+1, key, now.Format(time.StampMicro), mOK, mWait, sOK, sWait)
				}
				if mOK {
					allowed++
				} else {
					refused++
				}
			}
		}
		if allowed == 0 || refused == 0 {
			t.Errorf("rate %v burst %d: %d allowed, %d refused: the sequence must try both", c.rate, c.burst, allowed, refused)
		}
	}
}

// SQLite keeps the in-memory bucket: no database round trip per search.
func TestLimiterOnSQLiteIsInMemory(t *testing.T) {
	st := storetest.OpenSQLite(t)
	if _, ok := newLimiter(st, "search", 10, 20).(*tokenBucket); !ok {
		t.Fatal("on SQLite the limiter is not the in-memory bucket")
	}
	if newLimiter(st, "search", 0, 20) != nil {
		t.Fatal("rate 0 made a limiter")
	}
}

// When the shared table cannot answer (a cancelled request, a closed pool: what a flood that
// exhausts the database looks like from here), the limit falls back to the replica's own
// bucket: the burst goes through and the request after it is refused, never everything allowed.
func TestSharedBucketFallsBackToMemory(t *testing.T) {
	if !storetest.Postgres() {
		t.Skip("the shared bucket lives on PostgreSQL: run with " + storetest.EngineEnv + "=postgres")
	}
	st := storetest.Open(t)
	closed, err := store.Open(context.Background(), st.Path())
	if err != nil {
		t.Fatal(err)
	}
	if err := closed.Close(); err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	for name, c := range map[string]struct {
		st  *store.Store
		ctx func() context.Context
	}{
		"CancelledContext": {st, func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}},
		"ClosedPool": {closed, context.Background},
	} {
		t.Run(name, func(t *testing.T) {
			c.st.Now = func() time.Time { return now }
			l := newLimiter(c.st, "fallback", 1, 5)
			if _, ok := l.(*sharedBucket); !ok {
				t.Fatalf("on PostgreSQL the limiter is a %T, want the shared bucket", l)
			}
			for i := range 5 {
				if ok, _ := l.take(c.ctx(), "203.0.113.9"); !ok {
					t.Fatalf("request %d of the burst refused", i+1)
				}
			}
			ok, wait := l.take(c.ctx(), "203.0.113.9")
			if ok || wait != time.Second {
				t.Fatalf("past the burst without the table: allowed %v, wait %v; want refused, 1s", ok, wait)
			}
			if ok, _ := l.take(c.ctx(), "203.0.113.10"); !ok {
				t.Fatal("another address refused: the fallback is per address")
			}
		})
	}
}
