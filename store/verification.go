package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
)

// Code purposes of verification and claiming: a code sent to a business's listed mobile number.
const (
	// PurposeVerify proves to an admin that the owner answers the listed number.
	PurposeVerify = "verify"
	// PurposeClaim proves that a claimant answers a listing's number.
	PurposeClaim = "claim"
)

// Verification states as the owner and admins see them.
const (
	VerifyNone      = "none"      // nothing under way, not verified
	VerifySent      = "sent"      // a code went to the listed number
	VerifyConfirmed = "confirmed" // the owner answered it; the admin decides
	VerifyVerified  = "verified"  // the badge shows
)

// ListedMobiles answers the Iranian mobile numbers among p's ways of communication, normalised,
// in their order and without repeats: the numbers a code can reach. A "phone" link counts when
// it is a mobile number; landlines and fax cannot receive an SMS.
func ListedMobiles(links []SocialLink) []string {
	var out []string
	for _, l := range links {
		if l.Type != "mobile" && l.Type != "phone" {
			continue
		}
		if m, ok := NormalizeMobile(l.Link); ok && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// Verification is a profile's verification as its owner and admins see it.
type Verification struct {
	ProfileID   int64  `json:"user_technical_id"`
	ProfileName string `json:"profile_name"`
	Slug        string `json:"slug"`
	Status      string `json:"status"`
	NumberPhone string `json:"numberPhone"`
	AdminID     *int64 `json:"admin_id"`
	CreateAt    *int64 `json:"-"`
	ConfirmAt   *int64 `json:"-"`
	VerifiedAt  *int64 `json:"-"`
}

// ProfileVerification answers the verification state of profile id.
func (s *Store) ProfileVerification(ctx context.Context, id int64) (*Verification, error) {
	v := &Verification{ProfileID: id}
	var phone, status sql.NullString
	err := s.read.QueryRowContext(ctx, `SELECT p.profile_name, p.slug, p.verified_at, p.verified_phone, v.phone, v.status,
		v.admin_id, v.create_at, v.confirm_at
		FROM profiles p LEFT JOIN profile_verifications v ON v.profile_id = p.id WHERE p.id = ?`, id).Scan(
		&v.ProfileName, &v.Slug, &v.VerifiedAt, &v.NumberPhone, &phone, &status, &v.AdminID, &v.CreateAt, &v.ConfirmAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("verification: %w", err)
	}
	switch {
	case status.Valid:
		v.Status, v.NumberPhone = status.String, phone.String
	case v.VerifiedAt != nil:
		v.Status = VerifyVerified
	default:
		v.Status, v.NumberPhone = VerifyNone, ""
	}
	return v, nil
}

// verificationsSQL is the admins' queue of verifications. The queue is read first and its
// profiles by id (CROSS JOIN keeps SQLite to that order): with no statistics for a queue that
// was still empty, the planner walked all the profiles instead, 0.42 s at a million
// (TestVerificationsReadTheQueue).
const verificationsSQL = `SELECT p.id, p.profile_name, p.slug, v.status, v.phone, v.admin_id, v.create_at,
	v.confirm_at, p.verified_at FROM profile_verifications v CROSS JOIN profiles p WHERE p.id = v.profile_id
	ORDER BY CASE v.status WHEN 'confirmed' THEN 0 ELSE 1 END, v.create_at LIMIT 200`

// Verifications answers the verifications under way, those the owner confirmed first, for the
// admins' queue.
func (s *Store) Verifications(ctx context.Context) ([]*Verification, error) {
	rows, err := s.read.QueryContext(ctx, verificationsSQL)
	if err != nil {
		return nil, fmt.Errorf("verifications: %w", err)
	}
	defer rows.Close()
	out := []*Verification{}
	for rows.Next() {
		v := &Verification{}
		if err := rows.Scan(&v.ProfileID, &v.ProfileName, &v.Slug, &v.Status, &v.NumberPhone, &v.AdminID, &v.CreateAt,
			&v.ConfirmAt, &v.VerifiedAt); err != nil {
			return nil, fmt.Errorf("verifications: %w", err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// StartVerification issues a verification code for profile id to phone (empty: its first listed
// mobile number), under the code policy's limits, and records the verification as sent; hash
// answers the code's hash for the number chosen. It answers the number and the code's id, for
// WithdrawCode when the SMS fails.
func (s *Store) StartVerification(ctx context.Context, admin *User, id int64, phone string, c SignupCode, p CodePolicy,
	hash func(phone string) []byte) (string, int64, error) {
	var codeID int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		pr, err := scanProfile(tx.QueryRowContext(ctx, `SELECT `+profileColumns+` FROM profiles p WHERE p.id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound()
		}
		if err != nil {
			return err
		}
		if pr.DeleteAt != nil {
			return Errorf(EConflict, "profile_deleted", nil)
		}
		if phone, err = listedPhone(pr, phone); err != nil {
			return err
		}
		c.NumberPhone, c.CodeHash = phone, hash(phone)
		if codeID, err = s.issueCode(ctx, tx, c, PurposeVerify, p); err != nil {
			return err
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `INSERT INTO profile_verifications (profile_id, phone, admin_id, status, create_at)
			VALUES (?, ?, ?, 'sent', ?) ON CONFLICT (profile_id) DO UPDATE SET phone = excluded.phone,
			admin_id = excluded.admin_id, status = 'sent', create_at = excluded.create_at, confirm_at = NULL`,
			id, phone, admin.ID, now); err != nil {
			return err
		}
		return audit(ctx, tx, &admin.ID, "verify_start", "profile", id, "", VerifySent, phone, now)
	})
	if err != nil {
		return "", 0, fmt.Errorf("start verification: %w", err)
	}
	return phone, codeID, nil
}

// listedPhone answers want when p lists it as a mobile number, or p's first listed mobile when
// want is empty.
func listedPhone(p *Profile, want string) (string, error) {
	listed := ListedMobiles(p.SocialNetwork)
	if want == "" {
		if len(listed) == 0 {
			return "", &Error{Code: EConflict, Key: "no_listed_mobile",
				Fields: []FieldError{{Field: "social_network", Key: "no_listed_mobile"}}}
		}
		return listed[0], nil
	}
	if !slices.Contains(listed, want) {
		return "", &Error{Code: EInvalid, Key: "not_listed_mobile",
			Fields: []FieldError{{Field: "numberPhone", Key: "not_listed_mobile"}}}
	}
	return want, nil
}

// ConfirmVerification takes the owner's answer to the verification code of profile id. Only the
// owner may (anyone else: not found, so ids are no oracle); a wrong answer counts against the
// code and is reported on otpCode. hash answers the answer's hash for the number the code went to.
func (s *Store) ConfirmVerification(ctx context.Context, owner *User, id int64, hash func(phone string) []byte, p CodePolicy) error {
	var fail error
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var userID int64
		err := tx.QueryRowContext(ctx, `SELECT user_id FROM profiles WHERE id = ? AND delete_at IS NULL`, id).Scan(&userID)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && userID != owner.ID) {
			return NotFound()
		}
		if err != nil {
			return err
		}
		var phone, status string
		err = tx.QueryRowContext(ctx, `SELECT phone, status FROM profile_verifications WHERE profile_id = ?`, id).Scan(&phone, &status)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && status != VerifySent) {
			return Errorf(EConflict, "no_verification", nil)
		}
		if err != nil {
			return err
		}
		codeID, f, err := s.answerCode(ctx, tx, phone, PurposeVerify, hash(phone), p)
		if err != nil || f != nil {
			fail = f
			return err
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE otp_codes SET used_at = ? WHERE id = ?`, now, codeID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE profile_verifications SET status = 'confirmed', confirm_at = ? WHERE profile_id = ?`,
			now, id); err != nil {
			return err
		}
		return audit(ctx, tx, &owner.ID, "verify_confirm", "profile", id, VerifySent, VerifyConfirmed, phone, now)
	})
	if err == nil {
		err = fail
	}
	if err != nil {
		return fmt.Errorf("confirm verification: %w", err)
	}
	return nil
}

// SetVerified marks profile id verified (its owner confirmed the code) or takes the badge away,
// with the admin's note of what was checked or why, kept in the audit log. Marking needs a
// confirmed verification whose number the profile still lists.
func (s *Store) SetVerified(ctx context.Context, admin *User, id int64, verified bool, note string) (*Profile, error) {
	note = CleanText(note, true)
	v := &Validation{}
	switch {
	case note == "":
		v.Enter("description")
	case RuneLen(note) > 1000:
		v.Add("description", "too_long", map[string]any{"max": 1000})
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		pr, err := scanProfile(tx.QueryRowContext(ctx, `SELECT `+profileColumns+` FROM profiles p WHERE p.id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound()
		}
		if err != nil {
			return err
		}
		now := s.now()
		if !verified {
			if pr.VerifiedAt == nil {
				return Errorf(EConflict, "not_verified", nil)
			}
			if err := clearVerified(ctx, tx, id); err != nil {
				return err
			}
			if err := audit(ctx, tx, &admin.ID, "unverify", "profile", id, VerifyVerified, VerifyNone, note, now); err != nil {
				return err
			}
			return queueIndex(ctx, tx, "profile", id, now)
		}
		if pr.DeleteAt != nil {
			return Errorf(EConflict, "profile_deleted", nil)
		}
		var phone, status string
		err = tx.QueryRowContext(ctx, `SELECT phone, status FROM profile_verifications WHERE profile_id = ?`, id).Scan(&phone, &status)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && status != VerifyConfirmed) {
			return Errorf(EConflict, "verification_unconfirmed", nil)
		}
		if err != nil {
			return err
		}
		if !slices.Contains(ListedMobiles(pr.SocialNetwork), phone) {
			return Errorf(EConflict, "verification_unconfirmed", nil)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET verified_at = ?, verified_name = ?, verified_phone = ? WHERE id = ?`,
			now, pr.ProfileName, phone, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM profile_verifications WHERE profile_id = ?`, id); err != nil {
			return err
		}
		if err := audit(ctx, tx, &admin.ID, "verify", "profile", id, VerifyConfirmed, VerifyVerified, note, now); err != nil {
			return err
		}
		return queueIndex(ctx, tx, "profile", id, now)
	})
	if err != nil {
		return nil, fmt.Errorf("set verified: %w", err)
	}
	return s.Profile(ctx, id)
}

func clearVerified(ctx context.Context, tx *sql.Tx, id int64) error {
	_, err := tx.ExecContext(ctx, `UPDATE profiles SET verified_at = NULL, verified_name = '', verified_phone = '' WHERE id = ?`, id)
	return err
}

// recheckVerified runs after every save of p (an owner's edit, an accepted waiting edit): the
// badge vouches for a name and a number, so a save that changes the name or stops listing the
// verified number drops it (the audit log says why, the actor being the system), and a
// verification under way whose number is no longer listed is dropped too. Dropping rather than
// re-checking at once: the owner asks again, and the admin sees the new name before vouching.
func recheckVerified(ctx context.Context, tx *sql.Tx, p *Profile, now int64) error {
	var at sql.NullInt64
	var name, phone string
	if err := tx.QueryRowContext(ctx, `SELECT verified_at, verified_name, verified_phone FROM profiles WHERE id = ?`, p.ID).Scan(
		&at, &name, &phone); err != nil {
		return err
	}
	listed := ListedMobiles(p.SocialNetwork)
	if at.Valid {
		why := ""
		switch {
		case name != p.ProfileName:
			why = "name changed"
		case !slices.Contains(listed, phone):
			why = "number no longer listed"
		}
		if why != "" {
			if err := clearVerified(ctx, tx, p.ID); err != nil {
				return err
			}
			if err := audit(ctx, tx, nil, "unverify", "profile", p.ID, VerifyVerified, VerifyNone, why, now); err != nil {
				return err
			}
		}
	}
	var pending string
	err := tx.QueryRowContext(ctx, `SELECT phone FROM profile_verifications WHERE profile_id = ?`, p.ID).Scan(&pending)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if !slices.Contains(listed, pending) {
		_, err = tx.ExecContext(ctx, `DELETE FROM profile_verifications WHERE profile_id = ?`, p.ID)
	}
	return err
}
