package search

import (
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// wordsTokenizerName names the tokenizer of the Persian text fields.
const wordsTokenizerName = "kardan_words"

// wordsTokenizer cuts text into words where isSep says, the way QueryTokens cuts a query: a
// query word is looked up as a term of the index, so both sides must cut alike. Bleve's Unicode
// tokenizer (UAX #29) cut otherwise around a few characters between letters or digits
// («3.5», «1,000», «a_b», «don't» stayed whole in the index and were split in the query, so they
// could not be found), and it was a tenth of a rebuild's CPU: the text reaching it is folded
// already (IndexText), and a word is a run of letters, digits and marks.
type wordsTokenizer struct{}

// Tokenize implements analysis.Tokenizer. A stream's tokens are made in two allocations, counted
// in a first pass; the terms share the input's bytes, as Bleve's tokenizers' do.
func (wordsTokenizer) Tokenize(input []byte) analysis.TokenStream {
	n := 0
	inWord := false
	for i := 0; i < len(input); {
		r, size := decodeRune(input[i:])
		w := !isSep(r)
		if w && !inWord {
			n++
		}
		inWord = w
		i += size
	}
	toks := make([]analysis.Token, n)
	out := make(analysis.TokenStream, n)
	k, start, numeric := 0, -1, true
	for i := 0; i <= len(input); {
		r, size := rune(' '), 1
		if i < len(input) {
			r, size = decodeRune(input[i:])
		}
		switch {
		case !isSep(r):
			if start < 0 {
				start, numeric = i, true
			}
			numeric = numeric && unicode.IsDigit(r)
		case start >= 0:
			t := &toks[k]
			t.Term, t.Start, t.End, t.Position = input[start:i:i], start, i, k+1
			t.Type = analysis.AlphaNumeric
			if numeric {
				t.Type = analysis.Numeric
			}
			out[k] = t
			k++
			start = -1
		}
		i += size
	}
	return out
}

// decodeRune is utf8.DecodeRune with the one- and two-byte forms (Latin and Persian) inline.
func decodeRune(b []byte) (rune, int) {
	c := b[0]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	if c >= 0xc2 && c < 0xe0 && len(b) > 1 && b[1]&0xc0 == 0x80 {
		return rune(c&0x1f)<<6 | rune(b[1]&0x3f), 2
	}
	return utf8.DecodeRune(b)
}

func init() {
	err := registry.RegisterTokenizer(wordsTokenizerName,
		func(map[string]interface{}, *registry.Cache) (analysis.Tokenizer, error) {
			return wordsTokenizer{}, nil
		})
	if err != nil {
		panic(err) // the name is fixed at compile time; a clash is a programming error
	}
}

// isSep reports whether r separates words: anything but a letter, a digit, a mark or the
// zero-width non-joiner. The runes below U+0800 (Latin, Arabic and Persian, nearly all the text
// there is) are answered from a table: the unicode package's range searches were most of the
// cost of splitting a profile's text into words, which a rebuild does several times a profile.
func isSep(r rune) bool {
	if u := uint32(r); u < wordTableRunes {
		return wordTable[u>>6]>>(u&63)&1 == 0
	}
	return !isWordRune(r)
}

// isWordRune is isSep's definition, the plain path its table is checked against
// (TestIsSepAsPlain).
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == zwnj
}

const wordTableRunes = 0x800

// wordTable holds a bit for each rune below wordTableRunes, set when it is part of a word.
// It is derived from isWordRune at start-up (2,048 calls) and never changes.
var wordTable = func() (t [wordTableRunes / 64]uint64) {
	for r := rune(0); r < wordTableRunes; r++ {
		if isWordRune(r) {
			t[r>>6] |= 1 << (r & 63)
		}
	}
	return t
}()
