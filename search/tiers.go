package search

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// The relevance page of a broad text query, by tiers of weight. A hit's relevance is a sum over
// the query's words of a few discrete weights (rank.go), so the hits fall into a handful of
// tiers of equal weight, and every hit of a heavier tier ranks before every hit of a lighter
// one. Walking the hits one by one through Bleve (the plain path, pageCollector with textRank)
// costs 30-50 ns a hit, and a broad query at a million profiles has 200,000-400,000 of them,
// nearly all in the lightest tiers. Here the tiers are found as bitmaps of document numbers, per
// segment, straight from the postings (unions, intersections and differences of roaring
// bitmaps, as Bleve's own unadorned searchers make them): the count is the cardinality of the
// hits' bitmap, and the page is collected tier by tier, heaviest first, stopping once it is full
// (every hit of a lighter tier weighs less than the whole page). Within the last tier needed,
// the hits are compared by level_score, with facts.top passing over all but the best.
//
// It gives exactly the plain path's page and count (tiers_test.go compares them over the
// relevance set and random queries): the tiers apply textRank's rule (a word weighs as the first
// of its ways that holds the hit, else its rest; the joined form lifts a hit to its score), the
// order is the same keys and the same tie on the profile id. It answers only relevance pages
// without a radius, open-now or price filter (those are the collector's, hit by hit), and gives
// way to the plain path (counted in FastPathMisses.Tiers) when the reader is not a scorch
// snapshot or a segment's postings are not bitmaps.

// errNoTiers says the tiers cannot answer this search; the plain path does.
var errNoTiers = fmt.Errorf("search: no tiers for this reader")

// segBits is a set of documents of one snapshot, one bitmap of segment-local numbers per
// segment (nil for none). Bitmaps may be postings shared with the index: never changed in place.
type segBits []*roaring.Bitmap

// bitsEval evaluates queries to document bitmaps over one snapshot.
type bitsEval struct {
	ctx   context.Context
	snap  *scorch.IndexSnapshot
	segs  []*scorch.SegmentSnapshot
	dicts []map[string]segment.TermDictionary
	view  *docView
	ix    *Index
	// memo holds what terms and the queries given to Bleve's searcher matched: a query's words
	// come back as the ways of its rank.
	terms    map[string]segBits
	searched map[query.Query]segBits
}

func newBitsEval(ctx context.Context, ix *Index, snap *scorch.IndexSnapshot, view *docView) *bitsEval {
	segs := snap.Segments()
	return &bitsEval{ctx: ctx, snap: snap, segs: segs, dicts: make([]map[string]segment.TermDictionary, len(segs)), view: view, ix: ix,
		terms: map[string]segBits{}, searched: map[query.Query]segBits{}}
}

// term answers the documents holding term in field. Deleted documents are left in: the hits'
// bitmap drops them once (hits).
func (e *bitsEval) term(field, term string) (segBits, error) {
	key := field + "\x00" + term
	if b, ok := e.terms[key]; ok {
		return b, nil
	}
	out := make(segBits, len(e.segs))
	e.terms[key] = out
	for i, ss := range e.segs {
		if e.dicts[i] == nil {
			e.dicts[i] = map[string]segment.TermDictionary{}
		}
		d := e.dicts[i][field]
		if d == nil {
			var err error
			if d, err = ss.Segment().Dictionary(field); err != nil {
				return nil, err
			}
			e.dicts[i][field] = d
		}
		pl, err := d.PostingsList([]byte(term), nil, nil)
		if err != nil {
			return nil, err
		}
		it, ok := pl.Iterator(false, false, false, nil).(segment.OptimizablePostingsIterator)
		if !ok {
			return nil, errNoTiers
		}
		if n, ok := it.DocNum1Hit(); ok {
			out[i] = roaring.BitmapOf(uint32(n))
		} else if bm := it.ActualBitmap(); bm != nil && !bm.IsEmpty() {
			out[i] = bm
		}
	}
	return out, nil
}

