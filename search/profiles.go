package search

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"kardan/store"
)

// Orders of a profile search.
const (
	OrderRelevance = "relevance"
	OrderBest      = "best"
	OrderReviews   = "reviews"
	OrderNearest   = "nearest"
	OrderNewest    = "newest"
)

// ValidOrder reports whether o is a known order ("" picks the default).
func ValidOrder(o string) bool {
	switch o {
	case "", OrderRelevance, OrderBest, OrderReviews, OrderNearest, OrderNewest:
		return true
	}
	return false
}

// ProfileQuery is a searchUser request, already validated and resolved by the caller.
type ProfileQuery struct {
	Text string
	// City is a city slug ("" for all Iran) and CityID its id; Province a province id (0 for all).
	City     string
	CityID   int64
	Province int64
	// Field and Category are slugs of a field of work or of a category ("" for any), with ids.
	Field, Category     string
	FieldID, CategoryID int64
	// Point and Radius (metres) restrict to a circle when HasPoint and Radius > 0.
	HasPoint      bool
	Lat, Long     float64
	Radius        float64
	MinScore      *float64
	MinLevelScore *float64
	Order         string
	Skip, Take    int
	// OpenNow keeps only the profiles open at Now (in the operator's time zone).
	OpenNow bool
	Now     time.Time
	// PriceMin and PriceMax (Toman, 0 for no bound) keep only the profiles offering a service
	// priced within them.
	PriceMin, PriceMax int64
	// Head is the outbox head the caller read before the search, for the store's browse count
	// cache (store.BrowseFilter.Head); 0 has the store read it.
	Head int64
}

// priced reports whether q filters on price.
func (q *ProfileQuery) priced() bool { return q.PriceMin > 0 || q.PriceMax > 0 }

// ProfileHits are the ids of one page of matches, in order, and the total match count.
type ProfileHits struct {
	IDs   []int64
	Total int
	// Fallback is set when the text as typed matched nothing and the answer holds what matches
	// any of its words or the category it names instead.
	Fallback *Fallback
	// DidYouMean is the query with its unknown words replaced by the index's nearest ones, when
	// some word is unknown ("" otherwise).
	DidYouMean string
}

// Fallback says what a fallback answer shows instead of an exact match.
type Fallback struct {
	// Category is the category (or field) the query named, when it named one: its slug and
	// Persian and English names. City is the city named by the query or the filter.
	Category *Place
	City     *Place
}

// Place is a category or a city named in an answer.
type Place struct {
	Slug, Fa, En string
}

// SearchProfiles runs q: against the index when it has text or a place, otherwise as a browse
// of SQLite's ordered partial indexes, which answers in microseconds where the index would sort
// every document.
func (ix *Index) SearchProfiles(ctx context.Context, q ProfileQuery) (*ProfileHits, error) {
	hits, tp, err := ix.searchProfiles(ctx, q, false)
	if err != nil || tp == nil || hits.Total > 0 && len(tp.unknown) == 0 {
		return hits, err
	}
	tokens := QueryTokens(q.Text)
	if hits.Total == 0 && (len(tp.units) > 1 || len(tp.units) == 1 && len(tp.units[0].entries) > 0) {
		// Nothing has every word: what has any of them, the named category's profiles first.
		any, _, err := ix.searchProfiles(ctx, q, true)
		if err != nil {
			return nil, err
		}
		if any.Total > 0 {
			any.Fallback = fallbackOf(tp, q, ix.lexicon(ctx))
			hits = any
		}
	}
	if len(tp.unknown) > 0 {
		if hits.DidYouMean, err = ix.didYouMean(tokens, tp.unknown); err != nil {
			return nil, err
		}
	}
	return hits, nil
}

// Browses reports whether q is a browse: no text, no point, no hours and no prices, which
// SQLite's browse knows nothing of (those filters are the collector's).
func (q *ProfileQuery) Browses() bool { return len(QueryTokens(q.Text)) == 0 && q.browsable() }

// browsable reports whether q, without its text, is a browse.
func (q *ProfileQuery) browsable() bool { return !q.HasPoint && !q.OpenNow && !q.priced() }

// Browse answers a query that Browses from the database alone, as SearchProfiles does: a server
// whose index is still being built answers these with it.
func Browse(ctx context.Context, st *store.Store, q ProfileQuery) (*ProfileHits, error) {
	order := q.Order
	if order == "" || order == OrderRelevance || order == OrderNearest {
		order = OrderBest
	}
	ids, total, err := st.BrowseProfiles(ctx, store.BrowseFilter{
		CityID: q.CityID, ProvinceID: q.Province, FieldID: q.FieldID, CategoryID: q.CategoryID,
		MinScore: q.MinScore, MinLevelScore: q.MinLevelScore, Order: order, Offset: q.Skip, Limit: q.Take, Head: q.Head,
	})
	if err != nil {
		return nil, fmt.Errorf("search profiles: %w", err)
	}
	return &ProfileHits{IDs: ids, Total: total}, nil
}

