package api

import (
	"context"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"kardan/store"
)

// formCacheBytes bounds the form cache unless the operator says otherwise (--form-cache-mib):
// its two generations hold at most this many bytes of forms together (formSize). A demo
// profile's form takes about 2 KiB besides its shared parts, so 96 MiB keeps some 48,000. The
// bench's map workload (2,000 circles of 100 profiles, 100,000 profiles) found 15% of its forms
// here with 16 MiB (1,700 answers a second), 51% with 64 MiB (2,200) and 96% with 128 MiB
// (4,500). The default is what keeps the goal of 700 MiB at a million profiles. The forms' own
// bytes lie outside Go's heap (formArena), so they cost about their size: the bench's runs at a
// million peaked at 603 MiB with 80 and 608 MiB with 96, where 48 MiB on the heap peaked at
// 622 MiB and 64 at 646 and 705 (the heap grows by about twice what it holds alive).
const formCacheBytes = 96 << 20

// formOverhead is what a cached form takes besides its encoded JSON: the struct, its schedule
// and its entry in a map.
const formOverhead = 256

// formCatchUpMax is how many outbox rows the cache reads to follow the head before it gives up
// and starts again empty: a reseed that queues every profile is cheaper to forget than to follow.
const formCatchUpMax = 512

// formSlugsMax bounds the slugs of profile pages the cache knows; at that many it forgets them.
const formSlugsMax = 16384

// formCache keeps the public read forms of recently answered profiles, encoded up to their open
// status (which follows the clock) and distance (which follows the query). Reading a page of
// profiles from SQLite, decoding their JSON columns, reading their owners and encoding the forms
// was three quarters of a browse answer, and visitors ask for the same pages (a category's
// first page, a city's best) again and again.
//
// Every change to a profile queues an outbox row naming it in its transaction, and so does a
// change of an owner's name or picture (a row for each of the owner's profiles). The cache holds
// forms at a head (and the reference data it was filled with): when the head moves on, the
// outbox rows in between name the profiles whose forms may have changed, and only those are
// dropped (catchUp). When those rows cannot all be read (pruned, too many, or a gap an aborted
// PostgreSQL transaction left), or the reference data moved, the cache starts again empty. A
// reader that saw an older head reads around the cache. A write is never hidden behind it.
//
// Two maps make an approximate LRU without bookkeeping per hit: a hit in cold moves to hot, and
// when hot is full it becomes cold and the old cold is dropped.
type formCache struct {
	mu        sync.Mutex
	head      int64
	refs      uint64
	halfBytes int // half of Config.FormCacheBytes or formCacheBytes
	hotBytes  int // formSize of the forms in hot
	hot, cold map[int64]*cachedForm
	// slugs are the profiles of pages asked for by slug: the cached form of one serves only if
	// it still has that slug, since a change to the profile drops its form but not its slug.
	slugs map[string]int64
	// parts are the shared parts of the forms (formParts).
	parts *formParts
	// arena holds the forms' own bytes outside the heap (formArena).
	arena formArena
	// catching lets one request at a time read the outbox rows the cache follows.
	catching sync.Mutex
	// hits and misses count forms found and not found, and emptied the times the cache started
	// again empty at a newer head, for the metrics.
	hits, misses, emptied atomic.Uint64
}

// cachedForm is a profile's encoded public form and what an answer needs of it besides.
type cachedForm struct {
	id        int64 // the profile's, for its statistics
	userID    int64
	slug      string
	visible   bool
	lat, long float64
	sched     store.Schedule // for the open status and its next change
	// own and cuts are appendProfileFormHead of the public form: own is its bytes without the
	// parts it shares with other forms (formParts), which cuts put back in (appendHead).
	own  []byte
	cuts []formCut
	// slab is where own lies, kept mapped while the form is reachable (nil: own is on the heap).
	slab *formSlab
	// memo is the open status last worked out (status).
	memo atomic.Pointer[statusMemo]
}

