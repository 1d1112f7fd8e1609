package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// summary is one benchmark run: the machine, the data, every measurement and the verdicts.
type summary struct {
	Date      string  `json:"date"`
	Commit    string  `json:"commit"`
	Cores     int     `json:"cores"`
	CPU       string  `json:"cpu"`
	MemoryGiB float64 `json:"memory_gib"`
	GoVersion string  `json:"go_version"`
	N         int     `json:"n"`
	Clients   int     `json:"clients"`
	Warmup    float64 `json:"warmup_seconds"`
	Duration  float64 `json:"duration_seconds"`
	Queries   int     `json:"queries_per_workload"`

	SeedSeconds    float64 `json:"seed_seconds,omitempty"`
	ReindexSeconds float64 `json:"reindex_seconds,omitempty"`
	PGLoadSeconds  float64 `json:"pg_load_seconds,omitempty"`
	PGVersion      string  `json:"pg_version,omitempty"`
	// FTSBuildSeconds is the SQLite FTS5 peer's build (its FTS5 table, R*Trees and indexes).
	FTSBuildSeconds float64 `json:"fts_build_seconds,omitempty"`
	// DistinctWords is how many distinct words the visible profiles' indexed text holds (the
	// FTS5 peer's vocabulary); Matches how many profiles the text queries match.
	DistinctWords int                 `json:"distinct_words,omitempty"`
	Matches       []matchDistribution `json:"matches_per_query,omitempty"`
	// Load is the machine's load average (1, 5, 15 minutes) as the run began and ended.
	LoadBefore string `json:"load_before,omitempty"`
	LoadAfter  string `json:"load_after,omitempty"`

	KardanMemory memory  `json:"kardan_memory"`
	PGMemoryMiB  float64 `json:"pg_memory_pss_mib,omitempty"`
	PGServeMiB   float64 `json:"pg_server_rss_mib,omitempty"`
	FTSServeMiB  float64 `json:"fts_server_peak_mib,omitempty"`
	pgPID        int
	pgServePID   int
	ftsServePID  int

	Workloads []workloadSummary `json:"workloads"`
	// Cluster holds the rows of Kardan on PostgreSQL (#22), when measured.
	Cluster *clusterFigures `json:"cluster,omitempty"`
	Web     webFigures      `json:"web"`
	Checks  []check         `json:"checks"`
	Goals   []goal          `json:"goals,omitempty"`
	Notes   []string        `json:"notes,omitempty"`
}

// workloadSummary holds one workload's results on every target and the ratios of Kardan's
// throughput to each peer's.
type workloadSummary struct {
	Name      string   `json:"name"`
	Title     string   `json:"title"`
	Kardan    *result  `json:"kardan,omitempty"`
	PG        *result  `json:"postgres,omitempty"`
	Harness   *result  `json:"harness,omitempty"`
	Ceiling   *result  `json:"ceiling,omitempty"`
	FTS       *result  `json:"fts5,omitempty"`
	FTSLocal  *result  `json:"fts5_in_process,omitempty"`
	KardanPG  *float64 `json:"kardan_over_postgres,omitempty"`
	KardanFTS *float64 `json:"kardan_over_fts5,omitempty"`
	// HarnessFTS compares the two engines in process: the bare harness over FTS5 in process.
	HarnessFTS *float64 `json:"harness_over_fts5_in_process,omitempty"`
	// Answers are the peers' agreement with Kardan's answers on sampled requests.
	Answers       []answerCheck `json:"answers,omitempty"`
	KardanHarness *float64      `json:"kardan_over_harness,omitempty"`
	KardanCeiling *float64      `json:"kardan_over_ceiling,omitempty"`
	Skipped       string        `json:"skipped,omitempty"`
	// Distinct is how many different requests the workload's mix holds.
	Distinct int `json:"distinct_requests"`
	search   bool
}

