// Package stats counts what visitors do with profiles, for their owners' statistics, without
// keeping anything personal: each visitor is a keyed hash of their address and browser whose key
// changes every day, so yesterday's visitors cannot be told apart from today's, nor recognised
// by anyone reading the database (which holds only daily counts).
//
// On SQLite the key lives only in this process's memory, and so does the day's memory of who
// was counted. On PostgreSQL several replicas count, and a visitor behind a round-robin balancer
// reaches several: every count carries its mark (the hash of visitor, profile, kind and detail),
// which the flush inserts into the day's marks so that only the first replica to flush a mark
// counts it (store.AddStatsMarked); marks are deleted once their day is over (store.PruneShared).
// For the replicas to name a visitor alike, the day's key is HMAC(cluster secret, day), the
// secret coming from every replica's configuration (serve --stats-secret) and never from the
// database: a key stored next to the marks would let whoever reads the database, or a dump of
// it, test whether an address and browser viewed a profile that day. Without a secret each
// replica keeps its own random key, and a visitor reaching k replicas may count up to k times.
package stats

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
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

// MinSecretLen is the shortest cluster secret NewCounter takes: the day's key is only as hard
// to guess as the secret, and a guessed key reopens the test of who viewed what.
const MinSecretLen = 16

// Counter buffers counts in memory and adds them to the store once a second.
type Counter struct {
	store  *store.Store
	now    func() time.Time
	loc    *time.Location
	shared bool   // the store is PostgreSQL: marks are shared with the other replicas
	secret []byte // the cluster's secret the day's key derives from; nil: a random key a day

	mu  sync.Mutex
	day string // the day key and seen belong to
	key [32]byte
	// sure is when c.day surely holds from and until (rotate): formatting the clock's day on
	// every count was a tenth of a search answer's statistics.
	sure [2]time.Time
	// macs holds HMACs under key, reset for reuse: making one was half of VisitorOf's time.
	macs    *sync.Pool
	seen    map[uint64]struct{}
	pending map[pendingKey]int64
	marks   []store.StatMark // shared only: what pending counts, mark by mark
	dropped int64

	flushMu sync.Mutex // one flush at a time, so counts are added in order
}

type pendingKey struct {
	profile           int64
	day, kind, detail string
}

// NewCounter answers a counter over st; now is the clock, loc the time zone days are counted in.
// On PostgreSQL, secret (at least MinSecretLen bytes, the same on every replica) makes the
// replicas' day keys agree, so a visitor counts once whichever replicas they reach; with none,
// each replica draws its own. On SQLite the secret is unused: the one process's random key
// serves.
func NewCounter(st *store.Store, now func() time.Time, loc *time.Location, secret []byte) (*Counter, error) {
	if now == nil {
		now = time.Now
	}
	if loc == nil {
		loc = time.UTC
	}
	c := &Counter{store: st, now: now, loc: loc, shared: st.IsPostgres(), pending: map[pendingKey]int64{}}
	if len(secret) > 0 && len(secret) < MinSecretLen {
		return nil, fmt.Errorf("the statistics secret has %d bytes: use at least %d random ones", len(secret), MinSecretLen)
	}
	if c.shared && len(secret) > 0 {
		c.secret = append([]byte(nil), secret...)
	}
	return c, nil
}

// dayKey answers the day's key derived from the cluster's secret: the same on every replica,
// and nothing a reader of the database can compute.
func dayKey(secret []byte, day string) [32]byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("kardan statistics day key\x00"))
	m.Write([]byte(day))
	var k [32]byte
	m.Sum(k[:0])
	return k
}

// rotate starts a new day when the clock has moved on: a new key, and nobody seen yet. It
// answers the day. c.mu is held.
func (c *Counter) rotate() string {
	now := c.now()
	if c.day != "" && !now.Before(c.sure[0]) && now.Before(c.sure[1]) {
		return c.day
	}
	t := now.In(c.loc)
	day := t.Format(time.DateOnly)
	// The day surely holds from an hour after its midnight to an hour before the next: where a
	// clock change falls at midnight, Go does not say which side of it time.Date picks, and
	// within that hour each call formats the day again.
	y, m, d := t.Date()
	c.sure = [2]time.Time{time.Date(y, m, d, 1, 0, 0, 0, c.loc), time.Date(y, m, d+1, -1, 0, 0, 0, c.loc)}
	if day == c.day {
		return day
	}
	if c.secret != nil {
		c.key = dayKey(c.secret, day)
	} else if _, err := rand.Read(c.key[:]); err != nil {
		panic(err) // crypto/rand never fails on a supported system
	}
	c.day = day
	c.seen = map[uint64]struct{}{}
	key := c.key
	c.macs = &sync.Pool{New: func() any { return hmac.New(sha256.New, key[:]) }}
	return day
}

// VisitorOf answers the visitor behind an address and user agent, today.
func (c *Counter) VisitorOf(addr, userAgent string) Visitor {
	if IsBot(userAgent) {
		return Visitor{bot: true}
	}
	c.mu.Lock()
	day := c.rotate()
	macs := c.macs
	c.mu.Unlock()
	m := macs.Get().(hash.Hash)
	m.Reset()
	m.Write([]byte(addr))
	m.Write([]byte{0})
	m.Write([]byte(userAgent))
	var sum [sha256.Size]byte
	id := binary.LittleEndian.Uint64(m.Sum(sum[:0]))
	macs.Put(m)
	return Visitor{id: id, day: day}
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

// markOf answers the mark of one count: a hash of the visitor (itself keyed by the day's key)
// with what was counted. It is the same in every replica sharing the secret for the same
// visitor, day and count, which is what lets them agree whom they counted.
// The bytes hashed must not change: replicas of two versions count the same day.
func markOf(v Visitor, profile int64, kind, detail string) uint64 {
	var buf [64]byte // on the stack for the usual kinds and details: a search counts twenty
	b := binary.LittleEndian.AppendUint64(buf[:0], v.id)
	b = binary.LittleEndian.AppendUint64(b, uint64(profile))
	b = append(b, kind...)
	b = append(b, 0)
	b = append(b, detail...)
	sum := sha256.Sum256(b)
	return binary.LittleEndian.Uint64(sum[:])
}

// countLocked counts for a visitor of today's key; c.mu is held.
func (c *Counter) countLocked(v Visitor, profile int64, kind, detail string) bool {
	k := markOf(v, profile, kind, detail)
	if _, ok := c.seen[k]; ok {
		return false
	}
	if len(c.seen) >= maxSeen {
		c.dropped++
		return false
	}
	c.seen[k] = struct{}{}
	if c.shared {
		c.marks = append(c.marks, store.StatMark{ProfileID: profile, Day: v.day, Kind: kind, Detail: detail, Mark: int64(k)})
		return true
	}
	c.pending[pendingKey{profile: profile, day: v.day, kind: kind, detail: detail}]++
	return true
}

// Flush adds the buffered counts to the store in one transaction. Counts it could not write
// stay buffered for the next flush.
func (c *Counter) Flush(ctx context.Context) error {
	c.flushMu.Lock()
	defer c.flushMu.Unlock()
	if c.shared {
		return c.flushMarks(ctx)
	}
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

// flushMarks adds the buffered marks to the store: each counts unless another replica (or an
// earlier flush whose answer was lost) has added it already. c.flushMu is held.
func (c *Counter) flushMarks(ctx context.Context) error {
	c.mu.Lock()
	batch := c.marks
	c.marks = nil
	c.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	err := c.store.AddStatsMarked(ctx, batch)
	if err != nil {
		c.mu.Lock()
		c.marks = append(batch, c.marks...)
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
