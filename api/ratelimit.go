package api

import (
	"context"
	"log/slog"
	"math"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"

	"kardan/store"
)

// limitedRoutes are the route templates the per-address search limiter guards: the public
// searches, which cost the most CPU of anything an anonymous client can ask for. Writes have
// limits of their own in the database (rate_events), which survive restarts.
var limitedRoutes = map[string]bool{
	"/v1/user-technical/searchUser":     true,
	"/v1/user-technical/searchUserSlag": true,
	"/v1/blog/search":                   true,
	"/v1/search/suggest":                true,
}

// maxBuckets bounds the limiter's memory: beyond it, idle buckets are dropped, and if every one
// is busy the table starts afresh (a burst of new addresses then gets one free burst each).
const maxBuckets = 100_000

// limiter answers whether key (a client address) may make one more request now, or how long
// until it may.
type limiter interface {
	take(ctx context.Context, key string) (bool, time.Duration)
}

// newLimiter answers the limiter of kind at rate a second with bursts of burst, or nil (no
// limit) when rate is not positive. On PostgreSQL the buckets are shared by every replica
// (sharedBucket), so N replicas allow a client what one would; on SQLite the one process's
// memory is the whole site's (tokenBucket), and a take costs no database round trip.
func newLimiter(st *store.Store, kind string, rate float64, burst int) limiter {
	l := newTokenBucket(rate, burst, nil)
	if l == nil {
		return nil
	}
	if st.IsPostgres() {
		// The memory bucket stays as the fallback for when the table cannot answer, on the
		// store's clock like the shared one.
		l.now = func() time.Time { return st.Now() }
		return &sharedBucket{st: st, kind: kind, rate: l.rate, burst: l.burst, local: l}
	}
	return l
}

// tokenBucket limits requests per key (a client address) in memory: each key has up to burst
// tokens, refilled at rate per second, and a request takes one.
type tokenBucket struct {
	rate, burst float64
	now         func() time.Time

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

// newTokenBucket answers a limiter, or nil (no limit) when rate is not positive.
func newTokenBucket(rate float64, burst int, now func() time.Time) *tokenBucket {
	if rate <= 0 {
		return nil
	}
	if burst < 1 {
		burst = int(math.Ceil(rate))
	}
	if now == nil {
		now = time.Now
	}
	return &tokenBucket{rate: rate, burst: float64(burst), now: now, buckets: map[string]*bucket{}}
}

// allow takes a token for key, or answers how long until one is free.
func (l *tokenBucket) allow(key string) (bool, time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) > time.Minute || len(l.buckets) >= maxBuckets {
		l.sweep(now)
	}
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	// Whole microseconds, as the shared bucket counts them, so both answer alike.
	if el := float64(now.Sub(b.last)/time.Microsecond) / 1e6; el > 0 {
		b.tokens = math.Min(l.burst, b.tokens+el*l.rate)
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}

func (l *tokenBucket) take(_ context.Context, key string) (bool, time.Duration) { return l.allow(key) }

// sharedBucketWait bounds a take on the shared table: a database that cannot answer this fast
// sends the request to the replica's own bucket rather than stall every search behind it.
const sharedBucketWait = time.Second

// sharedBucket is tokenBucket's arithmetic on the store's limit_buckets table (store.TakeToken):
// one statement per request, outside the writer lock, on the store's clock.
type sharedBucket struct {
	st          *store.Store
	kind        string
	rate, burst float64
	// local is the replica's own bucket, used while the table cannot answer: failing open would
	// lift the limit exactly when a flood has exhausted the database, so the limit falls back
	// to one per replica (N replicas then allow at most N times the limit).
	local  *tokenBucket
	warned atomic.Int64 // Unix seconds of the last warning, so an outage logs once a minute
}

func (l *sharedBucket) take(ctx context.Context, key string) (bool, time.Duration) {
	tctx, cancel := context.WithTimeout(ctx, sharedBucketWait)
	defer cancel()
	ok, wait, err := l.st.TakeToken(tctx, l.kind, key, l.rate, l.burst, l.st.Now())
	if err != nil {
		if now := time.Now().Unix(); now-l.warned.Load() >= 60 {
			l.warned.Store(now)
			slog.Warn("rate limit: the shared bucket cannot be reached; limiting per replica meanwhile", "limit", l.kind, "err", err)
		}
		return l.local.allow(key)
	}
	return ok, wait
}

// sweep drops the buckets that have refilled completely: forgetting them changes nothing.
func (l *tokenBucket) sweep(now time.Time) {
	l.lastSweep = now
	full := time.Duration(l.burst / l.rate * float64(time.Second))
	for k, b := range l.buckets {
		if now.Sub(b.last) >= full {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) >= maxBuckets {
		l.buckets = map[string]*bucket{}
	}
}

// limitSearch is router middleware: on the limited routes, a client address over its rate is
// answered 429 with Retry-After in the envelope, before any work is done.
func (s *Server) limitSearch(next http.Handler) http.Handler {
	if s.searchLimit == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if cur := mux.CurrentRoute(r); cur != nil {
			if t, err := cur.GetPathTemplate(); err == nil && limitedRoutes[t] {
				if ok, wait := s.searchLimit.take(r.Context(), s.addrKeyOf(r)); !ok {
					writeError(w, r, store.TooMany(int64(math.Ceil(wait.Seconds()))))
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}
