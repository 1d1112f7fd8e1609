package search

import (
	"fmt"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// The token filters of our own that the index mapping names.
const (
	startsFilterName = "kardan_starts" // fieldPrefix
	latinFilterName  = "kardan_latin"  // fieldEn
)

// startsFilter turns each word into its starts: its first min to max letters, but never the word
// whole. The prefix field is read only together with the text field, which holds every word
// whole; Bleve's edge n-grams would repeat it, a third of the prefix field's postings. A start
// shares its word's bytes (the filter runs after lowercasing and nothing changes a term after it),
// and a stream's starts are made in two allocations, not one each.
type startsFilter struct{ min, max int }

// Filter implements analysis.TokenFilter.
func (f startsFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	n := 0
	for _, tok := range input {
		n += f.count(utf8.RuneCount(tok.Term))
	}
	out := make(analysis.TokenStream, 0, n)
	toks := make([]analysis.Token, n)
	for _, tok := range input {
		runes := 0
		for i := range tok.Term {
			if !utf8.RuneStart(tok.Term[i]) || i == 0 {
				continue
			}
			// tok.Term[:i] holds the first runes letters.
			runes++
			if runes >= f.min && runes <= f.max {
				t := &toks[len(out)]
				*t = analysis.Token{Term: tok.Term[:i:i], Start: tok.Start, End: tok.End,
					Position: tok.Position, Type: tok.Type}
				out = append(out, t)
			}
			if runes == f.max {
				break
			}
		}
	}
	return out
}

// count answers how many starts a word of runes letters has.
func (f startsFilter) count(runes int) int {
	return max(0, min(runes-1, f.max)-f.min+1)
}

// latinFilter keeps the words with no Persian letter or digit in them. The English field is
// searched only for words without them (isLatin), which can match no other word; the profile's
// name and services, mostly Persian, are in it for their Latin words, and their Persian ones
// were two thirds of its postings.
type latinFilter struct{}

// Filter implements analysis.TokenFilter.
func (latinFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	out := input[:0]
	for _, tok := range input {
		if !hasPersian(tok.Term) {
			out = append(out, tok)
		}
	}
	return out
}

// hasPersian reports whether b holds a letter or digit of the Arabic block (isLatin's test).
func hasPersian(b []byte) bool {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r >= 0x0600 && r <= 0x06ff {
			return true
		}
		i += n
	}
	return false
}

func init() {
	err := registry.RegisterTokenFilter(latinFilterName,
		func(map[string]interface{}, *registry.Cache) (analysis.TokenFilter, error) {
			return latinFilter{}, nil
		})
	if err != nil {
		panic(err) // the name is fixed at compile time; a clash is a programming error
	}
	err = registry.RegisterTokenFilter(startsFilterName,
		func(config map[string]interface{}, _ *registry.Cache) (analysis.TokenFilter, error) {
			lo, okLo := config["min"].(float64)
			hi, okHi := config["max"].(float64)
			if !okLo || !okHi || lo < 1 || hi < lo {
				return nil, fmt.Errorf("%s: min and max must be 1 ≤ min ≤ max, got %v",
					startsFilterName, config)
			}
			return startsFilter{min: int(lo), max: int(hi)}, nil
		})
	if err != nil {
		panic(err) // the name is fixed at compile time; a clash is a programming error
	}
}
