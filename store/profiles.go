package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// Profile statuses (account_status). A deleted profile keeps its status and has DeleteAt set.
const (
	StatusPending  = "Pending"
	StatusRejected = "Rejected"
	StatusAccepted = "Accepted"
	StatusBlocked  = "Blocked"
	StatusDeleted  = "Deleted" // shown, never stored
)

// RetentionDays is how long a deleted profile can be restored, and how long it locks its field.
const RetentionDays = 30

// Service is one service a profile offers; Price is in Toman, 0 means free.
type Service struct {
	Title       string `json:"title"`
	Price       int64  `json:"price"`
	Description string `json:"description"`
}

// Location is a point as the spec sends it.
type Location struct {
	Lat  float64 `json:"lat"`
	Long float64 `json:"long"`
}

// ProfileInput is a profile "as sent" (SPEC.md §3). key_word is ignored: the server builds it.
type ProfileInput struct {
	ProfileName      string          `json:"profile_name"`
	WorkHistoryYears int             `json:"work_history_years"`
	Descriotion      string          `json:"descriotion"`
	CityID           int64           `json:"city_id"`
	ProvinceID       int64           `json:"province_id"`
	RangeWorker      int64           `json:"range_worker"`
	CategoryList     []int64         `json:"category_list"`
	Location         *Location       `json:"location"`
	AreaWorking      []string        `json:"area_working"`
	Address          string          `json:"address"`
	Services         []Service       `json:"services"`
	HoursOfWork      Hours           `json:"hours_of_work"`
	SpecialDays      []SpecialDay    `json:"special_days"`     // absent: kept as they are
	OpenOnHolidays   *bool           `json:"open_on_holidays"` // absent: kept as it is
	SocialNetwork    []SocialLink    `json:"social_network"`
	ProfileImage     string          `json:"profile_image"`
	Logo             string          `json:"logo"`
	PortfolioImages  []string        `json:"portfolio_images"`
	Option           []string        `json:"option"`
	ListObject       json.RawMessage `json:"list_object"`
	Active           *bool           `json:"active"`
	Display          *bool           `json:"display"`
}

// Profile is a stored business profile.
type Profile struct {
	ID               int64
	UserID           int64
	RangeWorkerID    int64
	ProvinceID       int64
	CityID           int64
	CategoryIDs      []int64
	ProfileName      string
	Slug             string
	KeyWord          string
	WorkHistoryYears int
	Descriotion      string
	Address          string
	Lat, Long        float64
	AccountStatus    string
	Active           bool
	Display          bool
	DeleteAt         *int64
	Score            float64
	CountScorer      int
	LevelScore       float64
	ProfileImage     string
	Logo             string
	Services         []Service
	HoursOfWork      Hours
	SpecialDays      []SpecialDay
	OpenOnHolidays   bool
	SocialNetwork    []SocialLink
	AreaWorking      []string
	PortfolioImages  []string
	Option           []string
	ListObject       json.RawMessage
	AdminID          *int64
	AdminNote        string
	CreateAt         int64
	UpdateAt         int64
	// VerifiedAt is when an admin marked the business verified (nil: not verified).
	VerifiedAt *int64
	// ListedBy is the admin who listed the profile for a business, which can claim it.
	ListedBy *int64
	// Stored, when set (only by ProfilesWithOwners), holds the list columns' stored JSON text;
	// Services, SocialNetwork, AreaWorking, PortfolioImages and Option are then left nil. In the
	// profiles of ProfilesWithOwners and ProfilesByIDs, HoursOfWork may be shared with other
	// profiles: it is only to be read.
	Stored *StoredLists
}

// Visible reports whether the public may see p.
func (p *Profile) Visible() bool {
	return p.AccountStatus == StatusAccepted && p.Active && p.Display && p.DeleteAt == nil
}

// Claimable reports whether the business can still claim p: an admin listed it and owns it yet.
func (p *Profile) Claimable() bool {
	return p.ListedBy != nil && *p.ListedBy == p.UserID && p.DeleteAt == nil
}

