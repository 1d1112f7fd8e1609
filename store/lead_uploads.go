package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// LeadPassTTL is how long a signed-out visitor's proven number stays proven for one request:
// the SMS code lives two minutes, too short to take and upload two photos with a phone.
const LeadPassTTL = 30 * time.Minute

// LeadProof is how a signed-out visitor proves their number on lead/add: the lead code itself,
// or the hash of the pass that answering it on lead/verify gave (the only way to attach photos).
type LeadProof struct {
	CodeHash []byte
	PassHash []byte
}

// passError is a pass that is missing, expired, used or for another number, reported on
// leadToken with one message for all, so the answer tells nothing about other numbers.
func passError() error {
	v := &Validation{}
	v.Add("leadToken", "lead_pass_expired", nil)
	return v.Err()
}

// IssueLeadPass answers codeHash with the newest live lead code of phone (a wrong answer counts
// against the code, as on lead/add), uses the code up and stores a pass, kept as tokenHash, that
// proves phone until the time it answers (Unix seconds): up to MaxLeadPhotos uploads and one
// request.
func (s *Store) IssueLeadPass(ctx context.Context, phone string, codeHash, tokenHash []byte, p CodePolicy, clientIP string) (int64, error) {
	var fail error
	var expire int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		id, f, err := s.answerCode(ctx, tx, phone, PurposeLead, codeHash, p)
		if err != nil || f != nil {
			fail = f
			return err
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE otp_codes SET used_at = ? WHERE id = ?`, now, id); err != nil {
			return err
		}
		expire = now + int64(LeadPassTTL/time.Second)
		_, err = tx.ExecContext(ctx, `INSERT INTO lead_passes (number_phone, token_hash, client_ip, create_at, expire_at) VALUES (?, ?, ?, ?, ?)`,
			phone, tokenHash, clientIP, now, expire)
		return err
	})
	if err == nil {
		err = fail
	}
	if err != nil {
		return 0, fmt.Errorf("issue lead pass: %w", err)
	}
	return expire, nil
}

// leadPass answers the id of the live, unused pass tokenHash of phone, or passError.
func (s *Store) leadPass(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, phone string, tokenHash []byte) (int64, error) {
	var id, expire int64
	var owner string
	var used sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT id, number_phone, expire_at, used_at FROM lead_passes WHERE token_hash = ?`, tokenHash).
		Scan(&id, &owner, &expire, &used)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, passError()
	case err != nil:
		return 0, err
	case owner != phone || used.Valid || expire <= s.now():
		return 0, passError()
	}
	return id, nil
}

// leadPhotosFull is the refusal of a photo beyond MaxLeadPhotos on one pass.
func leadPhotosFull() error {
	v := &Validation{}
	v.Add("photos", "too_many_items", map[string]any{"max": MaxLeadPhotos})
	return v.Err()
}

// CheckLeadUpload reports whether the pass tokenHash of phone may take one more photo, so the
// API refuses before it spends the decoding; RecordLeadUpload checks again when it records.
func (s *Store) CheckLeadUpload(ctx context.Context, phone string, tokenHash []byte) error {
	id, err := s.leadPass(ctx, s.read, phone, tokenHash)
	if err != nil {
		return err
	}
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM lead_uploads WHERE pass_id = ?`, id).Scan(&n); err != nil {
		return fmt.Errorf("check lead upload: %w", err)
	}
	if n >= MaxLeadPhotos {
		return leadPhotosFull()
	}
	return nil
}

// RecordLeadUpload records the processed image u as a photo of the request the pass tokenHash
// of phone will send; u.UserID and u.UploadKey are ignored. The same image again keeps its one
// row; a third different one is refused, in the same transaction as the count, so two
// uploads racing for the last place cannot both have it.
func (s *Store) RecordLeadUpload(ctx context.Context, phone string, tokenHash []byte, u *Upload) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		id, err := s.leadPass(ctx, tx, phone, tokenHash)
		if err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM lead_uploads WHERE pass_id = ? AND address <> ?`, id, u.Address).Scan(&n); err != nil {
			return err
		}
		if n >= MaxLeadPhotos {
			return leadPhotosFull()
		}
		u.CreateAt = s.now()
		_, err = tx.ExecContext(ctx, `INSERT INTO lead_uploads (pass_id, address, thumb, sha256, mime, width, height, size, create_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (pass_id, address) DO NOTHING`,
			id, u.Address, u.Thumb, u.SHA256, u.Mime, u.Width, u.Height, u.Size, u.CreateAt)
		return err
	})
	if err != nil {
		return fmt.Errorf("record lead upload: %w", err)
	}
	return nil
}

// useLeadPass checks the pass tokenHash of phone in tx, checks that every photo was uploaded
// with it, and uses it up.
func (s *Store) useLeadPass(ctx context.Context, tx *sql.Tx, phone string, tokenHash []byte, photos []string) error {
	id, err := s.leadPass(ctx, tx, phone, tokenHash)
	if err != nil {
		return err
	}
	for _, ph := range photos {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM lead_uploads WHERE pass_id = ?1 AND (address = ?2 OR thumb = ?2)`, id, ph).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			v := &Validation{}
			v.Add("photos", "image_not_yours", nil)
			return v.Err()
		}
	}
	_, err = tx.ExecContext(ctx, `UPDATE lead_passes SET used_at = ? WHERE id = ?`, s.now(), id)
	return err
}
