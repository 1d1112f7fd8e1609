package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// profileTransitions are the moderation moves an admin may make (DESIGN.md §3).
var profileTransitions = map[string][]string{
	StatusPending:  {StatusAccepted, StatusRejected},
	StatusAccepted: {StatusBlocked},
	StatusBlocked:  {StatusAccepted},
}

// SetProfileStatus moves a profile through moderation and records who did it, when and why.
// actorID nil is the operator's command line.
func (s *Store) SetProfileStatus(ctx context.Context, actorID *int64, id int64, status, note string) (*Profile, error) {
	note = CleanText(note, true)
	if RuneLen(note) > 1000 {
		v := &Validation{}
		v.Add("description", "too_long", map[string]any{"max": 1000})
		return nil, v.Err()
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var from string
		var deleted sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT account_status, delete_at FROM profiles WHERE id = ?`, id).Scan(&from, &deleted)
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound()
		}
		if err != nil {
			return err
		}
		now := s.now()
		if from == StatusAccepted && !deleted.Valid && (status == StatusAccepted || status == StatusRejected) {
			// On an accepted profile these decide its waiting edit: accept publishes it, reject
			// keeps the public version and tells the owner why.
			e, err := profileEditTx(ctx, tx, id)
			if err != nil {
				return err
			}
			if e == nil || e.Status != StatusPending {
				return Errorf(EConflict, "bad_transition", map[string]any{"from": from, "to": status})
			}
			if status == StatusAccepted {
				if err := s.applyEdit(ctx, tx, id); err != nil {
					return err
				}
			} else if _, err := tx.ExecContext(ctx, `UPDATE profile_edits SET status = ?, admin_id = ?, admin_note = ?, update_at = ?
				WHERE profile_id = ?`, StatusRejected, actorID, note, now, id); err != nil {
				return err
			}
			if err := audit(ctx, tx, actorID, "edit", "profile", id, StatusPending, status, note, now); err != nil {
				return err
			}
			if err := notifyModeration(ctx, tx, "profile", id, status, note, now); err != nil {
				return err
			}
			return queueIndex(ctx, tx, "profile", id, now)
		}
		if !allowedMove(profileTransitions, from, status) || deleted.Valid {
			return Errorf(EConflict, "bad_transition", map[string]any{"from": from, "to": status})
		}
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET account_status = ?, admin_id = ?, admin_note = ?, update_at = ? WHERE id = ?`,
			status, actorID, note, now, id); err != nil {
			return err
		}
		if err := audit(ctx, tx, actorID, "status", "profile", id, from, status, note, now); err != nil {
			return err
		}
		if err := notifyModeration(ctx, tx, "profile", id, status, note, now); err != nil {
			return err
		}
		return queueIndex(ctx, tx, "profile", id, now)
	})
	if err != nil {
		return nil, fmt.Errorf("set profile status: %w", err)
	}
	return s.Profile(ctx, id)
}

func allowedMove(moves map[string][]string, from, to string) bool {
	for _, m := range moves[from] {
		if m == to {
			return true
		}
	}
	return false
}

// ValidStatus reports whether status is one admins may set.
func ValidStatus(status string) bool {
	switch status {
	case StatusPending, StatusAccepted, StatusRejected, StatusBlocked:
		return true
	}
	return false
}

// PurgeDeletedProfiles removes profiles deleted more than RetentionDays ago, with their comments,
// and answers the image addresses they used, for the caller to delete from storage.
func (s *Store) PurgeDeletedProfiles(ctx context.Context) (int, []string, error) {
	var n int
	var images []string
	err := s.tx(ctx, func(tx *sql.Tx) error {
		cutoff := s.now() - RetentionDays*86400
		rows, err := tx.QueryContext(ctx, `SELECT id, profile_image, logo, portfolio_images FROM profiles
			WHERE delete_at IS NOT NULL AND delete_at <= ?`, cutoff)
		if err != nil {
			return err
		}
		var ids []int64
		for rows.Next() {
			var id int64
			var pic, logo, portfolio string
			if err := rows.Scan(&id, &pic, &logo, &portfolio); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
			var ps []string
			json.Unmarshal([]byte(portfolio), &ps)
			for _, a := range append([]string{pic, logo}, ps...) {
				if a != "" {
					images = append(images, a)
				}
			}
		}
		rows.Close()
		now := s.now()
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `DELETE FROM profiles WHERE id = ?`, id); err != nil {
				return err
			}
			if err := audit(ctx, tx, nil, "purge", "profile", id, StatusDeleted, "", "", now); err != nil {
				return err
			}
			if err := queueIndex(ctx, tx, "profile", id, now); err != nil {
				return err
			}
		}
		n = len(ids)
		return nil
	})
	if err != nil {
		return 0, nil, fmt.Errorf("purge profiles: %w", err)
	}
	return n, images, nil
}

// SitemapEntry is one public page for the sitemap.
type SitemapEntry struct {
	Slug     string
	UpdateAt int64
}

// visibleSlugsSQL is a page of the sitemap's profiles. The unary plus keeps the planner on the
// primary key, as in visibleProfileIDsSQL: through profiles_visible_newest it sorted every
// visible profile for each page, 10.6 s for a page of 50,000 at a million profiles against
// 0.35 s (TestIDPagesWalkTheIDs).
const visibleSlugsSQL = `SELECT p.slug, p.update_at FROM profiles p WHERE +` + visibleSQL + ` ORDER BY p.id LIMIT ? OFFSET ?`

// VisibleProfileSlugs answers a page of the visible profiles' slugs in id order, and the number
// of visible profiles.
func (s *Store) VisibleProfileSlugs(ctx context.Context, offset, limit int) ([]SitemapEntry, int, error) {
	var total int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM profiles p WHERE `+visibleSQL).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("sitemap: %w", err)
	}
	rows, err := s.read.QueryContext(ctx, visibleSlugsSQL, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("sitemap: %w", err)
	}
	defer rows.Close()
	var out []SitemapEntry
	for rows.Next() {
		var e SitemapEntry
		if err := rows.Scan(&e.Slug, &e.UpdateAt); err != nil {
			return nil, 0, fmt.Errorf("sitemap: %w", err)
		}
		out = append(out, e)
	}
	return out, total, rows.Err()
}