// ShownStatus is the status shown to owners and admins: Deleted for a deleted profile.
func (p *Profile) ShownStatus() string {
	if p.DeleteAt != nil {
		return StatusDeleted
	}
	return p.AccountStatus
}

// ProfileRefs resolves what a profile's read form names: its field, categories, city, province.
type ProfileRefs struct {
	Field      *Category
	Categories []*Category
	City       *City
	Province   *Province
}

// CreateProfile validates in and stores a new profile for userID, in status Pending (or Accepted
// when moderation is off). It answers the stored profile.
func (s *Store) CreateProfile(ctx context.Context, userID int64, in *ProfileInput, moderated bool) (*Profile, error) {
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		p := &Profile{UserID: userID, AccountStatus: StatusAccepted, Active: true, Display: true}
		if moderated {
			p.AccountStatus = StatusPending
		}
		refs, err := s.applyInput(ctx, tx, p, in, true)
		if err != nil {
			return err
		}
		if err := s.checkOnePerCategory(ctx, tx, p); err != nil {
			return err
		}
		if err := s.checkProfileQuota(ctx, tx, userID); err != nil {
			return err
		}
		p.Slug, err = uniqueSlug(ctx, tx, "profiles", p.ProfileName, refs.City.Slag, 0)
		if err != nil {
			return err
		}
		now := s.now()
		p.CreateAt, p.UpdateAt = now, now
		id, err = insertProfile(ctx, tx, p)
		if err != nil {
			return err
		}
		p.ID = id
		if err := setProfileCategories(ctx, tx, id, p.CategoryIDs); err != nil {
			return err
		}
		return queueIndex(ctx, tx, "profile", id, now)
	})
	if err != nil {
		return nil, fmt.Errorf("create profile: %w", err)
	}
	return s.Profile(ctx, id)
}

// UpdateProfile replaces a profile's owner-editable parts with in. Only the owner (or an admin)
// may; a Rejected profile goes back to Pending for review, other statuses stay.
//
// With moderated, an owner's material edit of an Accepted profile is held for review instead
// (ProfileEdit); the answer is then the public version, unchanged.
func (s *Store) UpdateProfile(ctx context.Context, actor *User, id int64, in *ProfileInput, moderated bool) (*Profile, error) {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		p, err := editableProfile(ctx, tx, actor, id)
		if err != nil {
			return err
		}
		if p.DeleteAt != nil {
			return Errorf(EConflict, "profile_deleted", nil)
		}
		old := *p
		oldName, oldCity, oldField := p.ProfileName, p.CityID, p.RangeWorkerID
		refs, err := s.applyInput(ctx, tx, p, in, p.UserID == actor.ID)
		if err != nil {
			return err
		}
		if err := s.checkLiveCategories(ctx, tx, p); err != nil {
			return err
		}
		// The lock of a deleted profile keeps new profiles out of its field; a profile already
		// in the field is not new there (audit I6).
		if p.RangeWorkerID != oldField {
			if err := s.checkFieldLock(ctx, tx, p); err != nil {
				return err
			}
		}
		ownerEdit := p.UserID == actor.ID && !actor.IsAdmin()
		if moderated && ownerEdit && old.AccountStatus == StatusAccepted && materialChange(&old, p) {
			// Unreviewed text must not reach the public: the accepted version stays as it is
			// and the edit waits for an admin (audit L5).
			return s.holdEdit(ctx, tx, id, in)
		}
		if ownerEdit {
			// The owner's latest save wins: one that publishes nothing new replaces a waiting edit.
			if err := dropEdit(ctx, tx, id); err != nil {
				return err
			}
		}
		if p.ProfileName != oldName || p.CityID != oldCity {
			if p.Slug, err = uniqueSlug(ctx, tx, "profiles", p.ProfileName, refs.City.Slag, p.ID); err != nil {
				return err
			}
		}
		if p.AccountStatus == StatusRejected && p.UserID == actor.ID {
			p.AccountStatus = StatusPending
			if !moderated {
				p.AccountStatus = StatusAccepted
			}
		}
		p.UpdateAt = s.now()
		if err := updateProfile(ctx, tx, p); err != nil {
			return err
		}
		if err := setProfileCategories(ctx, tx, p.ID, p.CategoryIDs); err != nil {
			return err
		}
		return queueIndex(ctx, tx, "profile", p.ID, p.UpdateAt)
	})
	if err != nil {
		return nil, fmt.Errorf("update profile: %w", err)
	}
	return s.Profile(ctx, id)
}

