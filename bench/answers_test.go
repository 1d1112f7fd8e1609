package main

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A peer's answers are compared with Kardan's request by request: the count, the share of
// Kardan's first page the peer holds, and whether the page is the same in the same order; a
// request that failed on either side is left out.
func TestCompareAnswers(t *testing.T) {
	kardan := []*answer{
		{Count: 3, IDs: []int64{1, 2, 3}},
		{Count: 10, IDs: []int64{4, 5, 6, 7}},
		{Count: 0},
		{Count: 5, IDs: []int64{9}},
		nil,
	}
	peer := []*answer{
		{Count: 3, IDs: []int64{1, 2, 3}},       // the same
		{Count: 12, IDs: []int64{7, 6, 40, 41}}, // half the page, another count
		{Count: 0},                              // both empty: the same
		nil,                                     // the peer failed
		{Count: 1, IDs: []int64{1}},             // Kardan failed
	}
	c := compareAnswers("p", kardan, peer)
	if c.Sampled != 3 || c.CountsEqual != 2 || c.SameOrder != 2 {
		t.Fatalf("got %+v, want 3 sampled, 2 counts equal, 2 same pages", c)
	}
	if want := (1 + 0.5 + 1) / 3.0; c.Overlap < want-1e-9 || c.Overlap > want+1e-9 {
		t.Fatalf("overlap %.3f, want %.3f", c.Overlap, want)
	}
	if got := pageOverlap([]int64{1, 2}, nil); got != 0 {
		t.Fatalf("an empty page holds none of Kardan's: got %v", got)
	}
}

func TestParseAnswer(t *testing.T) {
	for _, tc := range []struct {
		body  string
		count int
		ids   []int64
	}{
		{`{"payload":{"profiles":[{"id":5},{"id":3}],"count":41},"message":""}`, 41, []int64{5, 3}},
		{`{"payload":{"comments":[{"id":9}],"count":1},"message":""}`, 1, []int64{9}},
		{`{"payload":{"id":77,"slug":"x"},"message":""}`, 1, []int64{77}},
		{`{"payload":{"profiles":[],"count":0},"message":""}`, 0, nil},
	} {
		a, err := parseAnswer([]byte(tc.body))
		if err != nil || a.Count != tc.count || !equalIDs(a.IDs, tc.ids) {
			t.Errorf("%s: got %+v, %v", tc.body, a, err)
		}
	}
	if _, err := parseAnswer([]byte(`{"payload":null,"message":"bad"}`)); err == nil {
		t.Error("an answer without count or id was read")
	}
}

// The matches per query: percentiles over the distinct queries, and the share that match a tenth
// of all profiles or more.
func TestDistributionOf(t *testing.T) {
	counts := make([]int, 100)
	for i := range counts {
		counts[i] = i // 0..99
	}
	d, ok := distributionOf("text", counts, 500)
	if !ok || d.P10 != 10 || d.P50 != 50 || d.P90 != 90 || d.P99 != 99 || d.Max != 99 || d.Zero != 1 {
		t.Fatalf("got %+v", d)
	}
	if d.Broad != 0.5 { // 50..99 match 10% of 500 or more
		t.Fatalf("broad share %.2f, want 0.50", d.Broad)
	}
}

