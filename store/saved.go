package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SavedIDs answers the ids of the profiles userID saved, the most recently saved first. Profiles
// since hidden stay in the list (they may come back); the caller shows only the visible ones.
func (s *Store) SavedIDs(ctx context.Context, userID int64) ([]int64, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT profile_id FROM saved_profiles WHERE user_id = ?
		ORDER BY create_at DESC, profile_id DESC`, userID)
	if err != nil {
		return nil, fmt.Errorf("saved of %d: %w", userID, err)
	}
	defer rows.Close()
	out := []int64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("saved of %d: %w", userID, err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// SaveProfiles adds the visible profiles among ids to userID's saved list; saving one already
// there keeps its place. strict refuses a missing or hidden profile with the not-found error
// (one heart tapped); otherwise those are skipped (a device's list merged in at sign-in, which
// may name profiles hidden since). Refused with quota_saved when the list would pass Quotas.Saved.
func (s *Store) SaveProfiles(ctx context.Context, userID int64, ids []int64, strict bool) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		for i, id := range dedupe(ids) {
			p, err := scanProfile(tx.QueryRowContext(ctx, `SELECT `+profileColumns+` FROM profiles p WHERE p.id = ?`, id))
			if errors.Is(err, sql.ErrNoRows) || (err == nil && !p.Visible()) {
				if strict {
					return NotFound()
				}
				continue
			}
			if err != nil {
				return err
			}
			// The device lists newest first: the first id gets the latest time, so the merged
			// list keeps the device's order.
			if _, err := tx.ExecContext(ctx, `INSERT INTO saved_profiles (user_id, profile_id, create_at) VALUES (?, ?, ?)
				ON CONFLICT (user_id, profile_id) DO NOTHING`, userID, id, now-int64(i)); err != nil {
				return err
			}
		}
		return quotaTotalOver(ctx, tx, "quota_saved", `SELECT COUNT(*) FROM saved_profiles WHERE user_id = ?`, userID, s.Quotas.Saved)
	})
	if err != nil {
		return fmt.Errorf("save profiles: %w", err)
	}
	return nil
}

// UnsaveProfile removes profileID from userID's saved list; removing one not there is not an
// error (the same tap twice, or from two devices).
func (s *Store) UnsaveProfile(ctx context.Context, userID, profileID int64) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM saved_profiles WHERE user_id = ? AND profile_id = ?`, userID, profileID)
		return err
	})
	if err != nil {
		return fmt.Errorf("unsave profile: %w", err)
	}
	return nil
}

// quotaTotalOver counts after the insert it guards, in the same transaction: the refusal rolls
// the insert back, so a burst of saves from two devices cannot pass max together. A full list is
// a business rule (409), not a rate: waiting would not help.
func quotaTotalOver(ctx context.Context, tx *sql.Tx, key, query string, userID int64, max int) error {
	var n int
	if err := tx.QueryRowContext(ctx, query, userID).Scan(&n); err != nil {
		return err
	}
	if n > max {
		return &Error{Code: EConflict, Key: key, Args: map[string]any{"max": max}}
	}
	return nil
}
