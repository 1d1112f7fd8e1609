package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"
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

// noteQueued records, after a statement of tx added outbox rows by itself (an INSERT ... SELECT
// of many profiles), the highest outbox id tx can see as queued, as queueIndex does for its one
// row: otherwise the commit would not move OutboxCommitted, and neither a writer's wait for the
// index (SyncTo) nor the form cache's head (OutboxHeadRecent) would include those rows. An id
// of another transaction that tx can see has committed already, so counting it is harmless.
func noteQueued(ctx context.Context, tx *sql.Tx) error {
	q, ok := txQueued.Load(tx)
	if !ok {
		return nil
	}
	var id int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM index_outbox`).Scan(&id); err != nil {
		return fmt.Errorf("queue index: %w", err)
	}
	p := q.(*int64)
	*p = max(*p, id)
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

// OutboxHeadRecent answers the outbox head for a cache of read forms: on SQLite the head
// OutboxHead read less than headTTL ago, raised to the outbox ids this process has committed
// since; on PostgreSQL, where other replicas write, OutboxHead itself. A profile page spent a
// sixth of its server time reading the head (a read transaction of its own on every request).
//
// What it answers is never above the committed head (both parts were committed when read), so a
// form read after it is at least as new as the head it is cached under, as api.answerProfiles
// requires; and it includes every write of this process as soon as that write is acknowledged,
// so a writer reads its own change at once. Only a write by another process (the command line
// beside a running server) is seen up to headTTL late; the index itself polls for those every
// half second. TestOutboxHeadRecent compares it with OutboxHead.
func (s *Store) OutboxHeadRecent(ctx context.Context) (int64, error) {
	if s.engine == enginePostgres {
		return s.OutboxHead(ctx)
	}
	if r := s.recentHead.Load(); r != nil && time.Since(r.at) < headTTL {
		return max(r.head, s.outboxCommitted.Load()), nil
	}
	at := time.Now()
	head, err := s.OutboxHead(ctx)
	if err != nil {
		return 0, err
	}
	// A slower read may end after a newer one: keep the higher head, which is still committed.
	if r := s.recentHead.Load(); r != nil {
		head = max(head, r.head)
	}
	s.recentHead.Store(&readHead{head: head, at: at})
	return max(head, s.outboxCommitted.Load()), nil
}

// headTTL is how long OutboxHeadRecent answers a head it read without reading it again.
const headTTL = 250 * time.Millisecond

// readHead is a head OutboxHead answered, and when it was asked.
type readHead struct {
	head int64
	at   time.Time
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

// VisibleProfiles answers how many profiles are visible: what a full rebuild of the index reads.
func (s *Store) VisibleProfiles(ctx context.Context) (int, error) {
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM profiles p WHERE `+visibleSQL).Scan(&n); err != nil {
		return 0, fmt.Errorf("count visible profiles: %w", err)
	}
	return n, nil
}

// visibleProfileIDsSQL is a page of VisibleProfileIDs. The unary plus keeps the planner off
// the visible_* indexes: ANALYZE's sampling (analysis_limit) estimates some 400 rows for
// visible = 1 however many hold it, so the planner read every visible profile from one of
// them and sorted them by id for each page, and a reindex at a million profiles spent 11 s of
// its processor time there (98 ms a page against 9 ms walking the ids);
// TestIDPagesWalkTheIDs checks the plan. (visibleSQL is one comparison of a column: the plus
// applies to the whole rule.)
const visibleProfileIDsSQL = `SELECT p.id FROM profiles p WHERE p.id > ? AND +` + visibleSQL + ` ORDER BY p.id LIMIT ?`

// VisibleProfileIDs calls fn with batches of the ids of every publicly visible profile, for a
// full reindex.
func (s *Store) VisibleProfileIDs(ctx context.Context, batch int, fn func(ids []int64) error) error {
	err := s.eachIDBatch(ctx, visibleProfileIDsSQL, batch, fn)
	if err != nil {
		return fmt.Errorf("visible profiles: %w", err)
	}
	return nil
}