// statusMemo is a form's open status and next change as worked out at from, and until when they
// hold: the next change, and never past the end of from's day, when the days Status looks over
// move on (and a round-the-clock day may give way to an open one within the same opening).
// Working the status out (eight days of slots, holidays) for every form of every answer was a
// twelfth of a text search's time in the server.
type statusMemo struct {
	from, until time.Time
	status      string
	next        *store.Change
}

// status answers f's open status and next change at now, as f.sched.Status does.
func (f *cachedForm) status(now time.Time) (string, *store.Change) {
	if m := f.memo.Load(); m != nil && m.from.Location() == now.Location() && !now.Before(m.from) && now.Before(m.until) {
		return m.status, m.next
	}
	status, next := f.sched.Status(now)
	y, mo, d := now.Date()
	until := time.Date(y, mo, d+1, 0, 0, 0, 0, now.Location())
	if next != nil && next.At.Before(until) {
		until = next.At
	}
	f.memo.Store(&statusMemo{from: now, until: until, status: status, next: next})
	return status, next
}

// at empties the cache for (head, refs) when they are newer than its own, and reports whether
// the cache serves them.
func (c *formCache) at(head int64, refs uint64) bool {
	if c.hot == nil || head > c.head || (head == c.head && refs > c.refs) {
		if c.hot != nil {
			c.emptied.Add(1)
		}
		if c.halfBytes == 0 {
			c.halfBytes = formCacheBytes / 2
		}
		c.head, c.refs, c.hot, c.cold, c.hotBytes = head, refs, map[int64]*cachedForm{}, nil, 0
		c.slugs = map[string]int64{}
		c.parts = &formParts{}
	}
	return head == c.head && refs == c.refs
}

