package api

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// formSlabBytes is the size of a slab the cached forms' own bytes are cut from; a form over a
// quarter of it takes memory of its own.
const formSlabBytes = 1 << 20

// formSlabsLive counts the slabs allocated and not yet given back, for the tests and metrics.
var formSlabsLive atomic.Int64

// formArena cuts the cached forms' own bytes from slabs of memory outside Go's heap (anonymous
// memory maps on Linux; elsewhere the slabs are on the heap and only the accounting is shared).
// The collector lets the heap grow to about twice what it holds alive before it runs: kept on
// the heap, each MiB of forms cost about two of the server's memory, so the cache held half the
// forms the same memory holds here.
//
// A slab is given back when no form cut from it is reachable: each form keeps a pointer to its
// slab (cachedForm.slab), and a cleanup runs when the slab is unreachable. Nothing else is
// needed for safety: a reader holding a form dropped from the cache keeps its slab mapped. For
// the memory to follow the cache, a form moved from the cold generation to the hot one is copied
// into the current slab (formCache.get), so an old generation's slabs go with it.
type formArena struct {
	mu  sync.Mutex
	cur *formSlab
}

// formSlab is one block of memory forms are cut from, front to back.
type formSlab struct {
	mem  []byte
	used int
}

// take answers an empty slice with room for n bytes, and the slab it lies in (nil for memory of
// its own, from the heap).
func (a *formArena) take(n int) ([]byte, *formSlab) {
	if n > formSlabBytes/4 {
		return make([]byte, 0, n), nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cur == nil || a.cur.used+n > len(a.cur.mem) {
		a.cur = newFormSlab()
	}
	s := a.cur
	b := s.mem[s.used : s.used : s.used+n]
	s.used += n
	return b, s
}

// clone answers a copy of b cut from the arena, and its slab.
func (a *formArena) clone(b []byte) ([]byte, *formSlab) {
	c, s := a.take(len(b))
	return append(c, b...), s
}

func newFormSlab() *formSlab {
	mem, mapped := slabMemory(formSlabBytes)
	s := &formSlab{mem: mem}
	formSlabsLive.Add(1)
	runtime.AddCleanup(s, func(mem []byte) {
		if mapped {
			releaseSlabMemory(mem)
		}
		formSlabsLive.Add(-1)
	}, mem)
	return s
}
