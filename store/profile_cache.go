package store

import (
	"context"
	"sync"
)

// profileCacheHalf bounds the profile cache: it keeps at most twice this many profiles (a few
// KiB each), enough for the pages visitors actually open, small beside the index.
const profileCacheHalf = 4096

// profileCache keeps recently read profiles for the public read paths. Reading and decoding a
// page of profiles from SQLite is most of a search answer's cost, and the same pages (a
// category's first page, a city's best) are asked for again and again.
//
// Every change to a profile queues an outbox row in the same transaction, so the outbox head
// says whether anything may have changed: the cache answers only for the head it was filled at,
// and starts again empty when the head moves. A write is therefore never hidden behind it, at
// the price of a full refill after each change, which costs what the cache saves once.
//
// Two maps make an approximate LRU without bookkeeping per hit: lookups promote from cold to
// hot, and when hot is full it becomes cold and the old cold is dropped.
type profileCache struct {
	mu        sync.Mutex
	head      int64
	half      int // profileCacheHalf, or a test's smaller bound
	hot, cold map[int64]*Profile
	// owners are the profiles' owners as read forms show them: a change of name or picture
	// queues the owner's profiles, so the head moves for them too.
	owners map[int64]ProfileAuthor
}

// at empties the cache for head when head is newer, and reports whether the cache serves head
// (a reader that saw an older head reads around it).
func (c *profileCache) at(head int64) bool {
	if head > c.head || c.hot == nil {
		if c.half == 0 {
			c.half = profileCacheHalf
		}
		c.head, c.hot, c.cold, c.owners = head, make(map[int64]*Profile, c.half), nil, map[int64]ProfileAuthor{}
	}
	return head == c.head
}

func (c *profileCache) get(id int64) *Profile {
	if p, ok := c.hot[id]; ok {
		return p
	}
	p, ok := c.cold[id]
	if ok {
		c.put(p)
	}
	return p
}

func (c *profileCache) put(p *Profile) {
	if len(c.hot) >= c.half {
		c.hot, c.cold = make(map[int64]*Profile, c.half), c.hot
	}
	c.hot[p.ID] = p
}

// SharedProfilesByIDs answers what ProfilesByIDs answers, from the profile cache where it can.
// The profiles are shared between callers: they must be read and never changed.
func (s *Store) SharedProfilesByIDs(ctx context.Context, ids []int64) ([]*Profile, error) {
	if len(ids) == 0 {
		return []*Profile{}, nil
	}
	head, err := s.OutboxHead(ctx)
	if err != nil {
		return nil, err
	}
	c := &s.profiles
	found := make([]*Profile, len(ids))
	var missing []int64
	c.mu.Lock()
	if c.at(head) {
		for i, id := range ids {
			found[i] = c.get(id)
		}
	}
	c.mu.Unlock()
	for i, p := range found {
		if p == nil {
			missing = append(missing, ids[i])
		}
	}
	if len(missing) > 0 {
		// The read starts after the head was read, so what it finds is at least as new as head.
		ps, err := s.ProfilesByIDs(ctx, missing)
		if err != nil {
			return nil, err
		}
		byID := make(map[int64]*Profile, len(ps))
		c.mu.Lock()
		serve := c.at(head)
		for _, p := range ps {
			byID[p.ID] = p
			if serve {
				c.put(p)
			}
		}
		c.mu.Unlock()
		for i, p := range found {
			if p == nil {
				found[i] = byID[ids[i]]
			}
		}
	}
	out := found[:0]
	for _, p := range found {
		if p != nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// SharedProfileOwners answers what ProfileOwners answers, from the profile cache where it can.
func (s *Store) SharedProfileOwners(ctx context.Context, userIDs []int64) (map[int64]ProfileAuthor, error) {
	if len(userIDs) == 0 {
		return map[int64]ProfileAuthor{}, nil
	}
	head, err := s.OutboxHead(ctx)
	if err != nil {
		return nil, err
	}
	c := &s.profiles
	out := make(map[int64]ProfileAuthor, len(userIDs))
	var missing []int64
	c.mu.Lock()
	serve := c.at(head)
	for _, id := range userIDs {
		if a, ok := c.owners[id]; serve && ok {
			out[id] = a
		} else {
			missing = append(missing, id)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	read, err := s.ProfileOwners(ctx, missing)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.at(head) && len(c.owners) >= 2*c.half {
		c.owners = map[int64]ProfileAuthor{}
	}
	serve = c.head == head
	for id, a := range read {
		out[id] = a
		if serve {
			c.owners[id] = a
		}
	}
	c.mu.Unlock()
	return out, nil
}
