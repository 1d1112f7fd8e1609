package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// goal is one goal of issue #25 and where this run (or the latest run that measured it) left it.
type goal struct {
	Goal   string `json:"goal"`
	Was    string `json:"was"` // the figure the issue started from
	Got    string `json:"got"`
	Status string `json:"status"` // met, missed, or not measured
	Source string `json:"source,omitempty"`
}

const (
	goalMet     = "met"
	goalMissed  = "missed"
	goalMissing = "not measured"
)

// loadtestFigures are the write figures of the latest `make loadtest` (bench mixed).
type loadtestFigures struct {
	File        string
	Date        string
	WritesPerS  float64
	WriteP50    float64
	WriteP99    float64
	ReadP99     float64
	Fresh       float64 // the slowest read-your-writes delay in ms, when the load test measures it
	HasFresh    bool
	Clients     int
	WriteKinds  int
	AllWrites   bool // the write latencies are of all writes together, not the slowest kind
	StatusFiles int
	// Open is the newest open-loop run (openloop-*.json): the writes' latency at a rate offered
	// whatever the server's pace, nil when there is none.
	Open *openLoopFigures
}

// openLoopFigures are the write figures of a load test that offered a fixed rate (bench mixed
// --rate): each request's latency counts from when it was due, so a slow answer delays no later
// request's start (no coordinated omission).
type openLoopFigures struct {
	File       string
	Rate       int     // requests a second offered, in all kinds
	Unsent     int64   // requests due when every client was busy: the schedule was not kept
	WritesPerS float64 // writes acknowledged a second
	WriteP50   float64
	WriteP99   float64
}

// goalLoad answers whether the open loop ran at the goal's load: at least a thousand writes
// acknowledged a second, every request sent when it was due.
func (o *openLoopFigures) goalLoad() bool {
	return o != nil && o.WritesPerS >= 1000 && o.Unsent == 0
}

// readNewest decodes into v the newest file in dir whose name matches pattern (the names hold
// their time, so they sort by it), and answers that file's name: "" when there is none or it
// does not decode.
func readNewest(dir, pattern string, v any) string {
	files, _ := filepath.Glob(filepath.Join(dir, pattern))
	if len(files) == 0 {
		return ""
	}
	sort.Strings(files)
	raw, err := os.ReadFile(files[len(files)-1])
	if err != nil || json.Unmarshal(raw, v) != nil {
		return ""
	}
	return filepath.Base(files[len(files)-1])
}

// latestOpenLoop reads the newest bench/results/openloop-*.json, if any.
func latestOpenLoop(dir string) *openLoopFigures {
	var m struct {
		Rate       int      `json:"rate"`
		Unsent     int64    `json:"unsent"`
		WritesPerS *float64 `json:"writes_per_second"`
		WriteP50   *float64 `json:"write_p50_ms"`
		WriteP99   *float64 `json:"write_p99_ms"`
	}
	file := readNewest(dir, "openloop-*.json", &m)
	if file == "" || m.WritesPerS == nil || m.WriteP50 == nil || m.WriteP99 == nil || m.Rate <= 0 {
		return nil
	}
	return &openLoopFigures{File: file, Rate: m.Rate, Unsent: m.Unsent,
		WritesPerS: *m.WritesPerS, WriteP50: *m.WriteP50, WriteP99: *m.WriteP99}
}

