package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

func TestHistogramQuantiles(t *testing.T) {
	h := &histogram{}
	for i := 1; i <= 1000; i++ {
		h.record(time.Duration(i) * time.Millisecond)
	}
	for _, tc := range []struct{ q, want float64 }{{0.5, 500}, {0.95, 950}, {0.99, 990}} {
		got := h.quantile(tc.q)
		if got < tc.want*0.97 || got > tc.want*1.03 {
			t.Errorf("quantile %.2f: got %.1f ms, want %.0f ms within 3%%", tc.q, got, tc.want)
		}
	}
	if h.max != time.Second {
		t.Errorf("max: got %v, want 1s", h.max)
	}
}

func TestBucketsAreContinuous(t *testing.T) {
	prev := -1
	for ns := uint64(0); ns < 1<<20; ns++ {
		b := bucketOf(ns)
		if b != prev && b != prev+1 {
			t.Fatalf("bucket of %d: got %d after %d", ns, b, prev)
		}
		prev = b
	}
}

func TestFixedJSONSize(t *testing.T) {
	for _, n := range []int{40, 100, 25000} {
		if got := len(fixedJSON(n)); got != n {
			t.Errorf("fixedJSON(%d): got %d bytes", n, got)
		}
	}
}

// The peers' query: stop words left out, the last word as a prefix, words written together when
// the index knows that spelling, and a typo corrected only for an unknown word of five letters or
// more, to the known words one edit away, most documents first.
func TestPeerQuery(t *testing.T) {
	lx := newTypoLexicon(map[string]int{"لوله": 50, "کش": 40, "لولهکش": 30, "خوشنویسی": 9, "خوشنویس": 7, "برق": 20, "کار": 90})
	for _, tc := range []struct {
		tokens      []string
		pg, sqliteQ string
	}{
		{[]string{"لوله"}, "'لوله':*", `{name body} : ("لوله"*)`},
		{[]string{"لوله", "کش"}, "('لوله' & 'کش') | 'لولهکش'", `{name body} : (("لوله" AND "کش") OR "لولهکش")`},
		{[]string{"برق", "و", "کار"}, "'برق' & 'کار':*", `{name body} : ("برق" AND "کار"*)`},
		{[]string{"خهشنویسی", "در"}, "('خهشنویسی':* | 'خوشنویسی')", `{name body} : (("خهشنویسی"* OR "خوشنویسی"))`},
		{[]string{"خوشنویسی"}, "'خوشنویسی':*", `{name body} : ("خوشنویسی"*)`},
		{[]string{"خوشنویسیی", "کار"}, "('خوشنویسیی' | 'خوشنویسی') & 'کار':*", `{name body} : (("خوشنویسیی" OR "خوشنویسی") AND "کار"*)`},
	} {
		q := buildPeerQuery(tc.tokens, lx)
		if got := q.tsquery(); got != tc.pg {
			t.Errorf("%v: tsquery %s, want %s", tc.tokens, got, tc.pg)
		}
		if got := q.fts5(); got != tc.sqliteQ {
			t.Errorf("%v: fts5 %s, want %s", tc.tokens, got, tc.sqliteQ)
		}
	}
	if got := lx.fixes("خوشنویسیی"); len(got) != 1 || got[0] != "خوشنویسی" {
		t.Errorf("fixes: %v", got)
	}
	if got := lx.fixes("خوشنویش"); len(got) != 1 || got[0] != "خوشنویس" {
		t.Errorf("a changed letter: %v", got)
	}
}

func TestQueryVariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		s := withTypo(rng, "دندانپزشک کودکان")
		if s == "دندانپزشک کودکان" || utf8.RuneCountInString(s) != utf8.RuneCountInString("دندانپزشک کودکان") {
			t.Fatalf("withTypo: got %q", s)
		}
		h := halfTyped(rng, "تعمیرکار")
		if !strings.HasPrefix("تعمیرکار", h) || utf8.RuneCountInString(h) < 3 {
			t.Fatalf("halfTyped: got %q", h)
		}
	}
}

func TestLoadCountsAnswersAndErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/bad" {
			http.Error(w, "no", http.StatusInternalServerError)
			return
		}
		w.Write([]byte("hello"))
	}))
	defer srv.Close()
	call, err := httpCaller(srv.URL, 2)
	if err != nil {
		t.Fatal(err)
	}
	res := runLoad(context.Background(), loadConfig{Clients: 2, Duration: time.Minute, MaxRequests: 50},
		[]request{{Method: "GET", Path: "/ok"}, {Method: "GET", Path: "/bad"}}, call)
	if res.Requests != 50 || res.Errors != 25 || res.MeanBytes != 5 {
		t.Fatalf("got %d requests, %d errors, %.1f bytes; want 50, 25, 5", res.Requests, res.Errors, res.MeanBytes)
	}
	if _, err := httpCaller("http://192.0.2.1:80", 1); err == nil {
		t.Fatal("a non-loopback target was accepted")
	}
}

// Alternating slices measure both targets, in turn, and each target's clients walk on through
// the requests from slice to slice as they would in one long phase.
func TestAlternatingSlices(t *testing.T) {
	reqs := make([]request, 10)
	for i := range reqs {
		reqs[i].Path = fmt.Sprint(i)
	}
	var mu sync.Mutex
	var order []string
	seen := map[string][]string{}
	target := func(name string) caller {
		return func(ctx context.Context, r *request) (int, error) {
			mu.Lock()
			defer mu.Unlock()
			if len(order) == 0 || order[len(order)-1] != name {
				order = append(order, name)
			}
			seen[name] = append(seen[name], r.Path)
			return 3, nil
		}
	}
	marked := 0
	a, b := runAlternating(context.Background(), loadConfig{Clients: 1, Duration: time.Minute, MaxRequests: 12}, 3, reqs,
		target("a"), target("b"), func() { marked++ })
	if a.Requests != 12 || b.Requests != 12 || a.MeanBytes != 3 || b.Errors != 0 || marked != 1 {
		t.Fatalf("a %+v, b %+v, marked %d", a, b, marked)
	}
	if got := strings.Join(order, ""); got != "ababab" {
		t.Fatalf("the targets ran in the order %s, want ababab", got)
	}
	want := "0 1 2 3 4 5 6 7 8 9 0 1"
	if got := strings.Join(seen["b"], " "); got != want {
		t.Fatalf("b asked %s, want %s", got, want)
	}
}

// Server timings come from Kardan's request log, past the mark, for one path, leaving out the
// requests the load generator abandoned (499).
func TestServerLogLatencies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kardan.log")
	line := func(p string, status int, ms float64) string {
		return fmt.Sprintf("time=x level=INFO msg=request id=a method=POST path=%s status=%d bytes=10 ms=%g\n", p, status, ms)
	}
	if err := os.WriteFile(path, []byte(line("/v1/a", 200, 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	l := &serverLog{path: path}
	l.mark()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(line("/v1/a", 200, 2) + line("/v1/a", 200, 2) + line("/v1/a", 499, 50) + line("/v1/b", 200, 9))
	f.Close()
	if p50, _, n := l.latencies("/v1/a"); n != 2 || p50 < 1.9 || p50 > 2.1 {
		t.Fatalf("got p50 %.2f ms over %d requests, want 2 ms over 2", p50, n)
	}
}
