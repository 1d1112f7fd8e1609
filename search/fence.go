package search

import (
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2/search/collector"
)

// The fast paths of this package lean on Bleve's internals: scorch snapshots and their segments
// (docids.go), the s2 spatial plugin (geo.go), a custom hit handler in place of Bleve's collector
// (order.go, rank.go) and one collector setting (below). A Bleve upgrade that changes one of
// them must not leave the search answering more slowly, or wrongly, without anyone noticing:
//   - where a slower way still answers right (document ids, radius cells), the fallback is
//     counted and logged once, and FastPathMisses answers the counts;
//   - where nothing would answer right (Bleve not handing the hits to Kardan's handler), the
//     search fails with errHandlerUnused;
//   - fence_test.go fails on any of these, so upgrading Bleve is a test run.

// FastPathMisses counts the times, since the index opened, that a fast path found Bleve's
// internals not as it expects and fell back to Bleve's own, slower way. Each should be zero.
type FastPathMisses struct {
	// DocIDs counts searches whose reader was not a scorch snapshot: each hit's profile id was
	// then read through Bleve's ExternalID instead of the per-segment map.
	DocIDs uint64
	// Cells counts radius searches on an index without the s2 plugin: Bleve's distance query
	// then cut the circle, reading each candidate's point from doc values.
	Cells uint64
	// Tiers counts relevance searches that the tiers of tiers.go could not answer (a reader
	// that is not a scorch snapshot, postings that are not bitmaps): every hit was then weighed
	// one by one (rank.go).
	Tiers uint64
}

// misses holds the counts of FastPathMisses.
type misses struct {
	docIDs, cells atomic.Uint64
}

// miss counts one fallback in c, logging the first of its kind: the answers stay right, so
// nothing else would show it.
func miss(c *atomic.Uint64, path string) {
	if c.Add(1) == 1 {
		slog.Warn("search: a fast path fell back to Bleve's slower way; check this Bleve version against search/fence_test.go",
			"path", path)
	}
}

// FastPathMisses answers the fallbacks counted since ix opened.
func (ix *Index) FastPathMisses() FastPathMisses {
	return FastPathMisses{DocIDs: ix.docs.misses.Load(), Cells: ix.cellMisses.Load(), Tiers: ix.tierMisses.Load()}
}

// errHandlerUnused is answered when Bleve did not hand a search's hits to Kardan's handler (it
// reads bsearch.MakeDocumentMatchHandlerKey from the context): the page would be empty.
var errHandlerUnused = errors.New("Bleve did not hand the hits to Kardan's collector: check this Bleve version against search/fence_test.go")

// handlerUse records that Bleve made a search's hit handler and ended the hits with nil, as
// a custom MakeDocumentMatchHandler expects.
type handlerUse struct {
	made, ended bool
}

// check answers errHandlerUnused unless the handler was made and its hits ended.
func (u *handlerUse) check() error {
	if !u.made || !u.ended {
		return errHandlerUnused
	}
	return nil
}

// preAllocCap bounds what Bleve's collector preallocates for a search. Profile searches ask
// Bleve for every hit (collectAll), and pageCollector hands each match straight back to the
// pool, so Bleve's preallocation for a thousand matches (a pool and a heap of as many) on every
// search was pure waste: 250 KiB a search, half of what a radius answer allocated, and the
// garbage collection that goes with it. Past this cap Bleve allocates on demand, which it never
// needs to here.
const preAllocCap = 32

// tuneBleve applies the one process-wide Bleve setting Kardan changes. It runs when the first
// index opens, not when the package is imported, so a program that links this package without
// opening an index (a test of another package, a tool) keeps Bleve's defaults.
var tuneBleve = sync.OnceFunc(func() { collector.PreAllocSizeSkipCap = preAllocCap })