// latestLoadtest reads the newest bench/results/mixed-*.json, if any.
func latestLoadtest(dir string) *loadtestFigures {
	var m struct {
		Date    string `json:"date"`
		Clients int    `json:"clients"`
		Kinds   []struct {
			Kind   string  `json:"kind"`
			PerSec float64 `json:"per_second"`
			P50    float64 `json:"p50_ms"`
			P99    float64 `json:"p99_ms"`
		} `json:"kinds"`
		P99   float64  `json:"p99_ms"`
		Fresh *float64 `json:"read_your_writes_max_ms"`
		// The writes as one histogram, when the load test gives it.
		WritesPerS *float64 `json:"writes_per_second"`
		WriteP50   *float64 `json:"write_p50_ms"`
		WriteP99   *float64 `json:"write_p99_ms"`
	}
	file := readNewest(dir, "mixed-*.json", &m)
	if file == "" {
		return nil
	}
	f := &loadtestFigures{File: file, Date: m.Date, Clients: m.Clients, ReadP99: m.P99}
	for _, k := range m.Kinds {
		switch k.Kind {
		case "comment-add", "blog-add", "blog-edit":
			// Per kind only: the slowest kind's median and p99 bound the writes' own.
			f.WritesPerS += k.PerSec
			f.WriteP50, f.WriteP99 = max(f.WriteP50, k.P50), max(f.WriteP99, k.P99)
			f.WriteKinds++
		}
	}
	if m.WritesPerS != nil && m.WriteP50 != nil && m.WriteP99 != nil {
		f.WritesPerS, f.WriteP50, f.WriteP99 = *m.WritesPerS, *m.WriteP50, *m.WriteP99
		f.WriteKinds = max(f.WriteKinds, 1)
		f.AllWrites = true
	}
	if m.Fresh != nil {
		f.Fresh, f.HasFresh = *m.Fresh, true
	}
	f.Open = latestOpenLoop(dir)
	return f
}

