package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Kardan on PostgreSQL (issue #22): the same binary serving the same data from SQLite, from
// PostgreSQL as one replica, and as two replicas behind a round-robin front (`bench front`), all
// on this machine. The read workloads and a write workload (comment/add) rotate through the
// three targets in slices, as the peers do, so all meet the same load.

// clusterTargets names the three targets, in the order they are measured and reported.
var clusterTargets = []string{"sqlite", "postgres", "postgres ×2"}

// clusterWriteLimit is the comments one account may add an hour (README's Limits): each writer
// comments on at most this many profiles.
const clusterWriteLimit = 30

// clusterFigures are the rows of Kardan on PostgreSQL.
type clusterFigures struct {
	PGVersion string `json:"pg_version"`
	// MigrateSeconds is `kardan migrate --to postgres://…` of the data (copy and verification).
	MigrateSeconds float64 `json:"migrate_seconds"`
	// Workloads are the read workloads then the write workload, each on the three targets.
	Workloads []clusterWorkload `json:"workloads"`
	// Answers compares the PostgreSQL targets' answers with SQLite's on each read workload.
	Answers map[string][]answerCheck `json:"answers,omitempty"`
	Memory  map[string]memory        `json:"memory,omitempty"`
	// Load is the machine's load average as the measurements began and ended: the three targets
	// and PostgreSQL share its cores with whatever else runs.
	LoadBefore string   `json:"load_before,omitempty"`
	LoadAfter  string   `json:"load_after,omitempty"`
	Notes      []string `json:"notes,omitempty"`
}

// clusterWorkload is one workload on the three targets, and SQLite's throughput over PostgreSQL's.
type clusterWorkload struct {
	Name  string    `json:"name"`
	Title string    `json:"title"`
	Write bool      `json:"write,omitempty"`
	On    []*result `json:"results"` // in clusterTargets' order
	// SQLiteOverPG is SQLite's throughput over one PostgreSQL replica's (nil when either failed).
	SQLiteOverPG *float64 `json:"sqlite_over_postgres,omitempty"`
	// SQLiteOverPG2 is SQLite's throughput over the two replicas' behind the front.
	SQLiteOverPG2 *float64 `json:"sqlite_over_postgres_x2,omitempty"`
}

// clusterConfig is what measureCluster needs: the binary, the data to copy, the load.
type clusterConfig struct {
	Kardan  string
	Self    string // this program, for `bench front`
	Data    string // a seeded and indexed data directory; it is copied, never changed
	Work    string // scratch directory of this part
	Logs    string
	Load    loadConfig
	Slices  int
	Writers int // writer accounts per target
	Sample  int // requests per read workload whose answers are compared
}

// measureCluster starts Kardan on a copy of the data (SQLite), PostgreSQL with the data moved
// in by `kardan migrate`, two replicas on it and a front over them, and measures ws (reads) and
// comment/add (writes) on the three targets.
func measureCluster(ctx context.Context, cc clusterConfig, ws []*workload) (*clusterFigures, error) {
	ps := newProcs()
	defer ps.stopAll()
	out := &clusterFigures{Answers: map[string][]answerCheck{}, Memory: map[string]memory{}}
	if err := os.RemoveAll(cc.Work); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cc.Work, 0o755); err != nil {
		return nil, err
	}
	// The writes change the data: they go to a copy, so the other rows (and --reuse) keep theirs.
	lite := filepath.Join(cc.Work, "sqlite")
	if b, err := exec.CommandContext(ctx, "cp", "-a", cc.Data, lite).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("copy the data: %w: %s", err, b)
	}
	tokens, err := seedWriters(ctx, lite, len(clusterTargets)*cc.Writers)
	if err != nil {
		return nil, fmt.Errorf("writers: %w", err)
	}
	pgLog := filepath.Join(cc.Logs, "cluster-postgres.log")
	bin, err := ensurePostgres(ctx, pgLog)
	if err != nil {
		return nil, err
	}
	pg, err := newPGCluster(ctx, bin, cc.Work, pgLog)
	if err != nil {
		return nil, err
	}
	pg.durable = true
	out.PGVersion = pg.version
	if err := pg.start(ctx, ps, pgLog); err != nil {
		return nil, err
	}
	if err := createDatabase(ctx, pg.dsn(), "kardan"); err != nil {
		return nil, err
	}
	dbURL := fmt.Sprintf("postgres://bench@127.0.0.1:%d/kardan?sslmode=disable", pg.port)
	slog.Info("cluster: kardan migrate into PostgreSQL")
	took, err := run(ctx, filepath.Join(cc.Logs, "cluster-migrate.log"), nil, cc.Kardan, "migrate", "--data", lite, "--to", dbURL)
	if err != nil {
		return nil, fmt.Errorf("kardan migrate: %w", err)
	}
	out.MigrateSeconds = took.Seconds()

	// The three servers. Each replica has an empty data directory: it builds its index from the
	// database at start, as a new replica does.
	serve := func(name, data string, extra ...string) (string, *proc, error) {
		port, err := freePort()
		if err != nil {
			return "", nil, err
		}
		base := fmt.Sprintf("http://127.0.0.1:%d", port)
		argv := append([]string{cc.Kardan, "serve", "--data", data, "--addr", fmt.Sprintf("127.0.0.1:%d", port), "--base-url", base,
			"--log-level", "warn"}, extra...)
		p, err := ps.start(procSpec{Name: name, Argv: argv, Log: filepath.Join(cc.Logs, name+".log"), Env: []string{"KARDAN_SEARCH_RATE=0"}})
		if err != nil {
			return "", nil, err
		}
		return base, p, nil
	}
	liteBase, liteProc, err := serve("cluster-sqlite", lite)
	if err != nil {
		return nil, err
	}
	aBase, aProc, err := serve("cluster-replica-a", filepath.Join(cc.Work, "replica-a"), "--db", dbURL)
	if err != nil {
		return nil, err
	}
	bBase, bProc, err := serve("cluster-replica-b", filepath.Join(cc.Work, "replica-b"), "--db", dbURL)
	if err != nil {
		return nil, err
	}
	for base, p := range map[string]*proc{liteBase: liteProc, aBase: aProc, bBase: bProc} {
		if err := waitHTTP(ctx, base+"/healthz", p, 10*time.Minute); err != nil {
			return nil, err
		}
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	frontBase := fmt.Sprintf("http://127.0.0.1:%d", port)
	front, err := ps.start(procSpec{Name: "front", Argv: []string{cc.Self, "front", "--addr", fmt.Sprintf("127.0.0.1:%d", port),
		"--to", aBase + "," + bBase}, Log: filepath.Join(cc.Logs, "cluster-front.log")})
	if err != nil {
		return nil, err
	}
	if err := waitHTTP(ctx, frontBase+"/healthz", front, time.Minute); err != nil {
		return nil, err
	}
	bases := []string{liteBase, aBase, frontBase}
	out.LoadBefore = loadAverage()

	// Reads: the answers first (before any write moves a score), then the load.
	calls := make([]caller, len(bases))
	for i, b := range bases {
		if calls[i], err = httpCaller(b, cc.Load.Clients); err != nil {
			return nil, err
		}
	}
	client := &http.Client{Timeout: 30 * time.Second}
	for _, w := range ws {
		if len(w.Reqs) == 0 || w.Name == "asset" || w.Name == "home" {
			continue
		}
		if w.Name != suggestWorkload { // suggestions carry no count nor ids to compare
			out.Answers[w.Name] = compareTargets(ctx, client, bases, w.Reqs[:min(cc.Sample, len(w.Reqs))])
		}
		rs := runRotating(ctx, cc.Load, cc.Slices, w.Reqs, clusterTargetsOf(calls))
		out.Workloads = append(out.Workloads, clusterRow(w.Name, w.Title, false, rs))
		logCluster(w.Name, rs)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}

	// Writes: each target has writers of its own (the two PostgreSQL targets share a database,
	// and an account may comment on a profile once).
	liteClient, err := newRawClient(liteBase, 1)
	if err != nil {
		return nil, err
	}
	profiles, err := visibleProfiles(ctx, liteClient, 100)
	if err != nil {
		return nil, err
	}
	wcalls := make([]caller, len(bases))
	for i, b := range bases {
		wp := &writePlan{tokens: tokens[i*cc.Writers : (i+1)*cc.Writers], profiles: profiles}
		if wcalls[i], err = wp.caller(b, cc.Load.Clients); err != nil {
			return nil, err
		}
	}
	write := []request{{Method: http.MethodPost, Path: "/v1/comment/add"}}
	rs := runRotating(ctx, cc.Load, cc.Slices, write, clusterTargetsOf(wcalls))
	out.Workloads = append(out.Workloads, clusterRow("comment_add", "comment/add (a new comment, its score and the outbox)", true, rs))
	logCluster("comment_add", rs)

	out.LoadAfter = loadAverage()
	for name, p := range map[string]*proc{"sqlite": liteProc, "replica a": aProc, "replica b": bProc} {
		if m, err := memoryOf(p.pid()); err == nil {
			out.Memory[name] = m
		}
	}
	if m, err := treePSSMiB(pg.proc.pid()); err == nil {
		out.Memory["postgres"] = memory{RSSMiB: m}
	}
	return out, nil
}

