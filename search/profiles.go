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
	req := bleve.NewSearchRequestOptions(buildProfileQuery(q), q.Take, q.Skip, false)
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
	switch order {
	case OrderRelevance:
		req.SortBy([]string{"-_score", "-level_score"})
	case OrderBest:
		req.SortBy([]string{"-level_score", "-count_scorer"})
	case OrderReviews:
		req.SortBy([]string{"-count_scorer", "-level_score"})
	case OrderNewest:
		req.SortBy([]string{"-create_at"})
	case OrderNearest:
		geo, err := bsearch.NewSortGeoDistance("location", "m", q.Long, q.Lat, false)
		if err != nil {
			return nil, fmt.Errorf("search profiles: %w", err)
		}
		req.SortByCustom(bsearch.SortOrder{geo})
	}
	if order != OrderRelevance {
		req.Score = "none" // the order ignores relevance: skip computing it
	}
	res, err := ix.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search profiles: %w", err)
	}
	hits := &ProfileHits{IDs: make([]int64, 0, len(res.Hits)), Total: int(res.Total)}
	for _, h := range res.Hits {
		id, err := strconv.ParseInt(strings.TrimPrefix(h.ID, "p"), 10, 64)
		if err == nil {
			hits.IDs = append(hits.IDs, id)
		}
	}
	return hits, nil
}

func term(field, value string) *query.TermQuery {
	q := bleve.NewTermQuery(value)
	q.SetField(field)
	return q
}

// buildProfileQuery turns q into a Bleve query: every filter must hold, and the text (when any)
// must match in some spelling.
func buildProfileQuery(q ProfileQuery) query.Query {
	must := []query.Query{term("type", "profile")}
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
		g := bleve.NewGeoDistanceQuery(q.Long, q.Lat, strconv.FormatFloat(q.Radius, 'f', 0, 64)+"m")
		g.SetField("location")
		must = append(must, g)
	}
	if tq := textQuery(QueryTokens(q.Text), "text", "name", "en"); tq != nil {
		must = append(must, tq)
	}
	if len(must) == 1 {
		return must[0]
	}
	return bleve.NewConjunctionQuery(must...)
}

// textQuery matches every word, each in any of its forms: exact, with one typo (words of five
// letters or more), as the start of a word (the last word, as people type), or stemmed English.
// Several words also match written together without spaces («لوله کش» finds «لولهکش»). Words
// found in the name weigh more.
func textQuery(tokens []string, textField, nameField, enField string) query.Query {
	if len(tokens) == 0 {
		return nil
	}
	words := make([]query.Query, 0, len(tokens))
	names := make([]query.Query, 0, len(tokens))
	for i, t := range tokens {
		alts := []query.Query{term(textField, t)}
		if utf8.RuneCountInString(t) >= fuzzyMinRunes {
			f := bleve.NewFuzzyQuery(t)
			f.SetField(textField)
			f.SetFuzziness(1)
			f.SetBoost(0.6)
			alts = append(alts, f)
		}
		if i == len(tokens)-1 && utf8.RuneCountInString(t) >= 3 {
			p := bleve.NewPrefixQuery(t)
			p.SetField(textField)
			p.SetBoost(0.8)
			alts = append(alts, p)
		}
		if enField != "" && isLatin(t) {
			m := bleve.NewMatchQuery(t)
			m.SetField(enField)
			alts = append(alts, m)
		}
		words = append(words, bleve.NewDisjunctionQuery(alts...))
		n := term(nameField, t)
		n.SetBoost(2)
		names = append(names, n)
	}
	var all query.Query = bleve.NewConjunctionQuery(words...)
	if len(tokens) > 1 {
		all = bleve.NewDisjunctionQuery(all, term(textField, strings.Join(tokens, "")))
	}
	b := bleve.NewBooleanQuery()
	b.AddMust(all)
	b.AddShould(names...)
	return b
}

func isLatin(s string) bool {
	for _, r := range s {
		if r >= 0x0600 && r <= 0x06ff {
			return false
		}
	}
	return true
}
