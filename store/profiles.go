package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	jsoniter "github.com/json-iterator/go"
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

// Limits of a profile's parts.
const (
	maxProfileName  = 100
	maxDescription  = 5000
	maxAddress      = 300
	maxServices     = 50
	maxSocialLinks  = 30
	maxAreas        = 30
	maxPortfolio    = 30
	maxCategories   = 10
	maxOptions      = 30
	maxListObject   = 16 << 10
	maxWorkYears    = 80
	maxServiceTitle = 100
	maxServiceDesc  = 500
	maxPrice        = 1_000_000_000_000
)

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
	SocialNetwork    []SocialLink
	AreaWorking      []string
	PortfolioImages  []string
	Option           []string
	ListObject       json.RawMessage
	AdminID          *int64
	AdminNote        string
	CreateAt         int64
	UpdateAt         int64
	// Stored, when set (only by ProfilesWithOwners), holds the list columns' stored JSON text;
	// Services, SocialNetwork, AreaWorking, PortfolioImages and Option are then left nil, and
	// HoursOfWork may be shared with other profiles: it is only to be read.
	Stored *StoredLists
}

// Visible reports whether the public may see p.
func (p *Profile) Visible() bool {
	return p.AccountStatus == StatusAccepted && p.Active && p.Display && p.DeleteAt == nil
}

// ShownStatus is the status shown to owners and admins: Deleted for a deleted profile.
func (p *Profile) ShownStatus() string {
	if p.DeleteAt != nil {
		return StatusDeleted
	}
	return p.AccountStatus
}

// jsonCompat decodes as encoding/json does.
var jsonCompat = jsoniter.ConfigCompatibleWithStandardLibrary

// visibleSQL is the public-visibility rule as SQL over profiles aliased p.
const visibleSQL = `p.visible = 1`

const profileColumns = `p.id, p.user_id, p.range_worker_id, p.province_id, p.city_id, p.profile_name, p.slug, p.key_word,
	p.work_history_years, p.descriotion, p.address, COALESCE(p.lat, 0), COALESCE(p.long, 0), p.account_status, p.active,
	p.display, p.delete_at, p.score, p.count_scorer, p.level_score, p.profile_image, p.logo, p.services, p.hours_of_work,
	p.social_network, p.area_working, p.portfolio_images, p.option, p.list_object, p.admin_id, p.admin_note, p.create_at,
	p.update_at, (SELECT COALESCE(json_group_array(category_id), '[]') FROM profile_categories WHERE profile_id = p.id)`

func scanProfile(sc interface{ Scan(...any) error }) (*Profile, error) {
	return scanProfileAs(sc, nil)
}

// scanProfileAs scans a profile, and then the row's further columns into more. Given weeks, it
// reads for a public answer: its list columns are left as stored text in p.Stored when they can
// be copied into an answer as they are, and its hours are shared through weeks.
func scanProfileAs(sc interface{ Scan(...any) error }, weeks *weekCache, more ...any) (*Profile, error) {
	p := &Profile{}
	var services, hours, social, areas, portfolio, option, listObject, cats string
	dest := append(make([]any, 0, 34+len(more)), &p.ID, &p.UserID, &p.RangeWorkerID, &p.ProvinceID, &p.CityID,
		&p.ProfileName, &p.Slug, &p.KeyWord, &p.WorkHistoryYears, &p.Descriotion, &p.Address, &p.Lat, &p.Long,
		&p.AccountStatus, &p.Active, &p.Display, &p.DeleteAt, &p.Score, &p.CountScorer, &p.LevelScore, &p.ProfileImage,
		&p.Logo, &services, &hours, &social, &areas, &portfolio, &option, &listObject, &p.AdminID, &p.AdminNote,
		&p.CreateAt, &p.UpdateAt, &cats)
	if err := sc.Scan(append(dest, more...)...); err != nil {
		return nil, err
	}
	var err error
	if p.CategoryIDs, err = parseIDList(cats); err != nil {
		return nil, fmt.Errorf("profile %d: %w", p.ID, err)
	}
	// Every profile read decodes its JSON columns; encoding/json's reflection made that most of
	// the cost of a search answer. jsoniter (already linked in through Bleve) decodes the same
	// way at under half the cost.
	parts := []struct {
		raw string
		v   any
	}{{hours, &p.HoursOfWork}, {services, &p.Services}, {social, &p.SocialNetwork}, {areas, &p.AreaWorking},
		{portfolio, &p.PortfolioImages}, {option, &p.Option}}
	if weeks != nil {
		lists := &StoredLists{Services: services, HoursOfWork: hours, SocialNetwork: social, AreaWorking: areas,
			PortfolioImages: portfolio, Option: option}
		if lists.copyable() {
			if p.HoursOfWork, err = weeks.hours(hours); err != nil {
				return nil, fmt.Errorf("profile %d: %w", p.ID, err)
			}
			p.Stored, parts = lists, nil
		}
	}
	for _, part := range parts {
		if err := jsonCompat.UnmarshalFromString(part.raw, part.v); err != nil {
			return nil, fmt.Errorf("profile %d: %w", p.ID, err)
		}
	}
	p.ListObject = json.RawMessage(listObject)
	return p, nil
}

