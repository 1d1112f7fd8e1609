package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// MaxClaimNote bounds what a claimant writes to the admin.
const MaxClaimNote = 1000

// CreateListing stores a profile an admin lists for a business (SPEC.md's register_admin): it is
// the admin's until the business claims it, public at once (the admin is its reviewer), and kept
// out of the admin's own one-profile-per-category rule and quotas, since an admin lists many
// businesses of one trade.
func (s *Store) CreateListing(ctx context.Context, admin *User, in *ProfileInput) (*Profile, error) {
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		p := &Profile{UserID: admin.ID, AccountStatus: StatusAccepted, Active: true, Display: true}
		refs, err := s.applyInput(ctx, tx, p, in, false)
		if err != nil {
			return err
		}
		if p.Slug, err = uniqueSlug(ctx, tx, "profiles", p.ProfileName, refs.City.Slag, 0); err != nil {
			return err
		}
		now := s.now()
		p.CreateAt, p.UpdateAt = now, now
		if id, err = insertProfile(ctx, tx, p); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET listed_by = ?, admin_id = ? WHERE id = ?`, admin.ID, admin.ID, id); err != nil {
			return err
		}
		if err := setProfileCategories(ctx, tx, id, p.CategoryIDs); err != nil {
			return err
		}
		if err := audit(ctx, tx, &admin.ID, "list", "profile", id, "", StatusAccepted, "", now); err != nil {
			return err
		}
		return queueIndex(ctx, tx, "profile", id, now)
	})
	if err != nil {
		return nil, fmt.Errorf("create listing: %w", err)
	}
	return s.Profile(ctx, id)
}

// Claim statuses are moderation's.
const (
	ClaimPending  = StatusPending
	ClaimAccepted = StatusAccepted
	ClaimRejected = StatusRejected
)

// Claim is a request to take over a listing.
type Claim struct {
	ID          int64  `json:"id"`
	ProfileID   int64  `json:"user_technical_id"`
	ProfileName string `json:"profile_name"`
	Slug        string `json:"slug"`
	UserID      int64  `json:"user_id"`
	UserName    string `json:"user_name"`
	// NumberPhone is the claimant's sign-in number (admins only) and Phone the listed number
	// they proved.
	NumberPhone string `json:"numberPhone"`
	Phone       string `json:"phone"`
	Note        string `json:"description"`
	Status      string `json:"status"`
	AdminID     *int64 `json:"-"`
	AdminNote   string `json:"-"`
	CreateAt    int64  `json:"-"`
	UpdateAt    int64  `json:"-"`
}

// claimable reads profile id for a claim: not found when the public cannot see it, a conflict
// when no business can claim it any more.
func claimable(ctx context.Context, tx *sql.Tx, id int64) (*Profile, error) {
	p, err := scanProfile(tx.QueryRowContext(ctx, `SELECT `+profileColumns+` FROM profiles p WHERE p.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, err
	}
	if !p.Visible() {
		return nil, NotFound()
	}
	if !p.Claimable() {
		return nil, Errorf(EConflict, "not_claimable", nil)
	}
	return p, nil
}

