package main

import (
	"context"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"kardan/search"
)

// request is one call of a workload. Query (a search), Slug (a profile page) or CommentsOf (a
// profile's comments) is what the in-process harness answers instead of the HTTP call.
type request struct {
	Method     string
	Path       string
	Body       []byte
	Query      *search.ProfileQuery
	Slug       string
	CommentsOf int64
}

// loadConfig bounds one measured run: a fixed number of clients, a warm-up whose answers are
// thrown away, then at most Duration and at most MaxRequests.
type loadConfig struct {
	Clients     int
	Warmup      time.Duration
	Duration    time.Duration
	MaxRequests int64
	// OnMeasure, when set, is called as the measured phase starts (after the warm-up).
	OnMeasure func()
}

// caller performs one request and answers the size of the answer body.
type caller func(ctx context.Context, r *request) (int, error)

// result is one workload measured against one target.
type result struct {
	Target    string  `json:"target"`
	Workload  string  `json:"workload"`
	Requests  int64   `json:"requests"`
	Errors    int64   `json:"errors"`
	Seconds   float64 `json:"seconds"`
	RPS       float64 `json:"rps"`
	P50       float64 `json:"p50_ms"`
	P95       float64 `json:"p95_ms"`
	P99       float64 `json:"p99_ms"`
	Max       float64 `json:"max_ms"`
	MeanBytes float64 `json:"mean_bytes"`
	// ServerP50 and ServerP99 are Kardan's own timings of the measured requests (its request
	// log), without the client, the loopback and the queue before the handler.
	ServerP50 float64 `json:"server_p50_ms,omitempty"`
	ServerP99 float64 `json:"server_p99_ms,omitempty"`
	// FirstError is the first failure seen, so a broken peer shows why in the report.
	FirstError string `json:"first_error,omitempty"`
	// Stalled counts the requests, among Errors, of a client that got no answer within a whole
	// slice and was cut off at its end (see loadPhase).
	Stalled int64 `json:"stalled,omitempty"`
}

// runLoad drives reqs through call with cfg.Clients concurrent clients: a warm-up, then one
// measured phase.
func runLoad(ctx context.Context, cfg loadConfig, reqs []request, call caller) result {
	if len(reqs) == 0 {
		return result{FirstError: "no requests"}
	}
	if cfg.Warmup > 0 {
		loadPhase(ctx, cfg.Clients, reqs, call, cfg.Warmup, 0, nil, nil)
	}
	if cfg.OnMeasure != nil {
		cfg.OnMeasure()
	}
	var t tally
	loadPhase(ctx, cfg.Clients, reqs, call, cfg.Duration, cfg.MaxRequests, nil, &t)
	return t.result()
}

// target is one of the targets measured side by side: its call, and what to do as its measured
// requests begin (Kardan's request log is marked there).
type target struct {
	name      string
	call      caller
	onMeasure func()
}

// runAlternating measures two targets on the same requests in alternating slices (runRotating);
// onMeasureB is called before b's first slice.
func runAlternating(ctx context.Context, cfg loadConfig, slices int, reqs []request, a, b caller, onMeasureB func()) (result, result) {
	rs := runRotating(ctx, cfg, slices, reqs, []target{{name: "a", call: a}, {name: "b", call: b, onMeasure: onMeasureB}})
	return rs[0], rs[1]
}

// runRotating measures every target on the same requests in turn, slice after slice of the
// measured time (a warm-up of each first): on a shared machine whose load drifts, targets
// measured one after the other meet different loads, and their ratio moves with it (a separate
// phase moved a ratio from 30x to 16x within one hour); slices a couple of seconds apart meet the
// same load. Each target's clients walk on through the request list from slice to slice, as in
// one long phase.
func runRotating(ctx context.Context, cfg loadConfig, slices int, reqs []request, ts []target) []result {
	out := make([]result, len(ts))
	if len(reqs) == 0 {
		for i := range out {
			out[i] = result{FirstError: "no requests"}
		}
		return out
	}
	if cfg.Warmup > 0 {
		for _, t := range ts {
			loadPhase(ctx, cfg.Clients, reqs, t.call, cfg.Warmup, 0, nil, nil)
		}
	}
	for _, t := range ts {
		if t.onMeasure != nil {
			t.onMeasure()
		}
	}
	slices = max(1, slices)
	d, limit := cfg.Duration/time.Duration(slices), cfg.MaxRequests/int64(slices)
	if cfg.MaxRequests > 0 {
		limit = max(1, limit)
	}
	pos := make([][]int, len(ts))
	tallies := make([]tally, len(ts))
	for i := range ts {
		pos[i] = startPositions(cfg.Clients, len(reqs))
	}
	for s := 0; s < slices && ctx.Err() == nil; s++ {
		for i, t := range ts {
			loadPhase(ctx, cfg.Clients, reqs, t.call, d, limit, pos[i], &tallies[i])
		}
	}
	for i, t := range ts {
		out[i] = tallies[i].result()
		out[i].Target = t.name
	}
	return out
}

