package search

import (
	"context"
	"errors"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
)

// rebuildBatch is how many profiles one batch of a full rebuild holds: big batches make few,
// large segments and spare most of the merging that many small ones cause. A variable only so a
// test can make a rebuild of a few hundred profiles leave many segments.
var rebuildBatch = 5000

// rebuildProfiles indexes every visible profile into ix, a fresh index, and answers how many.
// Reading profiles and mapping them into a batch (one goroutine) overlaps with Bleve indexing the
// batch before, and the garbage collector runs less often meanwhile: a rebuild makes a great deal
// of short-lived garbage. A memory limit keeps the heap this lets grow within what the machine
// has (rebuildMemoryLimit).
func (ix *Index) rebuildProfiles(ctx context.Context) (int, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	limit := debug.SetMemoryLimit(-1)
	budget := rebuildMemoryLimit(limit)
	debug.SetMemoryLimit(budget)
	defer debug.SetMemoryLimit(limit)
	batch := rebuildBatchFor(budget)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan *bleve.Batch, 1)
	var n int
	var readErr error
	// A million profiles take minutes, which serve may spend answering (cmd's App): the log says
	// how far it is.
	total, err := ix.st.VisibleProfiles(ctx)
	if err != nil {
		return 0, err
	}
	said := time.Now()
	go func() {
		defer close(batches)
		readErr = ix.st.VisibleProfileIDs(ctx, batch, func(ids []int64) error {
			b := ix.idx.NewBatch()
			if _, err := ix.addProfiles(ctx, b, ids); err != nil {
				return err
			}
			select {
			case batches <- b:
				n += len(ids)
				if time.Since(said) >= rebuildProgressEvery {
					said = time.Now()
					slog.Info("search index: building", "profiles", n, "of", total)
				}
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	// Two batches are indexed at once: Bleve analyses a batch on every core but builds its
	// segment on one, so a second batch keeps the other core busy meanwhile.
	var wg sync.WaitGroup
	errs := make([]error, rebuildWriters)
	for w := 0; w < rebuildWriters; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range batches {
				if errs[w] != nil {
					continue // drain, so the reader ends
				}
				if errs[w] = ix.idx.Batch(b); errs[w] != nil {
					cancel()
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	// The reader wrote n and readErr before closing the channel.
	return n, readErr
}

// rebuildBatchFor answers the batch a rebuild under a memory limit of budget bytes uses: about
// four batches are held at once (one read, one waiting, two indexed), at some 30 KB a profile
// while Bleve analyses it. Under a small limit big batches left the collector running most of
// the time: a rebuild of 100,000 profiles in a container of 1 GiB took 57 s in batches of 5,000
// and 28 s in batches of 2,000.
func rebuildBatchFor(budget int64) int {
	return int(min(int64(rebuildBatch), max(500, budget>>18)))
}

// rebuildProgressEvery is how often a rebuild logs how many profiles it has read.
const rebuildProgressEvery = 15 * time.Second

// rebuildWriters is how many batches a rebuild indexes at once.
const rebuildWriters = 2

// textWords answers the words of text once each, in the order they first appear: the prefix and
// stem fields need each word once, not every occurrence, and share one pass over the text.
func textWords(text string) []string {
	words := strings.FieldsFunc(text, isSep)
	seen := make(map[string]struct{}, len(words))
	out := words[:0]
	for _, w := range words {
		if _, ok := seen[w]; !ok {
			seen[w] = struct{}{}
			out = append(out, w)
		}
	}
	return out
}

// prefixWords answers words, leaving out those too short to have a start shorter than themselves
// (filters.go).
func prefixWords(words []string) string {
	var b strings.Builder
	for _, w := range words {
		if utf8.RuneCountInString(w) <= prefixMinRunes {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}