// clusterTargetsOf names calls after clusterTargets for runRotating.
func clusterTargetsOf(calls []caller) []target {
	ts := make([]target, len(calls))
	for i, c := range calls {
		ts[i] = target{name: clusterTargets[i], call: c}
	}
	return ts
}

// clusterRow files one workload's results and SQLite's throughput over each PostgreSQL target's.
func clusterRow(name, title string, write bool, rs []result) clusterWorkload {
	row := clusterWorkload{Name: name, Title: title, Write: write}
	for i := range rs {
		r := rs[i]
		r.Target, r.Workload = clusterTargets[i], name
		row.On = append(row.On, &r)
	}
	if len(row.On) == len(clusterTargets) {
		row.SQLiteOverPG, row.SQLiteOverPG2 = ratio(row.On[0], row.On[1]), ratio(row.On[0], row.On[2])
	}
	return row
}

func logCluster(name string, rs []result) {
	for i, r := range rs {
		slog.Info("cluster measured", "workload", name, "target", clusterTargets[i], "rps", int(r.RPS), "p50_ms", r.P50, "p99_ms", r.P99, "errors", r.Errors)
	}
}

// compareTargets asks every base the sample and compares the later bases' answers with the
// first's (SQLite's).
func compareTargets(ctx context.Context, client *http.Client, bases []string, sample []request) []answerCheck {
	answers := make([][]*answer, len(bases))
	var firstErr []string
	for i, b := range bases {
		firstErr = append(firstErr, "")
		for j := range sample {
			a, err := answerOver(ctx, client, b, &sample[j])
			if err != nil && firstErr[i] == "" {
				firstErr[i] = err.Error()
			}
			answers[i] = append(answers[i], a)
		}
	}
	var out []answerCheck
	for i := 1; i < len(bases); i++ {
		c := compareAnswers(clusterTargets[i], answers[0], answers[i])
		c.Error = firstErr[i]
		out = append(out, c)
	}
	return out
}

