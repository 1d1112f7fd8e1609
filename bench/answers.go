package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"time"
)

// answer is what the answer checks compare: the count and the first page's ids in order.
type answer struct {
	Count int
	IDs   []int64
}

// answerCheck is one peer's agreement with Kardan on one workload's sampled requests.
type answerCheck struct {
	Peer string `json:"peer"`
	// Sampled is how many requests both answered; CountsEqual how many of those gave Kardan's
	// count; Overlap the mean share of Kardan's first page that the peer's first page holds.
	Sampled     int     `json:"sampled"`
	CountsEqual int     `json:"counts_equal"`
	Overlap     float64 `json:"first_page_overlap"`
	// SameOrder is how many first pages were identical, in the same order.
	SameOrder int    `json:"same_order"`
	Error     string `json:"error,omitempty"`
}

// compareAnswers tallies a peer's answers against Kardan's, request by request (nil: the
// request failed on one side and is not counted).
func compareAnswers(peer string, kardan, other []*answer) answerCheck {
	c := answerCheck{Peer: peer}
	var overlap float64
	for i := range kardan {
		k, o := kardan[i], other[i]
		if k == nil || o == nil {
			continue
		}
		c.Sampled++
		if k.Count == o.Count {
			c.CountsEqual++
		}
		overlap += pageOverlap(k.IDs, o.IDs)
		if equalIDs(k.IDs, o.IDs) {
			c.SameOrder++
		}
	}
	if c.Sampled > 0 {
		c.Overlap = overlap / float64(c.Sampled)
	}
	return c
}

