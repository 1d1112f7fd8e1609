package search

// Document bitmaps for the tiers (tiers.go): each query Bleve would run, evaluated to the set of
// documents it matches, per segment, straight from the postings, and each query word's ways of
// matching (name, whole word, start of a longer word, one letter away) as such sets.
//
// Why RoaringBitmap/roaring/v2 and blevesearch/scorch_segment_api/v2 are direct dependencies:
// both are Bleve's own (already linked, no new code shipped); the postings' roaring bitmaps are
// what the tiers combine, read through scorch's segment API; when the reader is not a scorch
// snapshot the tiers step aside (errNoTiers) and Bleve's plain search answers.

import (
	"context"
	"reflect"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// segBits is a set of documents of one snapshot, one bitmap of segment-local numbers per
// segment (nil for none). Bitmaps may be postings shared with the index: never changed in place.
type segBits []*roaring.Bitmap

// bitsEval evaluates queries to document bitmaps over one snapshot.
type bitsEval struct {
	ctx   context.Context
	snap  *scorch.IndexSnapshot
	segs  []*scorch.SegmentSnapshot
	dicts map[string][]segment.TermDictionary // by field, a segment's opened when first read
	view  *docView
	ix    *Index
	// memo holds what terms and the queries given to Bleve's searcher matched: a query's words
	// come back as the ways of its rank.
	terms    map[string]segBits
	searched map[query.Query]segBits
}

func newBitsEval(ctx context.Context, ix *Index, snap *scorch.IndexSnapshot, view *docView) *bitsEval {
	segs := snap.Segments()
	return &bitsEval{ctx: ctx, snap: snap, segs: segs, dicts: map[string][]segment.TermDictionary{}, view: view, ix: ix,
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
	ds := e.dicts[field]
	if ds == nil {
		ds = make([]segment.TermDictionary, len(e.segs))
		e.dicts[field] = ds
	}
	for i, ss := range e.segs {
		d := ds[i]
		if d == nil {
			var err error
			if d, err = ss.Segment().Dictionary(field); err != nil {
				return nil, err
			}
			ds[i] = d
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
// disjunctions by bitmap operations, a match (an English word) as the disjunction of its
// analysed words, any other query (a long prefix, a numeric range) through Bleve's own searcher
// on the same snapshot.
func (e *bitsEval) eval(q query.Query) (segBits, error) {
	switch q := q.(type) {
	case *query.TermQuery:
		return e.term(q.Field(), q.Term)
	case *query.ConjunctionQuery:
		return e.conjunction(q, nil)
	case *cellQuery:
		return e.cells(q, nil)
	case *query.FuzzyQuery:
		// As Bleve's fuzzy searcher does without a prefix: the index's words one or two
		// letters away (fuzzy.go's automaton over the snapshot's dictionaries), any of them.
		if q.Prefix != 0 || q.Fuzziness < 1 || q.Fuzziness > 2 {
			return e.search(q)
		}
		return e.fuzzy(q.Field(), q.Term, q.Fuzziness)
	case *query.MatchQuery:
		// The profile queries' matches (an English word) never set a fuzziness.
		if q.Fuzziness != 0 || q.Operator != query.MatchQueryOperatorOr {
			return e.search(q)
		}
		return e.match(q)
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

// conjunction answers the documents of mask (all when nil) that every conjunct of q matches.
// Terms come first, read from their postings as they are; every other conjunct is evaluated
// within what they leave (within): a word's ways are a union of many postings, often far more
// documents than a city holds, and a circle's cells more than a category does.
func (e *bitsEval) conjunction(q *query.ConjunctionQuery, mask segBits) (segBits, error) {
	order := make([]query.Query, 0, len(q.Conjuncts))
	for _, c := range q.Conjuncts {
		if _, ok := c.(*query.TermQuery); ok {
			order = append(order, c)
		}
	}
	for _, c := range q.Conjuncts {
		switch c.(type) {
		case *query.TermQuery, *cellQuery:
		default:
			order = append(order, c)
		}
	}
	for _, c := range q.Conjuncts {
		if _, ok := c.(*cellQuery); ok {
			order = append(order, c)
		}
	}
	out := mask
	for _, c := range order {
		b, err := e.within(c, out)
		if err != nil {
			return nil, err
		}
		out = b
	}
	if out == nil {
		out = make(segBits, len(e.segs))
	}
	return out, nil
}

// within answers the documents of mask that q matches, or all q matches when mask is nil. It
// never changes mask or a bitmap eval remembered. A disjunction is the union of its parts
// within mask, so its large postings are cut by the mask before they are joined.
func (e *bitsEval) within(q query.Query, mask segBits) (segBits, error) {
	if mask == nil {
		return e.eval(q)
	}
	if mask.empty() {
		// A city or a category without profiles: nothing of q is read.
		return make(segBits, len(e.segs)), nil
	}
	switch q := q.(type) {
	case *query.ConjunctionQuery:
		return e.conjunction(q, mask)
	case *cellQuery:
		return e.cells(q, mask)
	case *query.DisjunctionQuery:
		if q.Min <= 1 {
			out := make(segBits, len(e.segs))
			for _, c := range q.Disjuncts {
				b, err := e.within(c, mask)
				if err != nil {
					return nil, err
				}
				for i := range out {
					out[i] = or(out[i], b[i])
				}
			}
			return out, nil
		}
	}
	b, err := e.eval(q)
	if err != nil {
		return nil, err
	}
	out := make(segBits, len(e.segs))
	for i := range out {
		out[i] = and(mask[i], b[i])
	}
	return out, nil
}

// cellsWorthReading is the number of documents from which a circle's cells are read to narrow
// them down; fewer are handed to the collector's cut as they are (TestBitsEqualPlain checks
// both ways against Bleve's searchers).
//
// BenchmarkCircleCells, a category within 5 km of four points, nearest first: at a million
// profiles, categories of 1,400 / 3,000 / 6,000 took 105 / 225 / 310 us reading the cells and
// 35-70 / 90 / 285 us without (the cells of central Tehran hold tens of thousands); at 100,000
// (150 to 620 a category) 25-30 us against 8-20 us.
var cellsWorthReading uint64 = 4096

// empty reports whether b holds no document.
func (b segBits) empty() bool {
	for _, bm := range b {
		if bm != nil && !bm.IsEmpty() {
			return false
		}
	}
	return true
}

// fewerThan reports whether the bitmaps hold fewer than n documents in all.
func fewerThan(b segBits, n uint64) bool {
	var sum uint64
	for _, bm := range b {
		if bm != nil {
			if sum += bm.GetCardinality(); sum >= n {
				return false
			}
		}
	}
	return true
}

// cells answers the documents in the cells covering q's circle, within the documents of mask
// when it is not nil; through Bleve's searcher when the index has no s2 plugin (cellQuery).
func (e *bitsEval) cells(q *cellQuery, mask segBits) (segBits, error) {
	if mask != nil && fewerThan(mask, cellsWorthReading) {
		// The collector measures every hit's distance from the facts table anyway
		// (pageCollector.within), tens of nanoseconds apiece; the cells' postings cost tens
		// of microseconds. A category's profiles around a point are cut that way alone.
		return mask, nil
	}
	var tokens []string
	if _, err := e.snap.GetSpatialAnalyzerPlugin("s2"); err == nil {
		tokens = circleTerms(q.lat, q.long, q.radius)
	}
	if tokens == nil {
		b, err := e.search(q)
		if err != nil || mask == nil {
			return b, err
		}
		out := make(segBits, len(e.segs))
		for i := range out {
			out[i] = and(mask[i], b[i])
		}
		return out, nil
	}
	parts := make([][]*roaring.Bitmap, len(e.segs))
	for _, t := range tokens {
		b, err := e.term(fieldLocation, t)
		if err != nil {
			return nil, err
		}
		for i, bm := range b {
			if mask != nil {
				bm = and(mask[i], bm)
			}
			if bm != nil {
				parts[i] = append(parts[i], bm)
			}
		}
	}
	out := make(segBits, len(e.segs))
	for i, ps := range parts {
		switch len(ps) {
		case 0:
		case 1:
			out[i] = ps[0]
		default:
			out[i] = roaring.FastOr(ps...)
		}
	}
	return out, nil
}

// match answers the documents holding any word of q's text analysed as its field is, as
// Bleve's match searcher does (a disjunction of the words' terms), from the postings: the
// searcher handed over an English word's hits one at a time, a tenth of a text search's time.
func (e *bitsEval) match(q *query.MatchQuery) (segBits, error) {
	m := e.ix.idx.Mapping()
	field := q.Field()
	if field == "" {
		field = m.DefaultSearchField()
	}
	name := q.Analyzer
	if name == "" {
		name = m.AnalyzerNameForPath(field)
	}
	a := m.AnalyzerNamed(name)
	if a == nil {
		return e.search(q) // Bleve answers the error
	}
	out := make(segBits, len(e.segs))
	for _, t := range a.Analyze([]byte(q.Match)) {
		b, err := e.term(field, string(t.Term))
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i] = or(out[i], b[i])
		}
	}
	return out, nil
}

// fuzzy answers the documents holding a word of field within fuzziness letters of term.
func (e *bitsEval) fuzzy(field, term string, fuzziness int) (segBits, error) {
	words, err := fuzzyWords(e.segs, field, term, fuzziness)
	if err != nil {
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
	// Only a pointer is surely a key the map can hash: looking up an unhashable query (a struct
	// holding a slice) would panic, so memo is checked before the map is touched.
	memo := reflect.TypeOf(q).Kind() == reflect.Pointer
	if memo {
		if b, ok := e.searched[q]; ok {
			return b, nil
		}
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
			only, err := e.startsOnly(plan.starts, plan.inText, plan.longer)
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
func (e *bitsEval) startsOnly(word string, inText, longer uint64) (segBits, error) {
	if !startsOnlyPays(inText, longer) {
		return nil, nil
	}
	starts, err := e.term(fieldPrefix, word)
	if err != nil {
		return nil, err
	}
	whole, err := e.term(fieldText, word)
	if err != nil {
		return nil, err
	}
	out := make(segBits, len(e.segs))
	for i := range out {
		out[i] = andNot(starts[i], whole[i])
	}
	return out, nil
}