// eval answers the documents q matches: terms from their postings, conjunctions and
// disjunctions by bitmap operations, any other query (fuzzy, a long prefix, an English match,
// a numeric range) through Bleve's own searcher on the same snapshot.
func (e *bitsEval) eval(q query.Query) (segBits, error) {
	switch q := q.(type) {
	case *query.TermQuery:
		return e.term(q.Field(), q.Term)
	case *query.ConjunctionQuery:
		var out segBits
		for j, c := range q.Conjuncts {
			b, err := e.eval(c)
			if err != nil {
				return nil, err
			}
			if j == 0 {
				out = slices.Clone(b) // b may be remembered: its slice must not change
				continue
			}
			for i := range out {
				out[i] = and(out[i], b[i])
			}
		}
		if out == nil {
			out = make(segBits, len(e.segs))
		}
		return out, nil
	case *query.FuzzyQuery:
		// As Bleve's fuzzy searcher does without a prefix: the index's words one or two
		// letters away (its own automaton over the snapshot's dictionary), any of them.
		if q.Prefix != 0 || q.Fuzziness < 1 || q.Fuzziness > 2 {
			return e.search(q)
		}
		return e.fuzzy(q.Field(), q.Term, q.Fuzziness)
	case *query.DisjunctionQuery:
		if q.Min > 1 {
			return e.search(q)
		}
		out := make(segBits, len(e.segs))
		for _, c := range q.Disjuncts {
			b, err := e.eval(c)
			if err != nil {
				return nil, err
			}
			for i := range out {
				out[i] = or(out[i], b[i])
			}
		}
		return out, nil
	}
	return e.search(q)
}

// fuzzy answers the documents holding a word of field within fuzziness letters of term.
func (e *bitsEval) fuzzy(field, term string, fuzziness int) (segBits, error) {
	d, _, err := e.snap.FieldDictFuzzyAutomaton(field, term, fuzziness, "")
	if err != nil {
		return nil, err
	}
	var words []string
	for {
		w, err := d.Next()
		if err != nil {
			d.Close()
			return nil, err
		}
		if w == nil {
			break
		}
		words = append(words, w.Term)
	}
	if err := d.Close(); err != nil {
		return nil, err
	}
	out := make(segBits, len(e.segs))
	for _, w := range words {
		b, err := e.term(field, w)
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i] = or(out[i], b[i])
		}
	}
	return out, nil
}

// search answers the documents q matches through Bleve's searcher, one hit at a time.
func (e *bitsEval) search(q query.Query) (segBits, error) {
	memo := reflect.TypeOf(q).Kind() == reflect.Pointer // a key the map can hash
	if b, ok := e.searched[q]; memo && ok {
		return b, nil
	}
	s, err := q.Searcher(e.ctx, e.snap, e.ix.idx.Mapping(), bsearch.SearcherOptions{Score: "none"})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	sctx := &bsearch.SearchContext{DocumentMatchPool: bsearch.NewDocumentMatchPool(s.DocumentMatchPoolSize(), 0), IndexReader: e.snap}
	out := make(segBits, len(e.segs))
	// Hits come in rising order: each segment's numbers are gathered, then added at once.
	var nums []uint32
	seg := -1
	flush := func() {
		if len(nums) > 0 {
			out[seg] = or(out[seg], roaring.BitmapOf(nums...))
		}
		nums = nums[:0]
	}
	for {
		d, err := s.Next(sctx)
		if err != nil {
			return nil, err
		}
		if d == nil {
			flush()
			if memo {
				e.searched[q] = out
			}
			return out, nil
		}
		num := d.IndexInternalID.Value()
		sctx.DocumentMatchPool.Put(d)
		if i := e.view.segmentOf(num); i != seg {
			flush()
			seg = i
		}
		nums = append(nums, uint32(num-e.view.starts[seg]))
	}
}

func and(a, b *roaring.Bitmap) *roaring.Bitmap {
	if a == nil || b == nil {
		return nil
	}
	r := roaring.And(a, b)
	if r.IsEmpty() {
		return nil
	}
	return r
}

