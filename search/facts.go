package search

import (
	"cmp"
	"context"
	"math"
	"reflect"
	"slices"
	"sync"

	"kardan/store"
)

// facts holds, by profile id, what the orders of a search compare (level_score, count_scorer,
// the point and the creation time of every visible profile), what the collector sifts hits by
// (score, level_score, hours, prices), and the fingerprint of the profile's index document
// (docHash). It is read from the store when the index opens and kept current by the indexer.
// Bleve's doc values could hold the orders' keys, but each read decompresses a chunk of about a
// thousand documents: ordering a few hundred scattered hits that way cost more than finding them.
type facts struct {
	mu   sync.RWMutex
	rows []fact // index: profile id
	// points repeats each row's point, rounded to float32 (NaN for a row without ok): a radius
	// search tests every hit of a category against its circle's box, and a point is 8 bytes
	// where a row is 64, so far fewer of those scattered reads miss the processor's cache, and
	// a row is read only for the few hits inside the box (pageCollector.within;
	// BenchmarkCategoryRadiusMany). Same length as rows, outside the heap, under the same lock.
	points []point
	// top marks the profiles whose level_score is at least topLevel, about the best fiftieth
	// when the table was loaded. Most hits of a broad query tie on relevance and are compared by
	// level_score; once a page holds only such profiles, the others are passed over with a bit
	// test instead of a read of this table, which is too large for the processor's cache and is
	// read in no useful order.
	top      idSet
	topLevel float64
	// topVersion changes whenever a profile joins or leaves top, or the table is loaded again:
	// the key of what is derived from top (segmentIDs.topDocs).
	topVersion uint64
	// The rows hold no pointers, so the garbage collector never reads the table (with a
	// pointer or two a row, it scanned 88 MB on every cycle at a million profiles): a row's
	// prices are a run in prices, its schedule an index into scheds. Rows and prices live
	// outside the Go heap (offheap.go).
	prices []int64
	loose  int               // prices in runs no row holds any more; compacted when they are most of them
	scheds []*store.Schedule // index 0: no hours
	free   []uint32          // indices of scheds no row holds
}

// point is a row's point in float32 (pointOf).
type point struct{ lat, long float32 }

// noPoint is the point of a row without ok: every comparison with NaN fails.
var noPoint = point{float32(math.NaN()), float32(math.NaN())}

// pointOf answers the point kept for row f.
func pointOf(f *fact) point {
	if !f.ok {
		return noPoint
	}
	return point{float32(f.lat), float32(f.long)}
}

// fact is one profile's row. A row without ok is a profile the index does not hold.
type fact struct {
	// score and level are exact, as the database holds them: min_score and minLevel_score
	// compare them as its browse does, so both paths keep the same profiles.
	score, level float64
	lat, long    float64 // exact: the radius cut is made with them
	created      int64
	// doc fingerprints the index document last applied for the profile (0: unknown), so a
	// change that leaves it as it was, such as a new review's scores, skips Bleve (docHash).
	doc   uint64
	count uint32
	// sched is the profile's schedule in facts.scheds (open_now), 0 for none; shared by the
	// profiles of one week without special days when the table was loaded, the row's own
	// (ownSched) when it was set since.
	sched uint32
	// price and nprice are the run of the services' prices in facts.prices, lowest first (the
	// price range filter).
	price    uint32
	nprice   uint16
	ok       bool
	ownSched bool
}

// factOf answers the row of f, its schedule at index sched.
func factOf(f store.ProfileFact, sched uint32) fact {
	return fact{ok: true, score: f.Score, level: f.LevelScore, count: uint32(max(0, f.CountScorer)),
		lat: f.Lat, long: f.Long, created: f.CreateAt, sched: sched}
}

// priced reports whether some price of f's run in prices lies within [lo, hi] (hi 0: no upper
// bound).
func (f *fact) priced(prices []int64, lo, hi int64) bool {
	run := prices[f.price : f.price+uint32(f.nprice)]
	i, _ := slices.BinarySearch(run, lo)
	return i < len(run) && (hi == 0 || run[i] <= hi)
}

// schedules shares the schedules of a table being loaded: most profiles keep one of a few weeks
// (the store shares their decoded hours), so the table holds a schedule per distinct week, not
// one each.
type schedules struct {
	list []*store.Schedule
	week map[uintptr]uint32
}

