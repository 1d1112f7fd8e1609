package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	jsoniter "github.com/json-iterator/go"
)

// jsonCompat decodes as encoding/json does.
var jsonCompat = jsoniter.ConfigCompatibleWithStandardLibrary

// visibleSQL is the public-visibility rule as SQL over profiles aliased p.
const visibleSQL = `p.visible = 1`

const profileColumns = `p.id, p.user_id, p.range_worker_id, p.province_id, p.city_id, p.profile_name, p.slug, p.key_word,
	p.work_history_years, p.descriotion, p.address, COALESCE(p.lat, 0), COALESCE(p.long, 0), p.account_status, p.active,
	p.display, p.delete_at, p.score, p.count_scorer, p.level_score, p.profile_image, p.logo, p.services, p.hours_of_work,
	p.social_network, p.area_working, p.portfolio_images, p.option, p.list_object, p.admin_id, p.admin_note, p.create_at,
	p.update_at, p.special_days, p.open_on_holidays, p.verified_at, p.listed_by,
	p.category_ids` // kept by triggers (0070_profile_category_ids.sql)

func scanProfile(sc interface{ Scan(...any) error }) (*Profile, error) {
	return scanProfileAs(sc, nil, readOwned)
}

// profileReading says what a profile read is for, and so what scanProfileAs may share or skip.
type profileReading int

const (
	// readOwned decodes every list and shares nothing: the caller may change the profile.
	readOwned profileReading = iota
	// readShared shares the decoded hours through the store's week cache: the profiles are only
	// read (answers, the search index). A week is three fifths of the JSON a demo profile holds:
	// 20 profiles by id at 100,000, 650 -> 560 µs.
	readShared
	// readPublic is readShared with the other lists left as stored text in p.Stored when they
	// can be copied into an answer as they are.
	readPublic
)

