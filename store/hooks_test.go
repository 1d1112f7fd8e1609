package store

import (
	"context"
	"database/sql"
)

// TxForTest runs fn as one of the store's write transactions (with the writer lock on PostgreSQL).
func (s *Store) TxForTest(ctx context.Context, fn func(tx *sql.Tx) error) error { return s.tx(ctx, fn) }

// QueueIndexForTest appends an outbox row inside tx.
func QueueIndexForTest(ctx context.Context, tx *sql.Tx, id int64) error {
	return queueIndex(ctx, tx, "profile", id, 1)
}