// createDatabase creates an empty database for Kardan on the cluster at dsn.
func createDatabase(ctx context.Context, dsn, name string) error {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, "CREATE DATABASE "+name)
	return err
}

// visibleProfiles answers the ids of up to n visible profiles, the newest first.
func visibleProfiles(ctx context.Context, client *rawClient, n int) ([]int64, error) {
	var got struct {
		Profiles []struct {
			ID int64 `json:"id"`
		} `json:"profiles"`
	}
	if _, err := postJSON(ctx, client, "/v1/user-technical/searchUser", "", map[string]any{"take": n, "order": "newest"}, &got); err != nil {
		return nil, err
	}
	if len(got.Profiles) < clusterWriteLimit {
		return nil, fmt.Errorf("the data has %d visible profiles; the write workload needs %d", len(got.Profiles), clusterWriteLimit)
	}
	ids := make([]int64, len(got.Profiles))
	for i, p := range got.Profiles {
		ids[i] = p.ID
	}
	return ids, nil
}

// writePlan hands out the comments of one target: the i-th is by writer i/30 on one of 30
// different profiles of theirs, so no account comments twice on a profile nor more than its
// hourly cap, whichever client sends it.
type writePlan struct {
	tokens   []string
	profiles []int64
	next     atomic.Int64
}

// errPlanSpent is answered once every writer has used their hour's comments.
var errPlanSpent = errors.New("every writer has used the comments of their hour: give the benchmark more writers")

