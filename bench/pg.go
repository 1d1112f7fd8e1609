package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lib/pq"

	"kardan/search"
	"kardan/store"
)

// pgCluster is a private PostgreSQL server: its own data directory and loopback port, started
// and stopped by the benchmark.
type pgCluster struct {
	bin     string // the version's bin directory, e.g. /usr/lib/postgresql/15/bin
	version string
	dir     string
	sock    string
	port    int
	cred    *syscall.Credential
	proc    *proc
	// durable keeps fsync and synchronous commits on: Kardan's own rows on PostgreSQL measure
	// writes, which the peer's read-only settings would flatter.
	durable bool
}

// findPostgres answers the bin directory of the newest PostgreSQL the system has.
func findPostgres() (string, error) {
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/postgres")
	if len(matches) == 0 {
		return "", errors.New("PostgreSQL is not installed")
	}
	sort.Slice(matches, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(matches[i]))))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(matches[j]))))
		return vi > vj
	})
	return filepath.Dir(matches[0]), nil
}

// ensurePostgres installs Debian's PostgreSQL when it is missing. The package starts a "main"
// cluster of its own where it can; the benchmark stops any cluster that the install brought
// online, so nothing it caused keeps running.
func ensurePostgres(ctx context.Context, logPath string) (string, error) {
	if bin, err := findPostgres(); err == nil {
		return bin, nil
	}
	if os.Geteuid() != 0 {
		return "", errors.New("PostgreSQL is not installed: run `apt-get install -y postgresql` as root, or run the benchmark as root")
	}
	slog.Info("installing PostgreSQL from apt")
	install := []string{"env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-q", "postgresql", "postgresql-contrib"}
	if _, err := run(ctx, logPath, nil, install...); err != nil {
		if _, err := run(ctx, logPath, nil, "apt-get", "update", "-q"); err != nil {
			return "", err
		}
		if _, err := run(ctx, logPath, nil, install...); err != nil {
			return "", err
		}
	}
	if out, err := exec.CommandContext(ctx, "pg_lsclusters", "--no-header").Output(); err == nil {
		for _, line := range strings.Split(string(out), "\n") {
			f := strings.Fields(line)
			if len(f) >= 4 && f[3] == "online" {
				slog.Info("stopping the cluster the package started", "version", f[0], "name", f[1])
				run(ctx, logPath, nil, "pg_ctlcluster", f[0], f[1], "stop")
			}
		}
	}
	return findPostgres()
}

// newPGCluster makes a fresh data directory under work with initdb. PostgreSQL refuses to run
// as root, so as root it runs as the postgres user the package created.
func newPGCluster(ctx context.Context, bin, work, logPath string) (*pgCluster, error) {
	c := &pgCluster{bin: bin, version: filepath.Base(filepath.Dir(bin)), dir: filepath.Join(work, "pgdata"), sock: filepath.Join(work, "pgsock")}
	os.RemoveAll(c.dir)
	for _, d := range []string{c.dir, c.sock} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("postgres user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		for _, d := range []string{c.dir, c.sock} {
			if err := os.Chown(d, uid, gid); err != nil {
				return nil, err
			}
		}
		// The postgres user must reach the directories on the way.
		for d := work; d != "/" && d != "."; d = filepath.Dir(d) {
			if fi, err := os.Stat(d); err == nil && fi.Mode().Perm()&0o001 == 0 {
				os.Chmod(d, fi.Mode().Perm()|0o011)
			}
		}
	}
	if _, err := run(ctx, logPath, c.cred, filepath.Join(bin, "initdb"), "-D", c.dir, "-U", "bench", "--auth=trust",
		"--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	c.port = port
	return c, nil
}

