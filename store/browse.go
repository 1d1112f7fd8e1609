package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// BrowseFilter is a profile search without text or place: filters and an order over the
// visible profiles, answered by SQLite's partial indexes.
type BrowseFilter struct {
	CityID, ProvinceID, FieldID, CategoryID int64
	MinScore, MinLevelScore                 *float64
	Order                                   string // best, reviews or newest
	Offset, Limit                           int
	// Head is the outbox head (OutboxHead) the caller read before this call, which keys the
	// count cache; 0 has it read here. The API has always just read it for its form cache, and
	// on PostgreSQL a second read is one more round trip.
	Head int64
}

var browseOrders = map[string]string{
	"best":    "p.level_score DESC, p.count_scorer DESC, p.id",
	"reviews": "p.count_scorer DESC, p.level_score DESC, p.id",
	"newest":  "p.create_at DESC, p.id DESC",
}

// BrowseProfiles answers the ids of one page of visible profiles matching f, in order, and how
// many match in all.
func (s *Store) BrowseProfiles(ctx context.Context, f BrowseFilter) ([]int64, int, error) {
	where, args := []string{visibleSQL}, []any{}
	if f.CityID > 0 {
		where, args = append(where, "p.city_id = ?"), append(args, f.CityID)
	}
	if f.ProvinceID > 0 {
		where, args = append(where, "p.province_id = ?"), append(args, f.ProvinceID)
	}
	if f.FieldID > 0 {
		where, args = append(where, "p.range_worker_id = ?"), append(args, f.FieldID)
	}
	from := "profiles p"
	if f.CategoryID > 0 {
		// Start from the category's few rows rather than walk the whole ordered index.
		from = "profile_categories pc " + s.fixedJoin() + " profiles p ON p.id = pc.profile_id"
		where, args = append(where, "pc.category_id = ?"), append(args, f.CategoryID)
	}
	if f.MinScore != nil {
		where, args = append(where, "p.score >= ?"), append(args, *f.MinScore)
	}
	if f.MinLevelScore != nil {
		where, args = append(where, "p.level_score >= ?"), append(args, *f.MinLevelScore)
	}
	order, ok := browseOrders[f.Order]
	if !ok {
		order = browseOrders["best"]
	}
	cond := strings.Join(where, " AND ")
	total, err := s.browseCount(ctx, f.Head, from, cond, args)
	if err != nil {
		return nil, 0, err
	}
	ids, err := queryIDs(ctx, s.read, `SELECT p.id FROM `+from+` WHERE `+cond+` ORDER BY `+order+` LIMIT ? OFFSET ?`,
		append(args, max(1, f.Limit), max(0, f.Offset))...)
	if err != nil {
		return nil, 0, fmt.Errorf("browse profiles: %w", err)
	}
	return ids, total, nil
}

// countCache remembers browse counts until the next write: counting every visible profile costs
// milliseconds, and browsing repeats the same few filters.
type countCache struct {
	mu     sync.Mutex
	head   int64
	counts map[string]int
}

// browseCount counts the profiles of a browse, through the cache at head (read here when 0). A
// count is read after its head was, so it is at least as new as the head it is cached under. A
// caller with an older head than the cache's (a slower request) is answered around the cache
// rather than send it back.
func (s *Store) browseCount(ctx context.Context, head int64, from, cond string, args []any) (int, error) {
	if head == 0 {
		var err error
		if head, err = s.OutboxHead(ctx); err != nil {
			return 0, err
		}
	}
	key := from + cond + fmt.Sprint(args...)
	s.counts.mu.Lock()
	if head > s.counts.head || s.counts.counts == nil || len(s.counts.counts) > 10000 {
		s.counts.head, s.counts.counts = max(head, s.counts.head), map[string]int{}
	}
	n, ok := s.counts.counts[key]
	ok = ok && s.counts.head == head
	s.counts.mu.Unlock()
	if ok {
		return n, nil
	}
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+from+` WHERE `+cond, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count profiles: %w", err)
	}
	s.counts.mu.Lock()
	if s.counts.head == head {
		s.counts.counts[key] = n
	}
	s.counts.mu.Unlock()
	return n, nil
}

