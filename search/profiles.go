package search

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
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
}

// ProfileHits are the ids of one page of matches, in order, and the total match count.
type ProfileHits struct {
	IDs   []int64
	Total int
}

// SearchProfiles runs q: against the index when it has text or a place, otherwise as a browse
// of SQLite's ordered partial indexes, which answers in microseconds where the index would sort
// every document.
func (ix *Index) SearchProfiles(ctx context.Context, q ProfileQuery) (*ProfileHits, error) {
	tokens := QueryTokens(q.Text)
	if len(tokens) == 0 && !q.HasPoint {
		order := q.Order
		if order == "" || order == OrderRelevance || order == OrderNearest {
			order = OrderBest
		}
		ids, total, err := ix.st.BrowseProfiles(ctx, store.BrowseFilter{
			CityID: q.CityID, ProvinceID: q.Province, FieldID: q.FieldID, CategoryID: q.CategoryID,
			MinScore: q.MinScore, MinLevelScore: q.MinLevelScore, Order: order, Offset: q.Skip, Limit: q.Take,
		})
		if err != nil {
			return nil, fmt.Errorf("search profiles: %w", err)
		}
		return &ProfileHits{IDs: ids, Total: total}, nil
	}
	pq, plan, err := ix.buildProfileQuery(ctx, q, tokens)
	if err != nil {
		return nil, fmt.Errorf("search profiles: %w", err)
	}
	// Bleve finds the hits without scoring them, so it reads no term frequency, field length or
	// field of a hit; pageCollector keeps and orders the page from the facts table (order.go)
	// and, for relevance, from the ways the words matched (rank.go). It must see every hit:
	// asked for one page, Bleve stops early when nothing is scored, and its Total would stop
	// there too.
	req := bleve.NewSearchRequestOptions(pq, collectAll, 0, false)
	req.Score = "none"
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
	if order == OrderRelevance {
		// Sized before the facts are read-locked below: the sets are found by searches of
		// their own, and a read lock must not be taken twice while a writer may be waiting.
		ix.facts.mu.RLock()
		size := int64(len(ix.facts.rows))
		ix.facts.mu.RUnlock()
		rank, err := ix.rank(ctx, plan, size)
		if err != nil {
			return nil, fmt.Errorf("search profiles: %w", err)
		}
		defer rank.release()
		pc.rank, pc.ctx = rank, ctx
	}
	ctx = context.WithValue(ctx, bsearch.MakeDocumentMatchHandlerKey, bsearch.MakeDocumentMatchHandler(pc.handler))
	ix.facts.mu.RLock()
	pc.facts, pc.top, pc.topLevel = ix.facts.rows, ix.facts.top, float64(ix.facts.topLevel)
	res, err := ix.idx.SearchInContext(ctx, req)
	ix.facts.mu.RUnlock()
	if err != nil {
		return nil, fmt.Errorf("search profiles: %w", err)
	}
	if pc.err != nil {
		return nil, fmt.Errorf("search profiles: %w", pc.err)
	}
	if err := pc.used.check(); err != nil {
		return nil, fmt.Errorf("search profiles: %w", err)
	}
	if pc.rank != nil {
		if err := pc.rank.err(); err != nil {
			return nil, fmt.Errorf("search profiles: %w", err)
		}
	}
	total := int(res.Total)
	if pc.radius > 0 {
		total = pc.total // Bleve counted the covering cells' profiles, not the circle's
	}
	return &ProfileHits{IDs: pc.ids, Total: total}, nil
}

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
	fieldText   = "p_text"   // keywords, description, services, areas, options: folded
	fieldName   = "p_name"   // the name, folded: a word found here weighs more
	fieldPrefix = "p_prefix" // the text's words cut to their first 3..15 letters
	fieldEn     = "p_en"     // English names, stemmed
)

// Bounds of the edge n-grams in fieldPrefix; a longer word being typed falls back to a prefix
// query, which for so long a start expands to a handful of terms.
const (
	prefixMinRunes = 3
	prefixMaxRunes = 15
)

