package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"kardan/search"
	"kardan/store"
)

// runConfig is what `bench run` is told.
type runConfig struct {
	Kardan        string
	N             int
	Work          string
	Out           string
	Markdown      string
	Dist          string
	Load          loadConfig
	Queries       int
	Seed          uint64
	Reuse         bool
	Skip          map[string]bool
	Only          map[string]bool
	LHCache       string
	LHRuns        int
	PGConnections int
	CPUProfile    string
	Slices        int
	AnswerSample  int
	// Writers are the writer accounts of each target of the PostgreSQL rows (30 comments each).
	Writers int
	// Sizes are the N of a scaling run (env BENCH_SIZES): the whole run once per size.
	Sizes []int
}

func parseRunConfig(args []string) (*runConfig, error) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	c := &runConfig{}
	n, _ := strconv.Atoi(os.Getenv("BENCH_N"))
	if n <= 0 {
		n = 100000
	}
	home, _ := os.UserHomeDir()
	var skip, only string
	var maxReq int64
	fs.StringVar(&c.Kardan, "kardan", "./kardan", "the kardan binary to measure (built with the web app)")
	fs.IntVar(&c.N, "n", n, "demo profiles (env BENCH_N)")
	fs.StringVar(&c.Work, "work", "bench/results/work", "scratch directory: data, PostgreSQL, logs")
	fs.StringVar(&c.Out, "out", "bench/results", "where the raw JSON and latest.json go")
	fs.StringVar(&c.Markdown, "markdown", "BENCHMARKS.md", "report whose generated part is rewritten")
	fs.StringVar(&c.Dist, "dist", "webui/dist", "the built web app, for the bundle figures")
	fs.IntVar(&c.Load.Clients, "clients", 4, "concurrent clients")
	fs.DurationVar(&c.Load.Warmup, "warmup", 2*time.Second, "warm-up per workload and target (answers not counted)")
	fs.DurationVar(&c.Load.Duration, "duration", 10*time.Second, "measured time per workload and target")
	fs.Int64Var(&maxReq, "max-requests", 300000, "measured requests per workload and target at most")
	fs.IntVar(&c.Queries, "queries", 2000, "requests drawn per workload")
	fs.Uint64Var(&c.Seed, "seed", 1, "seed of the demo data and the query mixes")
	fs.BoolVar(&c.Reuse, "reuse", false, "reuse the work directory's data when it holds N profiles (skips seed and reindex)")
	fs.StringVar(&skip, "skip", "", "comma-separated parts to leave out: harness, kardan, pg, cluster, fts, ceiling, web, lighthouse")
	fs.StringVar(&only, "only", "", "comma-separated workloads to run (default all)")
	fs.StringVar(&c.LHCache, "lighthouse-cache", filepath.Join(home, ".cache", "kardan-bench", "lighthouse"), "where the lighthouse npm package is installed")
	// Five: Lighthouse's own advice (its docs/variability.md: the median of five runs is about
	// twice as stable as one run); single runs of one build spread over 10 points on this machine.
	fs.IntVar(&c.LHRuns, "lighthouse-runs", 5, "Lighthouse runs per page (the median is reported)")
	fs.IntVar(&c.PGConnections, "pg-connections", 8, "connections of the PostgreSQL peer's pool")
	fs.StringVar(&c.CPUProfile, "cpuprofile", "", "write CPU profiles of this process (the bare harness and the load generator) for each workload to this path plus .<workload> (go tool pprof)")
	fs.IntVar(&c.Slices, "slices", 5, "Kardan and every peer take turns in this many slices of the measured time")
	fs.IntVar(&c.Writers, "writers", 2000, "writer accounts per target of the PostgreSQL rows (each may add 30 comments)")
	fs.IntVar(&c.AnswerSample, "answer-sample", 200, "requests per workload whose answers every peer's are checked against Kardan's")
	sizes := fs.String("sizes", os.Getenv("BENCH_SIZES"), "comma-separated N to run one after the other for the scaling curve (env BENCH_SIZES), e.g. 10000,100000,1000000")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	c.Load.MaxRequests = maxReq
	c.Skip, c.Only = csvSet(skip), csvSet(only)
	for _, f := range strings.Split(*sizes, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("sizes: %q is not a number of profiles", f)
		}
		c.Sizes = append(c.Sizes, v)
	}
	return c, nil
}

func csvSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out[p] = true
		}
	}
	return out
}

