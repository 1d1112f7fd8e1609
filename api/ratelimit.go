package api

import (
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/mux"

	"kardan/store"
)

// limitedRoutes are the route templates the in-memory per-address limiter guards: the public
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

// tokenBucket limits requests per key (a client address): each key has up to burst tokens,
// refilled at rate per second, and a request takes one.
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
	if el := now.Sub(b.last).Seconds(); el > 0 {
		b.tokens = math.Min(l.burst, b.tokens+el*l.rate)
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
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
				if ok, wait := s.searchLimit.allow(s.addrKeyOf(r)); !ok {
					writeError(w, r, store.TooMany(int64(math.Ceil(wait.Seconds()))))
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}
