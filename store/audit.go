package store

import (
	"context"
	"database/sql"
	"fmt"
)

// AuditEntry is one recorded admin action.
type AuditEntry struct {
	ID         int64  `json:"id"`
	ActorID    *int64 `json:"actor_id"`
	Action     string `json:"action"`
	Entity     string `json:"entity"`
	EntityID   int64  `json:"entity_id"`
	FromStatus string `json:"from_status"`
	ToStatus   string `json:"to_status"`
	Note       string `json:"note"`
	At         int64  `json:"at"`
}

// audit records an admin action inside the caller's transaction; actor nil is the CLI.
func audit(ctx context.Context, tx *sql.Tx, actor *int64, action, entity string, id int64, from, to, note string, at int64) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO audit_log (actor_id, action, entity, entity_id, from_status, to_status, note, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, actor, action, entity, id, from, to, note, at)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// AuditLog answers the recorded actions on one entity, oldest first.
func (s *Store) AuditLog(ctx context.Context, entity string, id int64) ([]AuditEntry, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, actor_id, action, entity, entity_id, from_status, to_status, note, at
		FROM audit_log WHERE entity = ? AND entity_id = ? ORDER BY id`, entity, id)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	defer rows.Close()
	out := []AuditEntry{}
	for rows.Next() {
		var e AuditEntry
		if err := rows.Scan(&e.ID, &e.ActorID, &e.Action, &e.Entity, &e.EntityID, &e.FromStatus, &e.ToStatus, &e.Note, &e.At); err != nil {
			return nil, fmt.Errorf("audit log: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
