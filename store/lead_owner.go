// The professional's side of requests for a price: their inbox, answers and status changes,
// kept apart from the visitor's side in leads.go so each file reads as one story.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// OwnerLead is a lead as one of its professionals sees it: the request and their own side. The
// visitor's Phone is empty until they answered.
type OwnerLead struct {
	Lead   *Lead
	Target *LeadTarget
}

// LeadsForOwner answers the requests sent to owner's profiles (one profile when profileID > 0),
// newest first, with how many there are and how many are still new.
func (s *Store) LeadsForOwner(ctx context.Context, ownerID, profileID int64, offset, limit int) ([]*OwnerLead, int, int, error) {
	where := `p.user_id = ?`
	args := []any{ownerID}
	if profileID > 0 {
		where += ` AND t.profile_id = ?`
		args = append(args, profileID)
	}
	var total, unread int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN t.status = 'new' THEN 1 ELSE 0 END), 0) FROM lead_targets t
		JOIN profiles p ON p.id = t.profile_id WHERE `+where, args...).Scan(&total, &unread); err != nil {
		return nil, 0, 0, fmt.Errorf("owner leads: %w", err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT `+targetColumns+` FROM lead_targets t JOIN profiles p ON p.id = t.profile_id
		JOIN users u ON u.id = p.user_id WHERE `+where+` ORDER BY t.lead_id DESC, t.profile_id LIMIT ? OFFSET ?`, append(args, limit, offset)...)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("owner leads: %w", err)
	}
	var out []*OwnerLead
	for rows.Next() {
		t, err := scanTarget(rows)
		if err != nil {
			rows.Close()
			return nil, 0, 0, fmt.Errorf("owner leads: %w", err)
		}
		out = append(out, &OwnerLead{Target: t})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, 0, fmt.Errorf("owner leads: %w", err)
	}
	for _, ol := range out {
		if ol.Lead, err = scanLead(s.read.QueryRowContext(ctx, `SELECT `+leadColumns+` FROM leads l WHERE l.id = ?`, ol.Target.LeadID)); err != nil {
			return nil, 0, 0, fmt.Errorf("owner leads: %w", err)
		}
		if !ol.Target.Answered() {
			ol.Lead.Phone = ""
		}
	}
	return out, total, unread, nil
}