// check is one target of DESIGN.md §5 and whether this run met it.
type check struct {
	Target string `json:"target"`
	Got    string `json:"got"`
	Met    bool   `json:"met"`
}

// ratio answers a's throughput over b's, or nil when either failed on more than one request in a
// thousand (a broken peer answers fast; the errors column shows the rest, such as the rare
// keep-alive connection the server closes as the client reuses it, which a POST does not retry).
func ratio(a, b *result) *float64 {
	if a == nil || b == nil || b.RPS == 0 || a.RPS == 0 || a.Errors*1000 > a.Requests || b.Errors*1000 > b.Requests {
		return nil
	}
	r := a.RPS / b.RPS
	return &r
}

// judge computes the ratios and checks every target of DESIGN.md §5 that the run measured.
func (s *summary) judge() {
	large := s.N >= 1_000_000
	for i := range s.Workloads {
		w := &s.Workloads[i]
		w.KardanPG, w.KardanHarness, w.KardanCeiling = ratio(w.Kardan, w.PG), ratio(w.Kardan, w.Harness), ratio(w.Kardan, w.Ceiling)
		w.KardanFTS, w.HarnessFTS = ratio(w.Kardan, w.FTS), ratio(w.Harness, w.FTSLocal)
		if w.Kardan == nil || w.Skipped != "" {
			continue
		}
		k := w.Kardan
		if w.search {
			// DESIGN.md §5 bounds the server-side latency: Kardan's own timings when its log
			// gave them, the client's (an upper bound) otherwise.
			p50, p99, side := k.ServerP50, k.ServerP99, "server"
			if p50 == 0 {
				p50, p99, side = k.P50, k.P99, "client"
			}
			if large {
				s.addCheck(w.Name+": p99 < 60 ms", fmt.Sprintf("%.1f ms (%s)", p99, side), p99 < 60 && k.Errors == 0)
			} else {
				s.addCheck(w.Name+": p50 < 5 ms", fmt.Sprintf("%.2f ms (%s)", p50, side), p50 < 5 && k.Errors == 0)
				s.addCheck(w.Name+": p99 < 20 ms", fmt.Sprintf("%.1f ms (%s)", p99, side), p99 < 20 && k.Errors == 0)
			}
		}
		if w.KardanPG != nil {
			s.addCheck(w.Name+": ≥ 2× PostgreSQL (tuned)", fmt.Sprintf("%.2f×", *w.KardanPG), *w.KardanPG >= 2)
		}
		if w.search && w.KardanHarness != nil {
			s.addCheck(w.Name+": within 1.5× of the bare harness", fmt.Sprintf("%.2f× of its throughput", *w.KardanHarness), *w.KardanHarness >= 1/1.5)
		}
		if w.Name == suggestWorkload {
			// #19: suggestions as you type answer within a few milliseconds.
			p99, side := k.ServerP99, "server"
			if p99 == 0 {
				p99, side = k.P99, "client"
			}
			s.addCheck("suggest: p99 < 5 ms", fmt.Sprintf("%.2f ms (%s)", p99, side), p99 < 5 && k.Errors == 0)
		}
		if w.Name == "slug" {
			s.addCheck("profile by slug ≥ 8,000/s", fmt.Sprintf("%.0f/s", k.RPS), k.RPS >= 8000)
		}
	}
	limit := 300.0
	if large {
		limit = 1200
	}
	if s.KardanMemory.PeakMiB > 0 {
		s.addCheck(fmt.Sprintf("resident memory < %.0f MiB", limit), fmt.Sprintf("%.0f MiB peak", s.KardanMemory.PeakMiB), s.KardanMemory.PeakMiB < limit)
	}
	if large && s.ReindexSeconds > 0 {
		s.addCheck("full reindex < 10 minutes", fmt.Sprintf("%.0f s", s.ReindexSeconds), s.ReindexSeconds < 600)
	}
	for _, b := range s.Web.Bundles {
		if b.Page == "home" {
			s.addCheck("initial JavaScript < 80 KiB gzip", fmt.Sprintf("%.1f KiB", b.JSKiB), b.JSKiB < 80)
		}
	}
	for _, l := range s.Web.Lighthouse {
		page := l.Page
		if l.Lang != "" {
			page += " (" + l.Lang + ")"
		}
		s.addCheck("Lighthouse "+page+": performance ≥ 95", fmt.Sprintf("%.0f", l.Performance), l.Performance >= 95)
		s.addCheck("Lighthouse "+page+": accessibility ≥ 95", fmt.Sprintf("%.0f", l.Accessibility), l.Accessibility >= 95)
		s.addCheck("Lighthouse "+page+": SEO 100", fmt.Sprintf("%.0f", l.SEO), l.SEO >= 100)
	}
	s.judgeCluster()
}