// fallbackOf describes a fallback answer: the category the query named, and the city it or its
// filter named.
func fallbackOf(tp *textPlan, q ProfileQuery, lx *lexicon) *Fallback {
	fb := &Fallback{}
	for _, u := range tp.units {
		for _, e := range u.entries {
			p := &Place{Slug: e.slug, Fa: e.fa, En: e.en}
			if e.kind == entCity && fb.City == nil {
				fb.City = p
			} else if e.kind == entCategory && fb.Category == nil {
				fb.Category = p
			}
		}
	}
	if q.City != "" {
		fb.City = nil
		if lx != nil {
			for _, e := range lx.entries {
				if e.kind == entCity && e.slug == q.City {
					fb.City = &Place{Slug: e.slug, Fa: e.fa, En: e.en}
				}
			}
		}
	}
	return fb
}

// searchProfiles runs q, every word required or (anyWord) any; it answers the text plan when
// the query had text.
func (ix *Index) searchProfiles(ctx context.Context, q ProfileQuery, anyWord bool) (*ProfileHits, *textPlan, error) {
	tokens := QueryTokens(q.Text)
	if len(tokens) == 0 && q.browsable() {
		hits, err := Browse(ctx, ix.st, q)
		return hits, nil, err
	}
	pq, tp, err := ix.buildProfileQuery(ctx, q, tokens, anyWord)
	if err != nil {
		return nil, nil, fmt.Errorf("search profiles: %w", err)
	}
	var plan *rankPlan
	if tp != nil {
		plan = tp.rank
	}
	order := q.Order
	if order == "" {
		switch {
		case len(tokens) > 0:
			order = OrderRelevance
		case q.HasPoint:
			order = OrderNearest
		default:
			order = OrderBest
		}
	}
	if order == OrderNearest && !q.HasPoint {
		order = OrderBest
	}
	if order == OrderRelevance && len(tokens) == 0 {
		order = OrderBest
	}
	pc := &pageCollector{order: order, lat: q.Lat, long: q.Long, k: q.Skip + q.Take, skip: q.Skip, docs: &ix.docs}
	if q.HasPoint && q.Radius > 0 {
		pc.setRadius(q.Radius)
	}
	if q.OpenNow {
		m := store.MomentOf(q.Now)
		pc.open = &m
	}
	if q.priced() {
		pc.priced, pc.priceLo, pc.priceHi = true, q.PriceMin, q.PriceMax
	}
	pc.minScore, pc.minLevel = q.MinScore, q.MinLevelScore
	if order == OrderRelevance && plan != nil && useTiers && !pc.counts() {
		total, err := ix.searchTiers(ctx, pq, plan, pc)
		if err == nil {
			return &ProfileHits{IDs: pc.ids, Total: total}, tp, nil
		}
		if err != errNoTiers {
			return nil, nil, fmt.Errorf("search profiles: %w", err)
		}
		pc.kept, pc.ids = nil, nil
	}
	if order == OrderRelevance {
		// Sized before collectPage read-locks the facts: the sets are found by searches of
		// their own, and a read lock must not be taken twice while a writer may be waiting.
		ix.facts.mu.RLock()
		size := int64(len(ix.facts.rows))
		ix.facts.mu.RUnlock()
		rank, err := ix.rank(ctx, plan, size)
		if err != nil {
			return nil, nil, fmt.Errorf("search profiles: %w", err)
		}
		defer rank.release()
		pc.rank, pc.ctx = rank, ctx
	}
	if _, all := pq.(*query.MatchAllQuery); all && pc.rank == nil {
		n := ix.scanFacts(pc)
		if pc.counts() {
			n = pc.total
		}
		return &ProfileHits{IDs: pc.ids, Total: n}, tp, nil
	}
	if pc.rank == nil && useBits {
		n, err := ix.collectBits(ctx, pq, pc)
		if err == nil {
			if pc.counts() {
				n = pc.total
			}
			return &ProfileHits{IDs: pc.ids, Total: n}, tp, nil
		}
		if err != errNoTiers {
			return nil, nil, fmt.Errorf("search profiles: %w", err)
		}
	}
	// Bleve finds the hits without scoring them, so it reads no term frequency, field length or
	// field of a hit; pageCollector keeps and orders the page from the facts table (facts.go, order.go)
	// and, for relevance, from the ways the words matched (rank.go). It must see every hit:
	// asked for one page, Bleve stops early when nothing is scored, and its Total would stop
	// there too. The request is made only here: the paths above answer without it.
	req := bleve.NewSearchRequestOptions(pq, collectAll, 0, false)
	req.Score = "none"
	res, err := ix.collectPage(ctx, req, pc)
	if err != nil {
		return nil, nil, fmt.Errorf("search profiles: %w", err)
	}
	if pc.rank != nil {
		if err := pc.rank.err(); err != nil {
			return nil, nil, fmt.Errorf("search profiles: %w", err)
		}
	}
	total := int(res.Total)
	if pc.counts() {
		total = pc.total // Bleve counted the covering cells' profiles, not the circle's, and before the sifting
	}
	return &ProfileHits{IDs: pc.ids, Total: total}, tp, nil
}

