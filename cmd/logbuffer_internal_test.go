package cmd

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer the flushing timer and the test may touch at once.
type lockedBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes++
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *lockedBuffer) Writes() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.writes
}

func TestLogBufferHoldsInfoAndFlushesWarnings(t *testing.T) {
	out := &lockedBuffer{}
	b := newLogBuffer(out)
	log := slog.New(flushingHandler{slog.NewTextHandler(b, nil), b}).With("app", "kardan")

	log.Info("request", "path", "/v1/a")
	log.Info("request", "path", "/v1/b")
	if got := out.String(); got != "" {
		t.Fatalf("info lines written at once: %q", got)
	}
	// Within the flush interval the two lines arrive, in one write.
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "/v1/b") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := out.String(); !strings.Contains(got, "/v1/a") || !strings.Contains(got, "/v1/b") || out.Writes() != 1 {
		t.Fatalf("after %s: %q in %d writes, want both lines in one", logFlushEvery, got, out.Writes())
	}

	// A warning is written at once, with the info line before it, in order.
	log.Info("request", "path", "/v1/c")
	log.WithGroup("g").Warn("disk almost full")
	got := out.String()
	c, w := strings.Index(got, "/v1/c"), strings.Index(got, "disk almost full")
	if c < 0 || w < c || !strings.Contains(got, "app=kardan") {
		t.Fatalf("a warning must be written at once after what preceded it: %q", got)
	}

	// Flush writes the rest; an empty buffer writes nothing.
	log.Info("stopped")
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	n := out.Writes()
	if !strings.Contains(out.String(), "msg=stopped") {
		t.Fatalf("flush: %q", out.String())
	}
	b.Flush()
	time.Sleep(2 * logFlushEvery)
	if out.Writes() != n {
		t.Fatalf("an empty buffer was written: %d writes, want %d", out.Writes(), n)
	}
}

func TestLogBufferKeepsEveryLineWholeUnderConcurrentWriters(t *testing.T) {
	out := &lockedBuffer{}
	b := newLogBuffer(out)
	log := slog.New(flushingHandler{slog.NewTextHandler(b, nil), b})
	const writers, lines = 16, 2000 // about 1.9 MB: the buffer fills and is written many times over
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < lines; i++ {
				log.Info("request", "writer", w, "line", i, "pad", strings.Repeat("x", 20))
			}
		}()
	}
	wg.Wait()
	b.Flush()
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(got) != writers*lines {
		t.Fatalf("%d lines, want %d", len(got), writers*lines)
	}
	seen := map[string]bool{}
	for _, l := range got {
		var w, i int
		k := strings.Index(l, "writer=")
		if k < 0 {
			t.Fatalf("a line cut: %q", l)
		}
		if _, err := fmt.Sscanf(l[k:], "writer=%d line=%d pad=", &w, &i); err != nil || !strings.HasSuffix(l, strings.Repeat("x", 20)) {
			t.Fatalf("a line cut or mixed: %q (%v)", l, err)
		}
		seen[fmt.Sprint(w, " ", i)] = true
	}
	if len(seen) != writers*lines {
		t.Fatalf("%d distinct lines, want %d", len(seen), writers*lines)
	}
	if w := out.Writes(); w < 20 || w > writers*lines/10 {
		t.Fatalf("%d writes for %d lines: the buffer should fill and be written whole", w, writers*lines)
	}
}
