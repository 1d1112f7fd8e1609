package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"log/slog"
	"time"
)

// Leadership: of the replicas sharing one PostgreSQL database, exactly one runs the periodic
// jobs (purge, level score refresh, account pruning). It is the one holding the session-level
// advisory lock LeaderLockKey on a connection of its own; PostgreSQL releases the lock when that
// connection ends (the replica died, was killed or lost the network), and another replica's next
// try takes it. On SQLite the one process is always the leader.

// IsLeader reports whether this process should run the periodic jobs now.
func (s *Store) IsLeader() bool {
	if s.engine != enginePostgres {
		return true
	}
	return s.leader.Load()
}

// RunLeadership tries for the leadership every interval until ctx ends, holding it while it
// can: a leader checks its connection at the same pace and steps down the moment it breaks (the
// lock went with it). Only on PostgreSQL; on SQLite it returns at once.
func (s *Store) RunLeadership(ctx context.Context, every time.Duration) {
	if s.engine != enginePostgres {
		return
	}
	var conn *sql.Conn
	stepDown := func(why string, err error) {
		if s.leader.Swap(false) {
			slog.Warn("leadership lost: another replica will run the periodic jobs", "why", why, "err", err)
		}
		if conn != nil {
			conn.Raw(func(any) error { return driver.ErrBadConn }) // never pool it again: its lock state is unknown
			conn.Close()
			conn = nil
		}
	}
	defer func() {
		if conn != nil {
			// A clean stop hands over at once rather than when the connection times out.
			conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock(?)`, LeaderLockKey)
		}
		stepDown("stopping", nil)
	}()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		cctx, cancel := context.WithTimeout(ctx, every)
		if conn == nil {
			c, err := s.write.Conn(cctx)
			if err == nil {
				conn = c
			}
		}
		if conn != nil {
			if s.leader.Load() {
				if err := conn.PingContext(cctx); err != nil {
					stepDown("connection broke", err)
				}
			} else {
				var got bool
				if err := conn.QueryRowContext(cctx, `SELECT pg_try_advisory_lock(?)`, LeaderLockKey).Scan(&got); err != nil {
					stepDown("lock query failed", err)
				} else if got {
					s.leader.Store(true)
					slog.Info("leadership taken: this replica runs the periodic jobs")
				}
			}
		}
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
