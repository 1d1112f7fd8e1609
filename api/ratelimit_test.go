package api

import (
	"fmt"
	"testing"
	"time"
)

func TestTokenBucket(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	l := newTokenBucket(30, 60, func() time.Time { return now })

	t.Run("BurstThenRefuse", func(t *testing.T) {
		for i := 0; i < 60; i++ {
			if ok, _ := l.allow("a"); !ok {
				t.Fatalf("request %d of the burst refused", i+1)
			}
		}
		ok, wait := l.allow("a")
		if ok {
			t.Fatal("request 61 allowed")
		}
		if wait <= 0 || wait > time.Second/30+time.Millisecond {
			t.Fatalf("wait: got %v, want about 1/30 s", wait)
		}
	})
	t.Run("OtherAddressesUnaffected", func(t *testing.T) {
		if ok, _ := l.allow("b"); !ok {
			t.Fatal("another address was refused")
		}
	})
	t.Run("Refills", func(t *testing.T) {
		now = now.Add(100 * time.Millisecond) // three tokens at 30 a second
		for i := 0; i < 3; i++ {
			if ok, _ := l.allow("a"); !ok {
				t.Fatalf("refilled request %d refused", i+1)
			}
		}
		if ok, _ := l.allow("a"); ok {
			t.Fatal("more than the refill was allowed")
		}
		now = now.Add(time.Hour)
		n := 0
		for {
			if ok, _ := l.allow("a"); !ok {
				break
			}
			n++
		}
		if n != 60 {
			t.Fatalf("after an idle hour: got %d, want the burst of 60 (never more)", n)
		}
	})
	t.Run("MemoryBounded", func(t *testing.T) {
		for i := 0; i < maxBuckets+10; i++ {
			l.allow(fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255))
		}
		if n := len(l.buckets); n > maxBuckets {
			t.Fatalf("got %d buckets, want at most %d", n, maxBuckets)
		}
		now = now.Add(time.Hour)
		l.allow("x")
		if n := len(l.buckets); n != 1 {
			t.Fatalf("after an idle hour: got %d buckets, want the idle ones swept", n)
		}
	})
	t.Run("Off", func(t *testing.T) {
		if newTokenBucket(0, 60, nil) != nil {
			t.Fatal("rate 0 made a limiter")
		}
	})
}