func (s *summary) addCheck(target, got string, met bool) {
	s.Checks = append(s.Checks, check{Target: target, Got: got, Met: met})
}

func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// Markers around the generated part of BENCHMARKS.md; the text outside them is kept.
const (
	mdBegin = "<!-- bench:begin (written by `make bench`; edit outside these markers) -->"
	mdEnd   = "<!-- bench:end -->"
)

// writeMarkdown replaces the generated part of path (or appends it) with the run's tables.
func writeMarkdown(path string, s *summary) error {
	var b strings.Builder
	b.WriteString(mdBegin + "\n")
	fmt.Fprintf(&b, "## Latest run\n\n")
	fmt.Fprintf(&b, "| | |\n|---|---|\n")
	fmt.Fprintf(&b, "| date | %s |\n| commit | `%s` |\n| machine | %d cores (%s), %.1f GiB memory, %s |\n", s.Date, s.Commit, s.Cores, s.CPU, s.MemoryGiB, s.GoVersion)
	fmt.Fprintf(&b, "| data | N = %d demo profiles |\n", s.N)
	fmt.Fprintf(&b, "| load | %d concurrent clients on loopback, %.0f s warm-up then %.0f s (or the request cap) per workload, %d requests drawn per workload (distinct ones in the table), no compression |\n",
		s.Clients, s.Warmup, s.Duration, s.Queries)
	if s.SeedSeconds > 0 {
		fmt.Fprintf(&b, "| seed | %.1f s |\n", s.SeedSeconds)
	}
	if s.ReindexSeconds > 0 {
		fmt.Fprintf(&b, "| full reindex | %.1f s (%.0f profiles/s) |\n", s.ReindexSeconds, float64(s.N)/s.ReindexSeconds)
	}
	if s.PGLoadSeconds > 0 {
		fmt.Fprintf(&b, "| PostgreSQL %s load + indexes | %.1f s |\n", s.PGVersion, s.PGLoadSeconds)
	}
	if s.FTSBuildSeconds > 0 {
		fmt.Fprintf(&b, "| SQLite FTS5 + R*Tree peer build | %.1f s |\n", s.FTSBuildSeconds)
	}
	if s.LoadBefore != "" {
		fmt.Fprintf(&b, "| load average (1, 5, 15 min) | %s at the start, %s at the end (other engineers' work on the same 2 cores) |\n", s.LoadBefore, s.LoadAfter)
	}
	split := ""
	if sp := s.KardanMemory.split(); sp != "" {
		split = " (" + sp + ")"
	}
	fmt.Fprintf(&b, "| kardan memory | %.0f MiB resident after the load%s, %.0f MiB peak |\n", s.KardanMemory.RSSMiB, split, s.KardanMemory.PeakMiB)
	if s.PGMemoryMiB > 0 {
		fmt.Fprintf(&b, "| PostgreSQL memory | %.0f MiB (PSS of every server process) + %.0f MiB its Go front |\n", s.PGMemoryMiB, s.PGServeMiB)
	}
	if s.FTSServeMiB > 0 {
		fmt.Fprintf(&b, "| SQLite FTS5 peer memory | %.0f MiB peak (its HTTP server) |\n", s.FTSServeMiB)
	}
	b.WriteString("\n### Throughput and latency (ms; p50–max as the clients saw them, server p50/p99 from Kardan's request log)\n\n")
	b.WriteString("| workload (distinct requests) | target | req/s | p50 | p95 | p99 | max | server p50 | server p99 | errors | mean bytes |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	row := func(w workloadSummary, name string, r *result) {
		if r == nil {
			return
		}
		errs := errorsCell(r)
		server := "— | —"
		if r.ServerP50 > 0 {
			server = fmt.Sprintf("%.2f | %.2f", r.ServerP50, r.ServerP99)
		}
		size := fmt.Sprintf("%.0f", r.MeanBytes)
		if r.Target == "harness" || r.Target == "fts5 in process" {
			size = "—" // no answer is encoded
		}
		fmt.Fprintf(&b, "| %s (%d) | %s | %.0f | %.2f | %.2f | %.2f | %.1f | %s | %s | %s |\n", w.Title, w.Distinct, name, r.RPS, r.P50, r.P95, r.P99, r.Max, server, errs, size)
	}
	for _, w := range s.Workloads {
		if w.Skipped != "" {
			fmt.Fprintf(&b, "| %s | — | skipped: %s | | | | | | | | |\n", w.Title, w.Skipped)
			continue
		}
		row(w, "**kardan**", w.Kardan)
		row(w, "PostgreSQL (tuned)", w.PG)
		row(w, "SQLite FTS5 + bm25", w.FTS)
		row(w, "bare harness", w.Harness)
		row(w, "SQLite FTS5 in process", w.FTSLocal)
		row(w, "ceiling", w.Ceiling)
	}
	b.WriteString("\n### Ratios of throughput\n\n")
	b.WriteString("Kardan and every peer took turns on each workload in slices of the measured time, so all met the same load.\n\n")
	b.WriteString("| workload | kardan/PostgreSQL (tuned) | kardan/FTS5 (HTTP) | harness/FTS5 (both in process) | kardan/bare harness | kardan/ceiling |\n|---|---:|---:|---:|---:|---:|\n")
	f := func(v *float64) string {
		if v == nil {
			return "—"
		}
		return fmt.Sprintf("%.2f", *v)
	}
	for _, w := range s.Workloads {
		if w.Skipped != "" {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", w.Title, f(w.KardanPG), f(w.KardanFTS), f(w.HarnessFTS), f(w.KardanHarness), f(w.KardanCeiling))
	}
	writeAnswers(&b, s)
	if s.Cluster != nil {
		writeClusterMarkdown(&b, s.Cluster)
	}
	writeGoals(&b, s.Goals)
	if len(s.Web.Bundles) > 0 || s.Web.BundleNote != "" {
		b.WriteString("\n### Web: initial JavaScript and CSS (gzip level 9)\n\n")
		if s.Web.BundleNote != "" {
			b.WriteString(s.Web.BundleNote + "\n")
		}
		if len(s.Web.Bundles) > 0 {
			b.WriteString("| page | JS KiB | CSS KiB |\n|---|---:|---:|\n")
			for _, p := range s.Web.Bundles {
				fmt.Fprintf(&b, "| %s | %.1f | %.1f |\n", p.Page, p.JSKiB, p.CSSKiB)
			}
		}
	}
	b.WriteString("\n### Web: Lighthouse (mobile preset, Debian Chromium, median of runs)\n\n")
	if s.Web.LighthouseNote != "" {
		b.WriteString(s.Web.LighthouseNote + "\n")
	}
	if len(s.Web.Lighthouse) > 0 {
		b.WriteString("| page | language | performance | accessibility | best practices | SEO | runs |\n|---|---|---:|---:|---:|---:|---:|\n")
		for _, l := range s.Web.Lighthouse {
			lang := l.Lang
			if lang == "" {
				lang = "browser's (en)" // runs from before the language was chosen
			}
			fmt.Fprintf(&b, "| %s | %s | %.0f | %.0f | %.0f | %.0f | %d |\n", l.Page, lang, l.Performance, l.Accessibility, l.BestPractices, l.SEO, l.Runs)
		}
	}
	b.WriteString("\n### Targets (DESIGN.md §5)\n\n| target | this run | met |\n|---|---|---|\n")
	for _, c := range s.Checks {
		met := "no"
		if c.Met {
			met = "yes"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", c.Target, c.Got, met)
	}
	if len(s.Notes) > 0 {
		b.WriteString("\nNotes of this run:\n\n")
		for _, n := range s.Notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	b.WriteString(mdEnd + "\n")

	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	text := string(old)
	i, j := strings.Index(text, mdBegin), strings.Index(text, mdEnd)
	switch {
	case i >= 0 && j > i:
		text = text[:i] + b.String() + strings.TrimPrefix(text[j+len(mdEnd):], "\n")
	case text == "":
		text = "# Benchmarks\n\n" + b.String()
	default:
		text = strings.TrimRight(text, "\n") + "\n\n" + b.String()
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// writeAnswers writes the answer checks and the matches per query.
func writeAnswers(b *strings.Builder, s *summary) {
	have := false
	for _, w := range s.Workloads {
		have = have || len(w.Answers) > 0
	}
	if have {
		b.WriteString("\n### Answers: do the peers answer what Kardan answers?\n\n")
		b.WriteString("The first requests of each workload asked of Kardan and of every peer: how often the count equals Kardan's, ")
		b.WriteString("the mean share of Kardan's first page that the peer's first page holds, and how often the first page is identical, in order.\n\n")
		b.WriteString("| workload | peer | counts equal | first-page overlap | same page, same order |\n|---|---|---:|---:|---:|\n")
		for _, w := range s.Workloads {
			for _, a := range w.Answers {
				note := ""
				if a.Error != "" {
					note = " (first error: " + strings.ReplaceAll(truncate(a.Error, 60), "|", "/") + ")"
				}
				pct := func(n int) string {
					if a.Sampled == 0 {
						return "—"
					}
					return fmt.Sprintf("%d/%d (%.0f%%)", n, a.Sampled, 100*float64(n)/float64(a.Sampled))
				}
				fmt.Fprintf(b, "| %s | %s | %s%s | %.0f%% | %s |\n", w.Title, a.Peer, pct(a.CountsEqual), note, 100*a.Overlap, pct(a.SameOrder))
			}
		}
	}
	if len(s.Matches) > 0 || s.DistinctWords > 0 {
		b.WriteString("\n### The data: matches per query\n\n")
		if s.DistinctWords > 0 {
			fmt.Fprintf(b, "The visible profiles' indexed text holds %d distinct words (the FTS5 peer's vocabulary).\n\n", s.DistinctWords)
		}
		if len(s.Matches) > 0 {
			b.WriteString("| workload | distinct queries | p10 | median | p90 | p99 | max | no match | queries matching ≥ 10% of all profiles |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
			for _, m := range s.Matches {
				fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %d | %d | %d | %.1f%% |\n", m.Workload, m.Queries, m.P10, m.P50, m.P90, m.P99, m.Max, m.Zero, 100*m.Broad)
			}
		}
	}
}

// errorsCell is a table cell of a result's errors: their count, and the first one's text (cut to
// 80 characters, without the table's bars).
func errorsCell(r *result) string {
	errs := fmt.Sprint(r.Errors)
	if r.FirstError != "" {
		errs += " (" + strings.ReplaceAll(truncate(r.FirstError, 80), "|", "/") + ")"
	}
	return errs
}
