package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Lead target states.
const (
	LeadNew      = "new"
	LeadSeen     = "seen"
	LeadAnswered = "answered"
	LeadDeclined = "declined"
	LeadDone     = "done"
)

// Bounds of a request for a price.
const (
	MaxLeadTargets = 5
	MaxLeadPhotos  = 2
	maxLeadWhat    = 1000
	maxLeadWhen    = 100
	maxLeadAnswer  = 1000
	maxLeadPrice   = 1_000_000_000_000 // rials: a trillion is beyond any quote
)

// LeadInput is a visitor's request for a price as sent.
type LeadInput struct {
	ProfileID  int64    `json:"user_technical_id"`
	ProfileIDs []int64  `json:"user_technical_ids"`
	CategoryID int64    `json:"category_id"`
	CityID     int64    `json:"city_id"`
	Lat        *float64 `json:"lat"`
	Long       *float64 `json:"long"`
	What       string   `json:"what"`
	When       string   `json:"when"`
	Photos     []string `json:"photos"`
}

// Targets answers the asked profiles' ids, without repeats.
func (in *LeadInput) Targets() []int64 {
	ids := append([]int64(nil), in.ProfileIDs...)
	if in.ProfileID > 0 {
		ids = append(ids, in.ProfileID)
	}
	return dedupe(ids)
}

// Lead is a stored request for a price with its asked profiles.
type Lead struct {
	ID         int64
	VisitorID  *int64
	Phone      string
	CategoryID *int64
	CityID     int64
	Lat, Long  *float64
	What       string
	When       string
	Photos     []string
	CreateAt   int64
	Targets    []*LeadTarget
}

// LeadTarget is one asked profile's side of a lead: its status, its answer, and what the
// visitor compares (name, scores, place).
type LeadTarget struct {
	LeadID       int64
	ProfileID    int64
	OwnerID      int64
	Status       string
	Price        *int64
	Message      string
	AnswerAt     *int64
	UpdateAt     int64
	ProfileName  string
	Slug         string
	ProfileImage string
	Score        float64
	CountScorer  int
	Lat, Long    float64
	// Contact is the number the visitor may call once the professional answered: the first
	// phone the profile publishes, else its owner's number (answering is agreeing to be called).
	Contact string
}

// Answered reports whether the professional answered or took the job: only then may they see
// the visitor's number.
func (t *LeadTarget) Answered() bool { return t.Status == LeadAnswered || t.Status == LeadDone }

// LeadOwners answers the owners of the visible profiles of in, in order, and not found when one
// is missing or hidden; the API reserves each owner's daily limit before AddLead.
func (s *Store) LeadOwners(ctx context.Context, in *LeadInput) ([]int64, error) {
	var out []int64
	for _, id := range in.Targets() {
		var owner int64
		err := s.read.QueryRowContext(ctx, `SELECT user_id FROM profiles WHERE id = ? AND account_status = 'Accepted' AND active = 1
			AND display = 1 AND delete_at IS NULL`, id).Scan(&owner)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, NotFound()
		}
		if err != nil {
			return nil, fmt.Errorf("lead owners: %w", err)
		}
		out = append(out, owner)
	}
	return out, nil
}