// ProfileFact is what the orders and filters of a search compare for one visible profile.
type ProfileFact struct {
	ID          int64
	Score       float64
	LevelScore  float64
	CountScorer int
	Lat, Long   float64
	CreateAt    int64
	// Schedule is when it is open (open_now); its week is shared with the profiles that keep
	// the same one, and only to be read.
	Schedule Schedule
	// Prices are its services' prices in Toman, lowest first, each once (nil for no service).
	Prices []int64
}

// PricesOf answers the prices of services, lowest first, each once; nil for none.
func PricesOf(services []Service) []int64 {
	if len(services) == 0 {
		return nil
	}
	out := make([]int64, 0, len(services))
	for _, sv := range services {
		out = append(out, sv.Price)
	}
	return lowestFirst(out)
}

// lowestFirst sorts prices and drops repeats.
func lowestFirst(prices []int64) []int64 {
	slices.Sort(prices)
	return slices.Compact(prices)
}

// priceOnly decodes a service's price and skips the rest of it.
type priceOnly struct {
	Price int64 `json:"price"`
}

// ProfileIDBound answers the highest profile id there is (0 for none) and how many profiles
// there are, so a table by profile id can be allocated once at its size instead of grown (and
// copied) a row at a time.
func (s *Store) ProfileIDBound(ctx context.Context) (maxID, count int64, err error) {
	if err := s.read.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0), COUNT(*) FROM profiles`).Scan(&maxID, &count); err != nil {
		return 0, 0, fmt.Errorf("profile id bound: %w", err)
	}
	return maxID, count, nil
}

// VisibleProfileFacts calls fn with the facts of every publicly visible profile whose id is in
// [from, to). One pass over the table's range: through a visibility index and a sort it took
// four times as long.
func (s *Store) VisibleProfileFacts(ctx context.Context, from, to int64, fn func(ProfileFact)) error {
	rows, err := s.read.QueryContext(ctx, `SELECT p.id, p.score, p.level_score, p.count_scorer, COALESCE(p.lat, 0), COALESCE(p.long, 0),
		p.create_at, p.hours_of_work, p.special_days, p.open_on_holidays, p.services FROM profiles p`+s.notIndexed()+` WHERE `+visibleSQL+
		` AND p.id >= ? AND p.id < ?`, from, to)
	if err != nil {
		return fmt.Errorf("profile facts: %w", err)
	}
	defer rows.Close()
	var hours, special, services string
	var prices []priceOnly
	for rows.Next() {
		var f ProfileFact
		if err := rows.Scan(&f.ID, &f.Score, &f.LevelScore, &f.CountScorer, &f.Lat, &f.Long, &f.CreateAt, &hours, &special,
			&f.Schedule.OpenOnHolidays, &services); err != nil {
			return fmt.Errorf("profile facts: %w", err)
		}
		if f.Schedule.Week, err = s.weeks.hours(hours); err != nil {
			return fmt.Errorf("profile facts: profile %d: %w", f.ID, err)
		}
		if special != "[]" && special != "" {
			if err := jsonCompat.UnmarshalFromString(special, &f.Schedule.Special); err != nil {
				return fmt.Errorf("profile facts: profile %d: %w", f.ID, err)
			}
		}
		if services != "[]" && services != "" {
			prices = prices[:0]
			if err := jsonCompat.UnmarshalFromString(services, &prices); err != nil {
				return fmt.Errorf("profile facts: profile %d: %w", f.ID, err)
			}
			f.Prices = make([]int64, 0, len(prices))
			for _, p := range prices {
				f.Prices = append(f.Prices, p.Price)
			}
			f.Prices = lowestFirst(f.Prices)
		}
		fn(f)
	}
	return rows.Err()
}
