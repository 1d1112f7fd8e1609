package search

import (
	"context"
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	index "github.com/blevesearch/bleve_index_api"
)

// compact merges a freshly built index into one segment. A rebuild leaves its documents in the
// tiers of Bleve's merge plan (at 100,000 profiles one segment of 67 MB and ten of 9 MB; at a
// million, twenty-one), and every word a search looks up, exactly or as a prefix or a fuzzy
// match, walks each segment's dictionary: on one segment `bench` answered 40% more text
// searches a second and 70% more text + city ones at 100,000 profiles. The merge costs one
// more pass over the index (4 s at 100,000 profiles). Writes after it make small segments of
// their own, which the live merge plan folds together.
func compact(ctx context.Context, idx bleve.Index) error {
	if !compactRebuilds {
		return nil
	}
	a, err := idx.Advanced()
	if err != nil {
		return fmt.Errorf("compact index: %w", err)
	}
	s, ok := a.(*scorch.Scorch)
	if !ok {
		return fmt.Errorf("compact index: not a scorch index (%T)", a)
	}
	opts := mergeplan.SingleSegmentMergePlanOptions
	// One merge of every segment, not rounds of ten: each round rewrites what the one before
	// merged.
	opts.SegmentsPerMergeTask = 1 << 16
	// A merge takes the segments on disk; one still in memory is persisted meanwhile, so a
	// second round picks it up. More than a few rounds would mean the merge makes no progress.
	for round := 0; round < 4; round++ {
		if segmentsOf(s) <= 1 {
			return nil
		}
		if err := s.ForceMerge(ctx, &opts); err != nil {
			return fmt.Errorf("compact index: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// compactRebuilds is false only in a test that compares a rebuild left in many segments with a
// compacted one.
var compactRebuilds = true

// segmentsOf answers how many segments the index's current snapshot holds, in memory or on disk
// (0 for an index that is not scorch's).
func segmentsOf(a index.Index) int {
	r, err := a.Reader()
	if err != nil {
		return 0
	}
	defer r.Close()
	if snap, ok := r.(*scorch.IndexSnapshot); ok {
		return len(snap.Segments())
	}
	return 0
}
