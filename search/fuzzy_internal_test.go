package search

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/index/scorch"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
)

// TestFuzzyWordsAsBleve: the words the edit automaton finds one and two edits away are those
// Bleve's fuzzy dictionary (vellum's Levenshtein automaton) finds, in a real index of several
// segments, for words of the index, their typos (a letter replaced, added, dropped, two swapped)
// and strings over a small alphabet, where swaps and near words abound: Persian (with ZWNJ and
// Arabic letters), Latin, and mixed.
func TestFuzzyWordsAsBleve(t *testing.T) {
	_, snap, queries := fuzzyFixture(t)
	found := 0
	for _, q := range queries {
		for k := 1; k <= 2; k++ {
			d, err := snap.FieldDictFuzzy("w", q, k, "")
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for {
				e, err := d.Next()
				if err != nil {
					t.Fatal(err)
				}
				if e == nil {
					break
				}
				want = append(want, e.Term)
			}
			d.Close()
			got, err := fuzzyWords(snap.Segments(), "w", q, k)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%q within %d: got %q, Bleve's %q", q, k, got, want)
			}
			found += len(got)
		}
	}
	if found < len(queries) {
		t.Fatalf("%d words found for %d queries: the test compares too little", found, len(queries))
	}
	t.Logf("%d queries, %d words found", len(queries), found)
}

// fuzzyFixture answers a real index of several segments whose documents hold one word each
// in field w, its snapshot, and the words to look for: the index's, their typos, and strings.
func fuzzyFixture(t *testing.T) (bleve.Index, *scorch.IndexSnapshot, []string) {
	rng := rand.New(rand.NewPCG(25, 15))
	persian := []rune("ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهیيك\u200c")
	small := []rune("abکی\u200c")
	word := func(alphabet []rune, n int) string {
		w := make([]rune, n)
		for i := range w {
			w[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(w)
	}
	vocab := []string{"لوله", "لوله‌کش", "لوله‌کشی", "لوله‌کشي", "کاشیکار", "کاشیکاری", "نقاش", "نقاشی",
		"تعمیرکار", "تعمیرگاه", "plumber", "plumbers", "plumb", "painter", "paint", "ab", "ba", "abc", "acb", "bac"}
	for range 400 {
		vocab = append(vocab, word(persian, 3+rng.IntN(7)))
	}
	for range 300 {
		vocab = append(vocab, word(small, 1+rng.IntN(6)))
	}
	m := bleve.NewIndexMapping()
	m.DefaultAnalyzer = keyword.Name
	ix, err := bleve.New(t.TempDir(), m)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	for seg := 0; seg < 4; seg++ { // a batch a segment: words spread over several dictionaries
		b := ix.NewBatch()
		for i, w := range vocab {
			if i%4 == seg || rng.IntN(5) == 0 {
				if err := b.Index(strconv.Itoa(seg)+"-"+strconv.Itoa(i), map[string]any{"w": w}); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := ix.Batch(b); err != nil {
			t.Fatal(err)
		}
	}
	adv, err := ix.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	r, err := adv.Reader()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	snap := r.(*scorch.IndexSnapshot)
	if len(snap.Segments()) < 2 {
		t.Fatalf("%d segments: the test needs several", len(snap.Segments()))
	}
	typo := func(w string) string {
		rs := []rune(w)
		if len(rs) == 0 {
			return w
		}
		i := rng.IntN(len(rs))
		switch rng.IntN(4) {
		case 0:
			rs[i] = persian[rng.IntN(len(persian))]
		case 1:
			rs = slices.Insert(rs, i, small[rng.IntN(len(small))])
		case 2:
			rs = slices.Delete(rs, i, i+1)
		default:
			if i+1 < len(rs) {
				rs[i], rs[i+1] = rs[i+1], rs[i]
			}
		}
		return string(rs)
	}
	queries := []string{"", "a", "ز"}
	for _, w := range vocab {
		queries = append(queries, w, typo(w), typo(typo(w)))
	}
	for range 200 {
		queries = append(queries, word(small, 1+rng.IntN(7)), word(persian, 2+rng.IntN(8)))
	}
	return ix, snap, queries
}

// TestTypoQueryAsBleve: the article search's typo query finds the documents Bleve's fuzzy query
// finds, with the same scores.
func TestTypoQueryAsBleve(t *testing.T) {
	ix, _, queries := fuzzyFixture(t)
	hits := func(q query.Query) []string {
		req := bleve.NewSearchRequestOptions(q, 10000, 0, false)
		res, err := ix.Search(req)
		if err != nil {
			t.Fatal(err)
		}
		// Ties in arrival order, which a background merge of the segments changes: by id.
		slices.SortStableFunc(res.Hits, func(a, b *bsearch.DocumentMatch) int {
			if a.Score != b.Score {
				return cmp.Compare(b.Score, a.Score)
			}
			return strings.Compare(a.ID, b.ID)
		})
		var out []string
		for _, h := range res.Hits {
			out = append(out, fmt.Sprintf("%s %.9g", h.ID, h.Score))
		}
		return out
	}
	matched := 0
	for i, q := range queries {
		if i%3 != 0 && i > 60 { // a third of them: Bleve's side builds its automaton each time
			continue
		}
		for k := 1; k <= 2; k++ {
			plain := bleve.NewFuzzyQuery(q)
			plain.SetField("w")
			plain.SetFuzziness(k)
			plain.SetBoost(0.6)
			want, got := hits(plain), hits(newTypoQuery(q, "w", k, 0.6))
			if !slices.Equal(got, want) {
				t.Fatalf("%q within %d: got %q, Bleve's %q", q, k, got, want)
			}
			matched += len(got)
		}
	}
	if matched == 0 {
		t.Fatal("nothing matched: the test compares nothing")
	}
}

// TestEditDistanceIsTheAutomatons: the distance that weighs the typo query's words is the one
// the automaton matches by, for fresh automata and for ones given back and reused.
func TestEditDistanceIsTheAutomatons(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 25))
	alphabet := []rune("abcک\u200cی")
	word := func() string {
		w := make([]rune, rng.IntN(7))
		for i := range w {
			w[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(w)
	}
	for range 20000 {
		a, b := word(), word()
		d := editDistance(a, b)
		for k := 1; k <= 2; k++ {
			au := newEditAutomaton(a, k)
			s := au.Start()
			for _, c := range []byte(b) {
				s = au.Accept(s, c)
			}
			if au.IsMatch(s) != (d <= k) {
				t.Fatalf("%q %q: distance %d, the automaton within %d says %v", a, b, d, k, au.IsMatch(s))
			}
			// Given back, so the next word's automaton is most often this one reused: a term
			// of another length, another k and the states left from this walk.
			au.release()
		}
	}
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"ab", "ba", 1}, {"abc", "ca", 3}, {"لوله", "ولله", 1}, {"abc", "", 3}, {"", "ab", 2}} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("%q %q: %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
