package search

import (
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
	// top marks the profiles whose level_score is at least topLevel, about the best fiftieth
	// when the table was loaded. Most hits of a broad query tie on relevance and are compared by
	// level_score; once a page holds only such profiles, the others are passed over with a bit
	// test instead of a read of this table, which is too large for the processor's cache and is
	// read in no useful order.
	top      idSet
	topLevel float64
}

type fact struct {
	ok    bool
	count uint32
	// score and level are exact, as the database holds them: min_score and minLevel_score
	// compare them as its browse does, so both paths keep the same profiles.
	score, level float64
	lat, long    float64 // exact: the radius cut is made with them
	created      int64
	// doc fingerprints the index document last applied for the profile (0: unknown), so a
	// change that leaves it as it was, such as a new review's scores, skips Bleve (docHash).
	doc    uint64
	sched  *store.Schedule // open_now; shared by the profiles of one week without special days
	prices []int64         // the services' prices, lowest first (the price range filter)
}

func factOf(f store.ProfileFact, sched *store.Schedule) fact {
	return fact{ok: true, score: f.Score, level: f.LevelScore, count: uint32(max(0, f.CountScorer)),
		lat: f.Lat, long: f.Long, created: f.CreateAt, sched: sched, prices: f.Prices}
}

// priced reports whether some price of f lies within [lo, hi] (hi 0: no upper bound).
func (f *fact) priced(lo, hi int64) bool {
	i, _ := slices.BinarySearch(f.prices, lo)
	return i < len(f.prices) && (hi == 0 || f.prices[i] <= hi)
}

// schedules shares the schedules of the facts table: most profiles keep one of a few weeks
// (the store shares their decoded hours), so the table holds a pointer per profile and a
// schedule per distinct week, not one each.
type schedules map[uintptr]*store.Schedule

// of answers the shared schedule equal to s.
func (ss schedules) of(s store.Schedule) *store.Schedule {
	if len(s.Special) > 0 || s.Week == nil {
		return &s
	}
	key := reflect.ValueOf(s.Week).Pointer() << 1
	if s.OpenOnHolidays {
		key |= 1
	}
	if p, ok := ss[key]; ok {
		return p
	}
	p := &s
	ss[key] = p
	return p
}

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
	var rows []fact
	if bound <= 2*count+1024 {
		rows = make([]fact, 0, bound+1)
	}
	shared := schedules{}
	err = st.VisibleProfileFacts(ctx, func(f store.ProfileFact) {
		if f.ID < 0 || f.ID > math.MaxInt32 {
			return
		}
		for int64(len(rows)) <= f.ID {
			rows = append(rows, fact{})
		}
		rows[f.ID] = factOf(f, shared.of(f.Schedule))
	})
	if err != nil {
		return err
	}
	topLevel := topLevelOf(rows)
	top := newIDSet(int64(len(rows)))
	for id, f := range rows {
		if f.ok && f.level >= topLevel {
			top.add(int64(id))
		}
	}
	fs.mu.Lock()
	fs.rows, fs.top, fs.topLevel = rows, top, topLevel
	fs.mu.Unlock()
	return nil
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
		if p.ID < int64(len(fs.rows)) {
			fs.rows[p.ID] = fact{}
			fs.top.remove(p.ID)
		}
		return
	}
	if n := p.ID + 1; n > int64(len(fs.rows)) {
		fs.rows = slices.Grow(fs.rows, int(n)-len(fs.rows))[:n]
	}
	if words := int(p.ID/64) + 1; words > len(fs.top) {
		fs.top = append(fs.top, make(idSet, words-len(fs.top))...)
	}
	sched := p.Schedule()
	f := factOf(store.ProfileFact{ID: p.ID, Score: p.Score, LevelScore: p.LevelScore, CountScorer: p.CountScorer,
		Lat: p.Lat, Long: p.Long, CreateAt: p.CreateAt, Prices: store.PricesOf(p.Services)}, &sched)
	f.doc = fs.rows[p.ID].doc // the index's document is still the one it holds
	fs.rows[p.ID] = f
	if f.level >= fs.topLevel {
		fs.top.add(p.ID)
	} else {
		fs.top.remove(p.ID)
	}
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
	if id >= 0 && id < int64(len(fs.rows)) {
		fs.rows[id] = fact{}
		fs.top.remove(id)
	}
}