// The scaling chart is well-formed SVG with one line per series, its points left to right as N
// grows, and the report's section is rewritten in place between its markers.
func TestScalingChartAndSection(t *testing.T) {
	point := func(n int, p50, p99, mem, reindex float64) *summary {
		return &summary{N: n, Date: "d", ReindexSeconds: reindex, KardanMemory: memory{PeakMiB: mem},
			Workloads: []workloadSummary{{Name: "text", Kardan: &result{ServerP50: p50, ServerP99: p99}},
				{Name: "map_radius", Kardan: &result{P50: p50 * 2, P99: p99 * 2}}}}
	}
	points := []*summary{point(10_000, 0.2, 3, 120, 2), point(100_000, 0.8, 7, 240, 18), point(1_000_000, 3.5, 30, 700, 150)}
	svg := scalingSVG(points)
	dec := xml.NewDecoder(strings.NewReader(svg))
	lines := map[string][]string{}
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not well-formed: %v", err)
			}
			break
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			var name, pts string
			for _, a := range se.Attr {
				switch a.Name.Local {
				case "data-series":
					name = a.Value
				case "points":
					pts = a.Value
				}
			}
			lines[name] = strings.Fields(pts)
		}
	}
	for _, name := range []string{"text p50", "text p99", "map_radius p50", "map_radius p99", "peak memory", "full reindex"} {
		pts := lines[name]
		if len(pts) != 3 {
			t.Fatalf("series %q has %d points, want 3 (%v)", name, len(pts), lines)
		}
		prev := -1.0
		for _, p := range pts {
			var x, y float64
			if _, err := fmtSscanf(p, &x, &y); err != nil || x <= prev {
				t.Fatalf("series %q: points %v not left to right", name, pts)
			}
			prev = x
		}
	}
	if !strings.Contains(svg, ">1M<") || !strings.Contains(svg, ">10k<") {
		t.Error("the N axis is not labelled 10k … 1M")
	}

	md := filepath.Join(t.TempDir(), "B.md")
	os.WriteFile(md, []byte("# B\n\nintro\n"+scaleBegin+"\nold\n"+scaleEnd+"\n\nafter\n"), 0o644)
	if err := replaceSection(md, scaleBegin, scaleEnd, scalingMarkdown(points, "x.svg")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(md)
	text := string(b)
	if strings.Contains(text, "old") || !strings.Contains(text, "intro") || !strings.Contains(text, "after") ||
		!strings.Contains(text, "| 1M |") || strings.Count(text, scaleBegin) != 1 {
		t.Fatalf("section not replaced in place:\n%s", text)
	}
}

