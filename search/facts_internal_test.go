package search

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
	"unsafe"

	"kardan/store"
)

// TestFactsFollowEdits: the pointer-free table (a run of prices and a schedule slot per row)
// answers the price range and open-now filters as the profiles themselves do through thousands
// of random edits, hides and returns, and keeps no more than it holds: loose prices are
// compacted away and freed schedule slots are reused.
func TestFactsFollowEdits(t *testing.T) {
	const n = 300
	rng := rand.New(rand.NewPCG(7, 11))
	fs := &facts{}
	live := map[int64]*store.Profile{}
	profile := func(id int64) *store.Profile {
		p := &store.Profile{ID: id, AccountStatus: store.StatusAccepted, Active: true, Display: true,
			Score: float64(rng.IntN(6)), LevelScore: float64(rng.IntN(51)) / 10,
			Lat: 25 + 15*rng.Float64(), Long: 44 + 20*rng.Float64()}
		for range rng.IntN(7) {
			p.Services = append(p.Services, store.Service{Title: "s", Price: int64(rng.IntN(20)) * 1000})
		}
		switch rng.IntN(4) {
		case 0: // no hours
		case 1:
			p.HoursOfWork = store.Hours{"monday": {Time: []store.Slot{{Open: 9 * 3600, Close: 17 * 3600}}}}
		case 2:
			p.HoursOfWork = store.Hours{"monday": {Boarding: true}, "tuesday": {Boarding: true}}
		case 3:
			p.SpecialDays = []store.SpecialDay{{Date: "2026-12-07", Boarding: rng.IntN(2) == 0, Closed: true}}
		}
		return p
	}
	monday := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC) // a Monday, the special day's date
	moments := []store.Moment{store.MomentOf(monday), store.MomentOf(monday.Add(24 * time.Hour)), store.MomentOf(monday.Add(8 * time.Hour))}
	ranges := [][2]int64{{0, 0}, {1, 5000}, {5000, 5000}, {12000, 0}, {19000, 30000}}

	check := func(round int) {
		t.Helper()
		fs.mu.RLock()
		defer fs.mu.RUnlock()
		own, prices := 0, 0
		for id := int64(0); id < n; id++ {
			p, visible := live[id]
			var f fact
			if id < int64(len(fs.rows)) {
				f = fs.rows[id]
			}
			if f.ok != visible {
				t.Fatalf("round %d: profile %d held %v, visible %v", round, id, f.ok, visible)
			}
			// The points column mirrors the rows: NaN for none, else the row's point in float32.
			if len(fs.points) != len(fs.rows) {
				t.Fatalf("round %d: %d points for %d rows", round, len(fs.points), len(fs.rows))
			}
			if id < int64(len(fs.points)) {
				pt := fs.points[id]
				if visible && (pt.lat != float32(p.Lat) || pt.long != float32(p.Long)) ||
					!visible && !(math.IsNaN(float64(pt.lat)) && math.IsNaN(float64(pt.long))) {
					t.Fatalf("round %d: profile %d (visible %v) point %v", round, id, visible, pt)
				}
			}
			if !visible {
				continue
			}
			want := store.PricesOf(p.Services)
			got := fs.prices[f.price : f.price+uint32(f.nprice)]
			if !slices.Equal(got, want) && len(want)+len(got) > 0 {
				t.Fatalf("round %d: profile %d prices %v, want %v", round, id, got, want)
			}
			for _, r := range ranges {
				plain := slices.ContainsFunc(want, func(v int64) bool { return v >= r[0] && (r[1] == 0 || v <= r[1]) })
				if f.priced(fs.prices, r[0], r[1]) != plain {
					t.Fatalf("round %d: profile %d priced in %v: %v", round, id, r, !plain)
				}
			}
			for _, m := range moments {
				plain := p.Schedule().OpenAt(m)
				if got := f.sched != 0 && fs.scheds[f.sched].OpenAt(m); got != plain {
					t.Fatalf("round %d: profile %d open %v, want %v", round, id, got, plain)
				}
			}
			if f.level != p.LevelScore || f.score != p.Score {
				t.Fatalf("round %d: profile %d scores %v/%v", round, id, f.score, f.level)
			}
			if f.ownSched {
				own++
			}
			prices += int(f.nprice)
		}
		if slots := len(fs.scheds) - 1 - len(fs.free); slots != own {
			t.Fatalf("round %d: %d schedule slots in use, %d rows own one", round, slots, own)
		}
		if len(fs.prices)-fs.loose != prices {
			t.Fatalf("round %d: %d prices less %d loose, rows hold %d", round, len(fs.prices), fs.loose, prices)
		}
		if len(fs.prices) > 2*prices+1024+maxPricesSeen {
			t.Fatalf("round %d: %d prices kept for %d held", round, len(fs.prices), prices)
		}
	}
	compacted, was := false, 0
	for round := range 40 {
		for range 200 {
			id := rng.Int64N(n)
			switch op := rng.IntN(10); {
			case op < 7:
				p := profile(id)
				fs.set(p)
				live[id] = p
			case op < 9:
				p := profile(id)
				p.Display = false
				fs.set(p)
				delete(live, id)
			default:
				fs.forget(id)
				delete(live, id)
			}
		}
		check(round)
		compacted = compacted || len(fs.prices) < was
		was = len(fs.prices)
	}
	if !compacted {
		t.Error("the prices were never compacted")
	}
}

// maxPricesSeen is the longest run the test gives a row (a compaction may leave one more run
// appended after it).
const maxPricesSeen = 6

// TestFactRowIsFlat: a row is 64 bytes and holds no pointer, so the collector reads one cache
// line a profile and the garbage collector never scans the table.
func TestFactRowIsFlat(t *testing.T) {
	if size := unsafe.Sizeof(fact{}); size != 64 {
		t.Errorf("a row is %d bytes", size)
	}
	row := reflect.TypeFor[fact]()
	for i := range row.NumField() {
		switch f := row.Field(i); f.Type.Kind() {
		case reflect.Bool, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Int64, reflect.Float64:
		default:
			t.Errorf("field %s is a %s", f.Name, f.Type)
		}
	}
}