func insertProfile(ctx context.Context, tx *sql.Tx, p *Profile) (int64, error) {
	j := jsonColumns(p)
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO profiles (user_id, range_worker_id, province_id, city_id, profile_name, slug,
		key_word, work_history_years, descriotion, address, lat, long, account_status, active, display, profile_image, logo,
		services, hours_of_work, social_network, area_working, portfolio_images, option, list_object, create_at, update_at,
		special_days, open_on_holidays)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		p.UserID, p.RangeWorkerID, p.ProvinceID, p.CityID, p.ProfileName, p.Slug, p.KeyWord, p.WorkHistoryYears,
		p.Descriotion, p.Address, p.Lat, p.Long, p.AccountStatus, p.Active, p.Display, p.ProfileImage, p.Logo,
		j[0], j[1], j[2], j[3], j[4], j[5], string(p.ListObject), p.CreateAt, p.UpdateAt, specialDaysText(p.SpecialDays),
		p.OpenOnHolidays).Scan(&id)
	return id, err
}

func updateProfile(ctx context.Context, tx *sql.Tx, p *Profile) error {
	j := jsonColumns(p)
	_, err := tx.ExecContext(ctx, `UPDATE profiles SET range_worker_id = ?, province_id = ?, city_id = ?, profile_name = ?,
		slug = ?, key_word = ?, work_history_years = ?, descriotion = ?, address = ?, lat = ?, long = ?, account_status = ?,
		active = ?, display = ?, profile_image = ?, logo = ?, services = ?, hours_of_work = ?, social_network = ?,
		area_working = ?, portfolio_images = ?, option = ?, list_object = ?, update_at = ?, special_days = ?,
		open_on_holidays = ? WHERE id = ?`,
		p.RangeWorkerID, p.ProvinceID, p.CityID, p.ProfileName, p.Slug, p.KeyWord, p.WorkHistoryYears, p.Descriotion,
		p.Address, p.Lat, p.Long, p.AccountStatus, p.Active, p.Display, p.ProfileImage, p.Logo,
		j[0], j[1], j[2], j[3], j[4], j[5], string(p.ListObject), p.UpdateAt, specialDaysText(p.SpecialDays),
		p.OpenOnHolidays, p.ID)
	if err != nil {
		return err
	}
	return recheckVerified(ctx, tx, p, p.UpdateAt)
}

// specialDaysText answers the stored JSON of special days ("[]" for none).
func specialDaysText(ds []SpecialDay) string {
	if len(ds) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(ds)
	return string(b)
}

// jsonColumns answers the JSON text of services, hours, social links, areas, portfolio, options.
func jsonColumns(p *Profile) [6]string {
	var out [6]string
	for i, v := range []any{p.Services, p.HoursOfWork, p.SocialNetwork, p.AreaWorking, p.PortfolioImages, p.Option} {
		b, _ := json.Marshal(v)
		out[i] = string(b)
	}
	return out
}

