package search

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"

	"kardan/store"
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

// Rebuild builds a fresh index of every visible profile and Accepted blog into a new directory
// and swaps it in place of dir. The caller must not hold dir open.
func Rebuild(ctx context.Context, dir string, st *store.Store) error {
	start := time.Now()
	// Refuse while a server holds the index, or another rebuild (a serve building it while it
	// answers, a kardan reindex) the new one; an unreadable one is simply replaced.
	tmp := dir + ".new"
	if err := refuseIfHeld(dir, ErrLocked); err != nil {
		return err
	}
	if err := refuseIfHeld(tmp, ErrRebuilding); err != nil {
		return err
	}
	os.RemoveAll(tmp)
	if err := os.MkdirAll(filepath.Dir(dir), 0o750); err != nil {
		return fmt.Errorf("rebuild index: %w", err)
	}
	idx, err := bleve.NewUsing(tmp, newMapping(), "scorch", "scorch", rebuildConfig())
	if err != nil {
		return fmt.Errorf("rebuild index: %w", err)
	}
	// The outbox head is read before the documents, so a change made during the rebuild is
	// applied again afterwards: applying is idempotent.
	head, err := st.OutboxHead(ctx)
	if err != nil {
		idx.Close()
		return err
	}
	ix := &Index{dir: tmp, st: st, idx: idx, ref: &refCache{st: st}, Location: time.UTC}
	n, err := ix.rebuildProfiles(ctx)
	blogs := 0
	if err == nil {
		err = st.AcceptedBlogIDs(ctx, 500, func(ids []int64) error {
			b := idx.NewBatch()
			if err := ix.addBlogs(ctx, b, ids); err != nil {
				return err
			}
			blogs += len(ids)
			return idx.Batch(b)
		})
	}
	if err == nil && rebuildRead != nil {
		rebuildRead()
	}
	if err == nil {
		err = compact(ctx, idx)
	}
	if err == nil {
		b := idx.NewBatch()
		b.SetInternal(keyVersion, []byte(mappingVersion))
		b.SetInternal(keyOutbox, []byte(strconv.FormatInt(head, 10)))
		err = idx.Batch(b)
	}
	if cerr := idx.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("rebuild index: %w", err)
	}
	old := dir + ".old"
	os.RemoveAll(old)
	if _, err := os.Stat(dir); err == nil {
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("rebuild index: %w", err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("rebuild index: %w", err)
	}
	os.RemoveAll(old)
	slog.Info("search index built", "profiles", n, "blogs", blogs, "seconds", time.Since(start).Seconds())
	return nil
}

// rebuildSegmentsPerMerge is how many of a rebuild's segments (one a batch) Bleve's merger lets
// pile up, and then merges at once. Its default (ten, merged ten at a time, tier after tier)
// rewrote each profile two or three times before compact's final merge rewrote it once more:
// at a million profiles that merging was 11% of the rebuild's processor time, taken from the
// batches on the two cores. Left to the one final merge, a rebuild of a million took 123 s
// instead of 134 s (kardan reindex, same data, one after the other), though that merge alone
// takes 26 s instead of 16. Past this many segments (about 1.3 million profiles) they are merged
// this many at a time, so the files open at once stay bounded. Bleve keeps these options in
// the index's meta file, but a server's open replaces them with its own (openExisting), and
// every other open only reads. TestRebuildIsOneSegment checks that a rebuild still ends in one
// segment answering as the segments it merged.
const rebuildSegmentsPerMerge = 256

// rebuildConfig is the configuration of the index a rebuild builds.
func rebuildConfig() map[string]interface{} {
	cfg := kvConfig()
	cfg["scorchMergePlanOptions"] = map[string]interface{}{
		"MaxSegmentsPerTier": rebuildSegmentsPerMerge, "SegmentsPerMergeTask": rebuildSegmentsPerMerge,
	}
	return cfg
}

// ErrRebuilding is answered by Rebuild when another process, or another rebuild of this one, is
// building the index.
var ErrRebuilding = errors.New("the search index is being rebuilt by another kardan (a serve building it, or a reindex)")

// refuseIfHeld answers held when the index in dir is open elsewhere, nil when it is not or is no
// index at all.
func refuseIfHeld(dir string, held error) error {
	if _, err := os.Stat(filepath.Join(dir, "index_meta.json")); err != nil {
		return nil
	}
	cfg := kvConfig()
	cfg["bolt_timeout"] = "2s"
	idx, err := openWithTimeout(dir, cfg)
	if errors.Is(err, ErrLocked) {
		return held
	}
	if err == nil {
		idx.Close()
	}
	return nil
}

// rebuildRead, when set (tests only), is called once a rebuild has read every document and
// before it saves the index: a change made then is one the documents missed.
var rebuildRead func()
