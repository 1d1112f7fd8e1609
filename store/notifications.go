package store

import (
	"context"
	"database/sql"
	"fmt"
)

// The kinds of notification.
const (
	NotifyNewReview   = "new_review"
	NotifyReviewReply = "review_reply"
	NotifyModeration  = "moderation"
	NotifyNewLead     = "new_lead"
	NotifyLeadAnswer  = "lead_answer"
)

// SMSKinds are the notification kinds that also go out by SMS (they cannot wait), each of which
// a user may turn off.
var SMSKinds = []string{NotifyNewLead, NotifyModeration}

// Notification is one item under a user's bell.
type Notification struct {
	ID       int64
	UserID   int64
	Kind     string
	Entity   string
	EntityID int64
	Title    string
	Status   string
	Note     string
	CreateAt int64
	ReadAt   *int64
}

// notify writes a notification in the caller's transaction, so it exists exactly when the event
// that caused it does.
func notify(ctx context.Context, tx *sql.Tx, n Notification) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO notifications (user_id, kind, entity, entity_id, title, status, note, create_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, n.UserID, n.Kind, n.Entity, n.EntityID, n.Title, n.Status, n.Note, n.CreateAt)
	if err != nil {
		return fmt.Errorf("notify: %w", err)
	}
	return nil
}

// Notifications answers a user's notifications, newest first, with the unread count.
func (s *Store) Notifications(ctx context.Context, userID int64, offset, limit int) ([]*Notification, int, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, user_id, kind, entity, entity_id, title, status, note, create_at, read_at
		FROM notifications WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`, userID, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("notifications: %w", err)
	}
	defer rows.Close()
	var out []*Notification
	for rows.Next() {
		n := &Notification{}
		var read sql.NullInt64
		if err := rows.Scan(&n.ID, &n.UserID, &n.Kind, &n.Entity, &n.EntityID, &n.Title, &n.Status, &n.Note, &n.CreateAt, &read); err != nil {
			return nil, 0, fmt.Errorf("notifications: %w", err)
		}
		if read.Valid {
			n.ReadAt = &read.Int64
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("notifications: %w", err)
	}
	unread, err := s.UnreadNotifications(ctx, userID)
	return out, unread, err
}

// UnreadNotifications counts a user's unread notifications.
func (s *Store) UnreadNotifications(ctx context.Context, userID int64) (int, error) {
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM notifications WHERE user_id = ? AND read_at IS NULL`, userID).Scan(&n); err != nil {
		return 0, fmt.Errorf("unread notifications: %w", err)
	}
	return n, nil
}

// MarkNotificationsRead marks the given notifications of userID read (all of them when ids is
// empty) and answers how many changed. Ids of other users' notifications are ignored.
func (s *Store) MarkNotificationsRead(ctx context.Context, userID int64, ids []int64) (int64, error) {
	var changed int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		changed = 0 // the closure may run twice (store/commit.go)
		now := s.now()
		if len(ids) == 0 {
			res, err := tx.ExecContext(ctx, `UPDATE notifications SET read_at = ? WHERE user_id = ? AND read_at IS NULL`, now, userID)
			if err != nil {
				return err
			}
			changed, _ = res.RowsAffected()
			return nil
		}
		for _, id := range ids {
			res, err := tx.ExecContext(ctx, `UPDATE notifications SET read_at = ? WHERE id = ? AND user_id = ? AND read_at IS NULL`, now, id, userID)
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			changed += n
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("mark notifications read: %w", err)
	}
	return changed, nil
}

// SMSOptOuts answers the SMS kinds a user turned off.
func (s *Store) SMSOptOuts(ctx context.Context, userID int64) (map[string]bool, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT kind FROM sms_optouts WHERE user_id = ?`, userID)
	if err != nil {
		return nil, fmt.Errorf("sms opt-outs: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, fmt.Errorf("sms opt-outs: %w", err)
		}
		out[k] = true
	}
	return out, rows.Err()
}

// SetSMSOptOut turns one kind of SMS notice off (off true) or back on for a user.
func (s *Store) SetSMSOptOut(ctx context.Context, userID int64, kind string, off bool) error {
	ok := false
	for _, k := range SMSKinds {
		ok = ok || k == kind
	}
	if !ok {
		v := &Validation{}
		v.Correct("kind")
		return v.Err()
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		if off {
			_, err = tx.ExecContext(ctx, `INSERT INTO sms_optouts (user_id, kind) VALUES (?, ?) ON CONFLICT DO NOTHING`, userID, kind)
		} else {
			_, err = tx.ExecContext(ctx, `DELETE FROM sms_optouts WHERE user_id = ? AND kind = ?`, userID, kind)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("set sms opt-out: %w", err)
	}
	return nil
}

// notifyModeration tells the owner of a profile or the writer of an article the moderators'
// decision on it, with their note, in the caller's transaction.
func notifyModeration(ctx context.Context, tx *sql.Tx, entity string, id int64, status, note string, now int64) error {
	q := `SELECT user_id, profile_name FROM profiles WHERE id = ?`
	if entity == "blog" {
		q = `SELECT writer_id, title FROM blogs WHERE id = ?`
	}
	var owner int64
	var title string
	if err := tx.QueryRowContext(ctx, q, id).Scan(&owner, &title); err != nil {
		return fmt.Errorf("notify moderation: %w", err)
	}
	return notify(ctx, tx, Notification{UserID: owner, Kind: NotifyModeration, Entity: entity, EntityID: id, Title: title,
		Status: status, Note: note, CreateAt: now})
}
