package search

import (
	"container/heap"
	"context"
	"math"
	"slices"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"

	"kardan/store"
)

// pageCollector keeps one page of a search while Bleve collects its hits, ordered by the facts
// table and, for relevance, by how the words matched. Bleve scores nothing and reads no field of
// a hit; a hit that cannot reach the page is dropped after a few lookups.
type pageCollector struct {
	order     string
	lat, long float64 // the point of the nearest order and of the radius
	// radius (metres, 0 for none) cuts the hits to the circle; total counts what it keeps.
	radius          float64
	boxLat, boxLong float64 // half sides of a box around the circle, in degrees
	total           int
	k, skip         int
	facts           []fact            // the table, read-locked by the caller for the whole search
	points          []point           // its points (facts.points),
	prices          []int64           // and its prices (facts.prices),
	scheds          []*store.Schedule // its schedules (facts.scheds)
	top             idSet             // and its best profiles (facts.top), under the same lock
	topLevel        float64
	topVersion      uint64
	docs            *docIDs
	// open, when set, keeps only the profiles open at that moment (open_now); total then
	// counts what it keeps.
	open *store.Moment
	// priced, when set, keeps only the profiles with a service priced within [priceLo, priceHi]
	// (priceHi 0: no upper bound); total then counts what it keeps.
	priced           bool
	priceLo, priceHi int64
	// minScore and minLevel, when set, keep only the profiles whose score and level_score are
	// at least that (min_score, minLevel_score); total then counts what they keep. The index
	// holds no scores: a new review then changes no document (docHash).
	minScore, minLevel *float64
	rank               *textRank       // the relevance of the hits, for the relevance order
	ctx                context.Context // the search's, for the readers rank opens
	kept               keptHits
	// ids are the profile ids of the page, best first, once the collection has ended.
	ids  []int64
	err  error
	used handlerUse
}

// keptHit is a hit with its sort keys: greater keys rank first, then the lower profile id. The
// id, not Bleve's hit order, breaks ties: hit order follows how the index was built, so a rebuilt
// index (a restore, a reindex) would otherwise list equal hits differently.
type keptHit struct {
	id   int64
	keys [3]float64
}

func (a *keptHit) better(b *keptHit) bool {
	for i := range a.keys {
		if a.keys[i] != b.keys[i] {
			return a.keys[i] > b.keys[i]
		}
	}
	return a.id < b.id
}

// keptHits is a heap whose root is the worst hit kept.
type keptHits []*keptHit

func (h keptHits) Len() int           { return len(h) }
func (h keptHits) Less(i, j int) bool { return h[j].better(h[i]) }
func (h keptHits) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *keptHits) Push(x any)        { *h = append(*h, x.(*keptHit)) }
func (h *keptHits) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// keys answers the sort keys of a profile for the collector's order.
func (c *pageCollector) keys(id int64) [3]float64 {
	f := c.fact(id)
	switch c.order {
	case OrderBest:
		return [3]float64{float64(f.level), float64(f.count)}
	case OrderReviews:
		return [3]float64{float64(f.count), float64(f.level)}
	case OrderNewest:
		return [3]float64{float64(f.created)}
	case OrderNearest:
		if !f.ok {
			return [3]float64{math.Inf(-1)}
		}
		return [3]float64{-store.Haversine(c.lat, c.long, f.lat, f.long)}
	}
	// Relevance: the handler weighs the hit itself.
	return [3]float64{0, float64(f.level), float64(f.count)}
}

// outweighs reports whether the worst hit of a full page, in the relevance order, beats every
// hit of weight w that profile id could be: a lighter one, or one as heavy outside facts.top when
// the worst is among its profiles.
func (c *pageCollector) outweighs(w float64, id int64) bool {
	worst := c.kept[0].keys
	return w < worst[0] || w == worst[0] && worst[1] >= c.topLevel && !c.top.has(id)
}

// fact answers the facts of profile id, empty for one the table does not hold.
func (c *pageCollector) fact(id int64) fact {
	if id >= 0 && id < int64(len(c.facts)) {
		return c.facts[id]
	}
	return fact{}
}