// StartClaim issues a claim code to the listing's first listed mobile number for claimant, under
// the code policy's limits; hash answers the code's hash for that number. It answers the number
// and the code's id.
func (s *Store) StartClaim(ctx context.Context, claimant *User, id int64, c SignupCode, p CodePolicy,
	hash func(phone string) []byte) (string, int64, error) {
	var codeID int64
	var phone string
	err := s.tx(ctx, func(tx *sql.Tx) error {
		pr, err := claimable(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := s.checkClaimant(ctx, tx, claimant, pr); err != nil {
			return err
		}
		if phone, err = listedPhone(pr, ""); err != nil {
			return err
		}
		c.NumberPhone, c.CodeHash = phone, hash(phone)
		codeID, err = s.issueCode(ctx, tx, c, PurposeClaim, p)
		return err
	})
	if err != nil {
		return "", 0, fmt.Errorf("start claim: %w", err)
	}
	return phone, codeID, nil
}

// checkClaimant refuses a claim the claimant cannot make: of their own listing, a second one
// waiting, or of a trade in which they already have a profile (one per category).
func (s *Store) checkClaimant(ctx context.Context, tx *sql.Tx, claimant *User, p *Profile) error {
	if claimant.ID == p.UserID {
		return Errorf(EInvalid, "claim_own", nil)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM profile_claims WHERE profile_id = ? AND user_id = ? AND status = ?`,
		p.ID, claimant.ID, ClaimPending).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return Errorf(EConflict, "claim_waiting", nil)
	}
	return s.checkLiveCategories(ctx, tx, &Profile{ID: p.ID, UserID: claimant.ID, CategoryIDs: p.CategoryIDs})
}

// AddClaim records claimant's claim of listing id when codeHash answers the claim code sent to
// its listed number (hash answers the answer's hash for that number); the code is used up and
// the claim waits for an admin.
func (s *Store) AddClaim(ctx context.Context, claimant *User, id int64, note string, hash func(phone string) []byte,
	p CodePolicy) (*Claim, error) {
	note = CleanText(note, true)
	if RuneLen(note) > MaxClaimNote {
		v := &Validation{}
		v.Add("description", "too_long", map[string]any{"max": MaxClaimNote})
		return nil, v.Err()
	}
	var claimID int64
	var fail error
	err := s.tx(ctx, func(tx *sql.Tx) error {
		pr, err := claimable(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := s.checkClaimant(ctx, tx, claimant, pr); err != nil {
			return err
		}
		phone, err := listedPhone(pr, "")
		if err != nil {
			return err
		}
		codeID, f, err := s.answerCode(ctx, tx, phone, PurposeClaim, hash(phone), p)
		if err != nil || f != nil {
			fail = f
			return err
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE otp_codes SET used_at = ? WHERE id = ?`, now, codeID); err != nil {
			return err
		}
		err = tx.QueryRowContext(ctx, `INSERT INTO profile_claims (profile_id, user_id, from_user, phone, note, create_at, update_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, id, claimant.ID, pr.UserID, phone, note, now, now).Scan(&claimID)
		if err != nil {
			return err
		}
		return audit(ctx, tx, &claimant.ID, "claim", "profile", id, "", ClaimPending, fmt.Sprintf("claim %d", claimID), now)
	})
	if err == nil {
		err = fail
	}
	if err != nil {
		return nil, fmt.Errorf("add claim: %w", err)
	}
	return s.claim(ctx, claimID)
}

const claimColumns = `c.id, c.profile_id, p.profile_name, p.slug, c.user_id, u.name, u.number_phone, c.phone, c.note, c.status,
	c.admin_id, c.admin_note, c.create_at, c.update_at
	FROM profile_claims c JOIN profiles p ON p.id = c.profile_id JOIN users u ON u.id = c.user_id`

func scanClaim(sc interface{ Scan(...any) error }) (*Claim, error) {
	c := &Claim{}
	err := sc.Scan(&c.ID, &c.ProfileID, &c.ProfileName, &c.Slug, &c.UserID, &c.UserName, &c.NumberPhone, &c.Phone, &c.Note,
		&c.Status, &c.AdminID, &c.AdminNote, &c.CreateAt, &c.UpdateAt)
	return c, err
}

func (s *Store) claim(ctx context.Context, id int64) (*Claim, error) {
	c, err := scanClaim(s.read.QueryRowContext(ctx, `SELECT `+claimColumns+` WHERE c.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("claim: %w", err)
	}
	return c, nil
}

// Claims answers claims of one status (empty: all), oldest first, for the admins' queue; with
// userID, only that claimant's, newest first.
func (s *Store) Claims(ctx context.Context, status string, userID int64) ([]*Claim, error) {
	q := `SELECT ` + claimColumns + ` WHERE (? = '' OR c.status = ?)`
	args := []any{status, status}
	order := ` ORDER BY c.id LIMIT 200`
	if userID != 0 {
		q += ` AND c.user_id = ?`
		args = append(args, userID)
		order = ` ORDER BY c.id DESC LIMIT 200`
	}
	out, err := queryRows(ctx, s.read, scanClaim, q+order, args...)
	if err != nil {
		return nil, fmt.Errorf("claims: %w", err)
	}
	return out, nil
}

// DecideClaim accepts or rejects a waiting claim. Accepting moves the listing to the claimant in
// the same transaction that rejects the listing's other waiting claims, so of two claims of one
// listing approved at once exactly one wins (the other answers a conflict). The audit log keeps
// both owners; the claimant is notified.
func (s *Store) DecideClaim(ctx context.Context, admin *User, claimID int64, status, note string) (*Claim, error) {
	note = CleanText(note, true)
	if RuneLen(note) > 1000 {
		v := &Validation{}
		v.Add("description", "too_long", map[string]any{"max": 1000})
		return nil, v.Err()
	}
	if status != ClaimAccepted && status != ClaimRejected {
		v := &Validation{}
		v.Correct("status")
		return nil, v.Err()
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		c, err := scanClaim(tx.QueryRowContext(ctx, `SELECT `+claimColumns+` WHERE c.id = ?`, claimID))
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound()
		}
		if err != nil {
			return err
		}
		if c.Status != ClaimPending {
			return Errorf(EConflict, "bad_transition", map[string]any{"from": c.Status, "to": status})
		}
		now := s.now()
		if status == ClaimAccepted {
			if err := s.moveListing(ctx, tx, admin, c, note, now); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE profile_claims SET status = ?, admin_id = ?, admin_note = ?, update_at = ?
			WHERE id = ?`, status, admin.ID, note, now, claimID); err != nil {
			return err
		}
		if err := audit(ctx, tx, &admin.ID, "claim_decide", "claim", claimID, ClaimPending, status, note, now); err != nil {
			return err
		}
		return notify(ctx, tx, Notification{UserID: c.UserID, Kind: NotifyModeration, Entity: "claim", EntityID: c.ProfileID,
			Title: c.ProfileName, Status: status, Note: note, CreateAt: now})
	})
	if err != nil {
		return nil, fmt.Errorf("decide claim: %w", err)
	}
	return s.claim(ctx, claimID)
}

// moveListing gives claim c's listing to its claimant, if it is still claimable, and rejects the
// listing's other waiting claims.
func (s *Store) moveListing(ctx context.Context, tx *sql.Tx, admin *User, c *Claim, note string, now int64) error {
	p, err := scanProfile(tx.QueryRowContext(ctx, `SELECT `+profileColumns+` FROM profiles p WHERE p.id = ?`, c.ProfileID))
	if err != nil {
		return err
	}
	if !p.Claimable() {
		return Errorf(EConflict, "not_claimable", nil)
	}
	if err := s.checkLiveCategories(ctx, tx, &Profile{ID: p.ID, UserID: c.UserID, CategoryIDs: p.CategoryIDs}); err != nil {
		return err
	}
	// The owner's name and picture are copied into the row for public reads (0005).
	if _, err := tx.ExecContext(ctx, `UPDATE profiles SET user_id = ?, update_at = ?,
		owner_name = (SELECT name FROM users WHERE id = ?), owner_image = (SELECT profile_image FROM users WHERE id = ?)
		WHERE id = ?`, c.UserID, now, c.UserID, c.UserID, p.ID); err != nil {
		return err
	}
	// The listing's other waiting claimants are told too, as the decided one is.
	var others []int64
	rows, err := tx.QueryContext(ctx, `SELECT user_id FROM profile_claims WHERE profile_id = ? AND status = ? AND id != ?`, p.ID, ClaimPending, c.ID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var u int64
		if err := rows.Scan(&u); err != nil {
			rows.Close()
			return err
		}
		others = append(others, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE profile_claims SET status = ?, admin_id = ?, admin_note = ?, update_at = ?
		WHERE profile_id = ? AND status = ? AND id != ?`, ClaimRejected, admin.ID, "claimed by another", now, p.ID, ClaimPending, c.ID); err != nil {
		return err
	}
	for _, u := range others {
		if err := notify(ctx, tx, Notification{UserID: u, Kind: NotifyModeration, Entity: "claim", EntityID: p.ID,
			Title: p.ProfileName, Status: ClaimRejected, Note: "claimed by another", CreateAt: now}); err != nil {
			return err
		}
	}
	// The badge vouched for the listing under its old owner: the new one asks for it again.
	if p.VerifiedAt != nil {
		if err := clearVerified(ctx, tx, p.ID); err != nil {
			return err
		}
		if err := audit(ctx, tx, &admin.ID, "verified", "profile", p.ID, "verified", "", "ownership moved", now); err != nil {
			return err
		}
	}
	if err := audit(ctx, tx, &admin.ID, "owner", "profile", p.ID, fmt.Sprintf("user %d", p.UserID), fmt.Sprintf("user %d", c.UserID),
		note, now); err != nil {
		return err
	}
	return queueIndex(ctx, tx, "profile", p.ID, now)
}