// useTiers: relevance pages come from tiers of weight (tiers.go) where they can; the tests turn
// it off to compare with the plain path.
var useTiers = true

// useBits: pages in an order of the facts table (not relevance) and suggestions collect their
// hits from bitmaps of the postings (collectBits); the tests turn it off to compare with Bleve's
// searcher.
var useBits = true

func term(field, value string) *query.TermQuery {
	q := bleve.NewTermQuery(value)
	q.SetField(field)
	return q
}

// collectAll is the page size asked of Bleve: more hits than an index holds, so it never stops
// early (it preallocates for at most a thousand).
const collectAll = 1 << 30

// Profile fields of the index (see newMapping).
const (
	fieldText       = "p_text"    // keywords, description, services, areas, options: folded
	fieldName       = "p_name"    // the name, folded: a word found here weighs more
	fieldPrefix     = "p_prefix"  // the text's words cut to their first 3..15 letters
	fieldEn         = "p_en"      // English names, stemmed
	fieldNamePrefix = "p_nprefix" // the name's words cut to their first 1..15 letters (suggestions)
	fieldStem       = "p_stem"    // the stems of the name's and text's words that are not the word itself
)

// Bounds of the starts in fieldPrefix (filters.go); a longer word being typed falls back to a
// prefix query, which for so long a start expands to a handful of terms.
const (
	prefixMinRunes = 3
	prefixMaxRunes = 15
)

// buildProfileQuery turns q into a Bleve query: every filter must hold, and the text (when any)
// must match in some spelling. Profile fields are the profile's own, so no type filter is needed.
func (ix *Index) buildProfileQuery(ctx context.Context, q ProfileQuery, tokens []string, anyWord bool) (query.Query, *textPlan, error) {
	var must []query.Query
	var plan *textPlan
	if q.City != "" {
		must = append(must, term("city", q.City))
	}
	if q.Province > 0 {
		must = append(must, term("province", strconv.FormatInt(q.Province, 10)))
	}
	if q.Field != "" {
		must = append(must, term("field", q.Field))
	}
	if q.Category != "" {
		must = append(must, term("categories", q.Category))
	}
	if q.HasPoint && q.Radius > 0 {
		// The exact cut is the collector's (see cellQuery).
		must = append(must, &cellQuery{lat: q.Lat, long: q.Long, radius: q.Radius, misses: &ix.cellMisses})
	}
	if len(tokens) > 0 {
		tp, err := ix.profileTextQuery(ctx, tokens, anyWord)
		if err != nil {
			return nil, nil, err
		}
		must = append(must, tp.q)
		plan = tp
	}
	switch len(must) {
	case 0:
		// A point with no radius and no filter: every profile has a location.
		return bleve.NewMatchAllQuery(), nil, nil
	case 1:
		return must[0], plan, nil
	}
	return bleve.NewConjunctionQuery(must...), plan, nil
}

// stopWords are Persian words so common that requiring them narrows nothing ("and", "in", "to",
// "from", "with", ...), folded as QueryTokens folds them.
var stopWords = map[string]bool{
	"و": true, "در": true, "به": true, "از": true, "با": true, "که": true, "را": true, "تا": true,
	"یا": true, "این": true, "ان": true, "برای": true, "های": true, "ها": true, "هم": true,
}

// reader opens a snapshot of the index for dictionary lookups; the caller closes it.
func (ix *Index) reader() (index.IndexReader, error) {
	adv, err := ix.idx.Advanced()
	if err != nil {
		return nil, err
	}
	return adv.Reader()
}

// isLatin reports whether s has no Arabic-script letter, so English stemming may apply.
func isLatin(s string) bool {
	for _, r := range s {
		if r >= 0x0600 && r <= 0x06ff {
			return false
		}
	}
	return true
}