// StoredLists is the JSON text of a profile's list columns as stored. Every write stores them
// with encoding/json (jsonColumns), and the schema checks that each is valid JSON, so an answer
// can copy them instead of decoding and encoding them again: a public search answer of 100
// profiles spent a third of its time doing that.
type StoredLists struct {
	Services, HoursOfWork, SocialNetwork, AreaWorking, PortfolioImages, Option string
}

// copyable reports whether the text can go into an answer as it is: encoding/json escapes <, >,
// & and the line and paragraph separators, so finding one means the row was written some other
// way (by hand, by another tool) and is read the long way instead.
func (l *StoredLists) copyable() bool {
	for _, s := range [...]string{l.Services, l.HoursOfWork, l.SocialNetwork, l.AreaWorking, l.PortfolioImages, l.Option} {
		// One vectorised pass per character costs less than one pass looking at each byte.
		for _, c := range [...]string{"<", ">", "&", "\u2028", "\u2029"} {
			if strings.Contains(s, c) {
				return false
			}
		}
	}
	return true
}

// parseIDList reads json_group_array's list of integers, such as [3,14], without a JSON decoder.
func parseIDList(s string) ([]int64, error) {
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, fmt.Errorf("category ids %q: not a list", s)
	}
	s = s[1 : len(s)-1]
	ids := make([]int64, 0, strings.Count(s, ",")+1)
	for s != "" {
		n, rest, _ := strings.Cut(s, ",")
		id, err := strconv.ParseInt(strings.TrimSpace(n), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("category ids: %w", err)
		}
		ids, s = append(ids, id), rest
	}
	return ids, nil
}

// ProfileFilter narrows a listing of profiles; nil fields are not filtered on.
type ProfileFilter struct {
	UserID        *int64
	Status        *string // a stored status, or Deleted
	VisibleOnly   bool
	IncludeDelete bool // include soft-deleted profiles (admins, owners)
	Offset, Limit int
}

// Profiles lists profiles matching f, newest first, and the total count.
func (s *Store) Profiles(ctx context.Context, f ProfileFilter) ([]*Profile, int, error) {
	where, args := []string{"1 = 1"}, []any{}
	if f.UserID != nil {
		where, args = append(where, "p.user_id = ?"), append(args, *f.UserID)
	}
	if f.Status != nil {
		if *f.Status == StatusDeleted {
			where = append(where, "p.delete_at IS NOT NULL")
		} else {
			where, args = append(where, "p.account_status = ? AND p.delete_at IS NULL"), append(args, *f.Status)
		}
	} else if !f.IncludeDelete {
		where = append(where, "p.delete_at IS NULL")
	}
	if f.VisibleOnly {
		where = append(where, visibleSQL)
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM profiles p WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count profiles: %w", err)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 20
	}
	rows, err := s.read.QueryContext(ctx, `SELECT `+profileColumns+` FROM profiles p WHERE `+cond+
		` ORDER BY p.create_at DESC, p.id DESC LIMIT ? OFFSET ?`, append(args, limit, max(0, f.Offset))...)
	if err != nil {
		return nil, 0, fmt.Errorf("list profiles: %w", err)
	}
	defer rows.Close()
	out := []*Profile{}
	for rows.Next() {
		p, err := scanProfile(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("list profiles: %w", err)
		}
		out = append(out, p)
	}
	return out, total, rows.Err()
}

