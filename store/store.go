// Package store holds Kardan's data: the schema, its migrations, the domain types and one file
// of methods per entity. It imports no other Kardan package.
//
// It runs on SQLite (a file in the data directory, the default) or on PostgreSQL (a
// postgres:// URL, shared by several replicas), with one set of SQL statements: see dialect.go
// for what portable SQL means here and postgres.go for the engine's connection.
//
// Migrations: every store/migrations/NNNN_name.sql (SQLite) has a twin with the same number in
// store/migrations/postgres/NNNN_name.sql, written for PostgreSQL (BIGINT for INTEGER, an
// identity column for a rowid key, ALTER … CONSTRAINT for a table rebuild, plpgsql for a
// trigger, nothing for a SQLite-only index hint). TestMigrationsHaveTwins fails when one is
// missing. A migration that only serves SQLite's planner may have an empty twin (a comment).
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver
)

//go:embed migrations/*.sql migrations/postgres/*.sql
var migrationFS embed.FS

// Store is the database: a pool of read connections and a writer (one connection on SQLite; a
// pool serialised by an advisory lock on PostgreSQL).
type Store struct {
	path   string
	engine engine
	read   *sql.DB
	// write has exactly one connection, so writes are serialised in Go instead of failing on
	// SQLITE_BUSY, and every transaction on it begins IMMEDIATE.
	write *sql.DB
	// limits is PostgreSQL's own small pool for the shared token buckets (TakeToken): a search
	// flood that fills the write pool must not leave the limit itself without a connection.
	// nil on SQLite.
	limits *sql.DB
	// Now is the clock; tests replace it.
	Now func() time.Time
	// Quotas cap what one account may create; tests shrink them.
	Quotas Quotas

	counts countCache
	weeks  weekCache
	// manyComments is the profiles comment/get lists in two statements (comment_read.go).
	manyComments manyComments
	commit       *committer // the goroutine that runs every write once the store is open (commit.go)
	// grouped counts the writes that committed in a transaction shared with others (GroupedWrites).
	grouped atomic.Int64
	// outboxCommitted is the highest index_outbox id this process has committed (OutboxCommitted).
	outboxCommitted atomic.Int64
	// recentHead is the head OutboxHeadRecent read last, and when.
	recentHead atomic.Pointer[readHead]
	// leader is whether this replica holds the periodic jobs' lock (leader.go; PostgreSQL only).
	leader atomic.Bool
}

// Open opens (or creates) the database file at path, or connects to the PostgreSQL database
// when path is a postgres:// URL, and brings its schema up to date.
func Open(ctx context.Context, path string) (*Store, error) {
	if IsPostgresURL(path) {
		return openPostgres(ctx, path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	q := url.Values{}
	q.Set("_journal_mode", "WAL")   // readers never block the writer, and a crash loses nothing committed
	q.Set("_busy_timeout", "5000")  // wait for a checkpoint or another process rather than fail at once
	q.Set("_foreign_keys", "on")    // the schema's references are rules, not comments
	q.Set("_synchronous", "NORMAL") // durable with WAL up to the last checkpointed commit; far faster than FULL
	q.Set("_cache_size", "-8000")   // 8 MiB page cache for the writer: hot indexes stay; hot profiles live in the API's form cache
	wq := cloneValues(q)
	wq.Set("_txlock", "immediate") // read-then-write transactions take the lock up front: no "database is locked" midway
	// The one writer runs every write's statements: under make loadtest it spent a tenth of
	// its time preparing them anew.
	wq.Set("_stmt_cache_size", "128")
	rq := cloneValues(q)
	rq.Set("_query_only", "true") // a read connection can never write by mistake
	// 2 MiB, not 8, per read connection: the operating system caches the file anyway, and each
	// cached MiB cost about two and a half in the C allocator's fragmented arenas (at a million
	// profiles 109 -> 48 MiB outside Go's heap); A/B on comments, profile pages, browse and text
	// + city showed no change in speed.
	rq.Set("_cache_size", "-2000")
	rq.Set("_stmt_cache_size", "64") // reads repeat a few dozen statements: preparing each anew cost a fifth of a profile read

	if err := restrictFiles(path); err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	write, err := sql.Open("sqlite3", "file:"+path+"?"+wq.Encode())
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxLifetime(0)

	s := &Store{path: path, write: write, Now: time.Now, Quotas: DefaultQuotas}
	if err := s.migrate(ctx); err != nil {
		write.Close()
		return nil, err
	}

	if err := s.analyzeWhereStale(ctx); err != nil {
		write.Close()
		return nil, err
	}

	read, err := sql.Open("sqlite3", "file:"+path+"?"+rq.Encode())
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("open store: %w", err)
	}
	n := max(4, 2*runtime.NumCPU())
	read.SetMaxOpenConns(n)
	read.SetMaxIdleConns(n)
	s.read = read
	s.startCommitter()
	return s, nil
}

// restrictFiles creates the database file readable by its owner only (SQLite gives its WAL and
// shared-memory files the database's mode), and takes group and others' access away from
// files an older version created under the usual 022 umask: the file holds password hashes
// and session tokens' hashes.
func restrictFiles(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// Close checkpoints the WAL and closes every connection, so a clean stop leaves no WAL to recover.
func (s *Store) Close() error {
	var errs []error
	s.stopCommitter()
	if s.read != nil {
		errs = append(errs, s.read.Close())
	}
	if s.limits != nil {
		errs = append(errs, s.limits.Close())
	}
	if s.write != nil {
		if s.engine == engineSQLite {
			if _, err := s.write.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
				errs = append(errs, fmt.Errorf("checkpoint: %w", err))
			}
		}
		errs = append(errs, s.write.Close())
	}
	return errors.Join(errs...)
}

// Path is the database file's path (the connection URL on PostgreSQL).
func (s *Store) Path() string { return s.path }

// DB gives the read pool to packages that run their own read-only queries (benchmarks, exports).
func (s *Store) DB() *sql.DB { return s.read }

func (s *Store) now() int64 { return s.Now().Unix() }

// SchemaVersion is the newest migration this binary knows.
func SchemaVersion() int {
	ms, _ := migrations()
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

// Version answers the schema version recorded in the database.
func (s *Store) Version(ctx context.Context) (int, error) {
	var v int
	err := s.read.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM migrations`).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("schema version: %w", err)
	}
	return v, nil
}

type migration struct {
	version int
	name    string
	sql     string
}

func migrations() ([]migration, error) { return migrationsOf(engineSQLite) }

// migrationsOf answers the engine's migrations, oldest first.
func migrationsOf(e engine) ([]migration, error) {
	pattern := "migrations/*.sql"
	if e == enginePostgres {
		pattern = "migrations/postgres/*.sql"
	}
	names, err := fs.Glob(migrationFS, pattern)
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, n := range names {
		base := filepath.Base(n)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %q: name must be NNNN_name.sql", base)
		}
		body, err := migrationFS.ReadFile(n)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: strings.TrimSuffix(base, ".sql"), sql: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out, nil
}

// migrate applies each embedded migration not yet recorded, each in its own transaction.
func (s *Store) migrate(ctx context.Context) error {
	if _, err := s.write.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	ms, err := migrations()
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	applied, err := appliedVersions(ctx, s.write)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if err := checkNotNewer(applied, ms); err != nil {
		return err
	}
	for _, m := range ms {
		if applied[m.version] {
			continue
		}
		if err := s.tx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, ?)`,
				m.version, m.name, time.Now().Unix())
			return err
		}); err != nil {
			return fmt.Errorf("migrate %s: %w", m.name, err)
		}
	}
	return nil
}

