// Package stats counts what visitors do with profiles, for their owners' statistics, without
// keeping anything personal: each visitor is a keyed hash of their address and browser whose key
// lives only in memory and changes every day, so yesterday's visitors cannot be told apart from
// today's, nor recognised by anyone reading the database (which holds only daily counts).
package stats

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"hash/maphash"
	"log/slog"
	"strings"
	"sync"
	"time"

	"kardan/store"
)

// FlushEvery is how often buffered counts are written: a crash loses at most this much.
const FlushEvery = time.Second

// maxSeen bounds the day's memory of who was counted (about 40 bytes each). Beyond it, new
// counts are dropped rather than counted twice: an inflated figure misleads an owner more than
// a missing one.
const maxSeen = 1 << 20

// Visitor is one visitor's identity for today: a keyed hash of address and user agent.
type Visitor struct {
	id  uint64
	day string
	bot bool
}

// Counter buffers counts in memory and adds them to the store once a second.
type Counter struct {
	store *store.Store
	now   func() time.Time
	loc   *time.Location

	mu      sync.Mutex
	day     string // the day key and seen belong to
	key     [32]byte
	seed    maphash.Seed
	seen    map[uint64]struct{}
	pending map[pendingKey]int64
	dropped int64

	flushMu sync.Mutex // one flush at a time, so counts are added in order
}

type pendingKey struct {
	profile           int64
	day, kind, detail string
}

// NewCounter answers a counter over st; now is the clock, loc the time zone days are counted in.
func NewCounter(st *store.Store, now func() time.Time, loc *time.Location) *Counter {
	if now == nil {
		now = time.Now
	}
	if loc == nil {
		loc = time.UTC
	}
	return &Counter{store: st, now: now, loc: loc, pending: map[pendingKey]int64{}}
}

// rotate starts a new day when the clock has moved on: a new random key, and nobody seen yet.
// c.mu is held.
func (c *Counter) rotate() string {
	day := c.now().In(c.loc).Format(time.DateOnly)
	if day != c.day {
		c.day = day
		if _, err := rand.Read(c.key[:]); err != nil {
			panic(err) // crypto/rand never fails on a supported system
		}
		c.seed = maphash.MakeSeed()
		c.seen = map[uint64]struct{}{}
	}
	return day
}

// VisitorOf answers the visitor behind an address and user agent, today.
func (c *Counter) VisitorOf(addr, userAgent string) Visitor {
	if IsBot(userAgent) {
		return Visitor{bot: true}
	}
	c.mu.Lock()
	day := c.rotate()
	m := hmac.New(sha256.New, c.key[:])
	c.mu.Unlock()
	m.Write([]byte(addr))
	m.Write([]byte{0})
	m.Write([]byte(userAgent))
	return Visitor{id: binary.LittleEndian.Uint64(m.Sum(nil)), day: day}
}

// Count counts one event of kind (and detail) on a profile by v, unless v is a bot or was
// already counted for it today. It reports whether it counted.
func (c *Counter) Count(v Visitor, profile int64, kind, detail string) bool {
	if v.bot {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rotate() != v.day {
		return false // the visitor was named under yesterday's key: a request across midnight
	}
	return c.countLocked(v, profile, kind, detail)
}

// CountAll counts one event of kind on each of profiles by v: a search answer's appearances,
// under one lock and with no write.
func (c *Counter) CountAll(v Visitor, profiles []int64, kind string) {
	if v.bot || len(profiles) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rotate() != v.day {
		return
	}
	for _, id := range profiles {
		c.countLocked(v, id, kind, "")
	}
}

// countLocked counts for a visitor of today's key; c.mu is held.
func (c *Counter) countLocked(v Visitor, profile int64, kind, detail string) bool {
	var h maphash.Hash
	h.SetSeed(c.seed)
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], v.id)
	binary.LittleEndian.PutUint64(b[8:], uint64(profile))
	h.Write(b[:])
	h.WriteString(kind)
	h.WriteByte(0)
	h.WriteString(detail)
	k := h.Sum64()
	if _, ok := c.seen[k]; ok {
		return false
	}
	if len(c.seen) >= maxSeen {
		c.dropped++
		return false
	}
	c.seen[k] = struct{}{}
	c.pending[pendingKey{profile: profile, day: v.day, kind: kind, detail: detail}]++
	return true
}

// Flush adds the buffered counts to the store in one transaction. Counts it could not write
// stay buffered for the next flush.
func (c *Counter) Flush(ctx context.Context) error {
	c.flushMu.Lock()
	defer c.flushMu.Unlock()
	c.mu.Lock()
	batch := c.pending
	if len(batch) == 0 {
		c.mu.Unlock()
		return nil
	}
	c.pending = map[pendingKey]int64{}
	c.mu.Unlock()
	counts := make([]store.StatCount, 0, len(batch))
	for k, n := range batch {
		counts = append(counts, store.StatCount{ProfileID: k.profile, Day: k.day, Kind: k.kind, Detail: k.detail, N: n})
	}
	err := c.store.AddStats(ctx, counts)
	if err != nil {
		c.mu.Lock()
		for k, n := range batch {
			c.pending[k] += n
		}
		c.mu.Unlock()
	}
	return err
}

// Run flushes every FlushEvery until ctx ends, then flushes what is left.
func (c *Counter) Run(ctx context.Context) {
	t := time.NewTicker(FlushEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			if err := c.Flush(context.WithoutCancel(ctx)); err != nil {
				slog.Error("statistics: last flush", "err", err)
			}
			return
		case <-t.C:
			if err := c.Flush(ctx); err != nil && ctx.Err() == nil {
				slog.Warn("statistics: flush failed; kept for the next one", "err", err)
			}
		}
	}
}

// botWords are pieces of the user agents of crawlers, link previewers and scripts.
var botWords = []string{"bot", "crawl", "spider", "slurp", "preview", "facebookexternalhit", "curl/", "wget/",
	"python-", "java/", "okhttp", "lighthouse", "pingdom", "uptime", "monitor", "scrapy", "httpclient"}

// IsBot reports whether a user agent is a crawler, a link previewer or a script (or is empty:
// every browser sends one).
func IsBot(userAgent string) bool {
	if strings.TrimSpace(userAgent) == "" {
		return true
	}
	ua := strings.ToLower(userAgent)
	for _, w := range botWords {
		if strings.Contains(ua, w) {
			return true
		}
	}
	return false
}
