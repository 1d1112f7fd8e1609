package api

import (
	"bytes"
	"runtime"
	"sync"

	"kardan/store"
)

// formCut is a shared part of a cached form's JSON and where in own it goes.
type formCut struct {
	at   int
	part []byte
}

// appendHead appends f's encoded head, as appendProfileFormHead wrote it.
func (f *cachedForm) appendHead(b []byte) []byte {
	at := 0
	for _, c := range f.cuts {
		b = append(b, f.own[at:c.at]...)
		b = append(b, c.part...)
		at = c.at
	}
	b = append(b, f.own[at:]...)
	// own may lie in a slab outside the heap, which f keeps mapped: f must outlive the copy.
	runtime.KeepAlive(f)
	return b
}

// formSize is what f is counted as against formCacheBytes.
func formSize(f *cachedForm) int { return len(f.own) + 32*len(f.cuts) + formOverhead }

// formPartsBytes bounds the shared parts of cached forms (formParts).
const formPartsBytes = 4 << 20

// formParts keeps once the parts of encoded forms that many profiles have in common (a field
// and its categories, a week of opening hours, a province and city): some 1,000 of the 2,800
// bytes of a demo profile's form, so the same memory holds half as many forms again. Its key is
// the part's bytes, which are all it answers, so it never needs to forget one for being stale;
// it starts again empty with the cache, and with a new generation once it is half full. Once it
// holds formPartsBytes, a part it does not know stays in its form's own bytes. Parts are not
// counted in formSize: at most three tables' worth are held (the current one, and the ones the
// forms of hot and cold were made with).
type formParts struct {
	mu    sync.Mutex
	parts map[string][]byte
	bytes int
}

func (t *formParts) size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bytes
}

// newCachedForm answers p's cached form from its encoded head, whose shared parts are at spans
// (appendProfileFormHeadSharing), keeping those parts in parts and its own bytes in arena.
func newCachedForm(p *store.Profile, head []byte, spans []headSpan, parts *formParts, arena *formArena) *cachedForm {
	f := &cachedForm{id: p.ID, userID: p.UserID, slug: p.Slug, visible: p.Visible(), lat: p.Lat, long: p.Long, sched: p.Schedule()}
	if parts == nil { // a reader at an older head, whose forms are not kept
		f.own = bytes.Clone(head)
		return f
	}
	shared := make([][]byte, len(spans))
	own := len(head)
	parts.mu.Lock()
	for i, sp := range spans {
		part, ok := parts.parts[string(head[sp.from:sp.to])]
		if !ok && parts.bytes+sp.to-sp.from <= formPartsBytes {
			if parts.parts == nil {
				parts.parts = map[string][]byte{}
			}
			part = bytes.Clone(head[sp.from:sp.to])
			parts.parts[string(part)] = part
			parts.bytes += len(part)
			ok = true
		}
		if ok {
			shared[i] = part
			own -= len(part)
		}
	}
	parts.mu.Unlock()
	// Copying once into a buffer of the right size costs less than growing one form by form.
	f.own, f.slab = arena.take(own)
	at := 0
	for i, sp := range spans {
		if shared[i] == nil {
			continue
		}
		if f.cuts == nil {
			f.cuts = make([]formCut, 0, len(spans))
		}
		f.own = append(f.own, head[at:sp.from]...)
		f.cuts = append(f.cuts, formCut{at: len(f.own), part: shared[i]})
		at = sp.to
	}
	f.own = append(f.own, head[at:]...)
	return f
}
