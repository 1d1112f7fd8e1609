package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// pageBundle is the initial JavaScript and CSS one page of the web app loads, gzipped.
type pageBundle struct {
	Page   string   `json:"page"`
	JSKiB  float64  `json:"js_kib_gzip"`
	CSSKiB float64  `json:"css_kib_gzip"`
	Files  []string `json:"files"`
}

// lighthouseScores are one page's Lighthouse category scores (0-100), the median of the runs.
type lighthouseScores struct {
	Page string `json:"page"`
	// Lang is the language the browser asked for (Accept-Language), so the page the server wrote.
	Lang          string  `json:"lang,omitempty"`
	URL           string  `json:"url"`
	Performance   float64 `json:"performance"`
	Accessibility float64 `json:"accessibility"`
	BestPractices float64 `json:"best_practices"`
	SEO           float64 `json:"seo"`
	Runs          int     `json:"runs"`
}

// webFigures are the web app's figures in the report.
type webFigures struct {
	Bundles    []pageBundle       `json:"bundles,omitempty"`
	BundleNote string             `json:"bundle_note,omitempty"`
	Lighthouse []lighthouseScores `json:"lighthouse,omitempty"`
	// LighthouseNote says why Lighthouse gave no figures, when it did not.
	LighthouseNote string `json:"lighthouse_note,omitempty"`
}

var (
	scriptSrc  = regexp.MustCompile(`<script\b[^>]*\bsrc=["']([^"']+)["']`)
	preloadRef = regexp.MustCompile(`<link\b[^>]*\brel=["']modulepreload["'][^>]*\bhref=["']([^"']+)["']`)
	styleRef   = regexp.MustCompile(`<link\b[^>]*\brel=["']stylesheet["'][^>]*\bhref=["']([^"']+)["']`)
	// staticImport matches the static imports of a built module, as webui/scripts/bundle-budget.mjs
	// does: lazy import() chunks are not part of a first visit.
	staticImport = regexp.MustCompile(`(?:^|[^\w$.])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']`)
)

// pageChunks names the lazy route chunk of each measured page ("" for a page inside the entry).
var pageChunks = []struct{ page, chunk string }{{"home", ""}, {"search", "Search"}, {"profile", "Profile"}}

// measureBundles adds up, per page, the entry scripts and styles of dist/index.html, the page's
// route chunk and its stylesheet, and every module they import statically, each gzipped at
// level 9 (as the budget script measures).
func measureBundles(dist string) ([]pageBundle, error) {
	html, err := os.ReadFile(filepath.Join(dist, "index.html"))
	if err != nil {
		return nil, err
	}
	var entries, styles []string
	for _, re := range []*regexp.Regexp{scriptSrc, preloadRef} {
		for _, m := range re.FindAllStringSubmatch(string(html), -1) {
			entries = append(entries, m[1])
		}
	}
	for _, m := range styleRef.FindAllStringSubmatch(string(html), -1) {
		styles = append(styles, m[1])
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("%s loads no script: is it the unbuilt placeholder? run make web", filepath.Join(dist, "index.html"))
	}
	assets, _ := os.ReadDir(filepath.Join(dist, "assets"))
	var out []pageBundle
	for _, pc := range pageChunks {
		b := pageBundle{Page: pc.page}
		seen := map[string]bool{}
		var visit func(u string) error
		visit = func(u string) error {
			if seen[u] || strings.Contains(u, "://") {
				return nil
			}
			seen[u] = true
			body, err := os.ReadFile(filepath.Join(dist, filepath.FromSlash(strings.TrimPrefix(u, "/"))))
			if err != nil {
				return err
			}
			kib := gzipKiB(body)
			if strings.HasSuffix(u, ".css") {
				b.CSSKiB += kib
				return nil
			}
			b.JSKiB += kib
			for _, m := range staticImport.FindAllStringSubmatch(string(body), -1) {
				next := m[1]
				if !strings.HasPrefix(next, "/") {
					next = path.Join(path.Dir(u), next)
				}
				if strings.HasSuffix(next, ".js") {
					if err := visit(next); err != nil {
						return err
					}
				}
			}
			return nil
		}
		roots := append(append([]string{}, entries...), styles...)
		if pc.chunk != "" {
			for _, a := range assets {
				name := a.Name()
				if strings.HasPrefix(name, pc.chunk+"-") && (strings.HasSuffix(name, ".js") || strings.HasSuffix(name, ".css")) {
					roots = append(roots, "/assets/"+name)
				}
			}
		}
		for _, r := range roots {
			if err := visit(r); err != nil {
				return nil, err
			}
		}
		for u := range seen {
			b.Files = append(b.Files, u)
		}
		sort.Strings(b.Files)
		out = append(out, b)
	}
	return out, nil
}