// start runs the server with the settings a competent operator gives a 2-core machine with this
// much data: more shared buffers and work memory than the defaults, no JIT (it adds tens of
// milliseconds to short queries), and no fsync unless c.durable (the peer only reads).
func (c *pgCluster) start(ctx context.Context, ps *procs, logPath string) error {
	argv := []string{filepath.Join(c.bin, "postgres"), "-D", c.dir, "-p", strconv.Itoa(c.port), "-k", c.sock,
		"-c", "listen_addresses=127.0.0.1", "-c", "shared_buffers=1GB", "-c", "work_mem=32MB",
		// Parallel workers cost more than they save on queries of a few milliseconds with
		// four clients on two cores.
		"-c", "max_parallel_workers_per_gather=0",
		"-c", "maintenance_work_mem=512MB", "-c", "effective_cache_size=4GB", "-c", "jit=off",
		"-c", "max_wal_size=8GB", "-c", "random_page_cost=1.1", "-c", "max_connections=100"}
	if !c.durable {
		argv = append(argv, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	p, err := ps.start(procSpec{
		Name: "postgres", Argv: argv,
		Log: logPath, Cred: c.cred, StopSig: syscall.SIGINT, // SIGINT is PostgreSQL's fast shutdown
	})
	if err != nil {
		return err
	}
	c.proc = p
	db, err := sql.Open("postgres", c.dsn())
	if err != nil {
		return err
	}
	defer db.Close()
	for deadline := time.Now().Add(60 * time.Second); ; {
		if err = db.PingContext(ctx); err == nil {
			return nil
		}
		if p.exited() || time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("postgres did not start: %w (see %s)", err, logPath)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (c *pgCluster) dsn() string {
	return fmt.Sprintf("host=127.0.0.1 port=%d user=bench dbname=postgres sslmode=disable", c.port)
}

// pgSchema is what a competent developer would write for searchUser: Persian folding at load
// time (the same folding Kardan uses, so both see the same spellings), a text search
// configuration of `simple` plus unaccent, a weighted tsvector (name above the rest), trigram
// indexes for typos in names, a GiST index on the point for the bounding box, and partial
// indexes over the visible profiles for browsing.
const pgSchema = `
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE TEXT SEARCH CONFIGURATION kardan (COPY = simple);
ALTER TEXT SEARCH CONFIGURATION kardan ALTER MAPPING FOR hword, hword_part, word WITH unaccent, simple;

CREATE FUNCTION haversine(lat1 float8, long1 float8, lat2 float8, long2 float8) RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT 2 * 6371008.8 * asin(sqrt(
    power(sin(radians(lat2 - lat1) / 2), 2) +
    cos(radians(lat1)) * cos(radians(lat2)) * power(sin(radians(long2 - long1) / 2), 2)))
$$;

CREATE TABLE provinces (id bigint PRIMARY KEY, farsi_name text NOT NULL, english_name text NOT NULL);
CREATE TABLE cities (id bigint PRIMARY KEY, province_id bigint NOT NULL, farsi_name text NOT NULL,
  english_name text NOT NULL, slag text NOT NULL UNIQUE);
CREATE TABLE work_categories (id bigint PRIMARY KEY, parent_id bigint, farsi_name text NOT NULL,
  english_name text NOT NULL, slag text NOT NULL UNIQUE);
CREATE TABLE users (id bigint PRIMARY KEY, name text NOT NULL, number_phone text NOT NULL, profile_image text NOT NULL);
CREATE TABLE profiles (
  id bigint PRIMARY KEY, user_id bigint NOT NULL, range_worker_id bigint NOT NULL, province_id bigint NOT NULL,
  city_id bigint NOT NULL, profile_name text NOT NULL, slug text NOT NULL, key_word text NOT NULL,
  work_history_years int NOT NULL, descriotion text NOT NULL, address text NOT NULL, lat float8 NOT NULL, long float8 NOT NULL,
  account_status text NOT NULL, active boolean NOT NULL, display boolean NOT NULL, delete_at bigint,
  score float8 NOT NULL, count_scorer int NOT NULL, level_score float8 NOT NULL, profile_image text NOT NULL, logo text NOT NULL,
  services jsonb NOT NULL, hours_of_work jsonb NOT NULL, social_network jsonb NOT NULL, area_working jsonb NOT NULL,
  portfolio_images jsonb NOT NULL, option jsonb NOT NULL, list_object jsonb NOT NULL, admin_id bigint, admin_note text NOT NULL,
  create_at bigint NOT NULL, update_at bigint NOT NULL,
  search_name text NOT NULL, search_text text NOT NULL,
  visible boolean GENERATED ALWAYS AS (account_status = 'Accepted' AND active AND display AND delete_at IS NULL) STORED,
  tsv tsvector GENERATED ALWAYS AS (setweight(to_tsvector('kardan', search_name), 'A') ||
    setweight(to_tsvector('kardan', search_text), 'B')) STORED
);
CREATE TABLE profile_categories (profile_id bigint NOT NULL, category_id bigint NOT NULL, PRIMARY KEY (profile_id, category_id));
CREATE TABLE comments (id bigint PRIMARY KEY, profile_id bigint NOT NULL, user_id bigint NOT NULL, category_list jsonb NOT NULL,
  description text NOT NULL, score int NOT NULL, hidden boolean NOT NULL, reply text, reply_at bigint,
  create_at bigint NOT NULL, update_at bigint NOT NULL);
`

// pgIndexes are built after the load, as one would for a bulk import.
const pgIndexes = `
CREATE UNIQUE INDEX profiles_slug ON profiles (slug);
CREATE INDEX profile_categories_category ON profile_categories (category_id, profile_id);
CREATE INDEX comments_profile ON comments (profile_id, create_at DESC);
`

// pgTuned is the fairness review's schema (shared/research/perf/tuned.sql), a little further:
// searches read a narrow table of the visible profiles whose tsvector is stored inline (not
// TOASTed: the wide row is read only for the page's 20 profiles), with the columns the filters
// and orders read and its own GIN, btree and GiST indexes; places of a category come from one
// narrow row per (category or field, profile) under a composite GiST index (btree_gist), so a
// category's points in a box are found without visiting every profile in the box. The
// trigram OR of the first peer is gone: typos are corrected against the index's vocabulary in
// the Go front (peertext.go), as Kardan does.
const pgTuned = `
CREATE EXTENSION IF NOT EXISTS btree_gist;
CREATE TABLE profile_search AS SELECT id, city_id, range_worker_id, level_score, count_scorer, score, create_at, lat, long, tsv
  FROM profiles WITH NO DATA;
ALTER TABLE profile_search ALTER tsv SET STORAGE MAIN;
INSERT INTO profile_search SELECT id, city_id, range_worker_id, level_score, count_scorer, score, create_at, lat, long, tsv
  FROM profiles WHERE visible;
ALTER TABLE profile_search ADD PRIMARY KEY (id);
CREATE INDEX profile_search_tsv ON profile_search USING gin (tsv);
CREATE INDEX profile_search_best ON profile_search (level_score DESC, count_scorer DESC, id);
CREATE INDEX profile_search_city ON profile_search (city_id, level_score DESC, count_scorer DESC, id);
CREATE INDEX profile_search_field ON profile_search (range_worker_id, level_score DESC, count_scorer DESC, id);
CREATE INDEX profile_search_point ON profile_search USING gist (point(long, lat));
CREATE TABLE cat_geo AS
  SELECT pc.category_id, p.id, p.lat, p.long FROM profile_categories pc JOIN profiles p ON p.id = pc.profile_id WHERE p.visible
  UNION SELECT p.range_worker_id, p.id, p.lat, p.long FROM profiles p WHERE p.visible;
CREATE INDEX cat_geo_pt ON cat_geo USING gist (category_id, point(long, lat));
`

// loadPG copies the demo store into PostgreSQL and builds the indexes. It answers the seconds
// the copy and the indexes took.
func loadPG(ctx context.Context, sqlitePath, dsn string) (float64, error) {
	start := time.Now()
	lite, err := sql.Open("sqlite3", "file:"+sqlitePath+"?mode=ro&_query_only=true")
	if err != nil {
		return 0, err
	}
	defer lite.Close()
	pg, err := sql.Open("postgres", dsn)
	if err != nil {
		return 0, err
	}
	defer pg.Close()
	if _, err := pg.ExecContext(ctx, pgSchema); err != nil {
		return 0, fmt.Errorf("postgres schema: %w", err)
	}
	copies := []struct {
		table string
		cols  []string
		query string
		row   func(*sql.Rows) ([]any, error)
	}{
		{"provinces", []string{"id", "farsi_name", "english_name"}, `SELECT id, farsi_name, english_name FROM provinces`, scanN(3)},
		{"cities", []string{"id", "province_id", "farsi_name", "english_name", "slag"},
			`SELECT id, province_id, farsi_name, english_name, slag FROM cities`, scanN(5)},
		{"work_categories", []string{"id", "parent_id", "farsi_name", "english_name", "slag"},
			`SELECT id, parent_id, farsi_name, english_name, slag FROM work_categories`, scanN(5)},
		{"users", []string{"id", "name", "number_phone", "profile_image"},
			`SELECT id, name, number_phone, profile_image FROM users`, scanN(4)},
		{"profiles", []string{"id", "user_id", "range_worker_id", "province_id", "city_id", "profile_name", "slug", "key_word",
			"work_history_years", "descriotion", "address", "lat", "long", "account_status", "active", "display", "delete_at",
			"score", "count_scorer", "level_score", "profile_image", "logo", "services", "hours_of_work", "social_network",
			"area_working", "portfolio_images", "option", "list_object", "admin_id", "admin_note", "create_at", "update_at",
			"search_name", "search_text"},
			`SELECT id, user_id, range_worker_id, province_id, city_id, profile_name, slug, key_word, work_history_years,
			descriotion, address, COALESCE(lat, 0), COALESCE(long, 0), account_status, active != 0, display != 0, delete_at, score,
			count_scorer, level_score, profile_image, logo, services, hours_of_work, social_network, area_working,
			portfolio_images, option, list_object, admin_id, admin_note, create_at, update_at FROM profiles`, scanProfileRow},
		{"profile_categories", []string{"profile_id", "category_id"}, `SELECT profile_id, category_id FROM profile_categories`, scanN(2)},
		{"comments", []string{"id", "profile_id", "user_id", "category_list", "description", "score", "hidden", "reply",
			"reply_at", "create_at", "update_at"},
			`SELECT id, profile_id, user_id, category_list, description, score, hidden != 0, reply, reply_at, create_at, update_at FROM comments`,
			scanN(11)},
	}
	for _, c := range copies {
		if err := copyTable(ctx, lite, pg, c.table, c.cols, c.query, c.row); err != nil {
			return 0, fmt.Errorf("copy %s: %w", c.table, err)
		}
	}
	if _, err := pg.ExecContext(ctx, pgIndexes); err != nil {
		return 0, fmt.Errorf("postgres indexes: %w", err)
	}
	if _, err := pg.ExecContext(ctx, pgTuned); err != nil {
		return 0, fmt.Errorf("postgres search tables: %w", err)
	}
	// After a bulk load the visibility map is empty: without a vacuum every count reads the heap.
	if _, err := pg.ExecContext(ctx, "VACUUM ANALYZE"); err != nil {
		return 0, fmt.Errorf("postgres vacuum: %w", err)
	}
	return time.Since(start).Seconds(), nil
}

func scanN(n int) func(*sql.Rows) ([]any, error) {
	return func(rows *sql.Rows) ([]any, error) {
		vals := make([]any, n)
		ptrs := make([]any, n)
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				vals[i] = string(b)
			}
		}
		return vals, nil
	}
}

// scanProfileRow reads a profile and adds the folded name and text that the tsvector is built
// from: key words (which hold the field, category, city and province names in both
// languages), description, service titles, areas and options.
func scanProfileRow(rows *sql.Rows) ([]any, error) {
	vals, err := scanN(33)(rows)
	if err != nil {
		return nil, err
	}
	name, _ := vals[5].(string)
	keyWord, _ := vals[7].(string)
	desc, _ := vals[9].(string)
	text := []string{keyWord, desc}
	var services []store.Service
	if s, ok := vals[22].(string); ok && json.Unmarshal([]byte(s), &services) == nil {
		for _, sv := range services {
			text = append(text, sv.Title)
		}
	}
	for _, i := range []int{25, 27} { // area_working, option
		var list []string
		if s, ok := vals[i].(string); ok && json.Unmarshal([]byte(s), &list) == nil {
			text = append(text, list...)
		}
	}
	return append(vals, search.IndexText(name), search.IndexText(strings.Join(text, " \n "))), nil
}

func copyTable(ctx context.Context, lite, pg *sql.DB, table string, cols []string, query string, row func(*sql.Rows) ([]any, error)) error {
	rows, err := lite.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	tx, err := pg.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, pq.CopyIn(table, cols...))
	if err != nil {
		return err
	}
	for rows.Next() {
		vals, err := row(rows)
		if err != nil {
			return err
		}
		if _, err := stmt.ExecContext(ctx, vals...); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if _, err := stmt.ExecContext(ctx); err != nil {
		return err
	}
	if err := stmt.Close(); err != nil {
		return err
	}
	return tx.Commit()
}
