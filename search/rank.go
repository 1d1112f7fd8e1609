package search

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

// The relevance of a profile to a text query is how its words matched: each word adds the weight
// of the best way it matched the profile, and profiles that match equally are ordered by
// level_score, then by the number of scores (as "best" orders). A word in the name weighs most,
// then the whole word in the text, then the start of a word (the last word, as people type), then
// a word one letter away.
//
// Bleve's own relevance (tf-idf) was used before; over generated or copied descriptions it ranks
// mostly by how short a profile's text is, and it must read the term frequency and field length of
// every hit, so a query matching 200,000 profiles of a million cost 70-170 ms. Ways of matching
// are sets of profiles instead: Bleve finds the hits without scoring them (unions and
// intersections of its postings bitmaps), and a hit's weight is a few bit tests.
const (
	weightName   = 3
	weightWord   = 2 // the whole word, or in English the word's stem
	weightPrefix = 1.5
	weightTypo   = 1
)

// matchWay is one way a word can match, with its weight.
type matchWay struct {
	q      query.Query
	weight float64
}

// rankPlan is what a text query's relevance needs: every word's ways, best first, and the joined
// form of the words (nil when the index does not hold it).
type rankPlan struct {
	words  [][]matchWay
	joined query.Query
	// starts is the last word when it matches both whole and as the start of longer words, and
	// inText how many profiles hold it whole (see startsOnly).
	starts string
	inText uint64
}

// textRank weighs the hits of one text query.
type textRank struct {
	words []wordRank
	// joined holds the profiles with the words written together; they count as matching every
	// word whole.
	joined      idSet
	joinedScore float64
	sets        []idSet // every set, to give back to the pool
}

// wordRank weighs one word: a hit in sets[i] weighs weights[i] (the first set that holds it), a
// hit in none of them the word's lightest way, rest.
type wordRank struct {
	sets    []idSet
	weights []float64
	rest    float64
}

// score answers the relevance of profile id.
func (t *textRank) score(id int64) float64 {
	var s float64
	for i := range t.words {
		w := &t.words[i]
		v := w.rest
		for j, set := range w.sets {
			if set.has(id) {
				v = w.weights[j]
				break
			}
		}
		s += v
	}
	if t.joined != nil && s < t.joinedScore && t.joined.has(id) {
		s = t.joinedScore
	}
	return s
}

// release gives the rank's sets back to the pool; the rank must not be used after.
func (t *textRank) release() {
	for _, s := range t.sets {
		idSetPool.Put(&s)
	}
	t.sets = nil
}

// rank finds, for every word, the profiles of each way heavier than the word's lightest (a hit
// matched by none of those matched by the lightest). size bounds the profile ids.
func (ix *Index) rank(ctx context.Context, plan *rankPlan, size int64) (*textRank, error) {
	t := &textRank{words: make([]wordRank, len(plan.words))}
	add := func(w *wordRank, q query.Query, weight float64) error {
		set, err := ix.collectIDs(ctx, q, size)
		if err != nil {
			return err
		}
		t.sets = append(t.sets, set)
		w.sets = append(w.sets, set)
		w.weights = append(w.weights, weight)
		return nil
	}
	for i, ways := range plan.words {
		w := &t.words[i]
		w.rest = ways[len(ways)-1].weight
		if i == len(plan.words)-1 && plan.starts != "" {
			only, err := ix.startsOnly(ctx, plan.starts, plan.inText, size)
			if err != nil {
				t.release()
				return nil, err
			}
			if only != nil {
				// The whole word is the rest: the ways heavier than it, then the few profiles
				// holding only longer words.
				for _, way := range ways {
					if way.weight > weightWord {
						if err := add(w, way.q, way.weight); err != nil {
							idSetPool.Put(&only)
							t.release()
							return nil, err
						}
					}
				}
				t.sets = append(t.sets, only)
				w.sets = append(w.sets, only)
				w.weights = append(w.weights, weightPrefix)
				w.rest = weightWord
				continue
			}
		}
		for _, way := range ways {
			if way.weight <= w.rest {
				break
			}
			if err := add(w, way.q, way.weight); err != nil {
				t.release()
				return nil, err
			}
		}
	}
	if plan.joined != nil {
		set, err := ix.collectIDs(ctx, plan.joined, size)
		if err != nil {
			t.release()
			return nil, err
		}
		t.sets = append(t.sets, set)
		t.joined = set
		t.joinedScore = weightWord * float64(len(plan.words))
	}
	return t, nil
}