func gzipKiB(b []byte) float64 {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return float64(buf.Len()) / 1024
}

// lighthouseVersion is pinned: newer releases need Node 22 and this machine has Node 20.
const lighthouseVersion = "12.8.2"

// ensureLighthouse installs the lighthouse npm package into cache (outside the repository) once.
func ensureLighthouse(ctx context.Context, cache, logPath string) (string, error) {
	cli := filepath.Join(cache, "node_modules", "lighthouse", "cli", "index.js")
	if _, err := os.Stat(cli); err == nil {
		return cli, nil
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("npm is not installed")
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(cache, "package.json"), []byte(`{"private":true}`+"\n"), 0o644); err != nil {
		return "", err
	}
	slog.Info("installing lighthouse", "version", lighthouseVersion, "into", cache)
	if _, err := run(ctx, logPath, nil, "npm", "install", "--prefix", cache, "--no-audit", "--no-fund", "lighthouse@"+lighthouseVersion); err != nil {
		return "", fmt.Errorf("npm install lighthouse: %w", err)
	}
	return cli, nil
}

// ensureChromium answers Debian's Chromium, installing it when missing and running as root.
func ensureChromium(ctx context.Context, logPath string) (string, error) {
	const chromium = "/usr/bin/chromium"
	if _, err := os.Stat(chromium); err == nil {
		return chromium, nil
	}
	if os.Geteuid() != 0 {
		return "", fmt.Errorf("%s is missing: run `apt-get install -y chromium` as root", chromium)
	}
	if _, err := run(ctx, logPath, nil, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-q", "chromium"); err != nil {
		return "", err
	}
	return chromium, nil
}

// lighthouseLangs are the languages each page is audited in: Persian, the default and the
// language of nearly every visitor, and English. The browser asks for the page in that language
// (Accept-Language), as a visitor's would; Chromium alone would ask for English.
var lighthouseLangs = []string{"fa", "en"}

// runLighthouse audits url in lang with Lighthouse's default (mobile) settings runs times and
// answers the median score of each category.
func runLighthouse(ctx context.Context, cli, chromium, page, lang, pageURL, outDir, logPath string, runs int) (lighthouseScores, error) {
	s := lighthouseScores{Page: page, Lang: lang, URL: pageURL, Runs: runs}
	cats := map[string][]float64{}
	for i := 0; i < runs; i++ {
		out := filepath.Join(outDir, fmt.Sprintf("lighthouse-%s-%s-%d.json", page, lang, i+1))
		ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
		_, err := run(ctx, logPath, nil, "env", "CHROME_PATH="+chromium, "node", cli, pageURL,
			"--output=json", "--output-path="+out, "--quiet",
			"--only-categories=performance,accessibility,best-practices,seo",
			"--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run --lang="+lang+" --accept-lang="+lang)
		cancel()
		if err != nil {
			return s, err
		}
		raw, err := os.ReadFile(out)
		if err != nil {
			return s, err
		}
		var rep struct {
			RuntimeError *struct{ Code, Message string } `json:"runtimeError"`
			Categories   map[string]struct {
				Score *float64 `json:"score"`
			} `json:"categories"`
		}
		if err := json.Unmarshal(raw, &rep); err != nil {
			return s, fmt.Errorf("lighthouse report %s: %w", out, err)
		}
		if rep.RuntimeError != nil {
			return s, fmt.Errorf("lighthouse: %s: %s", rep.RuntimeError.Code, rep.RuntimeError.Message)
		}
		for k, v := range rep.Categories {
			if v.Score != nil {
				cats[k] = append(cats[k], *v.Score*100)
			}
		}
	}
	median := func(v []float64) float64 {
		if len(v) == 0 {
			return 0
		}
		sort.Float64s(v)
		return v[len(v)/2]
	}
	s.Performance, s.Accessibility = median(cats["performance"]), median(cats["accessibility"])
	s.BestPractices, s.SEO = median(cats["best-practices"]), median(cats["seo"])
	return s, nil
}

// lighthousePages are the measured pages: the home page, a search and a profile.
func lighthousePages(base, query, slug string) [][2]string {
	return [][2]string{
		{"home", base + "/"},
		{"search", base + "/search/iran?q=" + url.QueryEscape(query)},
		{"profile", base + "/profile/" + url.PathEscape(slug)},
	}
}