func or(a, b *roaring.Bitmap) *roaring.Bitmap {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return roaring.Or(a, b)
}

func andNot(a, b *roaring.Bitmap) *roaring.Bitmap {
	if a == nil || b == nil {
		return a
	}
	r := roaring.AndNot(a, b)
	if r.IsEmpty() {
		return nil
	}
	return r
}

// bitsWord is wordRank over bitmaps: the ways heavier than the word's rest, heaviest first
// (except a starts-only set, last), and the rest.
type bitsWord struct {
	ways []bitsWay
	rest float64
}

type bitsWay struct {
	weight float64
	docs   segBits
}

// words builds the words of plan as rank (rank.go) builds them, ways as bitmaps.
func (e *bitsEval) words(plan *rankPlan) ([]bitsWord, error) {
	words := make([]bitsWord, len(plan.words))
	for i, ways := range plan.words {
		w := &words[i]
		w.rest = ways[len(ways)-1].weight
		if plan.anyWord {
			w.rest = 0
		}
		if i == len(plan.words)-1 && plan.starts != "" && !plan.anyWord {
			only, err := e.startsOnly(plan.starts, plan.inText)
			if err != nil {
				return nil, err
			}
			if only != nil {
				for _, way := range ways {
					if way.weight > weightWord {
						docs, err := e.eval(way.q)
						if err != nil {
							return nil, err
						}
						w.ways = append(w.ways, bitsWay{way.weight, docs})
					}
				}
				w.ways = append(w.ways, bitsWay{weightPrefix, only})
				w.rest = weightWord
				continue
			}
		}
		for _, way := range ways {
			if way.weight <= w.rest {
				break
			}
			docs, err := e.eval(way.q)
			if err != nil {
				return nil, err
			}
			w.ways = append(w.ways, bitsWay{way.weight, docs})
		}
	}
	return words, nil
}

// startsOnly is rank.go's startsOnly over bitmaps: the documents holding a longer word that
// starts with word but not the word itself, or nil where startsOnly gives up.
func (e *bitsEval) startsOnly(word string, inText uint64) (segBits, error) {
	longer, ok, err := longerWords(e.snap, word, inText)
	if err != nil || !ok {
		return nil, err
	}
	out := make(segBits, len(e.segs))
	for _, t := range longer {
		b, err := e.term(fieldText, t)
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i] = or(out[i], b[i])
		}
	}
	whole, err := e.term(fieldText, word)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i] = andNot(out[i], whole[i])
	}
	return out, nil
}

// tier is the hits of one weight in one segment.
type tier struct {
	weight float64
	seg    int
	docs   *roaring.Bitmap
}

// tiersOf splits hits (one segment's) into tiers of equal weight, as textRank.weigh weighs
// them: word by word, each partial tier split by the first way holding its hits, in the
// order the rank sums them, so that the sums are the same numbers.
func tiersOf(hits *roaring.Bitmap, seg int, words []bitsWord, joined *roaring.Bitmap, joinedScore float64) []tier {
	parts := []tier{{0, seg, hits}}
	for _, w := range words {
		var next []tier
		add := func(weight float64, docs *roaring.Bitmap) {
			if docs == nil || docs.IsEmpty() {
				return
			}
			for j := range next {
				if next[j].weight == weight {
					next[j].docs = roaring.Or(next[j].docs, docs)
					return
				}
			}
			next = append(next, tier{weight, seg, docs})
		}
		for _, p := range parts {
			left := p.docs
			for _, way := range w.ways {
				if left == nil {
					break
				}
				add(p.weight+way.weight, and(left, way.docs[seg]))
				left = andNot(left, way.docs[seg])
			}
			add(p.weight+w.rest, left)
		}
		parts = next
	}
	if joined != nil {
		var lifted *roaring.Bitmap
		for j := range parts {
			if parts[j].weight < joinedScore {
				lifted = or(lifted, and(parts[j].docs, joined))
				parts[j].docs = andNot(parts[j].docs, joined)
			}
		}
		if lifted != nil {
			merged := false
			for j := range parts {
				if parts[j].weight == joinedScore {
					parts[j].docs = or(parts[j].docs, lifted)
					merged = true
				}
			}
			if !merged {
				parts = append(parts, tier{joinedScore, seg, lifted})
			}
		}
		// A tier the joined form emptied is left out.
		parts = slices.DeleteFunc(parts, func(t tier) bool { return t.docs == nil })
	}
	return parts
}