// buildProfileQuery turns q into a Bleve query: every filter must hold, and the text (when any)
// must match in some spelling. Profile fields are the profile's own, so no type filter is needed.
func (ix *Index) buildProfileQuery(ctx context.Context, q ProfileQuery, tokens []string) (query.Query, *rankPlan, error) {
	var must []query.Query
	var plan *rankPlan
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
	inclusive := true
	if q.MinScore != nil {
		r := bleve.NewNumericRangeInclusiveQuery(q.MinScore, nil, &inclusive, nil)
		r.SetField("score")
		must = append(must, r)
	}
	if q.MinLevelScore != nil {
		r := bleve.NewNumericRangeInclusiveQuery(q.MinLevelScore, nil, &inclusive, nil)
		r.SetField("level_score")
		must = append(must, r)
	}
	if q.HasPoint && q.Radius > 0 {
		// The exact cut is the collector's (see cellQuery).
		must = append(must, &cellQuery{lat: q.Lat, long: q.Long, radius: q.Radius, misses: &ix.cellMisses})
	}
	if len(tokens) > 0 {
		tq, p, err := ix.profileTextQuery(ctx, tokens)
		if err != nil {
			return nil, nil, err
		}
		must = append(must, tq)
		plan = p
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

// profileTextQuery matches every word, each in any of its forms: exact, as the start of a word
// (the last word, as people type), with one typo (a word of five letters or more that the index
// does not know, so the costly fuzzy expansion runs only for words likely mistyped), or stemmed
// English. Several words also match written together without spaces («لوله کش» finds «لولهکش»)
// when the index knows that spelling. Stop words among other words are left out: they are in
// nearly every profile. The plan answered weighs the ways each word matched (rank.go); a word
// found in the name is one more way, the heaviest, as the name is also part of the text.
func (ix *Index) profileTextQuery(ctx context.Context, tokens []string) (query.Query, *rankPlan, error) {
	r, err := ix.reader()
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	count := func(field, t string) (uint64, error) {
		tfr, err := r.TermFieldReader(ctx, []byte(t), field, false, false, false)
		if err != nil {
			return 0, err
		}
		defer tfr.Close()
		return tfr.Count(), nil
	}
	content := tokens[:0:0]
	for _, t := range tokens {
		if !stopWords[t] {
			content = append(content, t)
		}
	}
	if len(content) == 0 {
		content = tokens
	}
	plan := &rankPlan{words: make([][]matchWay, 0, len(content))}
	words := make([]query.Query, 0, len(content))
	for i, t := range content {
		runes := utf8.RuneCountInString(t)
		// The ways nest: the name is part of the text, and the starts of the text's words
		// include the words whole. A way holding as many profiles as the next wider one holds
		// the same profiles, and the lighter of the two is left out: it would match nothing
		// more, and the rank would read its postings for nothing.
		inText, err := count(fieldText, t)
		if err != nil {
			return nil, nil, err
		}
		var ways []matchWay // heaviest first
		var inName uint64
		if inText > 0 {
			if inName, err = count(fieldName, t); err != nil {
				return nil, nil, err
			}
			if inName > 0 {
				ways = append(ways, matchWay{term(fieldName, t), weightName, inName})
			}
			if inName < inText {
				ways = append(ways, matchWay{term(fieldText, t), weightWord, inText})
			}
		}
		if isLatin(t) {
			m := bleve.NewMatchQuery(t)
			m.SetField(fieldEn)
			ways = append(ways, matchWay{m, weightWord, 0})
		}
		if i == len(content)-1 && runes >= prefixMinRunes {
			if runes > prefixMaxRunes {
				pq := bleve.NewPrefixQuery(t)
				pq.SetField(fieldText)
				ways = append(ways, matchWay{pq, weightPrefix, 0})
			} else if starts, err := count(fieldPrefix, t); err != nil {
				return nil, nil, err
			} else if starts > inText {
				ways = append(ways, matchWay{term(fieldPrefix, t), weightPrefix, starts})
				if inText > 0 && inName < inText {
					plan.starts, plan.inText = t, inText
				}
			}
		}
		if inText == 0 && runes >= fuzzyMinRunes {
			f := bleve.NewFuzzyQuery(t)
			f.SetField(fieldText)
			f.SetFuzziness(1)
			ways = append(ways, matchWay{f, weightTypo, 0})
		}
		if len(ways) == 0 {
			// A short word the index does not know matches nothing; the joined form may.
			ways = append(ways, matchWay{term(fieldText, t), weightWord, 0})
		}
		plan.words = append(plan.words, ways)
		if len(ways) == 1 {
			words = append(words, ways[0].q)
			continue
		}
		alts := make([]query.Query, len(ways))
		for j, w := range ways {
			alts[j] = w.q
		}
		words = append(words, bleve.NewDisjunctionQuery(alts...))
	}
	all := words[0]
	if len(words) > 1 {
		all = bleve.NewConjunctionQuery(words...)
	}
	if len(tokens) > 1 {
		joined := strings.Join(tokens, "")
		n, err := count(fieldText, joined)
		if err != nil {
			return nil, nil, err
		}
		if n > 0 {
			plan.joined = term(fieldText, joined)
			all = bleve.NewDisjunctionQuery(all, plan.joined)
		}
	}
	return all, plan, nil
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