// comment answers the token and the body of the plan's i-th comment.
func (p *writePlan) comment(i int64) (string, map[string]any, error) {
	w := i / clusterWriteLimit
	if w >= int64(len(p.tokens)) {
		return "", nil, errPlanSpent
	}
	// Writer w's k-th comment goes to profile w*7+k: consecutive writers start on different
	// profiles (the load spreads over them) and one writer's 30 are 30 different ones.
	k := i % clusterWriteLimit
	profile := p.profiles[(w*7+k)%int64(len(p.profiles))]
	return p.tokens[w], map[string]any{"user_technical_id": profile, "score": 1 + int(i%5),
		"description": "نظر آزمون سنجش شماره " + strconv.FormatInt(i, 10)}, nil
}

// caller answers a caller that sends the plan's next comment to base, whatever request it is given.
func (p *writePlan) caller(base string, clients int) (caller, error) {
	client, err := newRawClient(base, clients)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, _ *request) (int, error) {
		token, body, err := p.comment(p.next.Add(1) - 1)
		if err != nil {
			return 0, err
		}
		var got struct {
			ID int64 `json:"id"`
		}
		status, err := postJSON(ctx, client, "/v1/comment/add", token, body, &got)
		switch {
		case status < 0:
			return 0, ctx.Err()
		case err != nil:
			return 0, err
		case got.ID == 0:
			return 0, fmt.Errorf("comment/add answered %d without an id", status)
		}
		return 1, nil
	}, nil
}

// judgeCluster adds the targets of issue #22 to the run's checks: every read workload on one
// PostgreSQL replica within 1.5× of SQLite's throughput.
func (s *summary) judgeCluster() {
	if s.Cluster == nil {
		return
	}
	for _, w := range s.Cluster.Workloads {
		if w.Write || w.SQLiteOverPG == nil {
			continue
		}
		s.addCheck(w.Name+": on PostgreSQL within 1.5× of SQLite", fmt.Sprintf("SQLite %.2f× its throughput", *w.SQLiteOverPG), *w.SQLiteOverPG <= 1.5)
	}
}

// writeClusterMarkdown writes the rows of Kardan on PostgreSQL.
func writeClusterMarkdown(b *strings.Builder, c *clusterFigures) {
	b.WriteString("\n### Kardan on PostgreSQL: one replica, and two behind a round-robin front\n\n")
	fmt.Fprintf(b, "The same binary and data: SQLite in its data directory; PostgreSQL %s (durable: fsync and synchronous commits on, "+
		"the data moved in by `kardan migrate` in %.1f s), one replica, then two replicas behind `bench front` (round robin, "+
		"keep-alive), every process on this machine's cores. Each replica searches its own Bleve index. "+
		"The targets took turns in slices; the write workload is comment/add by accounts of its own per target. "+
		"Two replicas on the same two cores as one cannot serve more: that row measures what the front and a second replica cost, "+
		"not the capacity of a cluster of machines.\n\n", c.PGVersion, c.MigrateSeconds)
	if c.LoadBefore != "" {
		fmt.Fprintf(b, "Load average (1, 5, 15 min): %s as these rows began, %s as they ended.\n\n", c.LoadBefore, c.LoadAfter)
	}
	b.WriteString("| workload | target | req/s | p50 | p95 | p99 | max | errors | SQLite's throughput over it |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, w := range c.Workloads {
		for i, r := range w.On {
			if r == nil {
				continue
			}
			errs := errorsCell(r)
			over := "—"
			if v := [](*float64){nil, w.SQLiteOverPG, w.SQLiteOverPG2}[i]; v != nil {
				over = fmt.Sprintf("%.2f", *v)
			}
			fmt.Fprintf(b, "| %s | %s | %.0f | %.2f | %.2f | %.2f | %.1f | %s | %s |\n", w.Title, r.Target, r.RPS, r.P50, r.P95, r.P99, r.Max, errs, over)
		}
	}
	if len(c.Answers) > 0 {
		b.WriteString("\nAnswers of the PostgreSQL targets against SQLite's (sampled requests, before any write):\n\n")
		b.WriteString("| workload | target | sampled | counts equal | first page overlap | same order | first error |\n|---|---|---:|---:|---:|---:|---|\n")
		for _, w := range c.Workloads {
			for _, a := range c.Answers[w.Name] {
				fmt.Fprintf(b, "| %s | %s | %d | %d | %.3f | %d | %s |\n", w.Name, a.Peer, a.Sampled, a.CountsEqual, a.Overlap, a.SameOrder,
					strings.ReplaceAll(truncate(a.Error, 80), "|", "/"))
			}
		}
	}
	if len(c.Memory) > 0 {
		b.WriteString("\nMemory after the load:")
		for _, k := range []string{"sqlite", "replica a", "replica b", "postgres"} {
			if m, ok := c.Memory[k]; ok {
				fmt.Fprintf(b, " %s %.0f MiB;", k, m.RSSMiB)
			}
		}
		b.WriteString(" (PostgreSQL: PSS of every server process.)\n")
	}
	for _, n := range c.Notes {
		fmt.Fprintf(b, "\n- %s\n", n)
	}
}