// The goals read the latest load test's writes, and say "not measured" rather than "met" for
// what no run measured.
func TestGoals(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mixed-20260101-000000.json"), []byte(`{"kinds":[{"kind":"search","per_second":900,"p50_ms":3,"p99_ms":40},
		{"kind":"comment-add","per_second":300,"p50_ms":12,"p99_ms":80},{"kind":"blog-add","per_second":500,"p50_ms":15,"p99_ms":120},
		{"kind":"blog-edit","per_second":250,"p50_ms":9,"p99_ms":60}],"p99_ms":55}`), 0o644)
	lt := latestLoadtest(dir)
	if lt == nil || lt.WritesPerS != 1050 || lt.WriteP50 != 15 || lt.WriteP99 != 120 {
		t.Fatalf("load test figures %+v", lt)
	}
	// A later load test gives the writes as one histogram: those figures win.
	os.WriteFile(filepath.Join(dir, "mixed-20260102-000000.json"), []byte(`{"kinds":[{"kind":"blog-add","per_second":500,"p50_ms":15,"p99_ms":120}],
		"writes_per_second":990,"write_p50_ms":4.5,"write_p99_ms":60}`), 0o644)
	if lt2 := latestLoadtest(dir); lt2 == nil || lt2.WritesPerS != 990 || lt2.WriteP50 != 4.5 || lt2.WriteP99 != 60 {
		t.Fatalf("the newest load test's own write figures: %+v", lt2)
	}
	ratio := 4.5
	s := &summary{N: 100_000, Workloads: []workloadSummary{{Name: "text", Kardan: &result{}, PG: &result{}, KardanPG: &ratio}}}
	status := map[string]string{}
	for _, g := range goalsOf(s, lt, dir) {
		status[g.Goal] = g.Status
	}
	for goal, want := range map[string]string{
		"text: ≥ 4× tuned PostgreSQL":                                           goalMet,
		"text search at 1M: server p99 < 15 ms":                                 goalMissing,
		"acknowledged writes/s, 200 clients, mixed (`make loadtest`) ≥ 1,000/s": goalMet,
		"write p50 < 20 ms and p99 < 100 ms under that load":                    goalMissed,
		"read-your-writes in search within 1 s under that load":                 goalMissing,
	} {
		if status[goal] != want {
			t.Errorf("%s: %q, want %q", goal, status[goal], want)
		}
	}
}

// The writes' latency is judged at the goal's load in the open loop: a thousand writes a second
// or more, every request sent when due. An open loop below that load, or one that fell behind its
// schedule, leaves the closed loop's figures to judge it.
func TestGoalsWriteLatencyFromTheOpenLoop(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mixed-20260102-000000.json"), []byte(`{"kinds":[{"kind":"blog-add","per_second":1300,"p50_ms":70,"p99_ms":160}],
		"writes_per_second":1300,"write_p50_ms":78,"write_p99_ms":166}`), 0o644)
	latency := func() goal {
		t.Helper()
		for _, g := range goalsOf(&summary{N: 100_000}, latestLoadtest(dir), dir) {
			if g.Goal == "write p50 < 20 ms and p99 < 100 ms under that load" {
				return g
			}
		}
		t.Fatal("no latency goal")
		return goal{}
	}
	if g := latency(); g.Status != goalMissed || g.Source != "mixed-20260102-000000.json" {
		t.Fatalf("no open loop: %+v", g)
	}
	for _, c := range []struct {
		file, body, status, source string
	}{
		{"openloop-20260102-000100.json", `{"rate":400,"unsent":0,"writes_per_second":101,"write_p50_ms":2,"write_p99_ms":9}`,
			goalMissed, "mixed-20260102-000000.json"},
		{"openloop-20260102-000200.json", `{"rate":4200,"unsent":37,"writes_per_second":1040,"write_p50_ms":15,"write_p99_ms":70}`,
			goalMissed, "mixed-20260102-000000.json"},
		{"openloop-20260102-000300.json", `{"rate":4200,"unsent":0,"writes_per_second":1055,"write_p50_ms":15.6,"write_p99_ms":120}`,
			goalMissed, "openloop-20260102-000300.json"},
		{"openloop-20260102-000400.json", `{"rate":4200,"unsent":0,"writes_per_second":1055,"write_p50_ms":15.6,"write_p99_ms":72.4}`,
			goalMet, "openloop-20260102-000400.json"},
	} {
		os.WriteFile(filepath.Join(dir, c.file), []byte(c.body), 0o644)
		g := latency()
		if g.Status != c.status || g.Source != c.source {
			t.Errorf("after %s: %s from %s (%s), want %s from %s", c.file, g.Status, g.Source, g.Got, c.status, c.source)
		}
	}
	if g := latency(); !strings.Contains(g.Got, "15.6 ms / 72 ms at 1055 writes/s") || !strings.Contains(g.Got, "78.0 ms / 166 ms") {
		t.Errorf("the goal does not say both loops' figures: %q", g.Got)
	}
}

func fmtSscanf(p string, x, y *float64) (int, error) { return fmt.Sscanf(p, "%f,%f", x, y) }

// A ratio stands when both targets failed on at most one request in a thousand, and not when a
// target is broken (a failing peer answers fast).
func TestRatioLeavesOutBrokenTargets(t *testing.T) {
	ok := &result{RPS: 100, Requests: 10000, Errors: 2}
	broken := &result{RPS: 5000, Requests: 50000, Errors: 50000}
	if r := ratio(&result{RPS: 200, Requests: 20000}, ok); r == nil || *r != 2 {
		t.Fatalf("ratio with 2 errors in 10,000: %v", r)
	}
	if r := ratio(ok, broken); r != nil {
		t.Fatalf("a broken target gave a ratio: %v", *r)
	}
	if r := ratio(ok, &result{RPS: 100, Requests: 1000, Errors: 2}); r != nil {
		t.Fatalf("2 errors in 1,000 gave a ratio: %v", *r)
	}
}

// The memory figures split what is resident into the process's own and its mapped files, and
// the 1M goal says so while judging the whole peak.
func TestMemorySplit(t *testing.T) {
	m, err := memoryOf(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if m.RSSMiB <= 0 || m.PeakMiB < m.RSSMiB || m.AnonMiB <= 0 || m.FileMiB <= 0 {
		t.Fatalf("memory of this process: %+v", m)
	}
	// RssShmem is the rest of VmRSS; a test process has next to none.
	if d := m.RSSMiB - m.AnonMiB - m.FileMiB; d < 0 || d > 8 {
		t.Errorf("anon %.1f + file %.1f MiB against resident %.1f MiB", m.AnonMiB, m.FileMiB, m.RSSMiB)
	}
	dir := t.TempDir()
	big := &summary{N: 1_000_000, Date: "d", ReindexSeconds: 100, KardanMemory: memory{RSSMiB: 1117, PeakMiB: 1118, AnonMiB: 417, FileMiB: 727}}
	writeJSONFile(filepath.Join(dir, "scale-n1000000.json"), big)
	for _, g := range goalsOf(&summary{N: 100_000}, nil, dir) {
		if g.Goal != "memory at 1M < 700 MiB peak" {
			continue
		}
		if g.Status != goalMissed || g.Got != "1118 MiB (after the load: 417 MiB its own + 727 MiB mapped index and database files)" {
			t.Errorf("memory goal %q: %q", g.Status, g.Got)
		}
		return
	}
	t.Fatal("no memory goal")
}
