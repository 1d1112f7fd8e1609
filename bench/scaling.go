package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// The scaling curve: every run files its summary as bench/results/scale-n<N>.json (kept in git,
// one per N, the latest run of that N winning), and the chart and table are drawn again from
// all of them, so runs at 10k, 100k and 1M made on different days still make one curve.

const (
	scaleBegin = "<!-- bench:scale:begin (written by `make bench` from bench/results/scale-n*.json) -->"
	scaleEnd   = "<!-- bench:scale:end -->"
	// scaleSVG is the chart's name, beside the scale files.
	scaleSVG = "scaling.svg"
)

// writeScaling files s as its N's point of the curve, then draws the chart and rewrites the
// scaling section of the report from every point.
func writeScaling(dir, markdown string, s *summary) error {
	if err := writeJSONFile(filepath.Join(dir, fmt.Sprintf("scale-n%d.json", s.N)), s); err != nil {
		return err
	}
	points := readScalePoints(dir)
	if err := os.WriteFile(filepath.Join(dir, scaleSVG), []byte(scalingSVG(points)), 0o644); err != nil {
		return err
	}
	svgPath, err := filepath.Rel(filepath.Dir(markdown), filepath.Join(dir, scaleSVG))
	if err != nil {
		svgPath = filepath.Join(dir, scaleSVG)
	}
	return replaceSection(markdown, scaleBegin, scaleEnd, scalingMarkdown(points, filepath.ToSlash(svgPath)))
}

// readScalePoints answers every filed point, smallest N first.
func readScalePoints(dir string) []*summary {
	files, _ := filepath.Glob(filepath.Join(dir, "scale-n*.json"))
	var out []*summary
	for _, f := range files {
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "scale-n"), ".json"))
		if err != nil {
			continue
		}
		if s := readScalePoint(dir, n); s != nil {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].N < out[j].N })
	return out
}

// readScalePoint answers the filed point of N, or nil.
func readScalePoint(dir string, n int) *summary {
	raw, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("scale-n%d.json", n)))
	if err != nil {
		return nil
	}
	var s summary
	if json.Unmarshal(raw, &s) != nil || s.N != n {
		return nil
	}
	return &s
}

// scaleSeries is one line of the chart.
type scaleSeries struct {
	name   string
	color  string
	dashed bool
	x, y   []float64
}

// kardanLatency answers Kardan's server p50 and p99 of w (the client's when the log gave none).
func kardanLatency(r *result) (float64, float64) {
	if r == nil {
		return 0, 0
	}
	if r.ServerP50 > 0 {
		return r.ServerP50, r.ServerP99
	}
	return r.P50, r.P99
}

var scaleColors = map[string]string{"text": "#1f77b4", "text_city": "#ff7f0e", "category_radius": "#2ca02c",
	"map_radius": "#d62728", "browse_best": "#9467bd"}