// runCluster is `bench cluster`: the rows of Kardan on PostgreSQL alone, on data of its own
// (seeded unless the work directory holds N profiles), written to a JSON file and the standard
// output; `bench run` measures the same rows into BENCHMARKS.md.
func runCluster(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("cluster", flag.ContinueOnError)
	kardan := fs.String("kardan", "./kardan", "the kardan binary")
	n := fs.Int("n", 2000, "demo profiles")
	work := fs.String("work", "bench/results/work", "scratch directory")
	outDir := fs.String("out", "bench/results", "where the JSON result is written")
	var lc loadConfig
	fs.IntVar(&lc.Clients, "clients", 4, "concurrent clients")
	fs.DurationVar(&lc.Warmup, "warmup", time.Second, "warm-up per workload and target")
	fs.DurationVar(&lc.Duration, "duration", 5*time.Second, "measured time per workload and target")
	fs.Int64Var(&lc.MaxRequests, "max-requests", 300000, "measured requests per workload and target at most")
	slices := fs.Int("slices", 5, "the targets take turns in this many slices")
	writers := fs.Int("writers", 1000, "writer accounts per target (30 comments each)")
	queries := fs.Int("queries", 2000, "requests drawn per read workload")
	only := fs.String("only", "", "comma-separated read workloads (default all)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cc, ws, err := prepareCluster(ctx, *kardan, *work, *n, *queries, csvSet(*only))
	if err != nil {
		return err
	}
	cc.Load, cc.Slices, cc.Writers, cc.Sample = lc, *slices, *writers, 200
	figs, err := measureCluster(ctx, cc, ws)
	if err != nil {
		return err
	}
	s := &summary{N: *n, Cluster: figs}
	s.judgeCluster()
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(*outDir, fmt.Sprintf("cluster-%s-n%d.json", time.Now().UTC().Format("20060102-150405"), *n))
	if err := writeJSONFile(path, s); err != nil {
		return err
	}
	var b strings.Builder
	writeClusterMarkdown(&b, figs)
	for _, c := range s.Checks {
		fmt.Fprintf(&b, "- %s: %s (met: %v)\n", c.Target, c.Got, c.Met)
	}
	fmt.Print(b.String())
	slog.Info("cluster rows written", "json", path)
	return nil
}

// prepareCluster seeds (or reuses) N demo profiles under work and draws the read workloads.
func prepareCluster(ctx context.Context, kardan, work string, n, queries int, only map[string]bool) (clusterConfig, []*workload, error) {
	var cc clusterConfig
	work, err := filepath.Abs(work)
	if err != nil {
		return cc, nil, err
	}
	if cc.Kardan, err = filepath.Abs(kardan); err != nil {
		return cc, nil, err
	}
	if cc.Self, err = os.Executable(); err != nil {
		return cc, nil, err
	}
	cc.Logs = filepath.Join(work, "logs")
	cc.Data = filepath.Join(work, fmt.Sprintf("data-%d", n))
	cc.Work = filepath.Join(work, fmt.Sprintf("cluster-%d", n))
	if err := os.MkdirAll(cc.Logs, 0o755); err != nil {
		return cc, nil, err
	}
	setupLog := filepath.Join(cc.Logs, "setup.log")
	if dataHolds(ctx, cc.Data, n) {
		if _, err := settleReused(ctx, cc.Kardan, cc.Data, setupLog); err != nil {
			return cc, nil, err
		}
	} else if _, _, err := seedData(ctx, cc.Kardan, cc.Data, setupLog, n); err != nil {
		return cc, nil, err
	}
	_, ws, err := readWorkloadsOf(ctx, filepath.Join(cc.Data, "kardan.db"), queries, 1, only)
	return cc, ws, err
}
