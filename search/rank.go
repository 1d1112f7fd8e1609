package search

import (
	"context"
	"fmt"
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
// intersections of its postings bitmaps), and a hit's weight is a few bit tests, or for a way
// that many profiles hold, a step along its postings (only for hits that could reach the page).
const (
	weightName   = 3
	weightWord   = 2 // the whole word, or in English the word's stem
	weightPrefix = 1.5
	weightTypo   = 1
)

// matchWay is one way a word can match, with its weight and, for a term, how many profiles
// hold it (0 when unknown).
type matchWay struct {
	q      query.Query
	weight float64
	count  uint64
}

// rankPlan is what a text query's relevance needs: every word's ways, best first, and the joined
// form of the words (nil when the index does not hold it).
type rankPlan struct {
	words  [][]matchWay
	joined query.Query
	// starts is the last word when it matches both whole and as the start of longer words,
	// inText how many profiles hold it whole and longer how many a longer word starting with it
	// (see startsOnly).
	starts         string
	inText, longer uint64
	// anyWord: a hit needs only one word (a fallback), so a word none of whose ways holds a hit
	// adds nothing.
	anyWord bool
}

// textRank weighs the hits of one text query.
type textRank struct {
	words []wordRank
	// joined holds the profiles with the words written together; they count as matching every
	// word whole.
	joined      idSet
	joinedScore float64
	sets        []idSet     // every set, to give back to the pool
	lazy        []*postings // every way read along with the hits
}

// wordRank weighs one word: a hit weighs the weight of the first of its ways that holds it, or
// rest (the word's lightest way) when none does. The ways are heaviest first, except a
// starts-only set (see startsOnly), which is lighter than rest and comes last.
type wordRank struct {
	ways []wayCheck
	rest float64
}

// wayCheck tells whether a hit matched one way: through the set of the way's profiles, or, for a
// way held by many profiles, by reading its postings along with the hits (postings).
type wayCheck struct {
	weight float64
	set    idSet
	lazy   *postings
}

// lazyMinPostings is the size from which a way is read along with the hits rather than made
// into a set before the search: a set costs a read of every posting, and a hit that cannot
// reach the page (most of them) never needs to know. A variable for the tests, which try both.
var lazyMinPostings uint64 = 32 << 10

// upper answers a bound of the relevance of profile id: its weight if every way read along
// with the hits held it.
func (t *textRank) upper(id int64) float64 {
	return t.weigh(id, 0, false)
}

// score answers the relevance of profile id, document number num of the search's snapshot.
// Hits must be asked in rising order of num.
func (t *textRank) score(id int64, num uint64) float64 {
	return t.weigh(id, num, true)
}

func (t *textRank) weigh(id int64, num uint64, exact bool) float64 {
	var s float64
	for i := range t.words {
		w := &t.words[i]
		v := w.rest
		for _, way := range w.ways {
			if way.set != nil && way.set.has(id) || way.lazy != nil && (!exact || way.lazy.holds(num)) {
				v = way.weight
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

// open starts the ways read along with the hits on r, the search's snapshot.
func (t *textRank) open(ctx context.Context, r index.IndexReader) error {
	for _, p := range t.lazy {
		tfr, err := r.TermFieldReader(ctx, []byte(p.term), p.field, false, false, false)
		if err != nil {
			return fmt.Errorf("rank text: %w", err)
		}
		p.tfr = tfr
	}
	return nil
}

// err answers the first error met reading a way along with the hits.
func (t *textRank) err() error {
	for _, p := range t.lazy {
		if p.err != nil {
			return fmt.Errorf("rank text: %w", p.err)
		}
	}
	return nil
}

// release gives the rank's sets back to the pool and closes its readers; the rank must not be
// used after.
func (t *textRank) release() {
	for _, s := range t.sets {
		idSetPool.Put(&s)
	}
	t.sets = nil
	for _, p := range t.lazy {
		if p.tfr != nil {
			p.tfr.Close()
		}
	}
	t.lazy = nil
}

// postings reads one term's postings along with rising document numbers.
type postings struct {
	term, field string
	tfr         index.TermFieldReader
	next        uint64 // the term's first document at or after the last number asked
	advanced    bool
	done        bool // no document at or after the last number asked
	doc         index.TermFieldDoc
	target      index.IndexInternalID
	err         error
}

// holds reports whether the term's postings hold document num; num must not fall.
func (p *postings) holds(num uint64) bool {
	if p.done || p.tfr == nil {
		return false
	}
	if !p.advanced || num > p.next {
		p.advanced = true
		p.target = index.NewIndexInternalID(p.target, num)
		d, err := p.tfr.Advance(p.target, &p.doc)
		if err != nil || d == nil {
			p.done, p.err = true, err
			return false
		}
		p.next = d.ID.Value()
	}
	return p.next == num
}

// rank prepares the weighing of a text query's hits: for every word, each way heavier than the
// word's lightest (a hit matched by none of those matched by the lightest) becomes a set of
// profiles, or, when many profiles hold it, is read along with the hits. size bounds the
// profile ids.
func (ix *Index) rank(ctx context.Context, plan *rankPlan, size int64) (*textRank, error) {
	t := &textRank{words: make([]wordRank, len(plan.words))}
	add := func(w *wordRank, way matchWay) error {
		if tq, ok := way.q.(*query.TermQuery); ok && way.count >= lazyMinPostings {
			p := &postings{term: tq.Term, field: tq.Field()}
			t.lazy = append(t.lazy, p)
			w.ways = append(w.ways, wayCheck{weight: way.weight, lazy: p})
			return nil
		}
		set, err := ix.collectIDs(ctx, way.q, size)
		if err != nil {
			return err
		}
		t.sets = append(t.sets, set)
		w.ways = append(w.ways, wayCheck{weight: way.weight, set: set})
		return nil
	}
	for i, ways := range plan.words {
		w := &t.words[i]
		w.rest = ways[len(ways)-1].weight
		if plan.anyWord {
			w.rest = 0
		}
		if i == len(plan.words)-1 && plan.starts != "" && !plan.anyWord {
			only, err := ix.startsOnly(ctx, plan.starts, plan.inText, plan.longer, size)
			if err != nil {
				t.release()
				return nil, err
			}
			if only != nil {
				// The whole word is the rest: the ways heavier than it, then the few profiles
				// holding only longer words.
				for _, way := range ways {
					if way.weight > weightWord {
						if err := add(w, way); err != nil {
							idSetPool.Put(&only)
							t.release()
							return nil, err
						}
					}
				}
				t.sets = append(t.sets, only)
				w.ways = append(w.ways, wayCheck{weight: weightPrefix, set: only})
				w.rest = weightWord
				continue
			}
		}
		for _, way := range ways {
			if way.weight <= w.rest {
				break
			}
			if err := add(w, way); err != nil {
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
// the word (inText of them; longer hold a longer word). A query's last word matches both ways;
// the whole word weighs more, and telling the two apart from the postings of the word whole
// means reading all of them: for «محل», 413,000 profiles at a million, against 262 that hold
// only «محله» or «محلی». The word's starts postings (fieldPrefix) are those holding a longer
// word: the few of them the word's own postings skip are the set.
func (ix *Index) startsOnly(ctx context.Context, word string, inText, longer uint64,
	size int64) (idSet, error) {
	if !startsOnlyPays(inText, longer) {
		return nil, nil
	}
	r, err := ix.reader()
	if err != nil {
		return nil, fmt.Errorf("rank text: %w", err)
	}
	defer r.Close()
	starts, err := r.TermFieldReader(ctx, []byte(word), fieldPrefix, false, false, false)
	if err != nil {
		return nil, fmt.Errorf("rank text: %w", err)
	}
	defer starts.Close()
	whole := &postings{}
	if whole.tfr, err = r.TermFieldReader(ctx, []byte(word), fieldText, false, false, false); err != nil {
		return nil, fmt.Errorf("rank text: %w", err)
	}
	defer whole.tfr.Close()
	view := ix.docs.view(r)
	set := newIDSet(size)
	var doc index.TermFieldDoc
	for {
		d, err := starts.Next(&doc)
		if err == nil && d == nil {
			return set, nil
		}
		if err != nil {
			idSetPool.Put(&set)
			return nil, fmt.Errorf("rank text: %w", err)
		}
		num := d.ID.Value()
		doc.Reset()
		if whole.holds(num) {
			continue
		}
		if whole.err != nil {
			idSetPool.Put(&set)
			return nil, fmt.Errorf("rank text: %w", whole.err)
		}
		id, err := view.profileIDOfNumber(num)
		if err != nil {
			idSetPool.Put(&set)
			return nil, fmt.Errorf("rank text: %w", err)
		}
		set.add(id)
	}
}

// startsOnlyPays reports whether the starts-only set is worth finding: the profiles holding a
// longer word (longer) are read once each, against reading along the inText holding the word.
func startsOnlyPays(inText, longer uint64) bool { return longer <= inText/4 }

// collectIDs answers the set of profiles q matches, found without scoring.
func (ix *Index) collectIDs(ctx context.Context, q query.Query, size int64) (idSet, error) {
	if tq, ok := q.(*query.TermQuery); ok {
		return ix.collectTermIDs(ctx, tq, size)
	}
	set := newIDSet(size)
	var failed error
	var used handlerUse
	h := func(sctx *bsearch.SearchContext) (bsearch.DocumentMatchHandler, bool, error) {
		used.made = true
		view := ix.docs.view(sctx.IndexReader)
		return func(d *bsearch.DocumentMatch) error {
			if d == nil {
				used.ended = true
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
	_, err := ix.idx.SearchInContext(ctx, req)
	if err == nil {
		err = failed
	}
	if err == nil {
		err = used.check()
	}
	if err != nil {
		idSetPool.Put(&set)
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