// appliedVersions answers the set of migrations recorded. Applied versions are a set, not a
// high-water mark: a migration numbered below one already applied (two branches merged) still
// runs.
func appliedVersions(ctx context.Context, q queryer) (map[int]bool, error) {
	applied := map[int]bool{}
	rows, err := q.QueryContext(ctx, `SELECT version FROM migrations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		applied[v] = true
	}
	return applied, rows.Err()
}

// checkNotNewer refuses a database that a newer binary migrated.
func checkNotNewer(applied map[int]bool, ms []migration) error {
	latest := ms[len(ms)-1].version
	for v := range applied {
		if v > latest {
			return fmt.Errorf("migrate: the database has schema version %d but this binary knows only %d: use a newer kardan", v, latest)
		}
	}
	return nil
}

// Analyze refreshes the query planner's statistics. Without them SQLite picks the status index
// for browsing and sorts every visible profile; with them it walks the ordered partial index.
// analysis_limit samples each index, but SQLite (3.54) still counts every index's rows exactly,
// reading all its pages: at a million profiles 0.3 s with the file cached and 11 s without
// (1.2 GB read). The server runs it a minute after it starts and then daily (cmd's purgeLoop),
// a bulk load after loading.
func (s *Store) Analyze(ctx context.Context) error {
	if s.engine == enginePostgres {
		if _, err := s.write.ExecContext(ctx, `ANALYZE`); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
		return nil
	}
	if _, err := s.write.ExecContext(ctx, `PRAGMA analysis_limit = 400; ANALYZE;`); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	return nil
}

// analyzeWhereStale runs ANALYZE, at open, on the tables that need it: those with an index
// without statistics (a new database, a migration's new index) and those that grew or shrank
// tenfold since their last analysis (PRAGMA optimize, every table considered). Every other
// table keeps the statistics the last Analyze wrote, which the database file holds. A full
// ANALYZE at every open cost every command and every start the count above: a start of serve
// at a million profiles after a reboot took 14 s, 3.5 s without it.
func (s *Store) analyzeWhereStale(ctx context.Context) error {
	if _, err := s.write.ExecContext(ctx, `PRAGMA analysis_limit = 400; PRAGMA optimize = 0x10002;`); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	return nil
}

// Checkpoint folds the WAL back into the database file (before a backup).
func (s *Store) Checkpoint(ctx context.Context) error {
	if s.engine == enginePostgres {
		return nil // PostgreSQL checkpoints by itself; backups there are its own tools' job
	}
	if _, err := s.write.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}

// IntegrityCheck runs SQLite's integrity_check and answers its verdict ("ok" when healthy). On
// PostgreSQL, which checks its pages itself, it answers "ok" once a query succeeds.
func (s *Store) IntegrityCheck(ctx context.Context) (string, error) {
	if s.engine == enginePostgres {
		if err := s.read.PingContext(ctx); err != nil {
			return "", fmt.Errorf("integrity check: %w", err)
		}
		return "ok", nil
	}
	var v string
	if err := s.read.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&v); err != nil {
		return "", fmt.Errorf("integrity check: %w", err)
	}
	return v, nil
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}
