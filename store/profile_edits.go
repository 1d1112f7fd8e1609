package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// StatusEdited selects, in admin listings, the accepted profiles whose owner's edit waits.
const StatusEdited = "Edited"

// ProfileEdit is an owner's material edit of an accepted profile, waiting for review while the
// last accepted version stays public (--moderation pre, audit L5).
type ProfileEdit struct {
	ProfileID int64
	Input     ProfileInput
	Status    string // StatusPending or StatusRejected
	AdminID   *int64
	Note      string
	CreateAt  int64
	UpdateAt  int64
}

// materialChange reports whether next differs from old in what a reviewer must see before the
// public does: every text, picture, contact, place and category. Opening hours, the map point,
// years of experience and the owner's switches are not material.
func materialChange(old, next *Profile) bool {
	if old.ProfileName != next.ProfileName || old.Descriotion != next.Descriotion || old.Address != next.Address ||
		old.ProfileImage != next.ProfileImage || old.Logo != next.Logo ||
		old.CityID != next.CityID || old.ProvinceID != next.ProvinceID || old.RangeWorkerID != next.RangeWorkerID ||
		string(old.ListObject) != string(next.ListObject) {
		return true
	}
	a, b := slices.Clone(old.CategoryIDs), slices.Clone(next.CategoryIDs)
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		return true
	}
	oj, nj := jsonColumns(old), jsonColumns(next)
	// jsonColumns: services, hours, social links, areas, portfolio, options; hours (1) are not material.
	for _, i := range []int{0, 2, 3, 4, 5} {
		if oj[i] != nj[i] {
			return true
		}
	}
	return false
}

// holdEdit stores in as the profile's pending edit, replacing an earlier one.
func (s *Store) holdEdit(ctx context.Context, tx *sql.Tx, id int64, in *ProfileInput) error {
	b, err := json.Marshal(in.canonicalImages())
	if err != nil {
		return err
	}
	now := s.now()
	_, err = tx.ExecContext(ctx, `INSERT INTO profile_edits (profile_id, input, status, admin_id, admin_note, create_at, update_at)
		VALUES (?, ?, 'Pending', NULL, '', ?, ?)
		ON CONFLICT (profile_id) DO UPDATE SET input = excluded.input, status = 'Pending', admin_id = NULL,
			admin_note = '', create_at = excluded.create_at, update_at = excluded.update_at`, id, string(b), now, now)
	return err
}

func dropEdit(ctx context.Context, tx *sql.Tx, id int64) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM profile_edits WHERE profile_id = ?`, id)
	return err
}

func profileEditTx(ctx context.Context, q rowQuerier, id int64) (*ProfileEdit, error) {
	e := &ProfileEdit{ProfileID: id}
	var input string
	var admin sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT input, status, admin_id, admin_note, create_at, update_at FROM profile_edits
		WHERE profile_id = ?`, id).Scan(&input, &e.Status, &admin, &e.Note, &e.CreateAt, &e.UpdateAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if admin.Valid {
		e.AdminID = &admin.Int64
	}
	if err := json.Unmarshal([]byte(input), &e.Input); err != nil {
		return nil, fmt.Errorf("stored edit of profile %d: %w", id, err)
	}
	return e, nil
}

// ProfileEdit answers the profile's waiting or rejected edit, or nil when it has none.
func (s *Store) ProfileEdit(ctx context.Context, id int64) (*ProfileEdit, error) {
	e, err := profileEditTx(ctx, s.read, id)
	if err != nil {
		return nil, fmt.Errorf("profile edit %d: %w", id, err)
	}
	return e, nil
}

// ProfileEditsPending answers which of ids have an edit waiting for review.
func (s *Store) ProfileEditsPending(ctx context.Context, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	for _, id := range ids {
		var n int
		if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM profile_edits WHERE profile_id = ? AND status = 'Pending'`, id).Scan(&n); err != nil {
			return nil, fmt.Errorf("pending edits: %w", err)
		}
		out[id] = n > 0
	}
	return out, nil
}

// applyEdit publishes the pending edit of profile id (an admin accepted it): the stored input is
// validated again as the owner's, as if the owner saved it now.
func (s *Store) applyEdit(ctx context.Context, tx *sql.Tx, id int64) error {
	e, err := profileEditTx(ctx, tx, id)
	if err != nil {
		return err
	}
	p, err := scanProfile(tx.QueryRowContext(ctx, `SELECT `+profileColumns+` FROM profiles p WHERE p.id = ?`, id))
	if err != nil {
		return err
	}
	oldName, oldCity, oldField := p.ProfileName, p.CityID, p.RangeWorkerID
	refs, err := s.applyInput(ctx, tx, p, &e.Input, true)
	if err != nil {
		return err
	}
	if err := s.checkLiveCategories(ctx, tx, p); err != nil {
		return err
	}
	if p.RangeWorkerID != oldField {
		if err := s.checkFieldLock(ctx, tx, p); err != nil {
			return err
		}
	}
	if p.ProfileName != oldName || p.CityID != oldCity {
		if p.Slug, err = uniqueSlug(ctx, tx, "profiles", p.ProfileName, refs.City.Slag, p.ID); err != nil {
			return err
		}
	}
	p.UpdateAt = s.now()
	if err := updateProfile(ctx, tx, p); err != nil {
		return err
	}
	if err := setProfileCategories(ctx, tx, p.ID, p.CategoryIDs); err != nil {
		return err
	}
	return dropEdit(ctx, tx, id)
}