// goalsOf judges every goal of issue #25: the ratios from this run, the 1M figures from this run
// when N is a million (else from the latest scaling run at a million), the writes from the latest
// load test.
func goalsOf(s *summary, lt *loadtestFigures, dir string) []goal {
	var out []goal
	add := func(g goal, met bool, measured bool) {
		switch {
		case !measured:
			g.Status = goalMissing
		case met:
			g.Status = goalMet
		default:
			g.Status = goalMissed
		}
		out = append(out, g)
	}
	was := map[string]string{"text": "5.3–5.8×", "text_city": "3.4–3.9×", "category_radius": "2.7×", "map_radius": "3.7×", "browse_best": "7.8×"}
	for _, w := range s.Workloads {
		if w.Skipped != "" || w.Kardan == nil {
			continue
		}
		if w.PG != nil {
			g := goal{Goal: w.Name + ": ≥ 4× tuned PostgreSQL", Was: or(was[w.Name], "—")}
			if w.KardanPG != nil {
				g.Got = fmt.Sprintf("%.2f×", *w.KardanPG)
			} else {
				g.Got = "errors: " + truncate(w.PG.FirstError+w.Kardan.FirstError, 60)
			}
			add(g, w.KardanPG != nil && *w.KardanPG >= 4, true)
		}
		if w.Name == "text" || w.Name == "text_city" {
			g := goal{Goal: w.Name + ": ≥ 3× SQLite FTS5 + bm25 (both in process)", Was: map[string]string{"text": "2.8×", "text_city": "2.5×"}[w.Name]}
			if w.HarnessFTS != nil {
				g.Got = fmt.Sprintf("%.2f×", *w.HarnessFTS)
				if w.KardanFTS != nil {
					g.Got += fmt.Sprintf(" (over HTTP: %.2f×)", *w.KardanFTS)
				}
			}
			add(g, w.HarnessFTS != nil && *w.HarnessFTS >= 3, w.HarnessFTS != nil)
		}
		if w.Harness != nil {
			g := goal{Goal: w.Name + ": ≥ 0.8 of the bare harness", Was: "0.63–1.4"}
			if w.KardanHarness != nil {
				g.Got = fmt.Sprintf("%.2f", *w.KardanHarness)
			}
			add(g, w.KardanHarness != nil && *w.KardanHarness >= 0.8, w.KardanHarness != nil)
		}
	}
	// The million-profile goals: this run if it is one, else the latest scaling run at 1M.
	big, src := s, "this run"
	if s.N < 1_000_000 {
		big, src = nil, ""
		if m := readScalePoint(dir, 1_000_000); m != nil {
			big, src = m, "scaling run of "+m.Date
		}
	}
	if big != nil && big.N < 1_000_000 {
		big = nil
	}
	text := goal{Goal: "text search at 1M: server p99 < 15 ms", Was: "47.7 ms", Source: src}
	reindex := goal{Goal: "full reindex at 1M < 60 s", Was: "158 s", Source: src}
	mem := goal{Goal: "memory at 1M < 700 MiB peak", Was: "930 MiB", Source: src}
	if big == nil {
		for _, g := range []goal{text, reindex, mem} {
			g.Got = "no run at N = 1,000,000 (BENCH_N=1000000 or BENCH_SIZES=…,1000000)"
			add(g, false, false)
		}
	} else {
		var p99 float64
		for _, w := range big.Workloads {
			if w.Name == "text" && w.Kardan != nil {
				p99 = w.Kardan.ServerP99
			}
		}
		text.Got = fmt.Sprintf("%.1f ms", p99)
		add(text, p99 > 0 && p99 < 15, p99 > 0)
		reindex.Got = fmt.Sprintf("%.0f s", big.ReindexSeconds)
		add(reindex, big.ReindexSeconds > 0 && big.ReindexSeconds < 60, big.ReindexSeconds > 0)
		mem.Got = fmt.Sprintf("%.0f MiB", big.KardanMemory.PeakMiB)
		if sp := big.KardanMemory.split(); sp != "" {
			mem.Got += " (after the load: " + sp + ")"
		}
		add(mem, big.KardanMemory.PeakMiB > 0 && big.KardanMemory.PeakMiB < 700, big.KardanMemory.PeakMiB > 0)
	}
	writes := goal{Goal: "acknowledged writes/s, 200 clients, mixed (`make loadtest`) ≥ 1,000/s", Was: "≈ 490/s"}
	latency := goal{Goal: "write p50 < 20 ms and p99 < 100 ms under that load", Was: "280–365 ms / 1.4–1.6 s"}
	fresh := goal{Goal: "read-your-writes in search within 1 s under that load", Was: "—"}
	if lt == nil || lt.WriteKinds == 0 {
		for _, g := range []goal{writes, latency, fresh} {
			g.Got = "no `make loadtest` result in bench/results"
			add(g, false, false)
		}
		return out
	}
	src = lt.File
	writes.Source, latency.Source, fresh.Source = src, src, src
	writes.Got = fmt.Sprintf("%.0f/s (reads p99 %.0f ms)", lt.WritesPerS, lt.ReadP99)
	add(writes, lt.WritesPerS >= 1000, true)
	latency.Got = fmt.Sprintf("%.0f ms / %.0f ms (slowest write kind)", lt.WriteP50, lt.WriteP99)
	if lt.AllWrites {
		latency.Got = fmt.Sprintf("%.1f ms / %.0f ms", lt.WriteP50, lt.WriteP99)
	}
	// The closed loop measures how many writes the machine takes, not how long one waits: its
	// 200 clients ask again as soon as answered, so by Little's law the mean wait of a request
	// is 200 over the requests answered a second, whatever the server does. The latency at the
	// goal's load is the open loop's, offered a thousand writes a second or more.
	p50, p99 := lt.WriteP50, lt.WriteP99
	switch o := lt.Open; {
	case o.goalLoad():
		latency.Source = o.File
		latency.Got = fmt.Sprintf("%.1f ms / %.0f ms at %.0f writes/s (open loop of %d requests a second; the closed loop's, at saturation: %s, %s)",
			o.WriteP50, o.WriteP99, o.WritesPerS, o.Rate, latency.Got, lt.File)
		p50, p99 = o.WriteP50, o.WriteP99
	case o != nil:
		latency.Got += fmt.Sprintf(" (the newest open loop, %s, ran at %.0f writes/s with %d requests unsent: not the goal's load)", o.File, o.WritesPerS, o.Unsent)
	}
	add(latency, p50 < 20 && p99 < 100, true)
	if lt.HasFresh {
		fresh.Got = fmt.Sprintf("%.0f ms at most", lt.Fresh)
	} else {
		fresh.Got = "the load test does not report read_your_writes_max_ms"
	}
	add(fresh, lt.HasFresh && lt.Fresh <= 1000, lt.HasFresh)
	return out
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// loadAverage answers the machine's load average over 1, 5 and 15 minutes.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// writeGoals writes the goals' table.
func writeGoals(b *strings.Builder, gs []goal) {
	if len(gs) == 0 {
		return
	}
	b.WriteString("\n### Goals of issue #25 (ratios within this run)\n\n| goal | at the start | now | status |\n|---|---|---|---|\n")
	for _, g := range gs {
		status := g.Status
		if g.Status == goalMissed {
			status = "missed: " + g.Got
		}
		now := g.Got
		if g.Source != "" && g.Source != "this run" {
			now += " (" + g.Source + ")"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", g.Goal, g.Was, strings.ReplaceAll(now, "|", "/"), status)
	}
}
