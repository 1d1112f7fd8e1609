package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
)

// OutboxRow is one change the search index must apply: entity "profile" or "blog" and its id.
type OutboxRow struct {
	ID       int64
	Entity   string
	EntityID int64
}

// queueIndex records, inside the caller's transaction, that the index must look at an entity
// again. The indexer reads the entity's current state, so one row per change is enough.
func queueIndex(ctx context.Context, tx *sql.Tx, entity string, id, now int64) error {
	var row int64
	err := tx.QueryRowContext(ctx, `INSERT INTO index_outbox (entity, entity_id, create_at) VALUES (?, ?, ?) RETURNING id`,
		entity, id, now).Scan(&row)
	if err != nil {
		return fmt.Errorf("queue index: %w", err)
	}
	if q, ok := txQueued.Load(tx); ok {
		q := q.(*int64)
		*q = max(*q, row) // the transaction's own goroutine is the only one touching it
	}
	return nil
}

// txQueued holds, for each write transaction under way, the highest outbox id it queued, so the
// store can publish it once the transaction commits (Store.OutboxCommitted). Keyed by *sql.Tx:
// each transaction is its own key, whatever the database or the number of writers.
var txQueued sync.Map

// OutboxCommitted answers the highest outbox id this process has committed. A request that has
// just written waits for the index to apply up to it (search.Index.SyncTo) before answering: at
// least its own change, and maybe a few that committed meanwhile, applied in the same batch.
func (s *Store) OutboxCommitted() int64 { return s.outboxCommitted.Load() }

// noteCommitted raises OutboxCommitted to id.
func (s *Store) noteCommitted(id int64) {
	for {
		cur := s.outboxCommitted.Load()
		if id <= cur || s.outboxCommitted.CompareAndSwap(cur, id) {
			return
		}
	}
}

// OutboxAfter answers up to limit outbox rows with ids above after, oldest first.
func (s *Store) OutboxAfter(ctx context.Context, after int64, limit int) ([]OutboxRow, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, entity, entity_id FROM index_outbox WHERE id > ? ORDER BY id LIMIT ?`, after, limit)
	if err != nil {
		return nil, fmt.Errorf("read outbox: %w", err)
	}
	defer rows.Close()
	var out []OutboxRow
	for rows.Next() {
		var r OutboxRow
		if err := rows.Scan(&r.ID, &r.Entity, &r.EntityID); err != nil {
			return nil, fmt.Errorf("read outbox: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// OutboxHead answers the newest outbox id (0 when the outbox was never written).
func (s *Store) OutboxHead(ctx context.Context) (int64, error) {
	var id int64
	err := s.read.QueryRowContext(ctx, s.outboxHeadSQL()).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("outbox head: %w", err)
	}
	return id, nil
}

// outboxHeadSQL answers the newest id the outbox committed, pruned or not: SQLite's
// AUTOINCREMENT counter (moved only by a committed write: SQLite has one writer), PostgreSQL's
// newest row.
func (s *Store) outboxHeadSQL() string {
	if s.engine == enginePostgres {
		// Not the sequence: it moves when an id is drawn, before the row commits, and a cache
		// keyed by the head would then keep what it read before the commit. The newest committed
		// row is the head (appends commit in id order; pruning keeps the newest row).
		return `SELECT COALESCE(MAX(id), 0) FROM index_outbox`
	}
	return `SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'index_outbox'), 0)`
}

// PruneOutbox removes applied rows older than the retention window (seconds), keeping the
// newest so ids keep growing (AUTOINCREMENT remembers the highest id anyway).
func (s *Store) PruneOutbox(ctx context.Context, appliedUpTo int64, olderThan int64) (int64, error) {
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM index_outbox WHERE id <= ? AND create_at < ?
			AND id < (SELECT MAX(id) FROM index_outbox)`, appliedUpTo, s.now()-olderThan)
		if err != nil {
			return err
		}
		n = affected(res)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("prune outbox: %w", err)
	}
	return n, nil
}

// VisibleProfileIDs calls fn with batches of the ids of every publicly visible profile, for a
// full reindex.
func (s *Store) VisibleProfileIDs(ctx context.Context, batch int, fn func(ids []int64) error) error {
	err := s.eachIDBatch(ctx, `SELECT p.id FROM profiles p WHERE p.id > ? AND `+visibleSQL+` ORDER BY p.id LIMIT ?`, batch, fn)
	if err != nil {
		return fmt.Errorf("visible profiles: %w", err)
	}
	return nil
}