// of answers the index in list of a schedule equal to s.
func (ss *schedules) of(s store.Schedule) uint32 {
	if noHours(s) {
		return 0
	}
	if len(s.Special) > 0 || s.Week == nil {
		ss.list = append(ss.list, &s)
		return uint32(len(ss.list) - 1)
	}
	key := reflect.ValueOf(s.Week).Pointer() << 1
	if s.OpenOnHolidays {
		key |= 1
	}
	if i, ok := ss.week[key]; ok {
		return i
	}
	ss.list = append(ss.list, &s)
	i := uint32(len(ss.list) - 1)
	ss.week[key] = i
	return i
}

// noHours reports whether s is never open: no week and no special days (OpenAt answers false).
func noHours(s store.Schedule) bool {
	return len(s.Special) == 0 && len(s.Week) == 0
}

// maxPrices bounds a row's run (nprice); a profile has far fewer services.
const maxPrices = math.MaxUint16

// load replaces the table with the store's visible profiles.
func (fs *facts) load(ctx context.Context, st *store.Store) error {
	// Sized once: grown a row at a time, a million rows left about as much again in discarded
	// copies for the garbage collector, and the server's memory after start-up twice its need.
	// Only when the ids are about as many as the profiles: one odd large id (an import) is
	// grown to, as before, but not reserved for up front.
	bound, count, err := st.ProfileIDBound(ctx)
	if err != nil {
		return err
	}
	// The ids up to the bound are read in parts, each a range of ids on its own goroutine, into
	// rows it alone writes, with its own prices and schedules; the parts are joined in id order,
	// so the table holds what one pass makes (TestFactsLoadInPartsAsInOne). The ids from tail on
	// (all of them for scattered ids; else those added since the bound was read) are read after,
	// in one pass that grows the table to them.
	var rows []fact
	var ps []factsPart
	tail := int64(0)
	if n := factsPartsFor(count); bound <= 2*count+1024 && n > 0 {
		rows, ps, tail = mapSlice[fact](int(bound)+1), make([]factsPart, n), bound+1
	}
	step := (tail + int64(len(ps)) - 1) / max(1, int64(len(ps)))
	var wg sync.WaitGroup
	for i := range ps {
		p := &ps[i]
		p.from, p.to, p.shared = int64(i)*step, min(int64(i+1)*step, tail), newSchedules()
		wg.Go(func() {
			p.err = st.VisibleProfileFacts(ctx, p.from, p.to, func(f store.ProfileFact) {
				rows[f.ID] = p.row(f) // from <= f.ID < to <= len(rows)
			})
		})
	}
	wg.Wait()
	for i := range ps {
		err = cmp.Or(err, ps[i].err)
	}
	if err != nil {
		unmapSlice(rows)
		for i := range ps {
			unmapSlice(ps[i].prices)
		}
		return err
	}
	all := factsPart{shared: newSchedules()}
	for i := range ps {
		if i == 0 {
			all.prices, all.shared = ps[0].prices, ps[0].shared
		} else {
			all.join(&ps[i], rows)
		}
	}
	err = st.VisibleProfileFacts(ctx, tail, math.MaxInt64, func(f store.ProfileFact) {
		if f.ID < 0 || f.ID > math.MaxInt32 {
			return
		}
		if int64(len(rows)) <= f.ID {
			rows = resized(rows, int(f.ID)+1)
		}
		rows[f.ID] = all.row(f)
	})
	if err != nil {
		unmapSlice(rows)
		unmapSlice(all.prices)
		return err
	}
	prices, shared := all.prices, all.shared
	// As long as one pass would have grown it: up to the last visible profile.
	last := len(rows)
	for last > 0 && !rows[last-1].ok {
		last--
	}
	rows = rows[:last]
	points := mapSlice[point](len(rows))
	for id := range rows {
		points[id] = pointOf(&rows[id])
	}
	topLevel := topLevelOf(rows)
	top := newIDSet(int64(len(rows)))
	for id, f := range rows {
		if f.ok && f.level >= topLevel {
			top.add(int64(id))
		}
	}
	fs.mu.Lock()
	oldRows, oldPoints, oldPrices := fs.rows, fs.points, fs.prices
	fs.rows, fs.points, fs.top, fs.topLevel = rows, points, top, topLevel
	fs.topVersion++
	fs.prices, fs.loose = prices, 0
	fs.scheds, fs.free = shared.list, nil
	unmapSlice(oldRows)
	unmapSlice(oldPoints)
	unmapSlice(oldPrices)
	fs.mu.Unlock()
	return nil
}