// scalingSVG draws three panels over N (log scales): Kardan's server p50 (dashed) and p99 per
// search workload, its peak memory, and the full reindex time.
func scalingSVG(points []*summary) string {
	var lat []scaleSeries
	for _, name := range []string{"text", "text_city", "category_radius", "map_radius", "browse_best"} {
		p50 := scaleSeries{name: name + " p50", color: scaleColors[name], dashed: true}
		p99 := scaleSeries{name: name + " p99", color: scaleColors[name]}
		for _, s := range points {
			for _, w := range s.Workloads {
				if w.Name != name {
					continue
				}
				a, b := kardanLatency(w.Kardan)
				if a > 0 {
					p50.x, p50.y = append(p50.x, float64(s.N)), append(p50.y, a)
					p99.x, p99.y = append(p99.x, float64(s.N)), append(p99.y, b)
				}
			}
		}
		if len(p99.x) > 0 {
			lat = append(lat, p50, p99)
		}
	}
	mem := scaleSeries{name: "peak memory", color: "#333"}
	reindex := scaleSeries{name: "full reindex", color: "#333"}
	for _, s := range points {
		if s.KardanMemory.PeakMiB > 0 {
			mem.x, mem.y = append(mem.x, float64(s.N)), append(mem.y, s.KardanMemory.PeakMiB)
		}
		if s.ReindexSeconds > 0 {
			reindex.x, reindex.y = append(reindex.x, float64(s.N)), append(reindex.y, s.ReindexSeconds)
		}
	}
	var b strings.Builder
	const w, h = 1050, 380
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n", w, h, w, h)
	b.WriteString(`<title>Kardan at N profiles: server latency per search workload, peak memory, full reindex</title>` + "\n")
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/>`+"\n", w, h)
	panel(&b, 10, "server latency, ms (p50 dashed, p99 solid)", lat)
	panel(&b, 410, "peak resident memory, MiB", []scaleSeries{mem})
	panel(&b, 730, "full reindex, s", []scaleSeries{reindex})
	b.WriteString("</svg>\n")
	return b.String()
}

// panel draws one chart at x offset left: log-scaled axes over the series' range, a grid line
// per power of ten, and a legend under it.
func panel(b *strings.Builder, left float64, title string, series []scaleSeries) {
	pw := 250.0
	if len(series) > 2 {
		pw = 340
	}
	const top, ph = 30.0, 240.0
	x0, x1, y0, y1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for i := range s.x {
			x0, x1 = math.Min(x0, s.x[i]), math.Max(x1, s.x[i])
			y0, y1 = math.Min(y0, s.y[i]), math.Max(y1, s.y[i])
		}
	}
	fmt.Fprintf(b, `<text x="%.0f" y="18" font-weight="bold">%s</text>`+"\n", left+40, title)
	fmt.Fprintf(b, `<rect x="%.0f" y="%.0f" width="%.0f" height="%.0f" fill="none" stroke="#999"/>`+"\n", left+40, top, pw, ph)
	if math.IsInf(x0, 1) {
		fmt.Fprintf(b, `<text x="%.0f" y="%.0f">no runs yet</text>`+"\n", left+60, top+ph/2)
		return
	}
	// Whole powers of ten around the data, so the scale reads at a glance.
	lx0, lx1 := math.Floor(math.Log10(x0)), math.Ceil(math.Log10(x1))
	if lx1 == lx0 {
		lx1++
	}
	ly0, ly1 := math.Floor(math.Log10(y0)), math.Ceil(math.Log10(y1))
	if ly1 == ly0 {
		ly1++
	}
	px := func(v float64) float64 { return left + 40 + (math.Log10(v)-lx0)/(lx1-lx0)*pw }
	py := func(v float64) float64 { return top + ph - (math.Log10(v)-ly0)/(ly1-ly0)*ph }
	for e := lx0; e <= lx1; e++ {
		x := px(math.Pow(10, e))
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#eee"/>`, x, top, x, top+ph)
		fmt.Fprintf(b, `<text x="%.1f" y="%.0f" text-anchor="middle">%s</text>`+"\n", x, top+ph+14, humanN(math.Pow(10, e)))
	}
	for e := ly0; e <= ly1; e++ {
		y := py(math.Pow(10, e))
		fmt.Fprintf(b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#eee"/>`, left+40, y, left+40+pw, y)
		fmt.Fprintf(b, `<text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n", left+36, y+4, strconv.FormatFloat(math.Pow(10, e), 'g', -1, 64))
	}
	fmt.Fprintf(b, `<text x="%.0f" y="%.0f" text-anchor="middle">N profiles</text>`+"\n", left+40+pw/2, top+ph+28)
	for i, s := range series {
		var pts []string
		for j := range s.x {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(s.x[j]), py(s.y[j])))
		}
		dash := ""
		if s.dashed {
			dash = ` stroke-dasharray="4 3"`
		}
		fmt.Fprintf(b, `<polyline data-series="%s" points="%s" fill="none" stroke="%s" stroke-width="1.5"%s/>`+"\n", s.name, strings.Join(pts, " "), s.color, dash)
		for j := range s.x {
			fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"><title>%s at %s: %.3g</title></circle>`+"\n",
				px(s.x[j]), py(s.y[j]), s.color, s.name, humanN(s.x[j]), s.y[j])
		}
		if len(series) > 1 && !s.dashed {
			ly := top + ph + 44 + float64(i/2)*13
			fmt.Fprintf(b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="%s" stroke-width="2"/><text x="%.0f" y="%.0f">%s</text>`+"\n",
				left+40, ly-4, left+58, ly-4, s.color, left+62, ly, strings.TrimSuffix(s.name, " p99"))
		}
	}
}

// humanN writes 10000 as 10k and 1000000 as 1M.
func humanN(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', -1, 64) + "M"
	case v >= 1e3:
		return strconv.FormatFloat(v/1e3, 'g', -1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// scalingMarkdown is the report's scaling section: the chart and the figures behind it.
func scalingMarkdown(points []*summary, svg string) string {
	var b strings.Builder
	b.WriteString(scaleBegin + "\n## Scaling: N = " + scaleNs(points) + "\n\n")
	fmt.Fprintf(&b, "![Kardan's server latency, memory and reindex time by N](%s)\n\n", svg)
	b.WriteString("| N | date | load average (start → end) | seed s | reindex s | peak MiB | text p50 / p99 | text + city | category + 5 km | map 1 km | browse |\n")
	b.WriteString("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range points {
		cells := map[string]string{}
		for _, w := range s.Workloads {
			if a, c := kardanLatency(w.Kardan); a > 0 {
				cells[w.Name] = fmt.Sprintf("%.2f / %.1f", a, c)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s → %s | %.0f | %.0f | %.0f | %s | %s | %s | %s | %s |\n", humanN(float64(s.N)), s.Date,
			or(s.LoadBefore, "?"), or(s.LoadAfter, "?"), s.SeedSeconds, s.ReindexSeconds, s.KardanMemory.PeakMiB,
			or(cells["text"], "—"), or(cells["text_city"], "—"), or(cells["category_radius"], "—"), or(cells["map_radius"], "—"), or(cells["browse_best"], "—"))
	}
	b.WriteString("\nLatencies are Kardan's server p50 / p99 in ms (its request log), 4 clients, each run on this shared 2-core machine under the load average shown.\n")
	b.WriteString(scaleEnd + "\n")
	return b.String()
}

func scaleNs(points []*summary) string {
	var ns []string
	for _, s := range points {
		ns = append(ns, humanN(float64(s.N)))
	}
	return strings.Join(ns, ", ")
}

// replaceSection replaces the text between begin and end in path (or appends it).
func replaceSection(path, begin, end, section string) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	text := string(old)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	switch {
	case i >= 0 && j > i:
		text = text[:i] + section + strings.TrimPrefix(text[j+len(end):], "\n")
	case text == "":
		text = "# Benchmarks\n\n" + section
	default:
		text = strings.TrimRight(text, "\n") + "\n\n" + section
	}
	return os.WriteFile(path, []byte(text), 0o644)
}
