package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
)

// Inspector reads a database without changing it: no migration, no analysis, query-only
// connections (kardan doctor, beside a running server or not).
type Inspector struct {
	db *sql.DB
}

// OpenInspector opens the database at path for reading only; a missing file is an error rather
// than a new empty database.
func OpenInspector(path string) (*Inspector, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("inspect database: %w", err)
	}
	q := url.Values{}
	q.Set("_busy_timeout", "5000")
	q.Set("_query_only", "true")
	db, err := sql.Open("sqlite3", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("inspect database: %w", err)
	}
	db.SetMaxOpenConns(1)
	return &Inspector{db: db}, nil
}

// Close closes the connection.
func (in *Inspector) Close() error { return in.db.Close() }

// Integrity runs SQLite's quick_check (full: integrity_check, which also compares every index
// with its table) and answers the problems it reports; none means the file is sound.
func (in *Inspector) Integrity(ctx context.Context, full bool) ([]string, error) {
	pragma := "PRAGMA quick_check"
	if full {
		pragma = "PRAGMA integrity_check"
	}
	rows, err := in.db.QueryContext(ctx, pragma)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pragma, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, err
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	return problems, rows.Err()
}

// SchemaVersion answers the newest migration applied to the database (0 when none).
func (in *Inspector) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := in.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM migrations`).Scan(&v)
	if err != nil && strings.Contains(err.Error(), "no such table") {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("schema version: %w", err)
	}
	return v, nil
}

// Count answers the rows of one of the tables doctor reports on.
func (in *Inspector) Count(ctx context.Context, what string) (int64, error) {
	queries := map[string]string{
		"provinces":  `SELECT count(*) FROM provinces`,
		"cities":     `SELECT count(*) FROM cities`,
		"categories": `SELECT count(*) FROM work_categories`,
		"admins":     `SELECT count(*) FROM users WHERE role = '` + string(RoleAdmin) + `'`,
		// What a full reindex puts in the search index (VisibleProfileIDs, AcceptedBlogIDs).
		"indexed profiles": `SELECT count(*) FROM profiles p WHERE ` + visibleSQL,
		"indexed blogs":    `SELECT count(*) FROM blogs WHERE status = 'Accepted'`,
		// The outbox's newest id: what an index in step has applied.
		"outbox head": `SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'index_outbox'), 0)`,
	}
	q, ok := queries[what]
	if !ok {
		return 0, fmt.Errorf("count %q: unknown", what)
	}
	var n int64
	if err := in.db.QueryRowContext(ctx, q).Scan(&n); err != nil {
		return 0, fmt.Errorf("count %s: %w", what, err)
	}
	return n, nil
}

// Newest answers the latest time (Unix seconds) any account or profile was written: a clock
// behind it has gone backwards.
func (in *Inspector) Newest(ctx context.Context) (int64, error) {
	var n sql.NullInt64
	err := in.db.QueryRowContext(ctx, `SELECT MAX(t) FROM (
		SELECT MAX(update_at) AS t FROM users UNION ALL SELECT MAX(update_at) FROM profiles) newest`).Scan(&n)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("newest write: %w", err)
	}
	return n.Int64, nil
}
