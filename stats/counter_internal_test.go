package stats

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRotateAsPlain: the day rotate keeps between calls is the clock's day in the zone, as
// formatting it every time says, on a clock that runs on and sometimes back, across midnights and
// the clock changes of zones that change at midnight.
func TestRotateAsPlain(t *testing.T) {
	for _, zone := range []string{"UTC", "Asia/Tehran", "America/Sao_Paulo", "America/Havana", "Asia/Beirut", "America/Santiago"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Skipf("no zone data: %v", err)
		}
		rng := rand.New(rand.NewPCG(3, uint64(len(zone))))
		now := time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC)
		c := &Counter{now: func() time.Time { return now }, loc: loc}
		for i := 0; i < 200_000; i++ {
			switch r := rng.IntN(100); {
			case r < 1:
				now = now.Add(-time.Duration(rng.Int64N(int64(6 * time.Hour)))) // the clock set back
			case r < 60:
				now = now.Add(time.Duration(rng.Int64N(int64(40 * time.Minute))))
			default:
				now = now.Add(time.Duration(rng.Int64N(int64(2 * time.Second))))
			}
			c.mu.Lock()
			got := c.rotate()
			c.mu.Unlock()
			if want := now.In(loc).Format(time.DateOnly); got != want {
				t.Fatalf("%s at %v: day %s, want %s", zone, now, got, want)
			}
			if got != c.day {
				t.Fatalf("%s: answered %s, kept %s", zone, got, c.day)
			}
		}
		if now.Year() < 2018 {
			t.Fatalf("%s: the clock reached only %v", zone, now)
		}
	}
}

// TestVisitorOfAsPlain: visitors named with the pooled HMACs, from many goroutines and across a
// change of day, are those a fresh HMAC under the day's key names.
func TestVisitorOfAsPlain(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 12, 6, 22, 0, 0, 0, time.UTC)
	c := &Counter{now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }, loc: time.UTC}
	plain := func(key [32]byte, addr, ua string) uint64 {
		m := hmac.New(sha256.New, key[:])
		m.Write([]byte(addr))
		m.Write([]byte{0})
		m.Write([]byte(ua))
		return binary.LittleEndian.Uint64(m.Sum(nil))
	}
	for day := 0; day < 3; day++ {
		c.mu.Lock()
		c.rotate()
		key := c.key
		c.mu.Unlock()
		var wg sync.WaitGroup
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(day), uint64(g)))
				for i := 0; i < 2000; i++ {
					addr := fmt.Sprintf("10.%d.%d.%d", rng.IntN(256), rng.IntN(256), rng.IntN(256))
					ua := "Mozilla/5.0 " + strings.Repeat("x", rng.IntN(300))
					v := c.VisitorOf(addr, ua)
					if v.bot || v.id != plain(key, addr, ua) {
						t.Errorf("day %d: %s %q named %x, want %x", day, addr, ua, v.id, plain(key, addr, ua))
						return
					}
				}
			}()
		}
		wg.Wait()
		mu.Lock()
		now = now.Add(24 * time.Hour)
		mu.Unlock()
	}
}

// TestMarkOfAsPlain: a mark is the hash of the same bytes as before it was built on the stack
// (replicas of two versions must mark a count alike), details longer than the stack's buffer
// included.
func TestMarkOfAsPlain(t *testing.T) {
	plain := func(v Visitor, profile int64, kind, detail string) uint64 {
		h := sha256.New()
		var b [16]byte
		binary.LittleEndian.PutUint64(b[:8], v.id)
		binary.LittleEndian.PutUint64(b[8:], uint64(profile))
		h.Write(b[:])
		h.Write([]byte(kind))
		h.Write([]byte{0})
		h.Write([]byte(detail))
		return binary.LittleEndian.Uint64(h.Sum(nil))
	}
	rng := rand.New(rand.NewPCG(5, 8))
	for i := 0; i < 5000; i++ {
		v := Visitor{id: rng.Uint64()}
		profile := rng.Int64N(1 << 40)
		kind := []string{"view", "appearance", "call", "social", ""}[rng.IntN(5)]
		detail := strings.Repeat("د", rng.IntN(80))
		if got, want := markOf(v, profile, kind, detail), plain(v, profile, kind, detail); got != want {
			t.Fatalf("%v %d %q %q: mark %x, want %x", v, profile, kind, detail, got, want)
		}
	}
}