// runBench is `bench run`: every step of `make bench`, once, or once per size of a scaling run.
func runBench(ctx context.Context, args []string) error {
	cfg, err := parseRunConfig(args)
	if err != nil {
		return err
	}
	if len(cfg.Sizes) == 0 {
		return runOnce(ctx, cfg)
	}
	for _, n := range cfg.Sizes {
		c := *cfg
		c.N = n
		if err := runOnce(ctx, &c); err != nil {
			return fmt.Errorf("N = %d: %w", n, err)
		}
	}
	return nil
}

// runOnce measures one N.
func runOnce(ctx context.Context, cfg *runConfig) error {
	ps := newProcs()
	defer ps.stopAll()

	for _, d := range []string{cfg.Work, cfg.Out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	work, err := filepath.Abs(cfg.Work)
	if err != nil {
		return err
	}
	logs := filepath.Join(work, "logs")
	os.MkdirAll(logs, 0o755)
	kardan, err := filepath.Abs(cfg.Kardan)
	if err != nil {
		return err
	}
	if _, err := os.Stat(kardan); err != nil {
		return fmt.Errorf("kardan binary: %w (run make build first)", err)
	}

	s := machineSummary()
	s.N, s.Clients, s.Queries = cfg.N, cfg.Load.Clients, cfg.Queries
	s.LoadBefore = loadAverage()
	s.Warmup, s.Duration = cfg.Load.Warmup.Seconds(), cfg.Load.Duration.Seconds()

	// 1. Data: reference data, N demo profiles, a full index build (timed).
	data := filepath.Join(work, fmt.Sprintf("data-%d", cfg.N))
	if cfg.Reuse && dataHolds(ctx, data, cfg.N) {
		s.Notes = append(s.Notes, "data directory reused from an earlier run: seed and reindex were not timed")
		settled, err := settleReused(ctx, kardan, data, filepath.Join(logs, "setup.log"))
		if err != nil {
			return err
		}
		if settled > 0 {
			s.Notes = append(s.Notes, fmt.Sprintf("the reused data's level scores were settled first (%d profiles, then a reindex): "+
				"a binary that seeded it ended the demo without the daily refresh", settled))
		}
	} else {
		s.SeedSeconds, s.ReindexSeconds, err = seedData(ctx, kardan, data, filepath.Join(logs, "setup.log"), cfg.N)
		if err != nil {
			return err
		}
	}
	dbPath := filepath.Join(data, "kardan.db")

	// 2. The query mixes, drawn from the data.
	demo, ws, err := readWorkloadsOf(ctx, dbPath, cfg.Queries, cfg.Seed, cfg.Only)
	if err != nil {
		return err
	}
	sums := map[string]*workloadSummary{}
	for _, w := range ws {
		s.Workloads = append(s.Workloads, workloadSummary{Name: w.Name, Title: w.Title, search: w.Search})
	}
	for i := range s.Workloads {
		sums[s.Workloads[i].Name] = &s.Workloads[i]
	}
	countDistinct := func(w *workload) {
		seen := map[string]bool{}
		for _, r := range w.Reqs {
			seen[r.Method+" "+r.Path+" "+string(r.Body)] = true
		}
		sums[w.Name].Distinct = len(seen)
	}
	for _, w := range ws {
		countDistinct(w)
	}
	measure := func(target string, w *workload, reqs []request, call caller) *result {
		return measureWith(ctx, cfg.Load, target, w, reqs, call)
	}

	// 3. The peers, all started before Kardan's measurements so that each workload rotates
	// through every target in slices. The bare in-process harness answers from a copy of the
	// data (kardan serve locks its index), opened now; the FTS5 peer reads its pages from the
	// same copy.
	pp := &peers{}
	var copyOfData *harnessPeer
	if !cfg.Skip["harness"] || !cfg.Skip["fts"] {
		h, err := openHarness(ctx, data, filepath.Join(work, fmt.Sprintf("harness-%d", cfg.N)), ws)
		if err != nil {
			return err
		}
		defer h.close()
		copyOfData = h
		if !cfg.Skip["harness"] {
			pp.harness = h
		}
	}
	if !cfg.Skip["pg"] {
		base, err := startPostgres(ctx, cfg, ps, work, logs, dbPath, s)
		if err == nil {
			pp.pgCall, err = httpCaller(base, cfg.Load.Clients)
			pp.pgBase = base
		}
		if err != nil {
			s.Notes = append(s.Notes, "PostgreSQL peer failed: "+err.Error())
			slog.Error("postgres peer", "err", err)
			pp.pgCall = nil
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if !cfg.Skip["fts"] && copyOfData != nil {
		p, base, err := startFTS(ctx, ps, work, logs, data, copyOfData, s)
		if err == nil {
			defer p.close()
			pp.fts, pp.ftsBase = p, base
			pp.ftsCall, err = httpCaller(base, cfg.Load.Clients)
		}
		if err != nil {
			s.Notes = append(s.Notes, "SQLite FTS5 peer not measured: "+err.Error())
			slog.Error("fts5 peer", "err", err)
			pp.fts = nil
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// profiled runs f with this process's CPU profile written for w, when asked for.
	profiled := func(w *workload, f func()) error {
		if cfg.CPUProfile == "" {
			f()
			return nil
		}
		out, err := os.Create(cfg.CPUProfile + "." + w.Name)
		if err != nil {
			return err
		}
		defer out.Close()
		if err := pprof.StartCPUProfile(out); err != nil {
			return err
		}
		f()
		pprof.StopCPUProfile()
		return nil
	}
	if pp.harness != nil {
		s.Matches = matchesPerQuery(ctx, pp.harness, ws, cfg.N)
	}

	// 4. Kardan and every peer, workload by workload, in rotating slices.
	if !cfg.Skip["kardan"] {
		if err := runKardan(ctx, cfg, ps, kardan, data, logs, demo, ws, s, sums, pp, profiled); err != nil {
			return err
		}
	} else {
		for _, w := range ws {
			if err := measureAll(ctx, cfg, w, sums[w.Name], nil, nil, pp, profiled); err != nil {
				return err
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// 5. Kardan on PostgreSQL (#22): one replica, then two behind a round-robin front, beside
	// Kardan on a copy of the same SQLite data.
	if !cfg.Skip["cluster"] {
		self, err := os.Executable()
		if err != nil {
			return err
		}
		figs, err := measureCluster(ctx, clusterConfig{Kardan: kardan, Self: self, Data: data,
			Work: filepath.Join(work, fmt.Sprintf("cluster-%d", cfg.N)), Logs: logs, Load: cfg.Load, Slices: cfg.Slices,
			Writers: cfg.Writers, Sample: cfg.AnswerSample}, ws)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			s.Notes = append(s.Notes, "Kardan on PostgreSQL not measured: "+err.Error())
			slog.Error("cluster", "err", err)
		}
		s.Cluster = figs
	}
	if s.pgPID > 0 {
		if m, err := treePSSMiB(s.pgPID); err == nil {
			s.PGMemoryMiB = m
		}
		if m, err := memoryOf(s.pgServePID); err == nil {
			s.PGServeMiB = m.RSSMiB
		}
	}
	if s.ftsServePID > 0 {
		if m, err := memoryOf(s.ftsServePID); err == nil {
			s.FTSServeMiB = m.PeakMiB
		}
	}

	// 6. The ceiling: a bare net/http answer of each workload's mean answer size.
	if !cfg.Skip["ceiling"] {
		if err := runCeilingPeer(ctx, cfg, ps, logs, ws, sums, measure); err != nil {
			return err
		}
	}

	// 7. Web bundle figures.
	if !cfg.Skip["web"] {
		b, err := measureBundles(cfg.Dist)
		if err != nil {
			s.Web.BundleNote = "Bundle sizes not measured: " + err.Error()
		}
		s.Web.Bundles = b
	}

	s.LoadAfter = loadAverage()
	s.judge()
	s.Goals = goalsOf(s, latestLoadtest(cfg.Out), cfg.Out)
	stamp := time.Now().UTC().Format("20060102-150405")
	raw := filepath.Join(cfg.Out, fmt.Sprintf("run-%s-n%d.json", stamp, cfg.N))
	if err := writeJSONFile(raw, s); err != nil {
		return err
	}
	if err := writeJSONFile(filepath.Join(cfg.Out, "latest.json"), s); err != nil {
		return err
	}
	if err := writeMarkdown(cfg.Markdown, s); err != nil {
		return err
	}
	if err := writeScaling(cfg.Out, cfg.Markdown, s); err != nil {
		return err
	}
	missed := 0
	for _, c := range s.Checks {
		if !c.Met {
			missed++
		}
	}
	slog.Info("benchmark written", "json", raw, "markdown", cfg.Markdown, "targets", len(s.Checks), "missed", missed)
	return nil
}

// seedData seeds the reference data and n demo profiles into a fresh data directory and builds
// its index; it answers the seconds of the seed and of the index build.
func seedData(ctx context.Context, kardan, data, setupLog string, n int) (float64, float64, error) {
	os.RemoveAll(data)
	if _, err := run(ctx, setupLog, nil, kardan, "seed", "--data", data); err != nil {
		return 0, 0, err
	}
	slog.Info("seeding demo profiles", "n", n)
	seeded, err := run(ctx, setupLog, nil, kardan, "seed", "--data", data, "--demo", strconv.Itoa(n))
	if err != nil {
		return 0, 0, err
	}
	slog.Info("building the search index", "n", n)
	indexed, err := run(ctx, setupLog, nil, kardan, "reindex", "--data", data)
	if err != nil {
		return 0, 0, err
	}
	slog.Info("data ready", "seed_s", seeded.Seconds(), "reindex_s", indexed.Seconds())
	return seeded.Seconds(), indexed.Seconds(), nil
}

// settleReused runs the server's daily level_score refresh on a reused data directory and, when
// it rewrote any profile, rebuilds the index with the binary. A binary older than the demo seed's
// closing refresh (admin.SeedDemo) left the batches on the prior of their time, and a server's
// first maintenance, a minute after it starts, then rewrote and reindexed half the profiles in
// the middle of the measurements. There is no command for the refresh alone, so it runs through
// the store package, as serve's maintenance does. It answers how many profiles it rewrote.
func settleReused(ctx context.Context, kardan, data, setupLog string) (int, error) {
	st, err := store.Open(ctx, filepath.Join(data, "kardan.db"))
	if err != nil {
		return 0, fmt.Errorf("settle scores: %w", err)
	}
	n, err := st.RefreshLevelScores(ctx)
	st.Close()
	if err != nil || n == 0 {
		return 0, err
	}
	slog.Info("reused data: level scores settled, rebuilding the index", "profiles", n)
	if _, err := run(ctx, setupLog, nil, kardan, "reindex", "--data", data); err != nil {
		return 0, err
	}
	return n, nil
}

// readWorkloadsOf samples the data at dbPath and draws every workload's requests (only those
// named in only, when it names any); home and asset are filled in once a server answers.
func readWorkloadsOf(ctx context.Context, dbPath string, queries int, seed uint64, only map[string]bool) (*demoData, []*workload, error) {
	db, err := sql.Open("sqlite3", "file:"+dbPath+"?mode=ro&_query_only=true")
	if err != nil {
		return nil, nil, err
	}
	demo, err := sampleDemo(ctx, db, 4000, seed)
	db.Close()
	if err != nil {
		return nil, nil, err
	}
	all := demo.buildWorkloads(queries, seed)
	all = append(all, &workload{Name: "home", Title: "home page HTML with meta"}, &workload{Name: "asset", Title: "static hashed asset"})
	var ws []*workload
	for _, w := range all {
		if len(only) == 0 || only[w.Name] {
			ws = append(ws, w)
		}
	}
	return demo, ws, nil
}

// dataHolds reports whether dir already holds n demo profiles and an index.
func dataHolds(ctx context.Context, dir string, n int) bool {
	if _, err := os.Stat(filepath.Join(dir, "index", "index_meta.json")); err != nil {
		return false
	}
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(dir, "kardan.db")+"?mode=ro")
	if err != nil {
		return false
	}
	defer db.Close()
	var got int
	return db.QueryRowContext(ctx, `SELECT COUNT(*) FROM profiles`).Scan(&got) == nil && got == n
}

type measureFunc func(target string, w *workload, reqs []request, call caller) *result

// measureWith runs one workload on one target and logs the outcome.
func measureWith(ctx context.Context, lc loadConfig, target string, w *workload, reqs []request, call caller) *result {
	slog.Info("measuring", "target", target, "workload", w.Name)
	r := runLoad(ctx, lc, reqs, call)
	r.Target, r.Workload = target, w.Name
	slog.Info("measured", "target", target, "workload", w.Name, "rps", int(r.RPS), "p50_ms", r.P50, "p99_ms", r.P99, "errors", r.Errors)
	return &r
}

// harnessPeer answers the search, profile and comment workloads in process, through
// search.SearchProfiles and store.ProfilesByIDs (store.ProfileBySlug, store.Comments): the lower
// bound of Kardan's own work.
type harnessPeer struct {
	st  *store.Store
	ix  *search.Index
	dir string // the copy of the data, removed on close
}

// openHarness copies data to dir (Kardan's server will hold the original's index lock), opens
// the copy and asks every request of ws once, which brings the index and the database into the
// page cache, as Kardan finds them after its warm-up.
func openHarness(ctx context.Context, data, dir string, ws []*workload) (*harnessPeer, error) {
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if out, err := exec.CommandContext(ctx, "cp", "-a", data, dir).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("copy the data for the harness: %w: %s", err, out)
	}
	st, err := store.Open(ctx, filepath.Join(dir, "kardan.db"))
	if err != nil {
		return nil, err
	}
	ix, err := search.Open(ctx, filepath.Join(dir, "index"), st)
	if err != nil {
		st.Close()
		return nil, err
	}
	h := &harnessPeer{st: st, ix: ix, dir: dir}
	start := time.Now()
	for _, w := range ws {
		if !w.Harness {
			continue
		}
		for i := range w.Reqs {
			if _, err := h.call(ctx, &w.Reqs[i]); err != nil {
				h.close()
				return nil, fmt.Errorf("harness %s: %w", w.Name, err)
			}
		}
	}
	slog.Info("harness warmed", "seconds", time.Since(start).Seconds())
	return h, nil
}

// call answers one request the way Kardan's handler would, without HTTP and JSON.
func (h *harnessPeer) call(ctx context.Context, r *request) (int, error) {
	switch {
	case r.Query != nil:
		hits, err := h.ix.SearchProfiles(ctx, *r.Query)
		if err != nil {
			return 0, err
		}
		if _, err := h.st.ProfilesByIDs(ctx, hits.IDs); err != nil {
			return 0, err
		}
		return 0, nil
	case r.Slug != "":
		_, err := h.st.ProfileBySlug(ctx, r.Slug)
		return 0, err
	case r.CommentsOf > 0:
		// The handler's own read (api's handleCommentGet): the profile's visibility, the page
		// and the score histogram in one call. The harness once read the profile whole, a count
		// and a page, three statements the handler had stopped making, which halved its rate.
		hidden := false
		_, err := h.st.ProfileComments(ctx, r.CommentsOf, store.CommentFilter{Hidden: &hidden, Limit: 20},
			func(visible bool, _ int64) bool { return visible })
		return 0, err
	}
	return 0, errors.New("the harness has no equivalent of this request")
}

func (h *harnessPeer) close() {
	h.ix.Close()
	h.st.Close()
	os.RemoveAll(h.dir)
}

var entryScript = regexp.MustCompile(`<script\b[^>]*\bsrc="(/assets/[^"]+\.js)"`)

// runKardan serves the data with `kardan serve`, checks the peers' answers against its own, and
// measures every workload on it and the peers in rotating slices, then its memory and (unless
// skipped) the Lighthouse scores of its pages.
func runKardan(ctx context.Context, cfg *runConfig, ps *procs, kardan, data, logs string, demo *demoData, ws []*workload,
	s *summary, sums map[string]*workloadSummary, pp *peers, profiled func(*workload, func()) error) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	p, err := ps.start(procSpec{Name: "kardan serve", Argv: []string{kardan, "serve", "--data", data, "--addr", fmt.Sprintf("127.0.0.1:%d", port),
		"--base-url", base}, Log: filepath.Join(logs, "kardan.log"),
		// Every client of the benchmark is 127.0.0.1: the per-address search limit is lifted (an
		// environment variable, so binaries from before the flag still start).
		Env: []string{"KARDAN_SEARCH_RATE=0"}})
	if err != nil {
		return err
	}
	defer p.stop(30 * time.Second)
	if err := waitHTTP(ctx, base+"/healthz", p, 5*time.Minute); err != nil {
		return err
	}
	call, err := httpCaller(base, cfg.Load.Clients)
	if err != nil {
		return err
	}
	home, err := fetch(ctx, base+"/")
	if err != nil {
		return err
	}
	for _, w := range ws {
		switch w.Name {
		case "home":
			w.Reqs = []request{{Method: "GET", Path: "/"}}
		case "asset":
			if m := entryScript.FindStringSubmatch(home); m != nil {
				w.Reqs = []request{{Method: "GET", Path: m[1]}}
			} else {
				sums[w.Name].Skipped = "the binary embeds no built web app (run make web before make build)"
			}
		case "comments":
			if len(w.Reqs) > 0 {
				if _, err := call(ctx, &w.Reqs[0]); err != nil && strings.Contains(err.Error(), "status 404") {
					sums[w.Name].Skipped = "POST /v1/comment/get is not in this build"
				}
			}
		}
	}
	checkAnswers(ctx, ws, sums, base, pp, cfg.AnswerSample)
	reqLog := &serverLog{path: filepath.Join(logs, "kardan.log")}
	for _, w := range ws {
		if w.Name == "home" || w.Name == "asset" {
			sums[w.Name].Distinct = len(w.Reqs)
		}
		if sums[w.Name].Skipped != "" || len(w.Reqs) == 0 {
			if err := measureAll(ctx, cfg, w, sums[w.Name], nil, nil, pp, profiled); err != nil {
				return err
			}
			continue
		}
		if err := measureAll(ctx, cfg, w, sums[w.Name], call, reqLog.mark, pp, profiled); err != nil {
			return err
		}
		if r := sums[w.Name].Kardan; r != nil {
			// The log names the path without its query (the suggest workload has one).
			path, _, _ := strings.Cut(w.Reqs[0].Path, "?")
			r.ServerP50, r.ServerP99, _ = reqLog.latencies(path)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if m, err := memoryOf(p.pid()); err == nil {
		s.KardanMemory = m
	}
	if !cfg.Skip["web"] && !cfg.Skip["lighthouse"] {
		s.Web.Lighthouse, s.Web.LighthouseNote = lighthouse(ctx, cfg, logs, base, demo)
	}
	return nil
}

// lighthouse audits the home, a search and a profile page; when it cannot, it answers why.
func lighthouse(ctx context.Context, cfg *runConfig, logs, base string, demo *demoData) ([]lighthouseScores, string) {
	lhLog := filepath.Join(logs, "lighthouse.log")
	chromium, err := ensureChromium(ctx, lhLog)
	if err != nil {
		return nil, "Lighthouse did not run: " + err.Error()
	}
	cli, err := ensureLighthouse(ctx, cfg.LHCache, lhLog)
	if err != nil {
		return nil, "Lighthouse did not run: " + err.Error()
	}
	p := demo.profiles[0]
	query := demo.categories[p.CategoryIDs[0]].Fa
	var out []lighthouseScores
	for _, lang := range lighthouseLangs {
		for _, page := range lighthousePages(base, query, p.Slug) {
			sc, err := runLighthouse(ctx, cli, chromium, page[0], lang, page[1], filepath.Join(cfg.Work, "logs"), lhLog, cfg.LHRuns)
			if err != nil {
				return out, "Lighthouse failed on " + page[0] + " (" + lang + "): " + err.Error()
			}
			slog.Info("lighthouse", "page", page[0], "lang", lang, "performance", sc.Performance, "accessibility", sc.Accessibility, "seo", sc.SEO)
			out = append(out, sc)
		}
	}
	return out, ""
}

// runCeilingPeer measures the ceiling with each workload's calls, answered with a fixed body of
// Kardan's mean answer size for that workload.
func runCeilingPeer(ctx context.Context, cfg *runConfig, ps *procs, logs string, ws []*workload,
	sums map[string]*workloadSummary, measure measureFunc) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	p, err := ps.start(procSpec{Name: "ceiling", Argv: []string{self, "ceiling", "--addr", fmt.Sprintf("127.0.0.1:%d", port)},
		Log: filepath.Join(logs, "ceiling.log")})
	if err != nil {
		return err
	}
	defer p.stop(15 * time.Second)
	if err := waitHTTP(ctx, base+ceilingPath+"10", p, time.Minute); err != nil {
		return err
	}
	call, err := httpCaller(base, cfg.Load.Clients)
	if err != nil {
		return err
	}
	for _, w := range ws {
		k := sums[w.Name].Kardan
		if k == nil || len(w.Reqs) == 0 {
			continue
		}
		size := strconv.Itoa(int(k.MeanBytes))
		reqs := make([]request, len(w.Reqs))
		for i, r := range w.Reqs {
			reqs[i] = request{Method: r.Method, Path: ceilingPath + size, Body: r.Body}
		}
		sums[w.Name].Ceiling = measure("ceiling", w, reqs, call)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

func fetch(ctx context.Context, url string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// machineSummary starts the summary with the machine, the date and the commit.
func machineSummary() *summary {
	s := &summary{Date: time.Now().UTC().Format(time.RFC3339), Cores: runtime.NumCPU(), GoVersion: runtime.Version()}
	if out, err := exec.Command("git", "describe", "--always", "--dirty", "--abbrev=12").Output(); err == nil {
		s.Commit = strings.TrimSpace(string(out))
	}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				s.CPU = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				s.MemoryGiB = kibField(v) / (1 << 20)
			}
		}
	}
	return s
}
