package search

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
)

// TestIsSepAsPlain checks the table of isSep against its definition for every rune there is, and
// a few that are not.
func TestIsSepAsPlain(t *testing.T) {
	for r := rune(-2); r <= unicode.MaxRune+2; r++ {
		if got, want := isSep(r), !isWordRune(r); got != want {
			t.Fatalf("isSep(%U) = %v, want %v", r, got, want)
		}
	}
}

// TestWordsTokenizerAsFields checks the tokenizer of the text fields against the plain split
// that QueryTokens makes of a query: the same words, in order, at their byte offsets, numbered
// from 1, on random text of Persian and Latin letters, digits of three scripts, marks, the
// zero-width non-joiner, the punctuation that Bleve's Unicode tokenizer kept inside a word,
// emoji and invalid bytes.
func TestWordsTokenizerAsFields(t *testing.T) {
	pieces := []string{"ل", "و", "ه", "ک", "ش", "ی", "آ", "a", "B", "z", "é", "1", "۲", "٣", "\u064e",
		"\u0301", "\u200c", " ", "  ", "\n", ".", ",", "_", "'", "-", "/", "٫", "،", "😀", "\xff",
		"\xd9", "中", "\u00a0", "\t"}
	rng := rand.New(rand.NewPCG(25, 9))
	tok := wordsTokenizer{}
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := rng.IntN(24); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		want := strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) })
		got := tok.Tokenize([]byte(s))
		if len(got) != len(want) {
			t.Fatalf("%q: got %d tokens %v, want %q", s, len(got), got, want)
		}
		for k, w := range want {
			g := got[k]
			if string(g.Term) != w || s[g.Start:g.End] != w || g.Position != k+1 {
				t.Fatalf("%q: token %d is %q at %d–%d, position %d; want %q, position %d",
					s, k, g.Term, g.Start, g.End, g.Position, w, k+1)
			}
			numeric := strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
			if (g.Type == analysis.Numeric) != numeric {
				t.Fatalf("%q: token %q has type %v", s, w, g.Type)
			}
		}
		if !utf8.ValidString(s) {
			continue
		}
		// A term never reaches past its word: appending to it cannot overwrite the next.
		for _, g := range got {
			if cap(g.Term) != len(g.Term) {
				t.Fatalf("%q: token %q has room to grow into the input", s, g.Term)
			}
		}
	}
}

func BenchmarkWordsTokenizer(b *testing.B) {
	text := []byte(IndexText(strings.Repeat("لوله‌کشی و تاسیسات ساختمان، تعمیر آبگرمکن و پکیج 24 ساعته در تهران. ", 20)))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		wordsTokenizer{}.Tokenize(text)
	}
}

// TestDecodeRuneAsUTF8 checks the inline forms of decodeRune against the unicode/utf8 package on
// every one- and two-byte sequence and a few longer ones.
func TestDecodeRuneAsUTF8(t *testing.T) {
	for a := 0; a < 256; a++ {
		for b := 0; b < 256; b++ {
			for _, s := range [][]byte{{byte(a)}, {byte(a), byte(b)}, {byte(a), byte(b), 0x80}, {byte(a), byte(b), 0x80, 0x80}} {
				r, n := decodeRune(s)
				wr, wn := utf8.DecodeRune(s)
				if r != wr || n != wn {
					t.Fatalf("% x: got %U %d, want %U %d", s, r, n, wr, wn)
				}
			}
		}
	}
}

// TestDocWordsAsPlain checks the prefix and stem fields, made from one pass over a profile's
// words, against the per-field passes they replaced, on random names and texts of words that
// repeat, have stems, and are short.
func TestDocWordsAsPlain(t *testing.T) {
	vocabulary := []string{"لوله", "لولهکش", "لولهکشی", "لولهکشها", "کاشیکار", "کاشیکاری", "کاشیکاران",
		"نقاش", "نقاشی", "نقاشان", "برقکار", "برقکارها", "ساختمانی", "ساختمان", "و", "در", "با",
		"plumber", "plumbers", "tile", "24", "۲۴", "abc", "abcd"}
	rng := rand.New(rand.NewPCG(25, 10))
	lx := buildLexicon(nil, nil, nil)
	words := func(n int) string {
		var ws []string
		for ; n > 0; n-- {
			ws = append(ws, vocabulary[rng.IntN(len(vocabulary))])
		}
		return strings.Join(ws, []string{" ", " \n ", "، "}[rng.IntN(3)])
	}
	for i := 0; i < 5000; i++ {
		name, text := words(rng.IntN(4)), words(rng.IntN(30))
		ws := textWords(text)
		if got, want := prefixWords(ws), prefixWordsPlain(text); got != want {
			t.Fatalf("prefix of %q: got %q, want %q", text, got, want)
		}
		for _, l := range []*lexicon{nil, lx} {
			if got, want := l.stemWords(name, ws), l.stemWordsPlain(name, text); got != want {
				t.Fatalf("stems of %q + %q: got %q, want %q", name, text, got, want)
			}
		}
	}
}

// prefixWordsPlain is prefixWords as it was, splitting the text itself.
func prefixWordsPlain(text string) string {
	seen := map[string]bool{}
	var b strings.Builder
	for _, w := range strings.FieldsFunc(text, isSep) {
		if utf8.RuneCountInString(w) <= prefixMinRunes || seen[w] {
			continue
		}
		seen[w] = true
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// stemWordsPlain is stemWords as it was, splitting the texts itself.
func (lx *lexicon) stemWordsPlain(texts ...string) string {
	seen := map[string]bool{}
	var b strings.Builder
	for _, t := range texts {
		for _, w := range strings.FieldsFunc(t, isSep) {
			if seen[w] {
				continue
			}
			seen[w] = true
			s := lx.Stem(strings.ReplaceAll(w, string(zwnj), ""))
			if s == w || seen["\x00"+s] {
				continue
			}
			seen["\x00"+s] = true
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(s)
		}
	}
	return b.String()
}