// searchTiers answers the count of pq's hits and collects the relevance page into pc (see the
// top of this file); errNoTiers when the snapshot is not as it expects.
func (ix *Index) searchTiers(ctx context.Context, pq query.Query, plan *rankPlan, pc *pageCollector) (int, error) {
	r, err := ix.reader()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	return ix.tiersOn(ctx, r, pq, plan, pc)
}

// tiersOn is searchTiers on the snapshot r; it counts the searches it cannot answer.
func (ix *Index) tiersOn(ctx context.Context, r index.IndexReader, pq query.Query, plan *rankPlan, pc *pageCollector) (int, error) {
	total, err := ix.tiersOnSnapshot(ctx, r, pq, plan, pc)
	if err == errNoTiers {
		miss(&ix.tierMisses, "relevance tiers")
	}
	return total, err
}

func (ix *Index) tiersOnSnapshot(ctx context.Context, r index.IndexReader, pq query.Query, plan *rankPlan, pc *pageCollector) (int, error) {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return 0, errNoTiers
	}
	view := ix.docs.view(r)
	e := newBitsEval(ctx, ix, snap, view)
	hits, err := e.eval(pq)
	if err != nil {
		return 0, err
	}
	hits = slices.Clone(hits)
	total := 0
	for i, ss := range e.segs {
		if del := ss.Deleted(); del != nil {
			hits[i] = andNot(hits[i], del)
		}
		if hits[i] != nil {
			total += int(hits[i].GetCardinality())
		}
	}
	if pc.k <= 0 || total == 0 {
		pc.finish()
		return total, nil
	}
	words, err := e.words(plan)
	if err != nil {
		return 0, err
	}
	var joined segBits
	joinedScore := weightWord * float64(len(plan.words))
	if plan.joined != nil {
		if joined, err = e.eval(plan.joined); err != nil {
			return 0, err
		}
	}
	var tiers []tier
	for i := range e.segs {
		if hits[i] == nil {
			continue
		}
		var j *roaring.Bitmap
		if joined != nil {
			j = joined[i]
		}
		tiers = append(tiers, tiersOf(hits[i], i, words, j, joinedScore)...)
	}
	slices.SortStableFunc(tiers, func(a, b tier) int {
		switch {
		case a.weight > b.weight:
			return -1
		case a.weight < b.weight:
			return 1
		}
		return 0
	})
	ids := make([][]int64, len(e.segs))
	for i := range e.segs {
		s := view.segs[i]
		if s.err != nil {
			return 0, s.err
		}
		ids[i] = s.ids
	}
	ix.facts.mu.RLock()
	pc.facts, pc.top, pc.topLevel = ix.facts.rows, ix.facts.top, float64(ix.facts.topLevel)
	buf := make([]uint32, 256)
	for j, t := range tiers {
		// Tiers of one weight are consecutive; once a weight is done and the page full, every
		// lighter hit weighs less than the page's worst.
		if j > 0 && t.weight != tiers[j-1].weight && len(pc.kept) >= pc.k {
			break
		}
		segIDs := ids[t.seg]
		it := t.docs.ManyIterator()
		for {
			n := it.NextMany(buf)
			if n == 0 {
				break
			}
			for _, local := range buf[:n] {
				if int(local) >= len(segIDs) {
					ix.facts.mu.RUnlock()
					return 0, fmt.Errorf("document %d is past its segment", local)
				}
				pc.weighed(segIDs[local], t.weight)
			}
		}
	}
	ix.facts.mu.RUnlock()
	pc.finish()
	return total, nil
}
