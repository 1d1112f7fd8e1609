package search_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"kardan/search"
	"kardan/store"
)

// TestRelevanceWays checks the relevance order: a word in the name before the whole word in the
// text, before the start of a longer word, whatever the level_score; equal ways by level_score.
func TestRelevanceWays(t *testing.T) { bothWays(t, testRelevanceWays) }

// bothWays runs test with the ways of a word made into sets before the search, then read along
// with the hits (rank.go).
func bothWays(t *testing.T, test func(*testing.T)) {
	t.Run("sets", test)
	t.Run("read along", func(t *testing.T) {
		search.ReadWaysWithHits(t, 0)
		test(t)
	})
}

func testRelevanceWays(t *testing.T) {
	f := newFixture(t)
	inName := f.add("کاشیکار ماهر", "", 1, 1, 1, 101, tehranLat, tehranLong)
	inText := f.add("خدمات ساختمان الف", "کاشیکار با تجربه", 1, 1, 1, 101, tehranLat, tehranLong)
	inTextBetter := f.add("خدمات ساختمان ب", "کاشیکار خوش قول", 1, 1, 1, 101, tehranLat, tehranLong)
	started := f.add("خدمات ساختمان پ", "کاشیکاری و سنگ", 1, 1, 1, 101, tehranLat, tehranLong)
	f.add("قنادی", "شیرینی", 1, 1, 1, 101, tehranLat, tehranLong) // matches nothing
	f.setScores(inName.ID, 1, 1, 1.0)
	f.setScores(inText.ID, 3, 1, 3.0)
	f.setScores(inTextBetter.ID, 4, 1, 4.0)
	f.setScores(started.ID, 5, 1, 5.0)
	f.sync()
	for _, tc := range []struct {
		text string
		want []int64
	}{
		{"کاشیکار", ids(inName, inTextBetter, inText, started)},
		// Typed so far: every hit starts a word with it, so level_score alone decides.
		{"کاشیک", ids(started, inTextBetter, inText, inName)},
		// A typo: the word is unknown, so every hit is one letter away.
		{"کاشیکاز", ids(inTextBetter, inText, inName)},
		// Two words, one of them in the name of one profile only.
		{"کاشیکار ماهر", ids(inName)},
		{"کاشیکار خوش", ids(inTextBetter)},
	} {
		h := f.search(search.ProfileQuery{Text: tc.text})
		if !slices.Equal(h.IDs, tc.want) || h.Total != len(tc.want) {
			t.Errorf("%q: got %v (total %d), want %v", tc.text, h.IDs, h.Total, tc.want)
		}
	}
}

// TestPagesAgreeWithOneLongPage checks that pages cut while collecting (where hits that cannot
// reach a full page are passed over, by relevance, by facts.top) list what one page holding every
// hit lists, before and after level_scores change.
func TestPagesAgreeWithOneLongPage(t *testing.T) { bothWays(t, testPagesAgreeWithOneLongPage) }

func testPagesAgreeWithOneLongPage(t *testing.T) {
	f := newFixture(t)
	rng := rand.New(rand.NewPCG(7, 7))
	var all []*store.Profile
	for i := 0; i < 240; i++ {
		name := fmt.Sprintf("خدمات %d", i)
		if i%17 == 0 {
			name = fmt.Sprintf("نقاشی ساختمان %d", i) // a heavier way for some
		}
		all = append(all, f.add(name, "نقاشی ساختمان و کاغذ دیواری", 1, 1, 1, 101, tehranLat, tehranLong))
	}
	setLevels := func() {
		for _, p := range all {
			level := float64(rng.IntN(41)) / 10 // ties are many
			f.setScores(p.ID, level, rng.IntN(4), level)
		}
		f.sync()
	}
	setLevels()
	// Reopened, the facts table is loaded whole and its best profiles marked.
	if err := f.ix.Close(); err != nil {
		t.Fatal(err)
	}
	f.open()
	check := func(stage string) {
		for _, q := range []search.ProfileQuery{
			{Text: "نقاشی"}, {Text: "نقاشی ساختمان"}, {Text: "کاغذ"}, {Text: "نقاشی", Order: search.OrderBest},
			{Text: "ساختمان", Order: search.OrderReviews},
		} {
			q.Take = 100
			var want []int64
			for skip := 0; skip < len(all); skip += q.Take {
				q.Skip = skip
				want = append(want, f.search(q).IDs...)
			}
			if len(want) != len(all) {
				t.Fatalf("%s %+v: %d hits, want %d", stage, q, len(want), len(all))
			}
			for _, take := range []int{1, 7, 20} {
				q.Take = take
				var got []int64
				for skip := 0; skip < 60; skip += take {
					q.Skip = skip
					got = append(got, f.search(q).IDs...)
				}
				if !slices.Equal(got, want[:len(got)]) {
					t.Fatalf("%s %+v take %d:\n got %v\nwant %v", stage, q, take, got, want[:len(got)])
				}
			}
		}
	}
	check("loaded")
	setLevels() // through the indexer: facts.top follows each change
	check("changed")
}

// TestDocIDsAgreeWithBleve checks the document number map against Bleve's own ExternalID on an
// index of several segments, with re-indexed (so deleted and added again) documents.
func TestDocIDsAgreeWithBleve(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	var profiles []*store.Profile
	for batch := 0; batch < 5; batch++ {
		for i := 0; i < 20; i++ {
			profiles = append(profiles, f.add(fmt.Sprintf("نقاشی %d", batch*20+i), "", 1, 1, 1, 101, tehranLat, tehranLong))
		}
		if batch%2 == 1 {
			for _, p := range profiles[:10] {
				f.setScores(p.ID, 4, 1, 4)
			}
		}
		f.sync()
		seen, segments, err := search.CheckDocIDs(ctx, f.ix)
		if err != nil {
			t.Fatalf("batch %d: %v", batch, err)
		}
		if segments == 0 {
			t.Fatalf("batch %d: no segments: the document-id map fell back to ExternalID", batch)
		}
		for _, p := range profiles {
			if !seen[p.ID] {
				t.Fatalf("batch %d (%d segments): profile %d not found", batch, segments, p.ID)
			}
		}
		t.Logf("batch %d: %d segments", batch, segments)
	}
}