// startPositions spreads the clients over the request list, so they do not ask the same query
// at the same time.
func startPositions(clients, n int) []int {
	pos := make([]int, clients)
	for c := range pos {
		pos[c] = c * n / clients
	}
	return pos
}

// tally adds up the measured phases of one target.
type tally struct {
	hist                    histogram
	n, errs, bytes, stalled int64
	took                    time.Duration
	firstErr                string
}

func (t *tally) result() result {
	res := result{Requests: t.n, Errors: t.errs, Seconds: t.took.Seconds(), FirstError: t.firstErr, Stalled: t.stalled}
	if t.took > 0 {
		res.RPS = float64(t.hist.n) / t.took.Seconds()
	}
	if h := &t.hist; h.n > 0 {
		res.P50, res.P95, res.P99 = h.quantile(0.50), h.quantile(0.95), h.quantile(0.99)
		res.Max = float64(h.max.Microseconds()) / 1000
		res.MeanBytes = float64(t.bytes) / float64(h.n)
	}
	return res
}

// loadPhase drives reqs through call with clients concurrent clients for d (and at most limit
// requests when limit > 0). Client c starts at pos[c] and leaves there the request it would ask
// next (nil pos: the start positions). With t nil the answers are not counted (a warm-up).
//
// The request a client has in flight when the phase ends is cut off: neither a sample nor an
// error, as it is only the clock that ended it. But a client that got no answer in the whole
// phase (a write waiting for its index past the slice's end) counts that request as an error: a
// target whose every request outlasted its slices showed 0 req/s and 0 errors.
func loadPhase(ctx context.Context, clients int, reqs []request, call caller, d time.Duration, limit int64, pos []int, t *tally) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	if pos == nil {
		pos = startPositions(clients, len(reqs))
	}
	var count, errCount, byteCount, stalled atomic.Int64
	var errOnce sync.Once
	var firstErr string
	hists := make([]*histogram, clients)
	var wg sync.WaitGroup
	start := time.Now()
	for c := 0; c < clients; c++ {
		hists[c] = &histogram{}
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			h := hists[c]
			i := pos[c]
			answered := 0
			defer func() { pos[c] = i % len(reqs) }()
			for ctx.Err() == nil {
				if limit > 0 && count.Add(1) > limit {
					return
				}
				r := &reqs[i%len(reqs)]
				i++
				t0 := time.Now()
				size, err := call(ctx, r)
				lat := time.Since(t0)
				if ctx.Err() != nil {
					if answered == 0 {
						stalled.Add(1)
						errOnce.Do(func() {
							firstErr = fmt.Sprintf("no answer within a whole slice (%v): cut off at its end", d.Round(time.Millisecond))
						})
					}
					return // cut off by the deadline
				}
				answered++
				if limit <= 0 {
					count.Add(1)
				}
				if err != nil {
					errCount.Add(1)
					errOnce.Do(func() { firstErr = err.Error() })
					continue
				}
				byteCount.Add(int64(size))
				h.record(lat)
			}
		}(c)
	}
	wg.Wait()
	if t == nil {
		return
	}
	t.took += time.Since(start)
	var n int64
	for _, h := range hists {
		t.hist.merge(h)
		n += h.n
	}
	t.n += n + errCount.Load() + stalled.Load()
	t.errs += errCount.Load() + stalled.Load()
	t.stalled += stalled.Load()
	t.bytes += byteCount.Load()
	if t.firstErr == "" {
		t.firstErr = firstErr
	}
}

// histogram counts latencies in logarithmic buckets with 32 steps per power of two (at most
// about 3% error), so percentiles need no list of every sample.
type histogram struct {
	counts [64 * subBuckets]uint64
	n      int64
	max    time.Duration
}

const subBits = 5
const subBuckets = 1 << subBits

func bucketOf(ns uint64) int {
	if ns < subBuckets {
		return int(ns)
	}
	l := bits.Len64(ns) // at least subBits+1
	shift := l - subBits - 1
	m := ns >> shift // in [32, 64)
	return (shift+1)*subBuckets + int(m-subBuckets)
}

// bucketMid answers the middle of bucket i, in nanoseconds.
func bucketMid(i int) float64 {
	if i < subBuckets {
		return float64(i)
	}
	shift := i/subBuckets - 1
	m := uint64(i%subBuckets + subBuckets)
	lo := m << shift
	hi := (m + 1) << shift
	return float64(lo+hi) / 2
}

func (h *histogram) record(d time.Duration) {
	if d < 0 {
		d = 0
	}
	h.counts[bucketOf(uint64(d))]++
	h.n++
	if d > h.max {
		h.max = d
	}
}

func (h *histogram) merge(o *histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	if o.max > h.max {
		h.max = o.max
	}
}

// quantile answers the q-th quantile in milliseconds.
func (h *histogram) quantile(q float64) float64 {
	rank := uint64(q * float64(h.n))
	if rank >= uint64(h.n) {
		rank = uint64(h.n) - 1
	}
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen > rank {
			return bucketMid(i) / 1e6
		}
	}
	return float64(h.max) / 1e6
}
