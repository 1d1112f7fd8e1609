package search

import (
	"fmt"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// startsFilterName names the token filter of fieldPrefix in the index mapping.
const startsFilterName = "kardan_starts"

// startsFilter turns each word into its starts: its first min to max letters, but never the word
// whole. The prefix field is read only together with the text field, which holds every word
// whole; Bleve's edge n-grams would repeat it, a third of the prefix field's postings. A start
// shares its word's bytes (the filter runs after lowercasing and nothing changes a term after it),
// and a word's tokens are made at once, so a word costs two allocations, not one per start.
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

func init() {
	err := registry.RegisterTokenFilter(startsFilterName,
		func(config map[string]interface{}, _ *registry.Cache) (analysis.TokenFilter, error) {
			lo, okLo := config["min"].(float64)
			hi, okHi := config["max"].(float64)
			if !okLo || !okHi || lo < 1 || hi < lo {
				return nil, fmt.Errorf("%s: min and max must be 1 ≤ min ≤ max, got %v", startsFilterName, config)
			}
			return startsFilter{min: int(lo), max: int(hi)}, nil
		})
	if err != nil {
		panic(err) // the name is fixed at compile time; a clash is a programming error
	}
}