// pageOverlap answers the share of a's ids that b holds (1 when both are empty).
func pageOverlap(a, b []int64) float64 {
	if len(a) == 0 {
		if len(b) == 0 {
			return 1
		}
		return 0
	}
	in := make(map[int64]bool, len(b))
	for _, id := range b {
		in[id] = true
	}
	n := 0
	for _, id := range a {
		if in[id] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// parseAnswer reads a search, profile or comments answer in the spec's envelope.
func parseAnswer(body []byte) (*answer, error) {
	var env struct {
		Payload struct {
			Profiles []struct {
				ID int64 `json:"id"`
			} `json:"profiles"`
			Comments []struct {
				ID int64 `json:"id"`
			} `json:"comments"`
			Count *int  `json:"count"`
			ID    int64 `json:"id"`
		} `json:"payload"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, err
	}
	p := env.Payload
	a := &answer{}
	switch {
	case p.Count != nil:
		a.Count = *p.Count
		for _, x := range p.Profiles {
			a.IDs = append(a.IDs, x.ID)
		}
		for _, x := range p.Comments {
			a.IDs = append(a.IDs, x.ID)
		}
	case p.ID != 0:
		a.Count, a.IDs = 1, []int64{p.ID}
	default:
		return nil, fmt.Errorf("no count and no id in the answer")
	}
	return a, nil
}

// answerOver asks base for r's answer over HTTP.
func answerOver(ctx context.Context, client *http.Client, base string, r *request) (*answer, error) {
	req, err := http.NewRequestWithContext(ctx, r.Method, base+r.Path, bytes.NewReader(r.Body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	return parseAnswer(body)
}

// checkAnswers asks Kardan and every peer the first sample requests of each workload they
// answer and files, per workload and peer, how often the count equals Kardan's and how much of
// Kardan's first page the peer's holds.
func checkAnswers(ctx context.Context, ws []*workload, sums map[string]*workloadSummary, kardanBase string, pp *peers, sample int) {
	client := &http.Client{Timeout: 30 * time.Second}
	for _, w := range ws {
		if sums[w.Name].Skipped != "" || len(w.Reqs) == 0 || w.Reqs[0].Method != http.MethodPost {
			continue
		}
		reqs := w.Reqs[:min(sample, len(w.Reqs))]
		kardan := make([]*answer, len(reqs))
		failed := 0
		for i := range reqs {
			a, err := answerOver(ctx, client, kardanBase, &reqs[i])
			if err != nil {
				failed++
				continue
			}
			kardan[i] = a
		}
		if failed > 0 {
			slog.Warn("answer checks: kardan failed", "workload", w.Name, "requests", failed)
		}
		peer := func(name string, ask func(r *request) (*answer, error)) {
			got := make([]*answer, len(reqs))
			var firstErr error
			for i := range reqs {
				a, err := ask(&reqs[i])
				if err != nil && firstErr == nil {
					firstErr = err
				}
				got[i] = a
			}
			c := compareAnswers(name, kardan, got)
			if firstErr != nil {
				c.Error = firstErr.Error()
			}
			sums[w.Name].Answers = append(sums[w.Name].Answers, c)
			slog.Info("answers", "workload", w.Name, "peer", name, "sampled", c.Sampled, "counts_equal", c.CountsEqual,
				"overlap", fmt.Sprintf("%.2f", c.Overlap))
		}
		if pp.harness != nil && w.Harness && reqs[0].Query != nil {
			peer("bare harness", func(r *request) (*answer, error) {
				h, err := pp.harness.ix.SearchProfiles(ctx, *r.Query)
				if err != nil {
					return nil, err
				}
				return &answer{Count: h.Total, IDs: h.IDs}, nil
			})
		}
		if pp.pgCall != nil && w.PG {
			peer("PostgreSQL", func(r *request) (*answer, error) { return answerOver(ctx, client, pp.pgBase, r) })
		}
		if pp.fts != nil && w.Search {
			peer("SQLite FTS5", func(r *request) (*answer, error) { return answerOver(ctx, client, pp.ftsBase, r) })
		}
	}
}

// matchDistribution is how many profiles the text queries match: the figure that tells whether
// the demo data's vocabulary looks like a real directory's (a few broad queries, most narrow).
type matchDistribution struct {
	Workload string  `json:"workload"`
	Queries  int     `json:"queries"`
	P10      int     `json:"p10"`
	P50      int     `json:"p50"`
	P90      int     `json:"p90"`
	P99      int     `json:"p99"`
	Max      int     `json:"max"`
	Zero     int     `json:"zero"`
	Broad    float64 `json:"broad_share"` // share of queries matching 10% of the profiles or more
}

// matchesPerQuery counts the matches of every distinct query of the text workloads through the
// harness (Kardan's own engine, in process).
func matchesPerQuery(ctx context.Context, h *harnessPeer, ws []*workload, n int) []matchDistribution {
	var out []matchDistribution
	for _, w := range ws {
		if w.Name != "text" && w.Name != "text_city" {
			continue
		}
		seen := map[string]bool{}
		var counts []int
		for _, r := range w.Reqs {
			if r.Query == nil || seen[string(r.Body)] {
				continue
			}
			seen[string(r.Body)] = true
			hits, err := h.ix.SearchProfiles(ctx, *r.Query)
			if err != nil {
				continue
			}
			counts = append(counts, hits.Total)
		}
		if d, ok := distributionOf(w.Name, counts, n); ok {
			out = append(out, d)
		}
	}
	return out
}

func distributionOf(name string, counts []int, n int) (matchDistribution, bool) {
	if len(counts) == 0 {
		return matchDistribution{}, false
	}
	sort.Ints(counts)
	at := func(q float64) int { return counts[min(len(counts)-1, int(q*float64(len(counts))))] }
	d := matchDistribution{Workload: name, Queries: len(counts), P10: at(0.10), P50: at(0.50), P90: at(0.90), P99: at(0.99),
		Max: counts[len(counts)-1]}
	broad := 0
	for _, c := range counts {
		if c == 0 {
			d.Zero++
		}
		if n > 0 && c*10 >= n {
			broad++
		}
	}
	d.Broad = float64(broad) / float64(len(counts))
	return d, true
}