// collectPage runs req with pc collecting its hits, the facts table read-locked meanwhile. It
// fails when pc failed, or when Bleve did not hand the hits to pc (see fence.go).
func (ix *Index) collectPage(ctx context.Context, req *bleve.SearchRequest, pc *pageCollector) (*bleve.SearchResult, error) {
	ctx = context.WithValue(ctx, bsearch.MakeDocumentMatchHandlerKey, bsearch.MakeDocumentMatchHandler(pc.handler))
	ix.facts.mu.RLock()
	ix.facts.lend(pc)
	res, err := ix.idx.SearchInContext(ctx, req)
	ix.facts.mu.RUnlock()
	if err == nil {
		err = pc.err
	}
	if err == nil {
		err = pc.used.check()
	}
	return res, err
}

// handler is a bsearch.MakeDocumentMatchHandler: Bleve calls it once per search, then the
// handler it answers once per hit and with nil when the hits are done.
func (c *pageCollector) handler(sctx *bsearch.SearchContext) (bsearch.DocumentMatchHandler, bool, error) {
	c.used.made = true
	view := c.docs.view(sctx.IndexReader)
	if c.rank != nil {
		if err := c.rank.open(c.ctx, sctx.IndexReader); err != nil {
			return nil, false, err
		}
	}
	return func(d *bsearch.DocumentMatch) error {
		if d == nil {
			c.used.ended = true
			c.finish()
			return nil
		}
		num := d.IndexInternalID.Value()
		id, err := view.profileIDOfNumber(num)
		sctx.DocumentMatchPool.Put(d)
		if err != nil {
			c.err = err
			return err
		}
		if id < 0 {
			return nil // not a profile
		}
		c.consider(id, num)
		return nil
	}, false, nil
}

// consider keeps profile id (document number num) when it passes the collector's filters and
// can reach the page.
func (c *pageCollector) consider(id int64, num uint64) {
	var h keptHit
	if c.radius > 0 {
		dist, ok := c.within(id)
		if !ok {
			return
		}
		if !c.sifts() {
			c.total++
		}
		if c.order == OrderNearest {
			h.keys[0] = -dist // the distance within already measured
		}
	}
	if c.sifts() {
		if id >= int64(len(c.facts)) || !c.keeps(&c.facts[id]) {
			return
		}
		c.total++
	}
	if c.k <= 0 {
		return
	}
	full := len(c.kept) >= c.k
	switch {
	case c.order == OrderRelevance:
		// The words' weight decides first, then level_score: a hit lighter than the whole
		// page, or as heavy as its worst but outside the best profiles when the page holds
		// only those, cannot reach it. The rank's sets and facts.top are small enough to stay
		// in the processor's cache, the facts table is not: most hits of a broad query end
		// here, without reading it.
		// The bound first: it reads no postings.
		if full && c.outweighs(c.rank.upper(id), id) {
			return
		}
		w := c.rank.score(id, num)
		if full && c.outweighs(w, id) {
			return
		}
		f := c.fact(id)
		h.keys = [3]float64{w, float64(f.level), float64(f.count)}
	case c.order == OrderBest && full && c.kept[0].keys[0] >= c.topLevel && !c.top.has(id):
		return
	case c.radius == 0 || c.order != OrderNearest:
		h.keys = c.keys(id)
	}
	h.id = id
	c.keep(h, full)
}

// sifts reports whether the collector keeps only some hits by their facts (open-now, a price
// range, a lowest score); total then counts what it keeps.
func (c *pageCollector) sifts() bool {
	return c.open != nil || c.priced || c.minScore != nil || c.minLevel != nil
}

// counts reports whether total, not Bleve's count, is the number of hits: the collector cuts
// them to a circle or sifts them.
func (c *pageCollector) counts() bool {
	return c.radius > 0 || c.sifts()
}

// keeps reports whether a hit of facts f passes the collector's sifting.
func (c *pageCollector) keeps(f *fact) bool {
	switch {
	case c.priced && !f.priced(c.prices, c.priceLo, c.priceHi):
		return false
	case c.open != nil && (f.sched == 0 || !c.scheds[f.sched].OpenAt(*c.open)):
		return false
	case c.minScore != nil && f.score < *c.minScore:
		return false
	case c.minLevel != nil && f.level < *c.minLevel:
		return false
	}
	return true
}

// keep puts h on the page, in place of the worst kept hit when the page is full and h is better.
func (c *pageCollector) keep(h keptHit, full bool) {
	if !full {
		kept := h // only kept hits reach the heap's memory
		heap.Push(&c.kept, &kept)
		return
	}
	if h.better(c.kept[0]) {
		*c.kept[0] = h
		heap.Fix(&c.kept, 0)
	}
}

