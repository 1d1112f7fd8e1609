package search

import (
	"context"
	"sync"
	"weak"

	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"
)

// termCounts remembers how many documents of one index snapshot hold a term of a field, as the
// text query's planning asks them (wordReader.count): a query asks four to eight, a term reader
// each (1.7 µs and 16 allocations), which was a sixth of a text search's time. Key: field and
// term, in the snapshot the index served when they were read. Invalidated: by the next snapshot
// the index serves (every batch, persist or merge makes one), and when it holds maxTermCounts
// terms. The snapshot is held weakly, so the cache never keeps one alive. TestTermCountsAsReader
// compares it with a term reader through random writes and concurrent searches.
type termCounts struct {
	mu     sync.Mutex
	snap   weak.Pointer[scorch.IndexSnapshot]
	counts map[fieldTerm]uint64
}

type fieldTerm struct{ field, term string }

// maxTermCounts bounds the terms remembered for one snapshot.
const maxTermCounts = 20000

// termCount answers how many documents of r hold term in field, from the cache when r is the
// snapshot it remembers. A count read from another snapshot replaces the cache only when that
// snapshot is the one the index serves now: a query that began before a batch and asks after it
// would otherwise throw away the newer snapshot's counts.
func (ix *Index) termCount(ctx context.Context, r index.IndexReader, field, term string) (uint64, error) {
	c := &ix.counts
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return readCount(ctx, r, field, term)
	}
	key := fieldTerm{field, term}
	w := weak.Make(snap)
	c.mu.Lock()
	n, hit := c.counts[key]
	hit = hit && c.snap == w
	c.mu.Unlock()
	if hit {
		return n, nil
	}
	n, err := readCount(ctx, r, field, term)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != w {
		if !ix.serves(snap) {
			return n, nil
		}
		c.snap, c.counts = w, make(map[fieldTerm]uint64)
	} else if len(c.counts) >= maxTermCounts {
		c.counts = make(map[fieldTerm]uint64)
	}
	c.counts[key] = n
	return n, nil
}

// serves reports whether snap is the snapshot the index serves now.
func (ix *Index) serves(snap *scorch.IndexSnapshot) bool {
	now, err := ix.reader()
	if err != nil {
		return false
	}
	defer now.Close()
	return now == index.IndexReader(snap)
}

// readCount answers how many documents of r hold term in field, from its term reader.
func readCount(ctx context.Context, r index.IndexReader, field, term string) (uint64, error) {
	tfr, err := r.TermFieldReader(ctx, []byte(term), field, false, false, false)
	if err != nil {
		return 0, err
	}
	defer tfr.Close()
	return tfr.Count(), nil
}
