package search

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// TestFuzzyWordsAsBleve: the words the edit automaton finds one and two edits away are those
// Bleve's fuzzy dictionary (vellum's Levenshtein automaton) finds, in a real index of several
// segments, for words of the index, their typos (a letter replaced, added, dropped, two swapped)
// and strings over a small alphabet, where swaps and near words abound: Persian (with ZWNJ and
// Arabic letters), Latin, and mixed.
func TestFuzzyWordsAsBleve(t *testing.T) {
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
	defer ix.Close()
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
	defer r.Close()
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