// weighed keeps profile id, of relevance weight w (found by tiers.go), when it can reach a
// relevance page; as consider does for a hit it weighs itself.
func (c *pageCollector) weighed(id int64, w float64) {
	if id < 0 {
		return // not a profile
	}
	full := len(c.kept) >= c.k
	if full && c.outweighs(w, id) {
		return
	}
	f := c.fact(id)
	c.keep(keptHit{id: id, keys: [3]float64{w, float64(f.level), float64(f.count)}}, full)
}

// scanFacts runs the collector over every profile of the facts table, for a search that puts no
// condition Bleve could answer (no words, place or category: only open-now, a price range, a
// lowest score or a point without a radius). Asking Bleve to match everything would hand over each of the
// index's documents one by one and cost several times more. It answers how many profiles the
// table holds.
func (ix *Index) scanFacts(c *pageCollector) int {
	ix.facts.mu.RLock()
	defer ix.facts.mu.RUnlock()
	ix.facts.lend(c)
	n := 0
	for id := range c.facts {
		if c.facts[id].ok {
			n++
			c.consider(int64(id), 0)
		}
	}
	c.finish()
	return n
}

// considerAll considers each of ids (a hitWalk batch). In a circle, their float32 points are
// read first in a loop of their own, and only those inside the circle's box considered: a
// category's hits are scattered over the table, so each point is a read the processor's cache
// misses (nearly all of within's time in a profile of category + 5 km), and reads that wait for
// nothing else overlap. The box test is within's first, so a hit it turns away is one consider
// would have turned away at once.
func (c *pageCollector) considerAll(ids []int64) {
	if c.radius <= 0 {
		for _, id := range ids {
			c.consider(id, 0)
		}
		return
	}
	var pts [hitBatch]point
	for i, id := range ids[:min(len(ids), hitBatch)] {
		if uint64(id) < uint64(len(c.points)) {
			pts[i] = c.points[id]
		} else {
			pts[i] = noPoint
		}
	}
	for i, id := range ids {
		if i >= hitBatch || c.inBox(pts[i]) {
			c.consider(id, 0)
		}
	}
}

// inBox reports whether a float32 point lies within the circle's box widened by its rounding (a
// float32 of a longitude is within 8e-6 degrees of it); written so a NaN (no row) fails.
func (c *pageCollector) inBox(p point) bool {
	const rounding = 3e-5
	return math.Abs(float64(p.lat)-c.lat) <= c.boxLat+rounding &&
		math.Abs(float64(p.long)-c.long) <= c.boxLong+rounding
}

// within answers the distance of a visible profile inside the collector's circle, and false
// for one outside it. A box around the circle turns most of the cells' outliers away before
// the costlier great-circle distance.
func (c *pageCollector) within(id int64) (float64, bool) {
	if id >= int64(len(c.points)) {
		return 0, false
	}
	// The float32 point first.
	if !c.inBox(c.points[id]) {
		return 0, false
	}
	f := &c.facts[id]
	if !f.ok || math.Abs(f.lat-c.lat) > c.boxLat || math.Abs(f.long-c.long) > c.boxLong {
		return 0, false
	}
	d := store.Haversine(c.lat, c.long, f.lat, f.long)
	return d, d <= c.radius
}

// setRadius restricts the collector to a circle around its point.
func (c *pageCollector) setRadius(metres float64) {
	c.radius = metres
	// A degree of latitude is at least 110.5 km, one of longitude at least that times the cosine
	// of the circle's highest latitude; the box is padded by a tenth to stay outside the circle.
	const perDeg = 110_500.0
	c.boxLat = 1.1 * metres / perDeg
	far := math.Min(89.9, math.Abs(c.lat)+c.boxLat)
	c.boxLong = math.Min(360, 1.1*metres/(perDeg*math.Cos(far*math.Pi/180)))
}

// finish orders the kept hits and cuts the page.
func (c *pageCollector) finish() {
	all := []*keptHit(c.kept)
	slices.SortFunc(all, func(a, b *keptHit) int {
		if a.better(b) {
			return -1
		}
		if b.better(a) {
			return 1
		}
		return 0
	})
	c.ids = make([]int64, 0, max(0, len(all)-c.skip))
	for i := c.skip; i < len(all); i++ {
		c.ids = append(c.ids, all[i].id)
	}
}
