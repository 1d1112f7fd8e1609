package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// peers are the targets measured beside Kardan, all running at once so that every workload
// rotates through them in slices (runRotating).
type peers struct {
	harness *harnessPeer // nil when skipped
	fts     *ftsPeer     // in process; nil when skipped or not built
	pgCall  caller       // the PostgreSQL peer over HTTP
	ftsCall caller       // the FTS5 peer over HTTP
	pgBase  string
	ftsBase string
}

// startPostgres installs (if needed), starts and loads a private PostgreSQL and its Go front,
// and answers their base URL; the processes stop with ps.
func startPostgres(ctx context.Context, cfg *runConfig, ps *procs, work, logs, dbPath string, s *summary) (string, error) {
	pgLog := filepath.Join(logs, "postgres.log")
	bin, err := ensurePostgres(ctx, pgLog)
	if err != nil {
		return "", err
	}
	cluster, err := newPGCluster(ctx, bin, work, pgLog)
	if err != nil {
		return "", err
	}
	s.PGVersion = cluster.version
	if err := cluster.start(ctx, ps, pgLog); err != nil {
		return "", err
	}
	slog.Info("loading PostgreSQL", "n", cfg.N)
	took, err := loadPG(ctx, dbPath, cluster.dsn())
	if err != nil {
		return "", err
	}
	s.PGLoadSeconds = took
	s.pgPID = cluster.proc.pid()
	slog.Info("PostgreSQL loaded", "seconds", took)
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	port, err := freePort()
	if err != nil {
		return "", err
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	front, err := ps.start(procSpec{Name: "pgserve", Argv: []string{self, "pgserve", "--dsn", cluster.dsn(),
		"--addr", fmt.Sprintf("127.0.0.1:%d", port), "--conns", strconv.Itoa(cfg.PGConnections)}, Log: filepath.Join(logs, "pgserve.log")})
	if err != nil {
		return "", err
	}
	s.pgServePID = front.pid()
	return base, waitHTTP(ctx, base+"/healthz", front, time.Minute)
}

// startFTS builds the FTS5 peer's database from the data, opens it in process (on the harness's
// copy of the store) and serves it over HTTP.
func startFTS(ctx context.Context, ps *procs, work, logs, data string, h *harnessPeer, s *summary) (*ftsPeer, string, error) {
	path := filepath.Join(work, fmt.Sprintf("fts-%d.db", s.N))
	slog.Info("building the SQLite FTS5 peer")
	took, err := buildFTS(ctx, filepath.Join(data, "kardan.db"), path)
	if err != nil {
		return nil, "", err
	}
	s.FTSBuildSeconds = took
	slog.Info("FTS5 peer built", "seconds", took)
	p, err := openFTSPeer(ctx, path, h.st)
	if err != nil {
		return nil, "", err
	}
	s.DistinctWords = 0
	for w := range p.lex.docs {
		if !(strings.HasPrefix(w, "c") && len(w) > 1 && w[1] >= '0' && w[1] <= '9') { // the city tokens
			s.DistinctWords++
		}
	}
	self, err := os.Executable()
	if err != nil {
		p.close()
		return nil, "", err
	}
	port, err := freePort()
	if err != nil {
		p.close()
		return nil, "", err
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	front, err := ps.start(procSpec{Name: "ftsserve", Argv: []string{self, "ftsserve", "--fts", path,
		"--db", filepath.Join(h.dir, "kardan.db"), "--addr", fmt.Sprintf("127.0.0.1:%d", port)}, Log: filepath.Join(logs, "ftsserve.log")})
	if err != nil {
		p.close()
		return nil, "", err
	}
	s.ftsServePID = front.pid()
	if err := waitHTTP(ctx, base+"/healthz", front, time.Minute); err != nil {
		p.close()
		return nil, "", err
	}
	return p, base, nil
}

// measureAll measures w on Kardan and every peer that answers it, in rotating slices, and files
// the results in sum.
func measureAll(ctx context.Context, cfg *runConfig, w *workload, sum *workloadSummary, kardan caller, mark func(), pp *peers,
	profiled func(*workload, func()) error) error {
	ts := []target{}
	if kardan != nil {
		ts = append(ts, target{name: "kardan", call: kardan, onMeasure: mark})
	}
	if pp.harness != nil && w.Harness {
		ts = append(ts, target{name: "harness", call: pp.harness.call})
	}
	if pp.pgCall != nil && w.PG {
		ts = append(ts, target{name: "postgres", call: pp.pgCall})
	}
	if pp.fts != nil && w.Search {
		ts = append(ts, target{name: "fts5", call: pp.ftsCall}, target{name: "fts5 in process", call: pp.fts.call})
	}
	if len(ts) == 0 {
		return nil
	}
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.name
	}
	slog.Info("measuring", "workload", w.Name, "targets", strings.Join(names, ", "), "slices", cfg.Slices)
	var rs []result
	err := profiled(w, func() { rs = runRotating(ctx, cfg.Load, cfg.Slices, w.Reqs, ts) })
	for i := range rs {
		r := &rs[i]
		r.Workload = w.Name
		slog.Info("measured", "target", r.Target, "workload", w.Name, "rps", int(r.RPS), "p50_ms", r.P50, "p99_ms", r.P99, "errors", r.Errors)
		switch r.Target {
		case "kardan":
			sum.Kardan = r
		case "harness":
			sum.Harness = r
		case "postgres":
			sum.PG = r
		case "fts5":
			sum.FTS = r
		case "fts5 in process":
			sum.FTSLocal = r
		}
	}
	return err
}
