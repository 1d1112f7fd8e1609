package search

import (
	"container/heap"
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	bsearch "github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"

	"kardan/store"
)

// facts holds, by profile id, what the orders of a search compare: level_score, count_scorer,
// the point and the creation time of every visible profile. It is read from the store when the
// index opens and kept current by the indexer. Bleve's doc values hold the same, but each read
// decompresses a chunk of about a thousand documents: ordering a few hundred scattered hits that
// way cost more than finding them.
type facts struct {
	mu   sync.RWMutex
	rows []fact // index: profile id
}

type fact struct {
	ok        bool
	level     float32
	count     uint32
	lat, long float64 // exact: the radius cut is made with them
	created   int64
}

func factOf(f store.ProfileFact) fact {
	return fact{ok: true, level: float32(f.LevelScore), count: uint32(max(0, f.CountScorer)),
		lat: f.Lat, long: f.Long, created: f.CreateAt}
}

// load replaces the table with the store's visible profiles.
func (fs *facts) load(ctx context.Context, st *store.Store) error {
	var rows []fact
	err := st.VisibleProfileFacts(ctx, func(f store.ProfileFact) {
		if f.ID < 0 || f.ID > math.MaxInt32 {
			return
		}
		for int64(len(rows)) <= f.ID {
			rows = append(rows, fact{})
		}
		rows[f.ID] = factOf(f)
	})
	if err != nil {
		return err
	}
	fs.mu.Lock()
	fs.rows = rows
	fs.mu.Unlock()
	return nil
}

// set records a visible profile's facts, or forgets a profile that is no longer visible. A nil
// table (an index being rebuilt) records nothing.
func (fs *facts) set(p *store.Profile) {
	if fs == nil || p.ID < 0 || p.ID > math.MaxInt32 {
		return
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if !p.Visible() {
		if p.ID < int64(len(fs.rows)) {
			fs.rows[p.ID] = fact{}
		}
		return
	}
	if n := p.ID + 1; n > int64(len(fs.rows)) {
		fs.rows = slices.Grow(fs.rows, int(n)-len(fs.rows))[:n]
	}
	fs.rows[p.ID] = factOf(store.ProfileFact{ID: p.ID, LevelScore: p.LevelScore, CountScorer: p.CountScorer,
		Lat: p.Lat, Long: p.Long, CreateAt: p.CreateAt})
}

// forget drops a profile that left the index.
func (fs *facts) forget(id int64) {
	if fs == nil {
		return
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if id >= 0 && id < int64(len(fs.rows)) {
		fs.rows[id] = fact{}
	}
}

// pageCollector keeps one page of a search while Bleve collects its hits, ordered by the facts
// table. Bleve is asked to sort by score alone, so it reads no field of a hit; for the relevance
// order a hit whose score cannot reach the page is dropped before anything else is read.
type pageCollector struct {
	order     string
	lat, long float64 // the point of the nearest order and of the radius
	// radius (metres, 0 for none) cuts the hits to the circle; total counts what it keeps.
	radius          float64
	boxLat, boxLong float64 // half sides of a box around the circle, in degrees
	total           int
	k, skip         int
	facts           []fact // the table, read-locked by the caller for the whole search
	kept            keptHits
	// ids are the profile ids of the page, best first, once the collection has ended.
	ids []int64
	err error
}

// keptHit is a hit with its sort keys: greater keys rank first, then the lower profile id. The
// id, not Bleve's hit order, breaks ties: hit order follows how the index was built, so a rebuilt
// index (a restore, a reindex) would otherwise list equal hits differently.
type keptHit struct {
	id   int64
	keys [3]float64
	hit  uint64
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
func (c *pageCollector) keys(id int64, score float64) [3]float64 {
	var f fact
	if id >= 0 && id < int64(len(c.facts)) {
		f = c.facts[id]
	}
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
	return [3]float64{roundScore(score), float64(f.level), float64(f.count)}
}

// roundScore cuts a relevance score to six decimals. Scores are summed in an order that follows
// the index's segments, so the same hit can score a few units in the last place differently in a
// rebuilt index; rounding keeps such equal scores equal, and the id then orders them the same way
// every time.
func roundScore(score float64) float64 { return math.Round(score*1e6) / 1e6 }

// handler is a bsearch.MakeDocumentMatchHandler: Bleve calls it once per search, then the
// handler it answers once per hit and with nil when the hits are done.
func (c *pageCollector) handler(sctx *bsearch.SearchContext) (bsearch.DocumentMatchHandler, bool, error) {
	r := sctx.IndexReader
	return func(d *bsearch.DocumentMatch) error {
		if d == nil {
			c.finish()
			return nil
		}
		defer sctx.DocumentMatchPool.Put(d)
		id, near := int64(-1), math.NaN()
		if c.radius > 0 {
			var err error
			if id, err = profileID(r, d); err != nil || id < 0 {
				return err
			}
			dist, ok := c.within(id)
			if !ok {
				return nil
			}
			if c.order == OrderNearest {
				near = -dist
			}
			c.total++
		}
		full := len(c.kept) >= c.k
		if c.k <= 0 || (full && c.order == OrderRelevance && roundScore(d.Score) < c.kept[0].keys[0]) {
			return nil // cannot reach the page, whatever else it holds
		}
		if id < 0 {
			var err error
			if id, err = profileID(r, d); err != nil || id < 0 {
				return err
			}
		}
		h := keptHit{id: id, hit: d.HitNumber}
		if math.IsNaN(near) {
			h.keys = c.keys(id, d.Score)
		} else {
			h.keys[0] = near // the distance within already measured
		}
		if !full {
			heap.Push(&c.kept, &h)
			return nil
		}
		if h.better(c.kept[0]) {
			*c.kept[0] = h
			heap.Fix(&c.kept, 0)
		}
		return nil
	}, false, nil
}

// profileID answers the profile id of a hit, or -1 for a document that is not a profile.
func profileID(r index.IndexReader, d *bsearch.DocumentMatch) (int64, error) {
	ext, err := r.ExternalID(d.IndexInternalID)
	if err != nil {
		return -1, err
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(ext, "p"), 10, 64)
	if err != nil {
		return -1, nil
	}
	return id, nil
}

// within answers the distance of a visible profile inside the collector's circle, and false
// for one outside it. A box around the circle turns most of the cells' outliers away before
// the costlier great-circle distance.
func (c *pageCollector) within(id int64) (float64, bool) {
	if id >= int64(len(c.facts)) {
		return 0, false
	}
	f := c.facts[id]
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