// scanProfileAs scans a profile read for how, and then the row's further columns into more;
// weeks is the store's week cache, unused by readOwned.
func scanProfileAs(sc interface{ Scan(...any) error }, weeks *weekCache, how profileReading, more ...any) (*Profile, error) {
	p := &Profile{}
	var services, hours, social, areas, portfolio, option, listObject, special, cats string
	dest := append(make([]any, 0, 38+len(more)), &p.ID, &p.UserID, &p.RangeWorkerID, &p.ProvinceID, &p.CityID,
		&p.ProfileName, &p.Slug, &p.KeyWord, &p.WorkHistoryYears, &p.Descriotion, &p.Address, &p.Lat, &p.Long,
		&p.AccountStatus, &p.Active, &p.Display, &p.DeleteAt, &p.Score, &p.CountScorer, &p.LevelScore, &p.ProfileImage,
		&p.Logo, &services, &hours, &social, &areas, &portfolio, &option, &listObject, &p.AdminID, &p.AdminNote,
		&p.CreateAt, &p.UpdateAt, &special, &p.OpenOnHolidays, &p.VerifiedAt, &p.ListedBy, &cats)
	if err := sc.Scan(append(dest, more...)...); err != nil {
		return nil, err
	}
	var err error
	if p.CategoryIDs, err = parseIDList(cats); err != nil {
		return nil, fmt.Errorf("profile %d: %w", p.ID, err)
	}
	if special != "[]" && special != "" {
		if err := jsonCompat.UnmarshalFromString(special, &p.SpecialDays); err != nil {
			return nil, fmt.Errorf("profile %d: %w", p.ID, err)
		}
	}
	// Every profile read decodes its JSON columns; encoding/json's reflection made that most of
	// the cost of a search answer. jsoniter (already linked in through Bleve) decodes the same
	// way at under half the cost.
	parts := []struct {
		raw string
		v   any
	}{{hours, &p.HoursOfWork}, {services, &p.Services}, {social, &p.SocialNetwork}, {areas, &p.AreaWorking},
		{portfolio, &p.PortfolioImages}, {option, &p.Option}}
	switch how {
	case readPublic:
		lists := &StoredLists{Services: services, HoursOfWork: hours, SocialNetwork: social, AreaWorking: areas,
			PortfolioImages: portfolio, Option: option}
		if lists.copyable() {
			if p.HoursOfWork, err = weeks.hours(hours); err != nil {
				return nil, fmt.Errorf("profile %d: %w", p.ID, err)
			}
			p.Stored, parts = lists, nil
		}
	case readShared:
		if p.HoursOfWork, err = weeks.hours(hours); err != nil {
			return nil, fmt.Errorf("profile %d: %w", p.ID, err)
		}
		parts = parts[1:]
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
	count, page, args := f.statements()
	var total int
	if err := s.read.QueryRowContext(ctx, count, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count profiles: %w", err)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 20
	}
	out, err := queryRows(ctx, s.read, scanProfile, page, append(args, limit, max(0, f.Offset))...)
	if err != nil {
		return nil, 0, fmt.Errorf("list profiles: %w", err)
	}
	return out, total, nil
}

// statements answers Profiles' count and page (its LIMIT and OFFSET last) for f, and their
// arguments. The page's order is profiles_newest's, so a list of every profile reads a page
// of that index instead of sorting the table (TestProfileListsReadTheNewest).
func (f ProfileFilter) statements() (count, page string, args []any) {
	where := []string{"1 = 1"}
	if f.UserID != nil {
		where, args = append(where, "p.user_id = ?"), append(args, *f.UserID)
	}
	if f.Status != nil {
		if *f.Status == StatusDeleted {
			where = append(where, "p.delete_at IS NOT NULL")
		} else if *f.Status == StatusEdited {
			// Only an accepted profile's edit waits: a blocked one is not public, so nothing to hold.
			// The few profiles with an edit waiting are read by id: compared as is, the status
			// would walk profiles_status over every Accepted profile (58 ms at a million, 1 ms
			// by id; TestProfileListsReadTheNewest).
			where = append(where, "p.delete_at IS NULL AND p.account_status || '' = 'Accepted' AND p.id IN (SELECT profile_id FROM profile_edits WHERE status = 'Pending')")
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
	return `SELECT COUNT(*) FROM profiles p WHERE ` + cond,
		`SELECT ` + profileColumns + ` FROM profiles p WHERE ` + cond + ` ORDER BY p.create_at DESC, p.id DESC LIMIT ? OFFSET ?`, args
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
// They are for reading: their HoursOfWork may be shared with other profiles.
func (s *Store) ProfilesByIDs(ctx context.Context, ids []int64) ([]*Profile, error) {
	ps, _, err := s.profilesIn(ctx, ids, false)
	if err != nil {
		return nil, fmt.Errorf("profiles by id: %w", err)
	}
	return ps, nil
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
	cols := profileColumns
	if public {
		cols += `, p.owner_name, p.owner_image` // kept current by triggers (0005_profile_owners.sql)
	}
	in, args := s.idsIn("p.id", ids)
	rows, err := s.read.QueryContext(ctx, `SELECT `+cols+` FROM profiles p WHERE `+in, args...)
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
			p, err = scanProfileAs(rows, &s.weeks, readPublic, &a.Name, &a.ProfileImage)
		} else {
			p, err = scanProfileAs(rows, &s.weeks, readShared)
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
	in, args := s.idsIn("id", dedupe(userIDs))
	rows, err := s.read.QueryContext(ctx, `SELECT id, name, number_phone, profile_image FROM users WHERE `+in, args...)
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

// ProfileCard is the little of a visible profile a suggestion as you type shows.
type ProfileCard struct {
	ID                 int64
	ProfileName, Slug  string
	CityID             int64
	ProfileImage, Logo string
}

// VisibleProfileCards answers the cards of the visible profiles among ids, in the same order,
// skipping the others. Six columns where ProfilesByIDs reads and decodes every one, with the
// categories: suggestions ask on every key typed (TestProfileCardsMatchTheProfiles).
func (s *Store) VisibleProfileCards(ctx context.Context, ids []int64) ([]ProfileCard, error) {
	if len(ids) == 0 {
		return []ProfileCard{}, nil
	}
	in, args := s.idsIn("p.id", ids)
	cards, err := queryRows(ctx, s.read, func(sc scanner) (ProfileCard, error) {
		var c ProfileCard
		err := sc.Scan(&c.ID, &c.ProfileName, &c.Slug, &c.CityID, &c.ProfileImage, &c.Logo)
		return c, err
	}, `SELECT p.id, p.profile_name, p.slug, p.city_id, p.profile_image, p.logo FROM profiles p
		WHERE `+visibleSQL+` AND `+in, args...)
	if err != nil {
		return nil, fmt.Errorf("profile cards: %w", err)
	}
	byID := make(map[int64]ProfileCard, len(cards))
	for _, c := range cards {
		byID[c.ID] = c
	}
	out := make([]ProfileCard, 0, len(cards))
	for _, id := range ids {
		if c, ok := byID[id]; ok {
			out = append(out, c)
		}
	}
	return out, nil
}
