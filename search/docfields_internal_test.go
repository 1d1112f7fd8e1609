package search

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/mapping"
)

// TestPreparedFieldsAsAnalyzers: each prepared field of random texts holds what the field's
// analyzer in the mapping makes of the same text: the same terms, the same bytes, as often, and
// the same length. The texts mix what the fields meet (Persian, the zero-width non-joiner,
// digits, Latin of both cases) with what lower-cases unusually (a final capital sigma, a dotted
// capital I, a capital whose lower case is wider), words past the longest start, marks,
// separators, an emoji, invalid bytes and U+FFFD.
func TestPreparedFieldsAsAnalyzers(t *testing.T) {
	m := newMapping().(*mapping.IndexMappingImpl)
	pieces := []string{"ل", "و", "ه", "ک", "ش", "ی", "ي", "ك", "آ", "\u200c", "\u064b", "ب", "ر", "ق",
		"a", "b", "z", "A", "B", "Z", "0", "7", "۴", "٣", "Σ", "σ", "ς", "İ", "Ⱥ", "ẞ", "É", "é", "ю", "Ю",
		" ", " ", " ", "\n", "،", ".", "-", "_", "/", "😀", "\xff", "\xd8", "\ufffd"}
	rng := rand.New(rand.NewPCG(26, 7))
	text := func() string {
		var b strings.Builder
		for n := rng.IntN(60); n > 0; n-- {
			if rng.IntN(40) == 0 {
				b.WriteString(strings.Repeat("لوله", 1+rng.IntN(6))) // up to 24 letters
			}
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	compared := map[string]int{}
	for i := 0; i < 20000; i++ {
		s := text()
		if i == 0 {
			s = ""
		}
		for _, f := range preparedFields {
			plain := mappedTextField(m, f.name, s)
			plain.Analyze()
			got := newPreparedField(f.name, f.kind, s)
			got.Analyze()
			if err := sameAnalysis(plain, got); err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			compared[f.name] += got.AnalyzedLength()
		}
	}
	for _, f := range preparedFields {
		if compared[f.name] < 20000 {
			t.Errorf("%s: %d terms compared in all: the texts test too little", f.name, compared[f.name])
		}
	}
	t.Logf("terms compared: %v", compared)
}