// factsPart is one range of ids a load reads, [from, to), with what its rows point into.
type factsPart struct {
	from, to int64
	prices   []int64
	shared   schedules
	err      error
}

// newSchedules answers an empty set of schedules, slot 0 standing for none.
func newSchedules() schedules {
	return schedules{list: []*store.Schedule{nil}, week: map[uintptr]uint32{}}
}

// row answers the table's row for f, its prices and schedule added to the part's.
func (p *factsPart) row(f store.ProfileFact) fact {
	row := factOf(f, p.shared.of(f.Schedule))
	row.price, row.nprice = uint32(len(p.prices)), uint16(min(len(f.Prices), maxPrices))
	p.prices = appended(p.prices, f.Prices[:row.nprice]...)
	return row
}

// join adds next, the part of the ids after p's, to p: its prices after p's and its schedules
// into p's, and its rows in rows pointed at them there. next's prices are given back.
func (p *factsPart) join(next *factsPart, rows []fact) {
	base := uint32(len(p.prices))
	p.prices = appended(p.prices, next.prices...)
	unmapSlice(next.prices)
	sched := make([]uint32, len(next.shared.list))
	for i, s := range next.shared.list[1:] {
		sched[i+1] = p.shared.of(*s)
	}
	for id := next.from; id < next.to; id++ {
		if r := &rows[id]; r.ok {
			r.price += base
			r.sched = sched[r.sched]
		}
	}
}

// factsPartsFor answers how many parts a load of count profiles reads at once: one core's pass
// over a million took 3.1 s of serve's 4.7 s start-up (SQLite's steps 1.4 s, decoding prices and
// special days 0.7 s). A variable only so a test can ask for other parts, or for none (the whole
// table in the one pass that grows it, as scattered ids are read).
var factsPartsFor = func(count int64) int {
	if count < 50_000 {
		return 1
	}
	return 2
}

// release gives the table's memory back (Index.Close); the table is empty afterwards.
func (fs *facts) release() {
	if fs == nil {
		return
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	unmapSlice(fs.rows)
	unmapSlice(fs.points)
	unmapSlice(fs.prices)
	fs.rows, fs.points, fs.prices, fs.loose = nil, nil, nil, 0
	fs.top = nil
	fs.topVersion++
}

// topLevelOf answers the lowest level_score of about the best fiftieth of the profiles, counted
// in steps of a hundredth (levels run from 0 to 5).
func topLevelOf(rows []fact) float64 {
	var steps [502]int
	n := 0
	for _, f := range rows {
		if f.ok {
			steps[min(501, max(0, int(f.level*100)))]++
			n++
		}
	}
	want := max(1, n/50)
	seen := 0
	for i := len(steps) - 1; i > 0; i-- {
		if seen += steps[i]; seen >= want {
			return float64(i) / 100
		}
	}
	return 0
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
		fs.clear(p.ID)
		return
	}
	if n := p.ID + 1; n > int64(len(fs.rows)) {
		from := len(fs.points)
		fs.rows, fs.points = resized(fs.rows, int(n)), resized(fs.points, int(n))
		for i := from; i < len(fs.points); i++ {
			fs.points[i] = noPoint
		}
	}
	if words := int(p.ID/64) + 1; words > len(fs.top) {
		fs.top = append(fs.top, make(idSet, words-len(fs.top))...)
	}
	old := &fs.rows[p.ID]
	f := factOf(store.ProfileFact{ID: p.ID, Score: p.Score, LevelScore: p.LevelScore, CountScorer: p.CountScorer,
		Lat: p.Lat, Long: p.Long, CreateAt: p.CreateAt}, 0)
	f.doc = old.doc // the index's document is still the one it holds
	// The row's own schedule slot and run of prices are reused in place when they fit.
	if sched := p.Schedule(); noHours(sched) {
		fs.dropSched(old)
	} else {
		f.sched, f.ownSched = fs.ownSched(old), true
		fs.scheds[f.sched] = &sched
	}
	f.price, f.nprice = fs.putPrices(old, store.PricesOf(p.Services))
	fs.rows[p.ID] = f
	fs.points[p.ID] = pointOf(&f)
	fs.setTop(p.ID, f.level >= fs.topLevel)
}