// catchUp moves the cache on to head, dropping only the forms of the profiles the outbox rows
// up to head name, when it holds forms at an older head and the same reference data. Otherwise,
// or when those rows cannot all be read, it leaves the cache as it is, and at empties it.
func (c *formCache) catchUp(ctx context.Context, st *store.Store, head int64, refs uint64) {
	behind := func() (int64, bool) {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.head, c.hot != nil && refs == c.refs && head > c.head && head-c.head <= formCatchUpMax
	}
	if _, ok := behind(); !ok {
		return
	}
	c.catching.Lock()
	defer c.catching.Unlock()
	from, ok := behind() // another request may have caught up meanwhile
	if !ok {
		return
	}
	rows, err := st.OutboxAfter(ctx, from, int(head-from))
	// Outbox ids are drawn one by one, so every row between the two heads is there unless it
	// was pruned or its PostgreSQL transaction aborted: then the cache cannot know what changed.
	if err != nil || int64(len(rows)) != head-from || rows[len(rows)-1].ID != head {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.head != from || c.refs != refs {
		return
	}
	for _, r := range rows {
		if r.Entity != "profile" {
			continue
		}
		if f, ok := c.hot[r.EntityID]; ok {
			c.hotBytes -= formSize(f)
			delete(c.hot, r.EntityID)
		}
		delete(c.cold, r.EntityID)
	}
	c.head = head
}

func (c *formCache) get(id int64) *cachedForm {
	if f, ok := c.hot[id]; ok {
		return f
	}
	f, ok := c.cold[id]
	if ok {
		delete(c.cold, id)
		f = f.moved(&c.arena)
		c.put(id, f)
	}
	return f
}

// moved answers a copy of f whose own bytes lie in arena's current slab, so that f's slab can
// be given back with the rest of the cold generation; readers holding f keep reading f.
func (f *cachedForm) moved(arena *formArena) *cachedForm {
	if f.slab == nil {
		return f
	}
	g := &cachedForm{id: f.id, userID: f.userID, slug: f.slug, visible: f.visible, lat: f.lat, long: f.long,
		sched: f.sched, cuts: f.cuts}
	g.own, g.slab = arena.clone(f.own)
	runtime.KeepAlive(f)
	g.memo.Store(f.memo.Load())
	return g
}

func (c *formCache) put(id int64, f *cachedForm) {
	if old, ok := c.hot[id]; ok {
		c.hotBytes -= formSize(old)
	}
	if c.hotBytes+formSize(f) > c.halfBytes && len(c.hot) > 0 {
		c.hot, c.cold, c.hotBytes = make(map[int64]*cachedForm, len(c.hot)), c.hot, 0
		// A table of parts more than half full starts again with the new generation, so the
		// parts shared follow what is asked for now; the forms of the old table keep theirs
		// until they are dropped in turn.
		if c.parts != nil && c.parts.size() > formPartsBytes/2 {
			c.parts = &formParts{}
		}
	}
	c.hot[id] = f
	c.hotBytes += formSize(f)
}

// publicView is what public forms are read at: the outbox head, read before the profiles were
// found, and the reference data.
type publicView struct {
	head int64
	refs *refs
}

// answerProfiles owns the rules every read of profile forms for a viewer follows, for search
// and for profile pages alike:
//   - the outbox head is read before find finds anything, so every form read for the cache is
//     at least as new as the head it is cached under (a write is never hidden behind the cache);
//   - an admin sees every profile in private, read afresh: find gets a nil view and only finds;
//   - an owner whose own profile is among the forms sees the answer in private, read afresh;
//   - everyone else gets the public forms find answers through the cache.
//
// private reports that the caller must answer with the forms read afresh for viewer.
func (s *Server) answerProfiles(ctx context.Context, viewer *store.User, find func(pv *publicView) ([]*cachedForm, error)) (forms []*cachedForm, private bool, err error) {
	if viewer != nil && viewer.IsAdmin() {
		_, err := find(nil)
		return nil, true, err
	}
	head, err := s.store.OutboxHeadRecent(ctx)
	if err != nil {
		return nil, false, err
	}
	rf, err := s.refs(ctx)
	if err != nil {
		return nil, false, err
	}
	s.forms.catchUp(ctx, s.store, head, rf.seq)
	if forms, err = find(&publicView{head: head, refs: rf}); err != nil {
		return nil, false, err
	}
	if viewer != nil {
		for _, f := range forms {
			if f != nil && f.userID == viewer.ID {
				return nil, true, nil
			}
		}
	}
	return forms, false, nil
}

// publicForms answers the cached forms of the profiles ids, in order, nil for a profile that no
// longer exists. pv comes from answerProfiles, which read its head before the ids were found:
// what is read for the cache is then at least as new as the head.
func (s *Server) publicForms(ctx context.Context, pv *publicView, ids []int64) ([]*cachedForm, error) {
	head, r := pv.head, pv.refs
	out := make([]*cachedForm, len(ids))
	c := &s.forms
	var parts *formParts
	c.mu.Lock()
	if c.at(head, r.seq) {
		for i, id := range ids {
			out[i] = c.get(id)
		}
		parts = c.parts
	}
	c.mu.Unlock()
	var missing []int64
	for i, f := range out {
		if f == nil {
			missing = append(missing, ids[i])
		}
	}
	c.hits.Add(uint64(len(ids) - len(missing)))
	c.misses.Add(uint64(len(missing)))
	if len(missing) == 0 {
		return out, nil
	}
	ps, owners, err := s.store.ProfilesWithOwners(ctx, missing)
	if err != nil {
		return nil, err
	}
	read := make(map[int64]*cachedForm, len(ps))
	scratch := jsonBufs.Get().(*[]byte)
	b := *scratch
	var form profileForm
	var spans []headSpan
	for _, p := range ps {
		r.fill(&form, p, owners[p.UserID], false)
		spans = spans[:0]
		b = appendProfileFormHeadSharing(b[:0], &form, &spans)
		read[p.ID] = newCachedForm(p, b, spans, parts, &c.arena)
	}
	putBuf(scratch, b)
	c.mu.Lock()
	if c.at(head, r.seq) {
		for id, f := range read {
			c.put(id, f)
		}
	}
	c.mu.Unlock()
	for i, f := range out {
		if f == nil {
			out[i] = read[ids[i]]
		}
	}
	return out, nil
}

// slugPage answers, as one form, the public form of the profile page at slug, through the
// cache at pv. A profile the public may not see answers an uncached form naming only its owner
// and not visible.
func (s *Server) slugPage(ctx context.Context, pv *publicView, slug string) ([]*cachedForm, error) {
	if f := s.slugForm(pv, slug); f != nil && f.visible {
		return []*cachedForm{f}, nil
	}
	p, err := s.store.ProfileBySlug(ctx, slug)
	if err != nil {
		return nil, err
	}
	if !p.Visible() {
		return []*cachedForm{{userID: p.UserID}}, nil
	}
	owners, err := s.store.ProfileOwners(ctx, []int64{p.UserID})
	if err != nil {
		return nil, err
	}
	return []*cachedForm{s.keepSlugForm(pv, slug, p, pv.refs.formOf(p, owners[p.UserID], false))}, nil
}

// slugForm answers the cached form of the profile page at slug, or nil.
func (s *Server) slugForm(pv *publicView, slug string) *cachedForm {
	c := &s.forms
	c.mu.Lock()
	defer c.mu.Unlock()
	var f *cachedForm
	if id, ok := c.slugs[slug]; ok && c.at(pv.head, pv.refs.seq) {
		if f = c.get(id); f != nil && f.slug != slug {
			f = nil
		}
	}
	if f != nil {
		c.hits.Add(1)
	} else {
		c.misses.Add(1)
	}
	return f
}

// keepSlugForm caches the public form of the profile page at slug, read after pv's head was.
func (s *Server) keepSlugForm(pv *publicView, slug string, p *store.Profile, form *profileForm) *cachedForm {
	c := &s.forms
	var parts *formParts
	c.mu.Lock()
	if c.at(pv.head, pv.refs.seq) {
		parts = c.parts
	}
	c.mu.Unlock()
	// Encoded outside the lock, which every search's forms go through.
	scratch := jsonBufs.Get().(*[]byte)
	var spans []headSpan
	b := appendProfileFormHeadSharing((*scratch)[:0], form, &spans)
	f := newCachedForm(p, b, spans, parts, &c.arena)
	putBuf(scratch, b)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at(pv.head, pv.refs.seq) {
		if len(c.slugs) >= formSlugsMax {
			c.slugs = map[string]int64{}
		}
		c.slugs[slug] = p.ID
		c.put(p.ID, f)
	}
	return f
}

// writePublicForm writes one cached form in the envelope, as writeForm would.
func writePublicForm(w http.ResponseWriter, f *cachedForm, now time.Time) {
	buf := jsonBufs.Get().(*[]byte)
	b := append((*buf)[:0], `{"payload":`...)
	b = f.appendHead(b)
	status, next := f.status(now)
	b = appendProfileFormTail(b, status, next, nil)
	b = append(b, ",\"message\":\"\"}\n"...)
	writeRaw(w, b)
	putBuf(buf, b)
}

// writePublicFormList writes the visible forms as writeFormList does, their open status at now
// and their distance from from.
func writePublicFormList(w http.ResponseWriter, forms []*cachedForm, total int, now time.Time, from point, extra []byte) {
	buf := jsonBufs.Get().(*[]byte)
	b := append((*buf)[:0], `{"payload":{"count":`...)
	b = strconv.AppendInt(b, int64(total), 10)
	b = append(b, `,"profiles":[`...)
	first := true
	for _, f := range forms {
		// The index can trail the store by a moment: never show what stopped being visible.
		if f == nil || !f.visible {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = f.appendHead(b)
		var dist *int64
		if from.ok {
			dist = distanceTo(from, f.lat, f.long)
		}
		status, next := f.status(now)
		b = appendProfileFormTail(b, status, next, dist)
	}
	b = append(b, ']')
	b = append(b, extra...)
	b = append(b, "},\"message\":\"\"}\n"...)
	writeRaw(w, b)
	putBuf(buf, b)
}
