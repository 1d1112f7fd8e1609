package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// Advisory lock keys on PostgreSQL (one 64-bit space per database). Arbitrary constants, fixed
// forever: replicas of different versions must agree on them.
const (
	// writerLockKey is taken by every write transaction (pg_advisory_xact_lock), so the replicas'
	// writes are serialised as SQLite's single writer serialises them in one process: every
	// check-then-write (quotas, rate limits, unique slugs) holds across the cluster, and outbox
	// ids commit in the order they were drawn, so a follower reading `id > cursor` never skips
	// a row that commits later (the outbox gap).
	writerLockKey int64 = 0x4b617264616e01 // "Kardan" 1
	// LeaderLockKey is held (pg_try_advisory_lock, session level) by the replica that runs the
	// periodic jobs; it passes to another replica when the leader's connection ends.
	LeaderLockKey int64 = 0x4b617264616e02
)

// IsPostgresURL reports whether a --db value names a PostgreSQL database rather than a file.
func IsPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// limitConns is the size of the shared token buckets' pool (TakeToken): a take is one short
// autocommitted statement, so a few connections serve a replica's searches.
const limitConns = 4

// openPostgres connects to the database at dsn and brings its schema up to date. Reads and
// writes use separate pools, so writers queued on the writer lock never starve the readers.
func openPostgres(ctx context.Context, dsn string) (*Store, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	write := sql.OpenDB(pgConnector{stdlib.GetConnector(*cfg)})
	write.SetMaxOpenConns(8)
	write.SetMaxIdleConns(8)
	write.SetConnMaxIdleTime(5 * time.Minute)
	s := &Store{path: dsn, write: write, engine: enginePostgres, Now: time.Now, Quotas: DefaultQuotas}
	if err := write.PingContext(ctx); err != nil {
		write.Close()
		return nil, fmt.Errorf("open store: %w", err)
	}
	if err := s.migratePostgres(ctx); err != nil {
		write.Close()
		return nil, err
	}
	rcfg, _ := pgx.ParseConfig(dsn)                            // parsed above: cannot fail
	rcfg.RuntimeParams["default_transaction_read_only"] = "on" // a read connection can never write by mistake
	read := sql.OpenDB(pgConnector{stdlib.GetConnector(*rcfg)})
	read.SetMaxOpenConns(16)
	read.SetMaxIdleConns(16)
	read.SetConnMaxIdleTime(5 * time.Minute)
	s.read = read
	// The token buckets' takes get their own few connections: they run on every search, and
	// behind the write pool's writers a flood would starve the very limit meant to stop it.
	limits := sql.OpenDB(pgConnector{stdlib.GetConnector(*cfg)})
	limits.SetMaxOpenConns(limitConns)
	limits.SetMaxIdleConns(limitConns)
	limits.SetConnMaxIdleTime(5 * time.Minute)
	s.limits = limits
	s.startCommitter()
	return s, nil
}

// migratePostgres applies the PostgreSQL twins of the migrations not yet recorded, all in one
// transaction under the writer lock: replicas starting together wait for the first, which
// leaves the schema whole or untouched (PostgreSQL's DDL is transactional).
func (s *Store) migratePostgres(ctx context.Context) error {
	ms, err := migrationsOf(enginePostgres)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return s.plainTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (
			version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		applied, err := appliedVersions(ctx, tx)
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
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("migrate %s: %w", m.name, err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, ?)`,
				m.version, m.name, time.Now().Unix()); err != nil {
				return fmt.Errorf("migrate %s: %w", m.name, err)
			}
		}
		return nil
	})
}

// pgConnector hands out connections that speak the store's SQLite-flavoured SQL to pgx.
type pgConnector struct{ inner driver.Connector }

func (c pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &pgConn{conn.(*stdlib.Conn)}, nil
}

func (c pgConnector) Driver() driver.Driver { return c.inner.Driver() }

// pgConn rewrites each statement's placeholders (cached) and sends Go booleans as the 0/1
// integers both schemas store them as.
type pgConn struct{ *stdlib.Conn }

func (c *pgConn) Prepare(query string) (driver.Stmt, error) {
	return c.Conn.PrepareContext(context.Background(), rebind(query))
}

func (c *pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.Conn.PrepareContext(ctx, rebind(query))
}

func (c *pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.ExecContext(ctx, rebind(query), args)
}

func (c *pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return c.Conn.QueryContext(ctx, rebind(query), args)
}

func (c *pgConn) CheckNamedValue(nv *driver.NamedValue) error {
	// PostgreSQL's text cannot hold U+0000, which SQLite stores: it is dropped rather than have
	// a stray control character turn a write into an error.
	if s, ok := nv.Value.(string); ok && strings.IndexByte(s, 0) >= 0 {
		nv.Value = strings.ReplaceAll(s, "\x00", "")
	}
	if b, ok := nv.Value.(bool); ok {
		nv.Value = int64(0)
		if b {
			nv.Value = int64(1)
		}
	}
	return nil
}

// pgConstraint reports whether err is PostgreSQL's integrity constraint violation (class 23).
func pgConstraint(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && strings.HasPrefix(pe.Code, "23")
}

// lockWriter takes the cluster's writer lock for the rest of tx (PostgreSQL only).
func lockWriter(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(?)`, writerLockKey); err != nil {
		return fmt.Errorf("writer lock: %w", err)
	}
	return nil
}

// SizeOnServer answers the PostgreSQL database's size in bytes (pg_database_size).
func (s *Store) SizeOnServer(ctx context.Context) (int64, error) {
	var n int64
	if err := s.read.QueryRowContext(ctx, `SELECT pg_database_size(current_database())`).Scan(&n); err != nil {
		return 0, fmt.Errorf("database size: %w", err)
	}
	return n, nil
}