// checkLead validates what does not need the database; photos are allowed signed in, or
// signed out with a pass (the uploads it took are checked in the transaction).
func checkLead(in *LeadInput, photosAllowed bool) (*Lead, error) {
	v := &Validation{}
	ids := in.Targets()
	switch {
	case len(ids) == 0:
		v.Enter("user_technical_ids")
	case len(ids) > MaxLeadTargets:
		v.Add("user_technical_ids", "too_many_items", map[string]any{"max": MaxLeadTargets})
	case len(ids) > 1 && in.CategoryID <= 0:
		v.Enter("category_id")
	}
	if in.CityID <= 0 {
		v.Enter("city_id")
	}
	if (in.Lat == nil) != (in.Long == nil) || in.Lat != nil && (*in.Lat < -90 || *in.Lat > 90 || *in.Long < -180 || *in.Long > 180) {
		v.Correct("lat")
	}
	what := CleanText(in.What, true)
	switch {
	case what == "":
		v.Enter("what")
	case RuneLen(what) > maxLeadWhat:
		v.Add("what", "too_long", map[string]any{"max": maxLeadWhat})
	}
	when := CleanText(in.When, false)
	if RuneLen(when) > maxLeadWhen {
		v.Add("when", "too_long", map[string]any{"max": maxLeadWhen})
	}
	photos := []string{}
	for _, p := range in.Photos {
		if p = uploadPath(p); p != "/" && p != "" {
			photos = append(photos, p)
		}
	}
	if len(photos) > MaxLeadPhotos {
		v.Add("photos", "too_many_items", map[string]any{"max": MaxLeadPhotos})
	} else if len(photos) > 0 && !photosAllowed {
		// A signed-out visitor's photos are uploaded with a pass (lead/verify), never with the
		// code alone.
		v.Add("photos", "lead_photos_need_pass", nil)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	l := &Lead{CityID: in.CityID, Lat: in.Lat, Long: in.Long, What: what, When: when, Photos: photos}
	if in.CategoryID > 0 {
		l.CategoryID = &in.CategoryID
	}
	return l, nil
}

// AddLead stores a request for a price from visitor (nil when signed out: phone is then proven
// by proof, a live lead code or a pass from lead/verify, used up here) and notifies each asked profile's owner in the
// same transaction. Several profiles must share the category and the city. It answers the lead
// with its targets (their owners, for the SMS that follows).
func (s *Store) AddLead(ctx context.Context, in *LeadInput, visitor *User, phone string, proof LeadProof, p CodePolicy, clientIP string) (*Lead, error) {
	l, err := checkLead(in, visitor != nil || proof.PassHash != nil)
	if err != nil {
		return nil, err
	}
	ids := in.Targets()
	var fail error
	err = s.tx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		if visitor == nil && proof.PassHash != nil {
			if err := s.useLeadPass(ctx, tx, phone, proof.PassHash, l.Photos); err != nil {
				return err
			}
		} else if visitor == nil {
			id, f, err := s.answerCode(ctx, tx, phone, PurposeLead, proof.CodeHash, p)
			if err != nil || f != nil {
				fail = f
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE otp_codes SET used_at = ? WHERE id = ?`, now, id); err != nil {
				return err
			}
		} else {
			l.VisitorID = &visitor.ID
			phone = visitor.NumberPhone
			for _, ph := range l.Photos {
				owns, err := ownsUpload(ctx, tx, visitor.ID, ph)
				if err != nil {
					return err
				}
				if !owns {
					v := &Validation{}
					v.Correct("photos")
					return v.Err()
				}
			}
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM cities WHERE id = ?`, l.CityID).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			v := &Validation{}
			v.Correct("city_id")
			return v.Err()
		}
		l.Targets = nil // the closure may run twice (store/commit.go): it builds, never adds to, what it answers
		var targets []*Profile
		for _, id := range ids {
			pr, err := scanProfile(tx.QueryRowContext(ctx, `SELECT `+profileColumns+` FROM profiles p WHERE p.id = ?`, id))
			if errors.Is(err, sql.ErrNoRows) || (err == nil && !pr.Visible()) {
				return NotFound()
			}
			if err != nil {
				return err
			}
			v := &Validation{}
			if visitor != nil && pr.UserID == visitor.ID {
				v.Add("user_technical_ids", "lead_own_profile", nil)
			}
			if len(ids) > 1 && pr.CityID != l.CityID {
				v.Add("user_technical_ids", "lead_one_city", nil)
			}
			if l.CategoryID != nil && pr.RangeWorkerID != *l.CategoryID && !containsID(pr.CategoryIDs, *l.CategoryID) {
				v.Add("user_technical_ids", "lead_one_category", nil)
			}
			if err := v.Err(); err != nil {
				return err
			}
			targets = append(targets, pr)
		}
		photos, _ := json.Marshal(l.Photos)
		if err := tx.QueryRowContext(ctx, `INSERT INTO leads (visitor_id, phone, category_id, city_id, lat, long, what, when_text, photos,
			client_ip, create_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, l.VisitorID, phone, l.CategoryID, l.CityID, l.Lat, l.Long,
			l.What, l.When, string(photos), clientIP, now).Scan(&l.ID); err != nil {
			return err
		}
		l.Phone, l.CreateAt = phone, now
		for _, pr := range targets {
			if _, err := tx.ExecContext(ctx, `INSERT INTO lead_targets (lead_id, profile_id, update_at) VALUES (?, ?, ?)`, l.ID, pr.ID, now); err != nil {
				return err
			}
			if err := notify(ctx, tx, Notification{UserID: pr.UserID, Kind: NotifyNewLead, Entity: "lead", EntityID: l.ID,
				Title: pr.ProfileName, Note: truncateRunes(l.What, 140), CreateAt: now}); err != nil {
				return err
			}
			l.Targets = append(l.Targets, &LeadTarget{LeadID: l.ID, ProfileID: pr.ID, OwnerID: pr.UserID, Status: LeadNew,
				ProfileName: pr.ProfileName, Slug: pr.Slug, UpdateAt: now})
		}
		return nil
	})
	if err == nil {
		err = fail
	}
	if err != nil {
		return nil, fmt.Errorf("add lead: %w", err)
	}
	return l, nil
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

const leadColumns = `l.id, l.visitor_id, l.phone, l.category_id, l.city_id, l.lat, l.long, l.what, l.when_text, l.photos, l.create_at`

func scanLead(sc interface{ Scan(...any) error }) (*Lead, error) {
	l := &Lead{}
	var visitor, cat sql.NullInt64
	var lat, long sql.NullFloat64
	var photos string
	if err := sc.Scan(&l.ID, &visitor, &l.Phone, &cat, &l.CityID, &lat, &long, &l.What, &l.When, &photos, &l.CreateAt); err != nil {
		return nil, err
	}
	if visitor.Valid {
		l.VisitorID = &visitor.Int64
	}
	if cat.Valid {
		l.CategoryID = &cat.Int64
	}
	if lat.Valid && long.Valid {
		l.Lat, l.Long = &lat.Float64, &long.Float64
	}
	_ = json.Unmarshal([]byte(photos), &l.Photos)
	return l, nil
}

const targetColumns = `t.lead_id, t.profile_id, p.user_id, t.status, t.price, t.message, t.answer_at, t.update_at, p.profile_name, p.slug,
	p.profile_image, p.score, p.count_scorer, COALESCE(p.lat, 0), COALESCE(p.long, 0), p.social_network, u.number_phone`

func scanTarget(sc interface{ Scan(...any) error }) (*LeadTarget, error) {
	t := &LeadTarget{}
	var price, answer sql.NullInt64
	var social, ownerPhone string
	if err := sc.Scan(&t.LeadID, &t.ProfileID, &t.OwnerID, &t.Status, &price, &t.Message, &answer, &t.UpdateAt, &t.ProfileName, &t.Slug,
		&t.ProfileImage, &t.Score, &t.CountScorer, &t.Lat, &t.Long, &social, &ownerPhone); err != nil {
		return nil, err
	}
	if price.Valid {
		t.Price = &price.Int64
	}
	if answer.Valid {
		t.AnswerAt = &answer.Int64
	}
	if t.Answered() {
		t.Contact = ownerPhone
		var links []SocialLink
		_ = json.Unmarshal([]byte(social), &links)
		for _, sl := range links {
			if k := strings.ToLower(sl.Type); (k == "phone" || k == "mobile") && sl.Link != "" {
				t.Contact = sl.Link
				break
			}
		}
	}
	return t, nil
}

// MyLeads answers the visitor's requests, newest first, each with every asked profile's side:
// those made signed in, and those made signed out with the account's number.
func (s *Store) MyLeads(ctx context.Context, u *User, offset, limit int) ([]*Lead, int, error) {
	var total int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM leads WHERE visitor_id = ? OR phone = ?`, u.ID, u.NumberPhone).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("my leads: %w", err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT `+leadColumns+` FROM leads l WHERE l.visitor_id = ? OR l.phone = ?
		ORDER BY l.id DESC LIMIT ? OFFSET ?`, u.ID, u.NumberPhone, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("my leads: %w", err)
	}
	var out []*Lead
	for rows.Next() {
		l, err := scanLead(rows)
		if err != nil {
			rows.Close()
			return nil, 0, fmt.Errorf("my leads: %w", err)
		}
		out = append(out, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("my leads: %w", err)
	}
	for _, l := range out {
		trows, err := s.read.QueryContext(ctx, `SELECT `+targetColumns+` FROM lead_targets t JOIN profiles p ON p.id = t.profile_id
			JOIN users u ON u.id = p.user_id WHERE t.lead_id = ? ORDER BY t.profile_id`, l.ID)
		if err != nil {
			return nil, 0, fmt.Errorf("my leads: %w", err)
		}
		for trows.Next() {
			t, err := scanTarget(trows)
			if err != nil {
				trows.Close()
				return nil, 0, fmt.Errorf("my leads: %w", err)
			}
			l.Targets = append(l.Targets, t)
		}
		trows.Close()
	}
	return out, total, nil
}