// setTop puts profile id in top or takes it out, moving topVersion when that changes top.
func (fs *facts) setTop(id int64, in bool) {
	if fs.top.has(id) == in {
		return
	}
	if in {
		fs.top.add(id)
	} else {
		fs.top.remove(id)
	}
	fs.topVersion++
}

// ownSched answers a slot of scheds for a row replacing old: old's own, a freed one, or a new
// one.
func (fs *facts) ownSched(old *fact) uint32 {
	if old.ok && old.ownSched {
		return old.sched
	}
	if n := len(fs.free); n > 0 {
		i := fs.free[n-1]
		fs.free = fs.free[:n-1]
		return i
	}
	if len(fs.scheds) == 0 {
		fs.scheds = append(fs.scheds, nil) // index 0: no hours
	}
	fs.scheds = append(fs.scheds, nil)
	return uint32(len(fs.scheds) - 1)
}

// dropSched gives old's own schedule slot back.
func (fs *facts) dropSched(old *fact) {
	if old.ok && old.ownSched {
		fs.scheds[old.sched] = nil
		fs.free = append(fs.free, old.sched)
		old.ownSched = false
	}
}

// putPrices stores the run of a row replacing old: in old's place when it fits, else at the end
// of prices, compacting them first when most are loose.
func (fs *facts) putPrices(old *fact, prices []int64) (uint32, uint16) {
	prices = prices[:min(len(prices), maxPrices)]
	n := uint16(len(prices))
	if old.ok && n <= old.nprice {
		copy(fs.prices[old.price:], prices)
		fs.loose += int(old.nprice - n)
		return old.price, n
	}
	if old.ok {
		fs.loose += int(old.nprice)
		old.nprice = 0 // no longer its run: a compaction must not keep it
	}
	if fs.loose > 1024 && fs.loose > len(fs.prices)/2 {
		fs.compact()
	}
	at := uint32(len(fs.prices))
	fs.prices = appended(fs.prices, prices...)
	return at, n
}

// compact copies the runs the rows hold into a new array, leaving the loose prices behind. A
// new array, not a move in place: the rows' offsets change with it under the same write lock.
func (fs *facts) compact() {
	live := mapSlice[int64](len(fs.prices) - fs.loose)
	at := uint32(0)
	for i := range fs.rows {
		f := &fs.rows[i]
		if !f.ok {
			continue
		}
		copy(live[at:], fs.prices[f.price:f.price+uint32(f.nprice)])
		f.price = at
		at += uint32(f.nprice)
	}
	unmapSlice(fs.prices)
	fs.prices, fs.loose = live[:at], 0
}

// clear empties the row of id, giving its schedule slot and prices back.
func (fs *facts) clear(id int64) {
	if id < 0 || id >= int64(len(fs.rows)) {
		return
	}
	f := &fs.rows[id]
	if f.ok {
		fs.loose += int(f.nprice)
		fs.dropSched(f)
	}
	*f = fact{}
	fs.points[id] = noPoint
	fs.setTop(id, false)
}

// docOf answers the fingerprint of the document the index holds for profile id (0: unknown).
func (fs *facts) docOf(id int64) uint64 {
	if fs == nil {
		return 0
	}
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	if id >= 0 && id < int64(len(fs.rows)) && fs.rows[id].ok {
		return fs.rows[id].doc
	}
	return 0
}

// applied records the fingerprints of documents a batch just put in the index.
func (fs *facts) applied(docs []docApplied) {
	if fs == nil || len(docs) == 0 {
		return
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, d := range docs {
		if d.id >= 0 && d.id < int64(len(fs.rows)) && fs.rows[d.id].ok {
			fs.rows[d.id].doc = d.hash
		}
	}
}

// forget drops a profile that left the index.
func (fs *facts) forget(id int64) {
	if fs == nil {
		return
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.clear(id)
}

// lend gives c the table for one search; the caller holds the read lock until c is done: the
// memory lent is given back once the table is replaced (offheap.go).
func (fs *facts) lend(c *pageCollector) {
	c.facts, c.points, c.prices, c.scheds = fs.rows, fs.points, fs.prices, fs.scheds
	c.top, c.topLevel, c.topVersion = fs.top, fs.topLevel, fs.topVersion
}