// startsOnly answers the profiles holding a longer word that starts with word but not the word
// itself, or nil when finding them would cost about as much as reading the profiles that hold
// the word (inText of them). A query's last word matches both ways; the whole word weighs
// more, and telling the two apart from the word's own postings means reading all of them: for
// «محل», 413,000 profiles at a million, against 262 that hold only «محله» or «محلی».
func (ix *Index) startsOnly(ctx context.Context, word string, inText uint64, size int64) (idSet, error) {
	r, err := ix.reader()
	if err != nil {
		return nil, fmt.Errorf("rank text: %w", err)
	}
	defer r.Close()
	dict, err := r.FieldDictPrefix(fieldText, []byte(word))
	if err != nil {
		return nil, fmt.Errorf("rank text: %w", err)
	}
	var longer []string
	var postings uint64
	for {
		e, err := dict.Next()
		if err != nil {
			dict.Close()
			return nil, fmt.Errorf("rank text: %w", err)
		}
		if e == nil {
			break
		}
		if e.Term == word {
			continue
		}
		longer = append(longer, e.Term)
		postings += e.Count
		if postings > inText/4 || len(longer) > maxLongerWords {
			dict.Close()
			return nil, nil
		}
	}
	dict.Close()
	// The documents holding a longer word, by number, once each and in order.
	var nums []uint64
	var doc index.TermFieldDoc
	for _, term := range longer {
		tfr, err := r.TermFieldReader(ctx, []byte(term), fieldText, false, false, false)
		if err != nil {
			return nil, fmt.Errorf("rank text: %w", err)
		}
		for {
			d, err := tfr.Next(&doc)
			if err != nil {
				tfr.Close()
				return nil, fmt.Errorf("rank text: %w", err)
			}
			if d == nil {
				break
			}
			nums = append(nums, d.ID.Value())
			doc.Reset()
		}
		tfr.Close()
	}
	slices.Sort(nums)
	nums = slices.Compact(nums)
	// Of those, the ones the word's own postings skip.
	whole, err := r.TermFieldReader(ctx, []byte(word), fieldText, false, false, false)
	if err != nil {
		return nil, fmt.Errorf("rank text: %w", err)
	}
	defer whole.Close()
	view := ix.docs.view(r)
	set := newIDSet(size)
	// next is the word's first document at or after the last number asked, once advanced.
	var next uint64
	advanced, more := false, true
	for _, num := range nums {
		if more && (!advanced || num > next) {
			advanced = true
			d, err := whole.Advance(index.NewIndexInternalID(nil, num), &doc)
			if err != nil {
				idSetPool.Put(&set)
				return nil, fmt.Errorf("rank text: %w", err)
			}
			if d == nil {
				more = false
			} else {
				next = d.ID.Value()
				doc.Reset()
			}
		}
		if more && next == num {
			continue
		}
		id, err := view.profileIDOfNumber(num)
		if err != nil {
			idSetPool.Put(&set)
			return nil, fmt.Errorf("rank text: %w", err)
		}
		set.add(id)
	}
	return set, nil
}

// maxLongerWords bounds the postings lists startsOnly opens.
const maxLongerWords = 256

// collectIDs answers the set of profiles q matches, found without scoring.
func (ix *Index) collectIDs(ctx context.Context, q query.Query, size int64) (idSet, error) {
	if tq, ok := q.(*query.TermQuery); ok {
		return ix.collectTermIDs(ctx, tq, size)
	}
	set := newIDSet(size)
	var failed error
	h := func(sctx *bsearch.SearchContext) (bsearch.DocumentMatchHandler, bool, error) {
		view := ix.docs.view(sctx.IndexReader)
		return func(d *bsearch.DocumentMatch) error {
			if d == nil {
				return nil
			}
			id, err := view.profileID(d)
			sctx.DocumentMatchPool.Put(d)
			if err != nil {
				failed = err
				return err
			}
			set.add(id)
			return nil
		}, false, nil
	}
	req := bleve.NewSearchRequestOptions(q, collectAll, 0, false)
	req.Score = "none"
	ctx = context.WithValue(ctx, bsearch.MakeDocumentMatchHandlerKey, bsearch.MakeDocumentMatchHandler(h))
	if _, err := ix.idx.SearchInContext(ctx, req); err != nil || failed != nil {
		idSetPool.Put(&set)
		if err == nil {
			err = failed
		}
		return nil, fmt.Errorf("rank text: %w", err)
	}
	return set, nil
}

// collectTermIDs answers the profiles holding one term: its postings list read directly, which
// costs a third of a search for it.
func (ix *Index) collectTermIDs(ctx context.Context, q *query.TermQuery, size int64) (idSet, error) {
	r, err := ix.reader()
	if err != nil {
		return nil, fmt.Errorf("rank text: %w", err)
	}
	defer r.Close()
	tfr, err := r.TermFieldReader(ctx, []byte(q.Term), q.Field(), false, false, false)
	if err != nil {
		return nil, fmt.Errorf("rank text: %w", err)
	}
	defer tfr.Close()
	view := ix.docs.view(r)
	set := newIDSet(size)
	var doc index.TermFieldDoc
	for {
		d, err := tfr.Next(&doc)
		if err == nil && d == nil {
			return set, nil
		}
		var id int64
		if err == nil {
			id, err = view.profileIDOfNumber(d.ID.Value())
		}
		if err != nil {
			idSetPool.Put(&set)
			return nil, fmt.Errorf("rank text: %w", err)
		}
		set.add(id)
		doc.Reset()
	}
}

// idSet is a set of profile ids, one bit each.
type idSet []uint64

// idSetPool keeps sets between searches: at a million profiles one is 128 KiB.
var idSetPool sync.Pool

// newIDSet answers an empty set for the ids below size.
func newIDSet(size int64) idSet {
	words := int((size + 63) / 64)
	if p, ok := idSetPool.Get().(*idSet); ok && cap(*p) >= words {
		s := (*p)[:words]
		clear(s)
		return s
	}
	return make(idSet, words)
}

func (s idSet) add(id int64) {
	if id >= 0 && id/64 < int64(len(s)) {
		s[id/64] |= 1 << (id % 64)
	}
}

func (s idSet) remove(id int64) {
	if id >= 0 && id/64 < int64(len(s)) {
		s[id/64] &^= 1 << (id % 64)
	}
}

func (s idSet) has(id int64) bool {
	return id >= 0 && id/64 < int64(len(s)) && s[id/64]&(1<<(id%64)) != 0
}
