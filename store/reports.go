package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Report states.
const (
	ReportOpen      = "Open"
	ReportDismissed = "Dismissed"
	ReportActioned  = "Actioned"
)

// ReportReasons are the reasons a visitor may pick; "other" needs a description.
var ReportReasons = []string{"spam", "fake", "offensive", "scam", "wrong_info", "other"}

// maxReportText bounds a report's description, in characters.
const maxReportText = 1000

// ReportInput is a visitor's report as sent.
type ReportInput struct {
	Entity      string `json:"entity"`
	ID          int64  `json:"id"`
	Reason      string `json:"reason"`
	Description string `json:"description"`
}

// Report is one stored report.
type Report struct {
	ID          int64  `json:"id"`
	Entity      string `json:"entity"`
	EntityID    int64  `json:"entity_id"`
	Reason      string `json:"reason"`
	Description string `json:"description"`
	Status      string `json:"status"`
	CreateAt    int64  `json:"-"`
}

// ReportGroup is one reported item in the admins' queue: how often and why it was reported, the
// newest reports, and what the item is.
type ReportGroup struct {
	Entity   string
	EntityID int64
	Count    int
	Reasons  map[string]int
	FirstAt  int64
	LastAt   int64
	Latest   []Report
	// What the item is: a profile's name and slug, or a comment's text and its profile.
	Title       string
	Slug        string
	ProfileID   int64
	ItemStatus  string
	AdminNote   string
	ResolvedAt  *int64
	ResolvedBy  *int64
	ItemMissing bool
}

func validReason(r string) bool {
	for _, x := range ReportReasons {
		if x == r {
			return true
		}
	}
	return false
}

