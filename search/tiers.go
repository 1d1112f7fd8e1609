package search

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
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
	e, hits, total, err := ix.hitsOf(ctx, r, pq)
	if err != nil {
		return 0, err
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
	err = ix.walkHits(e, pc, func(ids [][]int64, each *hitWalk) error {
		for j, t := range tiers {
			// Tiers of one weight are consecutive; once a weight is done and the page full,
			// every lighter hit weighs less than the page's worst.
			if j > 0 && t.weight != tiers[j-1].weight && len(pc.kept) >= pc.k {
				break
			}
			err := each.walk(t.docs, ids[t.seg], func(ids []int64) {
				for _, id := range ids {
					pc.weighed(id, t.weight)
				}
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	return total, err
}

// walkHits runs f with the facts table lent to pc and read-locked meanwhile, then ends pc's
// collection; ids are the profile ids of e's snapshot by segment and document number.
func (ix *Index) walkHits(e *bitsEval, pc *pageCollector, f func(ids [][]int64, each *hitWalk) error) error {
	ids, err := e.view.segIDs()
	if err != nil {
		return err
	}
	ix.facts.mu.RLock()
	defer ix.facts.mu.RUnlock()
	ix.facts.lend(pc)
	w := hitWalks.Get().(*hitWalk)
	defer hitWalks.Put(w)
	if err := f(ids, w); err != nil {
		return err
	}
	pc.finish()
	return nil
}

// hitsOf evaluates q on snapshot r to bitmaps of its hits' document numbers, a bitmap per
// segment with the deleted documents left out, and counts them; errNoTiers when r is not a
// scorch snapshot.
func (ix *Index) hitsOf(ctx context.Context, r index.IndexReader, q query.Query) (*bitsEval, segBits, int, error) {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil, nil, 0, errNoTiers
	}
	e := newBitsEval(ctx, ix, snap, ix.docs.view(r))
	hits, err := e.eval(q)
	if err != nil {
		return nil, nil, 0, err
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
	return e, hits, total, nil
}

// hitWalk hands over the profile ids of a bitmap's documents, a few hundred at a time. Its
// batch is 3 KiB, a quarter of the bytes a category search allocated: walks are pooled
// (hitWalks), and what they hand over is read during the call only (considerAll).
type hitWalk struct {
	buf [hitBatch]uint32
	ids [hitBatch]int64
}

// hitWalks keeps the walks of finished searches for the next ones.
var hitWalks = sync.Pool{New: func() any { return new(hitWalk) }}

// hitBatch is how many documents a walk reads from a bitmap at once.
const hitBatch = 256

// walk calls f with the profile ids of docs's documents, a segment's whose profile ids by
// document number are segIDs, a batch at a time; documents that are not profiles are passed
// over.
func (w *hitWalk) walk(docs *roaring.Bitmap, segIDs []int64, f func(ids []int64)) error {
	it := docs.ManyIterator()
	for {
		n := it.NextMany(w.buf[:])
		if n == 0 {
			return nil
		}
		// The batch's ids in a loop of their own: a hit's entry in segIDs is a read the
		// processor's cache mostly misses (a category's documents are scattered over the
		// segment), and reads that wait for nothing else overlap, where one per hit between
		// the collector's work waited in turn.
		ids := w.ids[:0]
		for _, local := range w.buf[:n] {
			if int(local) >= len(segIDs) {
				return fmt.Errorf("document %d is past its segment", local)
			}
			if id := segIDs[local]; id >= 0 {
				ids = append(ids, id)
			}
		}
		f(ids)
	}
}

// collectBits collects q's hits into pc from bitmaps of the postings (hitsOf) instead of
// through Bleve's searcher, which hands each hit to the collector at a few hundred nanoseconds
// apiece: for a page ordered by the facts table and a query matching a large part of the
// directory (suggestions for one letter, a tenth of a million profiles), that was nearly all
// of the time. It answers the number of hits (for a collector that counts(), its own total is
// the answer). errNoTiers when the reader is not a scorch snapshot, before pc saw any hit; the
// caller then takes Bleve's way.
func (ix *Index) collectBits(ctx context.Context, q query.Query, pc *pageCollector) (int, error) {
	r, err := ix.reader()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	e, hits, total, err := ix.hitsOf(ctx, r, q)
	if err == errNoTiers {
		miss(&ix.tierMisses, "hits as bitmaps")
	}
	if err != nil {
		return 0, err
	}
	if total == 0 || pc.k <= 0 && !pc.counts() {
		pc.finish()
		return total, nil
	}
	err = ix.walkHits(e, pc, func(ids [][]int64, each *hitWalk) error {
		if cut := pc.bestOfTop(e.view, hits, total); cut != nil {
			hits = cut
		}
		for i, docs := range hits {
			if docs == nil {
				continue
			}
			if err := each.walk(docs, ids[i], pc.considerAll); err != nil {
				return err
			}
		}
		return nil
	})
	return total, err
}

// topWalkMin is how many hits a page in the best order must have before bestOfTop cuts them;
// fewer are walked whole in less time than the cut takes. A variable for the tests.
var topWalkMin = 4096

// bestOfTop answers hits cut to the profiles of facts.top when the cut surely holds the whole
// page, nil when it does not apply and every hit is walked. It applies to a page in the best
// order (level_score first) without a radius or a sifting, whose totals need every hit: there
// every profile outside top ranks below every profile in it (a lower level_score), so once top
// holds at least the page's k hits, no other can be on the page. A suggestion for one letter
// at three million profiles walked some 400,000 hits to keep six (23 ms at p99); top is about
// the best fiftieth. The caller holds the facts' read lock (walkHits).
func (c *pageCollector) bestOfTop(v *docView, hits segBits, total int) segBits {
	if c.order != OrderBest || c.counts() || c.k <= 0 || total < max(topWalkMin, c.k) || c.top == nil || v.segs == nil {
		return nil
	}
	cut := make(segBits, len(hits))
	n := 0
	for i, docs := range hits {
		if docs == nil {
			continue
		}
		cut[i] = roaring.And(docs, v.segs[i].topDocs(c.top, c.topVersion))
		n += int(cut[i].GetCardinality())
	}
	if n < c.k {
		return nil
	}
	return cut
}