func setProfileCategories(ctx context.Context, tx *sql.Tx, id int64, cats []int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM profile_categories WHERE profile_id = ?`, id); err != nil {
		return err
	}
	for _, c := range cats {
		if _, err := tx.ExecContext(ctx, `INSERT INTO profile_categories (profile_id, category_id) VALUES (?, ?)`, id, c); err != nil {
			return err
		}
	}
	return nil
}

// SetProfileFlags changes the owner's active and display switches.
func (s *Store) SetProfileFlags(ctx context.Context, actor *User, id int64, active, display *bool) (*Profile, error) {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		owner, deleted, err := profileOwner(ctx, tx, id)
		if err != nil {
			return err
		}
		if owner != actor.ID && !actor.IsAdmin() {
			return Forbidden()
		}
		if deleted {
			return Errorf(EConflict, "profile_deleted", nil)
		}
		now := s.now()
		if active != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE profiles SET active = ?, update_at = ? WHERE id = ?`, *active, now, id); err != nil {
				return err
			}
		}
		if display != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE profiles SET display = ?, update_at = ? WHERE id = ?`, *display, now, id); err != nil {
				return err
			}
		}
		return queueIndex(ctx, tx, "profile", id, now)
	})
	if err != nil {
		return nil, fmt.Errorf("set profile flags: %w", err)
	}
	return s.Profile(ctx, id)
}

// DeleteProfile soft-deletes a profile: it leaves the public at once and can be restored for
// RetentionDays.
func (s *Store) DeleteProfile(ctx context.Context, actor *User, id int64) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		owner, deleted, err := profileOwner(ctx, tx, id)
		if err != nil {
			return err
		}
		if owner != actor.ID && !actor.IsAdmin() {
			return Forbidden()
		}
		if deleted {
			return nil
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET delete_at = ?, deleted_by = ?, active = 0, update_at = ? WHERE id = ?`,
			now, actor.ID, now, id); err != nil {
			return err
		}
		if actor.IsAdmin() && owner != actor.ID {
			if err := audit(ctx, tx, &actor.ID, "delete", "profile", id, "", StatusDeleted, "", now); err != nil {
				return err
			}
		}
		return queueIndex(ctx, tx, "profile", id, now)
	})
	if err != nil {
		return fmt.Errorf("delete profile: %w", err)
	}
	return nil
}

// RestoreProfile brings back a soft-deleted profile within RetentionDays.
func (s *Store) RestoreProfile(ctx context.Context, actor *User, id int64) (*Profile, error) {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		p, err := editableProfile(ctx, tx, actor, id)
		if err != nil {
			return err
		}
		if p.DeleteAt == nil {
			return nil
		}
		now := s.now()
		if now-*p.DeleteAt > RetentionDays*86400 {
			return Errorf(EConflict, "restore_expired", nil)
		}
		// An admin's deletion sticks: only an admin undoes it (audit L6).
		var deletedBy sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT deleted_by FROM profiles WHERE id = ?`, id).Scan(&deletedBy); err != nil {
			return err
		}
		if !actor.IsAdmin() && deletedBy.Valid && deletedBy.Int64 != p.UserID {
			return Errorf(EConflict, "deleted_by_admin", nil)
		}
		p.DeleteAt = nil
		// Restoring replaces nothing, so the lock other deleted profiles keep on the field does
		// not apply: two deleted profiles of one field must not lock each other (audit I6).
		if err := s.checkLiveCategories(ctx, tx, p); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET delete_at = NULL, deleted_by = NULL, active = 1, update_at = ? WHERE id = ?`, now, id); err != nil {
			return err
		}
		if actor.IsAdmin() && p.UserID != actor.ID {
			if err := audit(ctx, tx, &actor.ID, "restore", "profile", id, StatusDeleted, p.AccountStatus, "", now); err != nil {
				return err
			}
		}
		return queueIndex(ctx, tx, "profile", id, now)
	})
	if err != nil {
		return nil, fmt.Errorf("restore profile: %w", err)
	}
	return s.Profile(ctx, id)
}

// editableProfile reads a profile inside a transaction for its owner or an admin: not found for
// a missing one, forbidden for anyone else.
func editableProfile(ctx context.Context, tx *sql.Tx, actor *User, id int64) (*Profile, error) {
	p, err := scanProfile(tx.QueryRowContext(ctx, `SELECT `+profileColumns+` FROM profiles p WHERE p.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, err
	}
	if p.UserID != actor.ID && !actor.IsAdmin() {
		return nil, Forbidden()
	}
	return p, nil
}

func profileOwner(ctx context.Context, tx *sql.Tx, id int64) (owner int64, deleted bool, err error) {
	var del sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT user_id, delete_at FROM profiles WHERE id = ?`, id).Scan(&owner, &del)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, NotFound()
	}
	return owner, del.Valid, err
}