// AddReport stores a visitor's report of a public profile or comment (not found for anything the
// public cannot see). An account, or an address without one, reports an item once while its
// reports are open.
func (s *Store) AddReport(ctx context.Context, in *ReportInput, reporterID *int64, clientIP string) (*Report, error) {
	v := &Validation{}
	entity := strings.TrimSpace(in.Entity)
	if entity != "profile" && entity != "comment" && entity != "lead" {
		v.Correct("entity")
	}
	if in.ID <= 0 {
		v.Correct("id")
	}
	reason := strings.TrimSpace(in.Reason)
	switch {
	case reason == "":
		v.Enter("reason")
	case !validReason(reason):
		v.Correct("reason")
	}
	text := CleanText(in.Description, true)
	if RuneLen(text) > maxReportText {
		v.Add("description", "too_long", map[string]any{"max": maxReportText})
	}
	if reason == "other" && text == "" {
		v.Enter("description")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	r := &Report{Entity: entity, EntityID: in.ID, Reason: reason, Description: text, Status: ReportOpen}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		check := publicItem(ctx, tx, entity, in.ID)
		if entity == "lead" {
			// A lead is private: only a professional it was sent to can report it.
			check = leadAskedOf(ctx, tx, reporterID, in.ID)
		}
		if check != nil {
			return check
		}
		var dup int
		// A signed-in reporter is one person whatever the address; anonymous reports are told
		// apart by address only (people behind one office or carrier address can still sign in).
		q := `SELECT COUNT(*) FROM reports WHERE entity = ? AND entity_id = ? AND status = 'Open' AND reporter_id IS NULL AND client_ip = ?`
		args := []any{entity, in.ID, clientIP}
		if reporterID != nil {
			q = `SELECT COUNT(*) FROM reports WHERE entity = ? AND entity_id = ? AND status = 'Open' AND reporter_id = ?`
			args = []any{entity, in.ID, *reporterID}
		}
		if err := tx.QueryRowContext(ctx, q, args...).Scan(&dup); err != nil {
			return err
		}
		if dup > 0 {
			return Errorf(EConflict, "already_reported", nil)
		}
		r.CreateAt = s.now()
		return tx.QueryRowContext(ctx, `INSERT INTO reports (entity, entity_id, reason, description, reporter_id, client_ip, create_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, entity, in.ID, reason, text, reporterID, clientIP, r.CreateAt).Scan(&r.ID)
	})
	if err != nil {
		return nil, fmt.Errorf("add report: %w", err)
	}
	return r, nil
}

// publicItem answers not found unless the public can see the item.
func publicItem(ctx context.Context, tx *sql.Tx, entity string, id int64) error {
	q := `SELECT COUNT(*) FROM profiles WHERE id = ? AND account_status = 'Accepted' AND active = 1 AND display = 1 AND delete_at IS NULL`
	if entity == "comment" {
		q = `SELECT COUNT(*) FROM comments c JOIN profiles p ON p.id = c.profile_id WHERE c.id = ? AND c.hidden = 0
			AND p.account_status = 'Accepted' AND p.active = 1 AND p.display = 1 AND p.delete_at IS NULL`
	}
	var n int
	if err := tx.QueryRowContext(ctx, q, id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return NotFound()
	}
	return nil
}

// ReportGroups answers the reported items with reports in status, the most reported first (then
// the most recently reported), and how many items there are in all.
func (s *Store) ReportGroups(ctx context.Context, status string, offset, limit int) ([]*ReportGroup, int, error) {
	var total int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM reports WHERE status = ? GROUP BY entity, entity_id) items`,
		status).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count reports: %w", err)
	}
	if limit <= 0 {
		limit = 20
	}
	rows, err := s.read.QueryContext(ctx, `SELECT entity, entity_id, COUNT(*), MIN(create_at), MAX(create_at)
		FROM reports WHERE status = ? GROUP BY entity, entity_id ORDER BY COUNT(*) DESC, MAX(create_at) DESC, entity_id
		LIMIT ? OFFSET ?`, status, limit, max(offset, 0))
	if err != nil {
		return nil, 0, fmt.Errorf("list reports: %w", err)
	}
	var out []*ReportGroup
	for rows.Next() {
		g := &ReportGroup{Reasons: map[string]int{}, Latest: []Report{}}
		if err := rows.Scan(&g.Entity, &g.EntityID, &g.Count, &g.FirstAt, &g.LastAt); err != nil {
			rows.Close()
			return nil, 0, fmt.Errorf("list reports: %w", err)
		}
		out = append(out, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("list reports: %w", err)
	}
	for _, g := range out {
		if err := s.fillReportGroup(ctx, g, status); err != nil {
			return nil, 0, fmt.Errorf("report group %s %d: %w", g.Entity, g.EntityID, err)
		}
	}
	return out, total, nil
}

func (s *Store) fillReportGroup(ctx context.Context, g *ReportGroup, status string) error {
	rows, err := s.read.QueryContext(ctx, `SELECT id, reason, description, create_at, admin_note, resolve_at, admin_id FROM reports
		WHERE entity = ? AND entity_id = ? AND status = ? ORDER BY create_at DESC, id DESC`, g.Entity, g.EntityID, status)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		r := Report{Entity: g.Entity, EntityID: g.EntityID, Status: status}
		var note string
		var at, by sql.NullInt64
		if err := rows.Scan(&r.ID, &r.Reason, &r.Description, &r.CreateAt, &note, &at, &by); err != nil {
			return err
		}
		g.Reasons[r.Reason]++
		if len(g.Latest) < 5 {
			g.Latest = append(g.Latest, r)
		}
		if at.Valid && g.ResolvedAt == nil {
			g.ResolvedAt, g.AdminNote = &at.Int64, note
			if by.Valid {
				g.ResolvedBy = &by.Int64
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	var row *sql.Row
	if g.Entity == "lead" {
		row = s.read.QueryRowContext(ctx, `SELECT l.what, '', 0, CASE WHEN EXISTS (SELECT 1 FROM lead_targets t WHERE t.lead_id = l.id
			AND t.status <> 'declined') THEN 'Open' ELSE 'Closed' END FROM leads l WHERE l.id = ?`, g.EntityID)
	} else if g.Entity == "profile" {
		row = s.read.QueryRowContext(ctx, `SELECT profile_name, slug, id, CASE WHEN delete_at IS NOT NULL THEN 'Deleted' ELSE account_status END
			FROM profiles WHERE id = ?`, g.EntityID)
	} else {
		row = s.read.QueryRowContext(ctx, `SELECT c.description, p.slug, p.id, CASE WHEN c.hidden = 1 THEN 'Hidden' ELSE 'Visible' END
			FROM comments c JOIN profiles p ON p.id = c.profile_id WHERE c.id = ?`, g.EntityID)
	}
	err = row.Scan(&g.Title, &g.Slug, &g.ProfileID, &g.ItemStatus)
	if errors.Is(err, sql.ErrNoRows) {
		g.ItemMissing = true
		return nil
	}
	return err
}

// ResolveReports closes every open report of one item as Dismissed or Actioned, with the admin
// and the note, and answers how many it closed (not found when none was open).
func (s *Store) ResolveReports(ctx context.Context, actorID *int64, entity string, id int64, status, note string) (int64, error) {
	note = CleanText(note, true)
	v := &Validation{}
	if status != ReportDismissed && status != ReportActioned {
		v.Correct("status")
	}
	if RuneLen(note) > maxNote {
		v.Add("description", "too_long", map[string]any{"max": maxNote})
	}
	if err := v.Err(); err != nil {
		return 0, err
	}
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		res, err := tx.ExecContext(ctx, `UPDATE reports SET status = ?, admin_id = ?, admin_note = ?, resolve_at = ?
			WHERE entity = ? AND entity_id = ? AND status = 'Open'`, status, actorID, note, now, entity, id)
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil {
			return err
		}
		if n == 0 {
			return NotFound()
		}
		return audit(ctx, tx, actorID, "report", entity, id, ReportOpen, status, note, now)
	})
	if err != nil {
		return 0, fmt.Errorf("resolve reports: %w", err)
	}
	return n, nil
}
