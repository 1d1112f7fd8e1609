package search_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/blevesearch/bleve/v2/search/collector"

	"kardan/search"
)

// The canaries of the fast paths built on Bleve's internals (search/fence.go). After a Bleve
// upgrade they fail if a fast path silently fell back to Bleve's slower way, so upgrading Bleve
// is a test run.
func TestFastPathsHold(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	// Several batches, each indexed on its own, make an index of several segments.
	for batch := 0; batch < 3; batch++ {
		for i := 0; i < 15; i++ {
			f.add(fmt.Sprintf("کاشیکار ماهر %d", batch*15+i), "کاشیکاری و سرامیک با تجربه", 1, 1, 1, 101,
				tehranLat+float64(i)/1000, tehranLong)
		}
		f.sync()
	}

	if collector.PreAllocSizeSkipCap != search.PreAllocCap {
		t.Errorf("Bleve's collector preallocates %d, want %d (set when an index opens)", collector.PreAllocSizeSkipCap, search.PreAllocCap)
	}
	seen, segments, err := search.CheckDocIDs(ctx, f.ix)
	if err != nil {
		t.Fatal(err)
	}
	if segments == 0 || len(seen) != 45 {
		t.Fatalf("the document-id map holds %d segments and %d profiles, want some and 45: "+
			"the reader is no longer a scorch snapshot", segments, len(seen))
	}

	for _, q := range []search.ProfileQuery{
		{Text: "کاشیکار"},                              // relevance: the tiers (scorch segments' postings bitmaps)
		{Text: "کاشیکا"},                               // a prefix and a typo: the rank collects its ways' ids
		{Text: "سرامیک ماهر", Order: search.OrderBest}, // two words, the best order
		{HasPoint: true, Lat: tehranLat, Long: tehranLong, Radius: 50000, Order: search.OrderNearest}, // the s2 cells
		{Text: "کاشیکار", HasPoint: true, Lat: tehranLat, Long: tehranLong, Radius: 50000},
	} {
		q.Take = 10
		h := f.search(q)
		if h.Total != 45 || len(h.IDs) != 10 {
			t.Errorf("%+v: %d of %d hits, want 10 of 45", q, len(h.IDs), h.Total)
		}
	}
	if m := f.ix.FastPathMisses(); m != (search.FastPathMisses{}) {
		t.Fatalf("fast paths fell back to Bleve's slower way: %+v", m)
	}
}

// The fallbacks the canary looks for are counted: without this, a counter that never moved
// would let the canary pass whatever Bleve does.
func TestFastPathMissesAreCounted(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.add("نقاش", "", 1, 1, 1, 101, tehranLat, tehranLong)
	f.sync()
	if err := search.MissDocIDs(f.ix); err != nil {
		t.Fatal(err)
	}
	if err := search.MissCells(ctx, f.ix, tehranLat, tehranLong, 1000); err != nil {
		t.Fatal(err)
	}
	if err := search.MissTiers(ctx, f.ix, "نقاش"); err != nil {
		t.Fatal(err)
	}
	if m := f.ix.FastPathMisses(); m.DocIDs != 1 || m.Cells != 1 || m.Tiers != 1 {
		t.Fatalf("got %+v, want one miss of each", m)
	}
}