// ownTarget finds owner's side of a lead in tx: the one of profileID, or, with profileID 0, the
// only profile of owner the lead asked. Another owner's lead is not found, never forbidden, so
// the answer tells nobody it exists.
func ownTarget(ctx context.Context, tx *sql.Tx, ownerID, leadID, profileID int64) (*LeadTarget, error) {
	q := `SELECT ` + targetColumns + ` FROM lead_targets t JOIN profiles p ON p.id = t.profile_id JOIN users u ON u.id = p.user_id
		WHERE t.lead_id = ? AND p.user_id = ?`
	args := []any{leadID, ownerID}
	if profileID > 0 {
		q += ` AND t.profile_id = ?`
		args = append(args, profileID)
	}
	rows, err := tx.QueryContext(ctx, q+` ORDER BY t.profile_id LIMIT 2`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var found []*LeadTarget
	for rows.Next() {
		t, err := scanTarget(rows)
		if err != nil {
			return nil, err
		}
		found = append(found, t)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	switch len(found) {
	case 0:
		return nil, NotFound()
	case 1:
		return found[0], nil
	}
	v := &Validation{}
	v.Enter("user_technical_id")
	return nil, v.Err()
}

// leadMoves are the status changes an owner may make by hand; answered comes by answering.
var leadMoves = map[string][]string{
	LeadNew:      {LeadSeen, LeadDeclined},
	LeadSeen:     {LeadDeclined},
	LeadAnswered: {LeadDone, LeadDeclined},
}

// SetLeadStatus moves owner's side of a lead (seen, declined, done; answered only by AnswerLead).
func (s *Store) SetLeadStatus(ctx context.Context, ownerID, leadID, profileID int64, status string) (*OwnerLead, error) {
	switch status {
	case LeadSeen, LeadDeclined, LeadDone, LeadAnswered:
	default:
		v := &Validation{}
		v.Correct("status")
		return nil, v.Err()
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		t, err := ownTarget(ctx, tx, ownerID, leadID, profileID)
		if err != nil {
			return err
		}
		profileID = t.ProfileID
		if t.Status == status {
			return nil // marking seen twice is no error
		}
		if status == LeadAnswered {
			return Errorf(EConflict, "lead_answer_first", nil)
		}
		if !allowedMove(leadMoves, t.Status, status) {
			return Errorf(EConflict, "bad_transition", map[string]any{"from": t.Status, "to": status})
		}
		_, err = tx.ExecContext(ctx, `UPDATE lead_targets SET status = ?, update_at = ? WHERE lead_id = ? AND profile_id = ?`,
			status, s.now(), leadID, t.ProfileID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("set lead status: %w", err)
	}
	return s.ownerLead(ctx, ownerID, leadID, profileID)
}

// AnswerLead records owner's price and message on a lead (again: replaces them) and notifies
// the visitor (their account, or the account holding the lead's number) in the same
// transaction. From then on the owner sees the visitor's number.
func (s *Store) AnswerLead(ctx context.Context, ownerID, leadID, profileID, price int64, message string) (*OwnerLead, error) {
	message = CleanText(message, true)
	v := &Validation{}
	if price < 0 || price > maxLeadPrice {
		v.Correct("price")
	}
	switch {
	case message == "":
		v.Enter("message")
	case RuneLen(message) > maxLeadAnswer:
		v.Add("message", "too_long", map[string]any{"max": maxLeadAnswer})
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		t, err := ownTarget(ctx, tx, ownerID, leadID, profileID)
		if err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		profileID = t.ProfileID
		if t.Status == LeadDeclined || t.Status == LeadDone {
			return Errorf(EConflict, "bad_transition", map[string]any{"from": t.Status, "to": LeadAnswered})
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE lead_targets SET status = 'answered', price = ?, message = ?, answer_at = ?, update_at = ?
			WHERE lead_id = ? AND profile_id = ?`, price, message, now, now, leadID, t.ProfileID); err != nil {
			return err
		}
		var visitor sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(l.visitor_id, (SELECT id FROM users WHERE number_phone = l.phone))
			FROM leads l WHERE l.id = ?`, leadID).Scan(&visitor); err != nil {
			return err
		}
		if !visitor.Valid {
			return nil // a signed-out visitor without an account sees the answer when they sign in with their number
		}
		return notify(ctx, tx, Notification{UserID: visitor.Int64, Kind: NotifyLeadAnswer, Entity: "lead", EntityID: leadID,
			Title: t.ProfileName, Note: truncateRunes(message, 140), CreateAt: now})
	})
	if err != nil {
		return nil, fmt.Errorf("answer lead: %w", err)
	}
	return s.ownerLead(ctx, ownerID, leadID, profileID)
}

func (s *Store) ownerLead(ctx context.Context, ownerID, leadID, profileID int64) (*OwnerLead, error) {
	t, err := scanTarget(s.read.QueryRowContext(ctx, `SELECT `+targetColumns+` FROM lead_targets t JOIN profiles p ON p.id = t.profile_id
		JOIN users u ON u.id = p.user_id WHERE t.lead_id = ? AND t.profile_id = ? AND p.user_id = ?`, leadID, profileID, ownerID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, err
	}
	l, err := scanLead(s.read.QueryRowContext(ctx, `SELECT `+leadColumns+` FROM leads l WHERE l.id = ?`, leadID))
	if err != nil {
		return nil, err
	}
	if !t.Answered() {
		l.Phone = ""
	}
	return &OwnerLead{Lead: l, Target: t}, nil
}

// leadAskedOf reports (not found otherwise) whether one of userID's profiles was asked lead id:
// only they may report it.
func leadAskedOf(ctx context.Context, tx *sql.Tx, userID *int64, id int64) error {
	if userID == nil {
		return NotFound()
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM lead_targets t JOIN profiles p ON p.id = t.profile_id
		WHERE t.lead_id = ? AND p.user_id = ?`, id, *userID).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return NotFound()
	}
	return nil
}

// CloseLead declines every side of a lead an admin took down after reports, so it leaves every
// inbox's open items.
func (s *Store) CloseLead(ctx context.Context, actorID *int64, id int64, note string) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		res, err := tx.ExecContext(ctx, `UPDATE lead_targets SET status = 'declined', update_at = ? WHERE lead_id = ? AND status <> 'declined'`, now, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return Errorf(EConflict, "bad_transition", map[string]any{"from": LeadDeclined, "to": LeadDeclined})
		}
		return audit(ctx, tx, actorID, "status", "lead", id, "", LeadDeclined, note, now)
	})
	if err != nil {
		return fmt.Errorf("close lead: %w", err)
	}
	return nil
}
