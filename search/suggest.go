package search

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Suggestions answer what a person is typing: categories and cities whose names (Persian,
// English, the search synonyms, or their Finglish) start with it, and the best profiles whose
// name does.
type Suggestions struct {
	Categories []Place
	Cities     []Place
	Profiles   []int64 // ids, best first
}

// suggestKey is one name of the lexicon as suggestions compare it: folded, without spaces or
// zero-width non-joiners (so «لوله ک» reaches «لوله‌کش»), lower case.
type suggestKey struct {
	key   string
	entry *lexEntry
}

// suggestKeyOf answers the key a name or a typed prefix is compared by.
func suggestKeyOf(s string) string {
	return strings.Join(QueryTokens(s), "")
}

// buildSuggest files every name of the lexicon's entries, sorted, for prefix search.
func (lx *lexicon) buildSuggest(names map[*lexEntry][]string) {
	for e, ns := range names {
		seen := map[string]bool{}
		for _, n := range ns {
			k := suggestKeyOf(n)
			if k == "" || seen[k] {
				continue
			}
			seen[k] = true
			lx.suggest = append(lx.suggest, suggestKey{k, e})
		}
	}
	sort.Slice(lx.suggest, func(i, j int) bool {
		a, b := lx.suggest[i], lx.suggest[j]
		if a.key != b.key {
			return a.key < b.key
		}
		return a.entry.id < b.entry.id
	})
}

// maxSuggest bounds each list of an answer.
const maxSuggest = 6

// Suggest answers the suggestions for prefix, profiles limited to city when it is not "".
func (ix *Index) Suggest(ctx context.Context, prefix, city string) (*Suggestions, error) {
	out := &Suggestions{Categories: []Place{}, Cities: []Place{}, Profiles: []int64{}}
	tokens := QueryTokens(prefix)
	if len(tokens) == 0 {
		return out, nil
	}
	lx := ix.lexicon(ctx)
	if lx != nil {
		lx.suggestPlaces(strings.Join(tokens, ""), out)
	}
	ids, err := ix.suggestProfiles(ctx, tokens, city)
	if err != nil {
		return nil, fmt.Errorf("suggest: %w", err)
	}
	out.Profiles = ids
	return out, nil
}

// suggestPlaces fills the categories and cities whose names start with key: provincial capitals
// and favourite categories first, then the shortest name (the closest to what was typed), and, for a Latin key that starts no name, those whose
// Finglish skeleton starts with the key's.
func (lx *lexicon) suggestPlaces(key string, out *Suggestions) {
	type cand struct {
		e    *lexEntry
		rank int
	}
	best := map[*lexEntry]int{}
	i := sort.Search(len(lx.suggest), func(i int) bool { return lx.suggest[i].key >= key })
	for ; i < len(lx.suggest) && strings.HasPrefix(lx.suggest[i].key, key); i++ {
		s := lx.suggest[i]
		r := utf8.RuneCountInString(s.key)
		if old, ok := best[s.entry]; !ok || r < old {
			best[s.entry] = r
		}
		if len(best) > 200 {
			break
		}
	}
	if len(best) == 0 && isLatin(key) && len(key) >= 3 {
		sk := skeleton(key)
		if len(sk) >= 2 {
			j := sort.Search(len(lx.skelSorted), func(j int) bool { return lx.skelSorted[j].key >= sk })
			for ; j < len(lx.skelSorted) && strings.HasPrefix(lx.skelSorted[j].key, sk) && len(best) < 200; j++ {
				s := lx.skelSorted[j]
				e := lx.canonical(s.entry)
				if old, ok := best[e]; !ok || len(s.key) < old {
					best[e] = len(s.key)
				}
			}
		}
	}
	cands := make([]cand, 0, len(best))
	for e, r := range best {
		cands = append(cands, cand{e, r})
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.e.major != b.e.major {
			return a.e.major
		}
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		return a.e.id < b.e.id
	})
	for _, c := range cands {
		p := Place{Slug: c.e.slug, Fa: c.e.fa, En: c.e.en}
		switch {
		case c.e.kind == entCategory && len(out.Categories) < maxSuggest:
			out.Categories = append(out.Categories, p)
		case c.e.kind == entCity && len(out.Cities) < maxSuggest:
			out.Cities = append(out.Cities, p)
		}
	}
}

// canonical answers the entry a skeleton entry (a copy with its spelling) stands for.
func (lx *lexicon) canonical(e *lexEntry) *lexEntry {
	if c := lx.bySlug[string(rune('0'+e.kind))+e.slug]; c != nil {
		return c
	}
	return e
}

// suggestProfiles answers the best profiles (level_score) whose name holds the words typed, the
// last one as the start of a word.
func (ix *Index) suggestProfiles(ctx context.Context, tokens []string, city string) ([]int64, error) {
	q := suggestQuery(tokens, city)
	pc := &pageCollector{order: OrderBest, k: maxSuggest, docs: &ix.docs}
	err := errNoTiers // Bleve's way, unless the bitmaps answer
	if useBits {
		_, err = ix.collectBits(ctx, q, pc)
	}
	if err == errNoTiers {
		pc = &pageCollector{order: OrderBest, k: maxSuggest, docs: &ix.docs}
		req := bleve.NewSearchRequestOptions(q, collectAll, 0, false)
		req.Score = "none"
		_, err = ix.collectPage(ctx, req, pc)
	}
	if err != nil {
		return nil, err
	}
	if pc.ids == nil {
		return []int64{}, nil
	}
	return pc.ids, nil
}

// suggestQuery matches the profiles whose name holds tokens, the last one as the start of a
// word, in city when it is not "".
func suggestQuery(tokens []string, city string) query.Query {
	var must []query.Query
	if city != "" {
		must = append(must, term("city", city))
	}
	for i, t := range tokens {
		if i < len(tokens)-1 {
			must = append(must, term(fieldName, t))
			continue
		}
		if utf8.RuneCountInString(t) <= prefixMaxRunes {
			must = append(must, term(fieldNamePrefix, t))
		} else {
			p := bleve.NewPrefixQuery(t)
			p.SetField(fieldName)
			must = append(must, p)
		}
	}
	if len(must) == 1 {
		return must[0]
	}
	return bleve.NewConjunctionQuery(must...)
}
