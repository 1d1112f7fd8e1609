package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
)

// Group commit: the store has one writer (SQLite allows one write transaction at a time), so
// under many concurrent writers the time went to handing the connection from one request to the
// next and to one BEGIN/COMMIT each. Instead one goroutine owns the writer; each tx() call is a
// job on its queue, and the goroutine runs whatever jobs are queued in one transaction, each
// inside a savepoint of its own:
//   - a job whose fn fails is rolled back to its savepoint and answered its error, exactly as if
//     it had run alone; the other jobs of the batch are unaffected;
//   - the jobs run one after the other, in arrival order, each seeing the writes of those before
//     it, as serial transactions would; the quotas and limits counted inside a transaction count
//     the same;
//   - every job of a batch is answered only once the batch has committed, so an acknowledged
//     write is a committed write; if the transaction breaks down (a failed commit, a savepoint
//     that no longer exists because SQLite rolled the whole transaction back after an interrupt
//     or an I/O error) every job of the batch runs again alone, on the plain path. So a tx()
//     closure may run twice: it must set, never add to, what it hands back outside tx (lists,
//     counts), as AddLead, MarkNotificationsRead, PruneAccounts and Seed do;
//   - a job that panics is answered an error (and rolled back), as the handler's recover used
//     to answer a 500: the writer goroutine is the whole store's, it must not die with one write.
// A job alone in the queue runs on the plain path (BEGIN, fn, COMMIT): a quiet server sees no
// difference. TestGroupCommitMatchesPlain checks that the two paths store the same rows.

// maxGroup bounds the jobs of one transaction, so one batch never holds the writer for long.
const maxGroup = 64

// writeJob is one tx() call waiting for the writer.
type writeJob struct {
	ctx  context.Context
	fn   func(tx *sql.Tx) error
	done chan error
}

// committer owns the writer connection once the store is open.
type committer struct {
	jobs chan *writeJob
	quit chan struct{}
	gone chan struct{}
	stop sync.Once
}

// errClosed answers writes sent after Close.
var errClosed = errors.New("the store is closed")

// startCommitter starts the goroutine that runs every write from now on.
func (s *Store) startCommitter() {
	c := &committer{jobs: make(chan *writeJob), quit: make(chan struct{}), gone: make(chan struct{})}
	s.commit = c
	go func() {
		defer close(c.gone)
		batch := make([]*writeJob, 0, maxGroup)
		for {
			select {
			case <-c.quit:
				return
			case j := <-c.jobs:
				batch = append(batch[:0], j)
			}
		more:
			for len(batch) < maxGroup {
				select {
				case j := <-c.jobs:
					batch = append(batch, j)
				default:
					break more
				}
			}
			s.runGroup(batch)
		}
	}()
}

// stopCommitter stops the writer goroutine after the batch it is running; later writes fail.
func (s *Store) stopCommitter() {
	if s.commit == nil {
		return
	}
	s.commit.stop.Do(func() { close(s.commit.quit) })
	<-s.commit.gone
}

// tx runs fn in one write transaction: committed if fn returns nil, rolled back otherwise (see
// the group commit above).
func (s *Store) tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	c := s.commit
	if c == nil { // opening: migrations run before the writer goroutine starts
		return s.plainTx(ctx, fn)
	}
	j := &writeJob{ctx: ctx, fn: fn, done: make(chan error, 1)}
	select {
	case c.jobs <- j:
	case <-c.quit:
		return errClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	// Once queued the job is answered whatever happens to ctx: the caller must know whether
	// its write committed.
	return <-j.done
}

// runGroup runs a batch of jobs in one transaction, or alone when it is one job.
func (s *Store) runGroup(batch []*writeJob) {
	if len(batch) == 1 {
		j := batch[0]
		j.done <- s.plainTx(j.ctx, j.fn)
		return
	}
	errs, err := s.groupTx(batch)
	if err != nil {
		// The transaction broke down: nothing of it is committed; each job runs alone.
		for _, j := range batch {
			j.done <- s.plainTx(j.ctx, j.fn)
		}
		return
	}
	s.grouped.Add(int64(len(batch)))
	for i, j := range batch {
		j.done <- errs[i]
	}
}

// groupTx runs the jobs in one transaction, each in a savepoint, and commits. It answers each
// job's own error, or an error of the transaction itself (then nothing was committed).
func (s *Store) groupTx(batch []*writeJob) ([]error, error) {
	ctx := context.Background() // the jobs' contexts end their own statements, never the batch
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	if err := s.lockShared(ctx, tx); err != nil {
		return nil, err
	}
	var queued int64
	txQueued.Store(tx, &queued)
	defer txQueued.Delete(tx)
	errs := make([]error, len(batch))
	for i, j := range batch {
		if err := j.ctx.Err(); err != nil {
			errs[i] = err
			continue
		}
		if _, err := tx.ExecContext(ctx, `SAVEPOINT job`); err != nil {
			tx.Rollback()
			return nil, fmt.Errorf("savepoint: %w", err)
		}
		before := queued
		if errs[i] = runJob(j.fn, tx); errs[i] != nil {
			if _, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT job`); err != nil {
				tx.Rollback()
				return nil, fmt.Errorf("rollback to savepoint: %w", err)
			}
			// The outbox rows the job queued are undone: publishing their ids would have writers
			// wait (SyncTo) for rows that never commit (on PostgreSQL the sequence never gives
			// them back).
			queued = before
		}
		if _, err := tx.ExecContext(ctx, `RELEASE SAVEPOINT job`); err != nil {
			tx.Rollback()
			return nil, fmt.Errorf("release savepoint: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	if queued > 0 {
		s.noteCommitted(queued)
	}
	return errs, nil
}

// lockShared takes, on PostgreSQL, the cluster's writer lock for the rest of tx (see
// writerLockKey), rolling tx back when it cannot; on SQLite the one writer is the lock.
func (s *Store) lockShared(ctx context.Context, tx *sql.Tx) error {
	if s.engine != enginePostgres {
		return nil
	}
	if err := lockWriter(ctx, tx); err != nil {
		tx.Rollback()
		return err
	}
	return nil
}

// plainTx runs fn alone in one write transaction.
func (s *Store) plainTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := s.lockShared(ctx, tx); err != nil {
		return err
	}
	var queued int64
	txQueued.Store(tx, &queued)
	defer txQueued.Delete(tx)
	if err := runJob(fn, tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if queued > 0 {
		s.noteCommitted(queued)
	}
	return nil
}

// GroupedWrites answers how many writes have committed in a transaction shared with others
// since the store opened (kardan_store_grouped_writes_total).
func (s *Store) GroupedWrites() int64 { return s.grouped.Load() }

// runJob runs one write's fn, turning a panic into that write's error (logged with its stack).
func runJob(fn func(tx *sql.Tx) error, tx *sql.Tx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			slog.Error("write panicked", "panic", r, "stack", string(debug.Stack()))
			err = fmt.Errorf("write panicked: %v", r)
		}
	}()
	return fn(tx)
}