// Profile answers a profile by id, in any state.
func (s *Store) Profile(ctx context.Context, id int64) (*Profile, error) {
	p, err := scanProfile(s.read.QueryRowContext(ctx, `SELECT `+profileColumns+` FROM profiles p WHERE p.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("get profile: %w", err)
	}
	return p, nil
}

// ProfileBySlug answers a profile by slug, in any state.
func (s *Store) ProfileBySlug(ctx context.Context, slug string) (*Profile, error) {
	p, err := scanProfile(s.read.QueryRowContext(ctx, `SELECT `+profileColumns+` FROM profiles p WHERE p.slug = ?`, slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("get profile: %w", err)
	}
	return p, nil
}

// ProfilesByIDs answers the profiles with these ids in the same order, skipping missing ones.
func (s *Store) ProfilesByIDs(ctx context.Context, ids []int64) ([]*Profile, error) {
	ps, _, err := s.profilesIn(ctx, ids, false)
	if err != nil {
		return nil, fmt.Errorf("profiles by id: %w", err)
	}
	return ps, nil
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
func (s *Store) UpdateProfile(ctx context.Context, actor *User, id int64, in *ProfileInput, moderated bool) (*Profile, error) {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		p, err := editableProfile(ctx, tx, actor, id)
		if err != nil {
			return err
		}
		if p.DeleteAt != nil {
			return Errorf(EConflict, "profile_deleted", nil)
		}
		oldName, oldCity := p.ProfileName, p.CityID
		refs, err := s.applyInput(ctx, tx, p, in, p.UserID == actor.ID)
		if err != nil {
			return err
		}
		if err := s.checkOnePerCategory(ctx, tx, p); err != nil {
			return err
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

// applyInput validates in and copies it onto p, answering the records it refers to. Image
// addresses must be uploads of the profile's owner (ownerUploads false lets an admin keep them).
func (s *Store) applyInput(ctx context.Context, tx *sql.Tx, p *Profile, in *ProfileInput, ownerUploads bool) (*ProfileRefs, error) {
	v := &Validation{}
	refs := &ProfileRefs{}

	name := CleanText(in.ProfileName, false)
	switch {
	case name == "":
		v.Enter("profile_name")
	case RuneLen(name) > maxProfileName:
		v.Add("profile_name", "too_long", map[string]any{"max": maxProfileName})
	}
	if in.WorkHistoryYears < 0 || in.WorkHistoryYears > maxWorkYears {
		v.Add("work_history_years", "out_of_range", map[string]any{"min": 0, "max": maxWorkYears})
	}
	desc := CleanText(in.Descriotion, true)
	if RuneLen(desc) > maxDescription {
		v.Add("descriotion", "too_long", map[string]any{"max": maxDescription})
	}
	address := CleanText(in.Address, false)
	if RuneLen(address) > maxAddress {
		v.Add("address", "too_long", map[string]any{"max": maxAddress})
	}

	// Field of work and its categories.
	tree, err := treeTx(ctx, tx)
	if err != nil {
		return nil, err
	}
	if in.RangeWorker == 0 {
		v.Enter("range_worker")
	} else if f := tree.ByID(in.RangeWorker); f == nil || !f.IsField() {
		v.Correct("range_worker")
	} else {
		refs.Field = f
	}
	cats := dedupe(in.CategoryList)
	switch {
	case len(cats) == 0:
		v.Enter("category_list")
	case len(cats) > maxCategories:
		v.Add("category_list", "too_many_items", map[string]any{"max": maxCategories})
	default:
		for _, id := range cats {
			c := tree.ByID(id)
			if c == nil || c.IsField() || (refs.Field != nil && *c.ParentID != refs.Field.ID) {
				v.Add("category_list", "category_not_in_field", nil)
				break
			}
			refs.Categories = append(refs.Categories, c)
		}
	}

	// Place.
	if in.ProvinceID == 0 {
		v.Enter("province_id")
	} else {
		var pr Province
		err := tx.QueryRowContext(ctx, `SELECT id, farsi_name, english_name, slug, lat, long FROM provinces WHERE id = ?`, in.ProvinceID).
			Scan(&pr.ID, &pr.FarsiName, &pr.EnglishName, &pr.Slug, &pr.Lat, &pr.Long)
		if err != nil {
			v.Correct("province_id")
		} else {
			refs.Province = &pr
		}
	}
	if in.CityID == 0 {
		v.Enter("city_id")
	} else {
		c, err := scanCity(tx.QueryRowContext(ctx, citySelect+` WHERE id = ?`, in.CityID))
		switch {
		case err != nil:
			v.Correct("city_id")
		case refs.Province != nil && c.ProvinceID != refs.Province.ID:
			v.Add("city_id", "city_not_in_province", nil)
		default:
			refs.City = &c
		}
	}
	var lat, long float64
	if in.Location != nil && (in.Location.Lat != 0 || in.Location.Long != 0) {
		lat, long = in.Location.Lat, in.Location.Long
		if !InIran(lat, long) {
			v.Add("location", "location_outside_iran", nil)
		}
	} else if refs.City != nil {
		// No pin: the city's centre, so the profile still shows on the map and in radius searches.
		lat, long = refs.City.Lat, refs.City.Long
	}

	// Lists.
	areas := []string{}
	if len(in.AreaWorking) > maxAreas {
		v.Add("area_working", "too_many_items", map[string]any{"max": maxAreas})
	}
	for _, a := range in.AreaWorking {
		if a = CleanText(a, false); a != "" && len(areas) < maxAreas {
			if RuneLen(a) > 100 {
				v.Add("area_working", "too_long", map[string]any{"max": 100})
				break
			}
			areas = append(areas, a)
		}
	}
	services := []Service{}
	if len(in.Services) > maxServices {
		v.Add("services", "too_many_items", map[string]any{"max": maxServices})
	}
	for _, sv := range in.Services {
		sv.Title = CleanText(sv.Title, false)
		sv.Description = CleanText(sv.Description, true)
		switch {
		case sv.Title == "":
			v.Add("services", "service_title_required", nil)
		case RuneLen(sv.Title) > maxServiceTitle:
			v.Add("services", "too_long", map[string]any{"max": maxServiceTitle})
		case sv.Price < 0 || sv.Price > maxPrice:
			v.Add("services", "service_bad_price", nil)
		case RuneLen(sv.Description) > maxServiceDesc:
			v.Add("services", "too_long", map[string]any{"max": maxServiceDesc})
		}
		if v.Has("services") {
			break
		}
		services = append(services, sv)
	}
	hours := in.HoursOfWork
	if hours == nil {
		hours = Hours{}
	}
	hours.validate(v)
	social := []SocialLink{}
	if len(in.SocialNetwork) > maxSocialLinks {
		v.Add("social_network", "too_many_items", map[string]any{"max": maxSocialLinks})
	}
	for _, l := range in.SocialNetwork {
		typ, kind, ok := canonicalSocialType(l.Type)
		if !ok {
			v.Add("social_network", "social_bad_type", map[string]any{"type": CleanText(l.Type, false)})
			break
		}
		link, ok := normaliseLink(kind, l.Link)
		if !ok {
			v.Add("social_network", "social_bad_link", map[string]any{"type": typ})
			break
		}
		social = append(social, SocialLink{Type: typ, Link: link})
	}
	options := []string{}
	for _, o := range in.Option {
		if o = CleanText(o, false); o != "" {
			options = append(options, o)
		}
	}
	if len(options) > maxOptions {
		v.Add("option", "too_many_items", map[string]any{"max": maxOptions})
	}
	listObject := json.RawMessage("[]")
	if len(in.ListObject) > 0 && string(in.ListObject) != "null" {
		var arr []json.RawMessage
		if len(in.ListObject) > maxListObject || json.Unmarshal(in.ListObject, &arr) != nil {
			v.Correct("list_object")
		} else {
			listObject, _ = json.Marshal(arr)
		}
	}

	// Images: only the owner's own uploads.
	images := map[string]string{"profile_image": in.ProfileImage, "logo": in.Logo}
	portfolio := []string{}
	if len(in.PortfolioImages) > maxPortfolio {
		v.Add("portfolio_images", "too_many_items", map[string]any{"max": maxPortfolio})
	}
	for _, a := range in.PortfolioImages {
		if a = strings.TrimSpace(a); a != "" {
			portfolio = append(portfolio, a)
		}
	}
	for field, addr := range images {
		if addr = strings.TrimSpace(addr); addr != "" && ownerUploads {
			if ok, err := ownsUpload(ctx, tx, p.UserID, addr); err != nil {
				return nil, err
			} else if !ok {
				v.Add(field, "image_not_yours", nil)
			}
		}
	}
	if ownerUploads {
		for _, addr := range portfolio {
			if ok, err := ownsUpload(ctx, tx, p.UserID, addr); err != nil {
				return nil, err
			} else if !ok {
				v.Add("portfolio_images", "image_not_yours", nil)
				break
			}
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}

	p.ProfileName, p.WorkHistoryYears, p.Descriotion, p.Address = name, in.WorkHistoryYears, desc, address
	p.RangeWorkerID, p.ProvinceID, p.CityID, p.CategoryIDs = refs.Field.ID, refs.Province.ID, refs.City.ID, cats
	p.Lat, p.Long = lat, long
	p.AreaWorking, p.Services, p.HoursOfWork, p.SocialNetwork = areas, services, hours, social
	p.Option, p.ListObject, p.PortfolioImages = options, listObject, portfolio
	p.ProfileImage, p.Logo = strings.TrimSpace(in.ProfileImage), strings.TrimSpace(in.Logo)
	if in.Active != nil {
		p.Active = *in.Active
	}
	if in.Display != nil {
		p.Display = *in.Display
	}
	p.KeyWord = buildKeyWord(p.ProfileName, refs)
	return refs, nil
}

// buildKeyWord is the spec's key_word: the profile's name with the Persian and English names of
// its city, province, field and categories.
func buildKeyWord(name string, refs *ProfileRefs) string {
	parts := []string{name, refs.City.FarsiName, refs.City.EnglishName, refs.Province.FarsiName, refs.Province.EnglishName,
		refs.Field.FarsiName, refs.Field.EnglishName}
	for _, c := range refs.Categories {
		parts = append(parts, c.FarsiName, c.EnglishName)
	}
	return strings.Join(parts, " ")
}

// checkOnePerCategory enforces one profile per category per user, and the lock a deleted
// profile keeps on its field of work for RetentionDays.
func (s *Store) checkOnePerCategory(ctx context.Context, tx *sql.Tx, p *Profile) error {
	args := []any{p.UserID, p.ID}
	marks := make([]string, len(p.CategoryIDs))
	for i, c := range p.CategoryIDs {
		marks[i] = "?"
		args = append(args, c)
	}
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM profiles p JOIN profile_categories pc ON pc.profile_id = p.id
		WHERE p.user_id = ? AND p.id != ? AND p.delete_at IS NULL AND pc.category_id IN (`+strings.Join(marks, ",")+`)`, args...).Scan(&n)
	if err != nil {
		return err
	}
	if n > 0 {
		return &Error{Code: EConflict, Key: "one_profile_per_cat",
			Fields: []FieldError{{Field: "category_list", Key: "one_profile_per_cat"}}}
	}
	var deletedAt sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT MAX(delete_at) FROM profiles WHERE user_id = ? AND id != ? AND range_worker_id = ?
		AND delete_at IS NOT NULL AND delete_at > ?`, p.UserID, p.ID, p.RangeWorkerID, s.now()-RetentionDays*86400).Scan(&deletedAt)
	if err != nil {
		return err
	}
	if deletedAt.Valid {
		days := (deletedAt.Int64 + RetentionDays*86400 - s.now() + 86399) / 86400
		args := map[string]any{"days": days}
		return &Error{Code: EConflict, Key: "field_locked", Args: args,
			Fields: []FieldError{{Field: "range_worker", Key: "field_locked", Args: args}}}
	}
	return nil
}

func insertProfile(ctx context.Context, tx *sql.Tx, p *Profile) (int64, error) {
	j := jsonColumns(p)
	res, err := tx.ExecContext(ctx, `INSERT INTO profiles (user_id, range_worker_id, province_id, city_id, profile_name, slug,
		key_word, work_history_years, descriotion, address, lat, long, account_status, active, display, profile_image, logo,
		services, hours_of_work, social_network, area_working, portfolio_images, option, list_object, create_at, update_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.UserID, p.RangeWorkerID, p.ProvinceID, p.CityID, p.ProfileName, p.Slug, p.KeyWord, p.WorkHistoryYears,
		p.Descriotion, p.Address, p.Lat, p.Long, p.AccountStatus, p.Active, p.Display, p.ProfileImage, p.Logo,
		j[0], j[1], j[2], j[3], j[4], j[5], string(p.ListObject), p.CreateAt, p.UpdateAt)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

func updateProfile(ctx context.Context, tx *sql.Tx, p *Profile) error {
	j := jsonColumns(p)
	_, err := tx.ExecContext(ctx, `UPDATE profiles SET range_worker_id = ?, province_id = ?, city_id = ?, profile_name = ?,
		slug = ?, key_word = ?, work_history_years = ?, descriotion = ?, address = ?, lat = ?, long = ?, account_status = ?,
		active = ?, display = ?, profile_image = ?, logo = ?, services = ?, hours_of_work = ?, social_network = ?,
		area_working = ?, portfolio_images = ?, option = ?, list_object = ?, update_at = ? WHERE id = ?`,
		p.RangeWorkerID, p.ProvinceID, p.CityID, p.ProfileName, p.Slug, p.KeyWord, p.WorkHistoryYears, p.Descriotion,
		p.Address, p.Lat, p.Long, p.AccountStatus, p.Active, p.Display, p.ProfileImage, p.Logo,
		j[0], j[1], j[2], j[3], j[4], j[5], string(p.ListObject), p.UpdateAt, p.ID)
	return err
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
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET delete_at = ?, active = 0, update_at = ? WHERE id = ?`, now, now, id); err != nil {
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
		p.DeleteAt = nil
		if err := s.checkOnePerCategory(ctx, tx, p); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET delete_at = NULL, active = 1, update_at = ? WHERE id = ?`, now, id); err != nil {
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
		if !allowedMove(profileTransitions, from, status) || deleted.Valid {
			return Errorf(EConflict, "bad_transition", map[string]any{"from": from, "to": status})
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET account_status = ?, admin_id = ?, admin_note = ?, update_at = ? WHERE id = ?`,
			status, actorID, note, now, id); err != nil {
			return err
		}
		if err := audit(ctx, tx, actorID, "status", "profile", id, from, status, note, now); err != nil {
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

// ProfileSummary is one of a user's profiles as login's userTechnical lists them.
type ProfileSummary struct {
	ID            int64  `json:"id"`
	ProfileName   string `json:"profile_name"`
	Slug          string `json:"slug"`
	AccountStatus string `json:"account_status"`
	Active        bool   `json:"active"`
}

// ProfilesOfUser answers a user's profiles that are not deleted, for login's userTechnical.
func (s *Store) ProfilesOfUser(ctx context.Context, userID int64) ([]ProfileSummary, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, profile_name, slug, account_status, active FROM profiles
		WHERE user_id = ? AND delete_at IS NULL ORDER BY id`, userID)
	if err != nil {
		return nil, fmt.Errorf("profiles of user: %w", err)
	}
	defer rows.Close()
	out := []ProfileSummary{}
	for rows.Next() {
		var p ProfileSummary
		if err := rows.Scan(&p.ID, &p.ProfileName, &p.Slug, &p.AccountStatus, &p.Active); err != nil {
			return nil, fmt.Errorf("profiles of user: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// ProfileAuthor is the owner as a profile's read form shows them.
type ProfileAuthor struct {
	ID           int64
	Name         string
	NumberPhone  string
	ProfileImage string
}

// ProfilesWithOwners answers what ProfilesByIDs answers and the profiles' owners, by user id,
// in one query: a search answer's forms show both. It is the read behind public answers: the
// owners carry what the public sees (name and picture, not the sign-in number), and each
// profile's list columns are kept as stored text in Stored where they can be copied as they are.
func (s *Store) ProfilesWithOwners(ctx context.Context, ids []int64) ([]*Profile, map[int64]ProfileAuthor, error) {
	ps, owners, err := s.profilesIn(ctx, ids, true)
	if err != nil {
		return nil, nil, fmt.Errorf("profiles with owners: %w", err)
	}
	return ps, owners, nil
}

// profilesIn reads the profiles with these ids, in the same order and skipping missing ones.
// For a public answer it reads their owners' names and pictures too (copies kept in the profile
// row) and keeps their list columns as stored text.
func (s *Store) profilesIn(ctx context.Context, ids []int64, public bool) ([]*Profile, map[int64]ProfileAuthor, error) {
	owners := map[int64]ProfileAuthor{}
	if len(ids) == 0 {
		return []*Profile{}, owners, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	cols := profileColumns
	if public {
		cols += `, p.owner_name, p.owner_image` // kept current by triggers (0005_profile_owners.sql)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT `+cols+` FROM profiles p WHERE p.id IN (?`+strings.Repeat(",?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	byID := make(map[int64]*Profile, len(ids))
	for rows.Next() {
		var a ProfileAuthor
		var p *Profile
		var err error
		if public {
			p, err = scanProfileAs(rows, &s.weeks, &a.Name, &a.ProfileImage)
		} else {
			p, err = scanProfileAs(rows, nil)
		}
		if err != nil {
			return nil, nil, err
		}
		byID[p.ID] = p
		if public {
			a.ID = p.UserID
			owners[a.ID] = a
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	out := make([]*Profile, 0, len(ids))
	for _, id := range ids {
		if p, ok := byID[id]; ok {
			out = append(out, p)
		}
	}
	return out, owners, nil
}

// ProfileOwners answers the owners of profiles, by user id.
func (s *Store) ProfileOwners(ctx context.Context, userIDs []int64) (map[int64]ProfileAuthor, error) {
	out := map[int64]ProfileAuthor{}
	if len(userIDs) == 0 {
		return out, nil
	}
	ids := dedupe(userIDs)
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.read.QueryContext(ctx, `SELECT id, name, number_phone, profile_image FROM users WHERE id IN (?`+
		strings.Repeat(",?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("profile owners: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var a ProfileAuthor
		if err := rows.Scan(&a.ID, &a.Name, &a.NumberPhone, &a.ProfileImage); err != nil {
			return nil, fmt.Errorf("profile owners: %w", err)
		}
		out[a.ID] = a
	}
	return out, rows.Err()
}

// uniqueSlug answers a slug for name not used by another row of table: the name's slug, then with
// the city's slug, then numbered.
func uniqueSlug(ctx context.Context, tx *sql.Tx, table, name, city string, selfID int64) (string, error) {
	base := Slugify(name)
	if base == "" {
		base = table[:len(table)-1]
	}
	candidates := []string{base}
	if city != "" {
		candidates = append(candidates, base+"-"+city)
	}
	for i := 2; i < 1000; i++ {
		candidates = append(candidates, base+"-"+strconv.Itoa(i))
	}
	for _, c := range candidates {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table+` WHERE slug = ? AND id != ?`, c, selfID).Scan(&n); err != nil {
			return "", err
		}
		if n == 0 {
			return c, nil
		}
	}
	return fmt.Sprintf("%s-%d", base, time.Now().UnixNano()), nil
}

// ownsUpload reports whether address is an upload of userID.
func ownsUpload(ctx context.Context, tx *sql.Tx, userID int64, address string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM uploads WHERE user_id = ? AND (address = ? OR thumb = ?)`, userID, address, address).Scan(&n)
	return n > 0, err
}

// treeTx reads the category tree inside a transaction.
func treeTx(ctx context.Context, tx *sql.Tx) (*Categories, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, parent_id, farsi_name, english_name, slag, favourite, sort FROM work_categories`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return buildTree(rows)
}

func dedupe(ids []int64) []int64 {
	seen := map[int64]bool{}
	out := []int64{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// SitemapEntry is one public page for the sitemap.
type SitemapEntry struct {
	Slug     string
	UpdateAt int64
}

// VisibleProfileSlugs answers a page of the visible profiles' slugs in id order, and the number
// of visible profiles.
func (s *Store) VisibleProfileSlugs(ctx context.Context, offset, limit int) ([]SitemapEntry, int, error) {
	var total int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM profiles p WHERE `+visibleSQL).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("sitemap: %w", err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT p.slug, p.update_at FROM profiles p WHERE `+visibleSQL+
		` ORDER BY p.id LIMIT ? OFFSET ?`, limit, offset)
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
