package api

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"kardan/store"
)

// The cache stays within its bytes, keeps what is read often, and empties when the head or
// the reference data move on, but not for a reader that saw older ones.
func TestFormCacheBounds(t *testing.T) {
	c := &formCache{halfBytes: 4 * formOverhead}
	if !c.at(7, 1) {
		t.Fatal("a new cache does not serve its head")
	}
	hot := &cachedForm{userID: 1}
	c.put(1, hot)
	for id := int64(2); id < 40; id++ {
		f := &cachedForm{}
		if id%5 == 0 { // a form as big as the whole half still goes in, alone
			f.own = make([]byte, c.halfBytes)
		}
		c.put(id, f)
		if c.get(1) != hot {
			t.Fatalf("after %d puts the form read each time is gone", id)
		}
		size := 0
		for _, f := range c.hot {
			size += formSize(f)
		}
		if size != c.hotBytes {
			t.Fatalf("hot holds %d bytes, counted %d", size, c.hotBytes)
		}
		if size > c.halfBytes && len(c.hot) > 1 {
			t.Fatalf("hot holds %d bytes in %d forms, bound %d", size, len(c.hot), c.halfBytes)
		}
		if n := len(c.hot) + len(c.cold); n > 8 {
			t.Fatalf("%d forms kept, bound 8", n)
		}
	}
	if c.get(2) != nil {
		t.Fatal("a form read once long ago is still kept")
	}
	// A table of shared parts more than half full starts again with the next generation.
	full := &formParts{bytes: formPartsBytes/2 + 1}
	c.parts = full
	for id := int64(40); c.parts == full; id++ {
		if id > 50 {
			t.Fatal("a half-full table of parts outlived a new generation")
		}
		c.put(id, &cachedForm{})
	}
	if len(c.hot) != 1 || c.parts.size() != 0 {
		t.Fatalf("the table of parts was replaced at %d forms in hot, by one of %d bytes", len(c.hot), c.parts.size())
	}
	if c.at(6, 1) || c.at(7, 0) || c.get(1) != hot {
		t.Fatal("an older head or older reference data emptied or was served by the cache")
	}
	if !c.at(7, 2) || c.get(1) != nil {
		t.Fatal("newer reference data kept the old forms")
	}
	c.put(1, hot)
	if !c.at(8, 1) || c.get(1) != nil {
		t.Fatal("a newer head kept the old forms")
	}
}

// TestFormStatusAsSchedule: the open status a cached form remembers (cachedForm.status) is the
// one its schedule answers, at every moment of a fortnight walked in random steps (seconds to
// hours, over midnights, openings and closings, now and then a step back), for weeks of every
// kind: slots, a split day, past midnight, round the clock, closed days and special days.
func TestFormStatusAsSchedule(t *testing.T) {
	tehran, err := time.LoadLocation("Asia/Tehran")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(16, 12))
	days := []string{"saturday", "sunday", "monday", "tuesday", "wednesday", "thursday", "friday"}
	start := time.Date(2026, 3, 14, 0, 0, 0, 0, tehran) // Nowruz holidays among the days walked
	compared := 0
	for week := 0; week < 60; week++ {
		h := store.Hours{}
		for _, d := range days {
			switch rng.IntN(6) {
			case 0:
				h[d] = store.DayHours{Closed: true}
			case 1:
				h[d] = store.DayHours{Boarding: true}
			case 2: // a split day
				h[d] = store.DayHours{Time: []store.Slot{{Open: 8 * 3600, Close: 13 * 3600}, {Open: 16 * 3600, Close: 21 * 3600}}}
			case 3: // to midnight
				h[d] = store.DayHours{Time: []store.Slot{{Open: 18 * 3600, Close: 86400}}}
			case 4: // from midnight
				h[d] = store.DayHours{Time: []store.Slot{{Open: 0, Close: 2 * 3600}, {Open: 9 * 3600, Close: 17*3600 + 1800}}}
			}
		}
		sched := store.Schedule{Week: h, OpenOnHolidays: rng.IntN(2) == 0}
		if rng.IntN(2) == 0 {
			at := start.AddDate(0, 0, rng.IntN(10))
			sched.Special = []store.SpecialDay{{Date: at.Format("2006-01-02"), Closed: rng.IntN(2) == 0,
				Time: []store.Slot{{Open: 10 * 3600, Close: 12 * 3600}}}}
		}
		f := &cachedForm{sched: sched}
		now := start.Add(time.Duration(rng.IntN(86400)) * time.Second)
		for now.Before(start.AddDate(0, 0, 14)) {
			gotStatus, gotNext := f.status(now)
			wantStatus, wantNext := sched.Status(now)
			if gotStatus != wantStatus || !reflect.DeepEqual(gotNext, wantNext) {
				t.Fatalf("week %d at %s: remembered %s %+v, the schedule says %s %+v", week, now, gotStatus, gotNext, wantStatus, wantNext)
			}
			compared++
			switch rng.IntN(10) {
			case 0:
				now = now.Add(-time.Duration(1+rng.IntN(3600)) * time.Second)
			case 1, 2, 3:
				now = now.Add(time.Duration(1+rng.IntN(120)) * time.Second)
			default:
				now = now.Add(time.Duration(1+rng.IntN(4*3600)) * time.Second)
			}
		}
	}
	if compared < 5000 {
		t.Fatalf("only %d moments compared", compared)
	}
}

// TestFormSlabsFollowTheCache: the slabs forms' own bytes are cut from are given back as the
// generations that hold their forms go, forms read often included (moved into the current slab
// as they come back from cold: the test fails without it); and a reader still holding a form
// dropped long ago reads it whole.
func TestFormSlabsFollowTheCache(t *testing.T) {
	c := &formCache{halfBytes: 2 * formSlabBytes}
	c.at(1, 1)
	form := func(id int64) *cachedForm {
		f := &cachedForm{id: id}
		f.own, f.slab = c.arena.clone([]byte(fmt.Sprintf("%06d%s", id, strings.Repeat("x", 4000))))
		return f
	}
	start := formSlabsLive.Load()
	held := form(0)
	c.put(0, held)
	// Some 40 slabs' worth of forms in all, every 50th read again after each 200.
	for id := int64(1); id <= 10000; id++ {
		c.put(id, form(id))
		if id%200 == 0 {
			for p := int64(50); p <= id; p += 50 {
				if f := c.get(p); f == nil || !strings.HasPrefix(string(f.appendHead(nil)), fmt.Sprintf("%06d", p)) {
					t.Fatalf("form %d is gone or wrong after %d", p, id)
				}
			}
		}
	}
	// Both generations together hold at most 4 slabs' worth, cut from at most 6 slabs; one more
	// for the held form, one the arena is cutting from.
	const bound = 8
	deadline := time.Now().Add(5 * time.Second)
	for formSlabsLive.Load()-start > bound && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("%d slabs live after 10,000 forms", formSlabsLive.Load()-start)
	if n := formSlabsLive.Load() - start; n > bound {
		t.Fatalf("%d slabs still live, bound %d", n, bound)
	}
	if got := string(held.appendHead(nil)); !strings.HasPrefix(got, "000000") || len(got) != 4006 || strings.Count(got, "x") != 4000 {
		t.Fatalf("a form held since the first generation reads %.20q… (%d bytes)", got, len(got))
	}
	runtime.KeepAlive(c) // the slabs counted are those of a cache still in use
}
