package search

import (
	"context"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

// Weights of the ways a unit of a query matches that the word ways of rank.go do not cover.
const (
	// weightCategory: a phrase that names a category matches that category's profiles first,
	// even where their own text lacks the words (per word of the phrase).
	weightCategory = 4
	// weightStem: the word in another form (لوله‌کشی for لوله‌کش), just under the word itself.
	weightStem = 1.75
	// weightCity: a word that names a city, matched by the profile's city.
	weightCity = 2
)

// qunit is one unit of a text query: a word, or a phrase of up to maxPhraseWords words that the
// lexicon knows as a category or a city.
type qunit struct {
	words   []string
	entries []*lexEntry // the categories and cities the phrase names
	spell   []string    // Persian spellings of a Latin word (Finglish)
}

// units reads the query's words into units, longest known phrase first.
func (lx *lexicon) units(tokens []string) []qunit {
	var out []qunit
	for i := 0; i < len(tokens); {
		n := min(maxPhraseWords, len(tokens)-i)
		for ; n >= 1; n-- {
			span := tokens[i : i+n]
			if n > 1 && isLatin(span[0]) != isLatin(span[n-1]) {
				continue // a phrase is in one script
			}
			es := lx.lookup(span)
			if len(es) == 0 {
				continue
			}
			u := qunit{words: span}
			for _, e := range es {
				if e.kind != entWord {
					u.entries = append(u.entries, e)
				}
				if e.key != "" && isLatin(span[0]) {
					u.spell = append(u.spell, e.key)
				}
			}
			out = append(out, u)
			break
		}
		if n >= 1 {
			i += n
			continue
		}
		u := qunit{words: tokens[i : i+1]}
		if isLatin(tokens[i]) {
			for _, e := range lx.finglish(tokens[i], true) {
				u.spell = append(u.spell, e.persianSpelling())
			}
		}
		out = append(out, u)
		i++
	}
	return out
}

// textPlan is a text query read against the index: the Bleve query and the weighing of its hits.
type textPlan struct {
	q     query.Query
	rank  *rankPlan
	units []qunit
	// unknown are the words no way matched (the candidates for "did you mean").
	unknown []string
}

// profileTextQuery matches every unit of the query, each in any of its ways (best first): the
// category or city a phrase names, the word in the name, whole in the text, in another form
// (stemmed), as the start of a word (the last word, as people type), with one typo (a word of
// five letters or more that the index does not know, so the costly fuzzy expansion runs only
// for words likely mistyped), stemmed English, or Persian spelt in Latin letters. Several words
// also match written together without spaces («لوله کش» finds «لولهکش») when the index knows
// that spelling. Stop words among other words are left out: they are in nearly every profile.
// With anyWord, a hit needs only one unit (the fallback of a query that matched nothing) and is
// weighed by the units it matched.
func (ix *Index) profileTextQuery(ctx context.Context, tokens []string, anyWord bool) (*textPlan, error) {
	r, err := ix.reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	lx := ix.lexicon(ctx)
	content := tokens[:0:0]
	for _, t := range tokens {
		if !stopWords[t] && !englishStop[t] {
			content = append(content, t)
		}
	}
	if len(content) == 0 {
		content = tokens
	}
	wr := &wordReader{ctx: ctx, r: r, lx: lx, ix: ix}
	plan := &rankPlan{words: make([][]matchWay, 0, len(content)), anyWord: anyWord}
	tp := &textPlan{rank: plan, units: lx.units(content)}
	clauses := make([]query.Query, 0, len(tp.units))
	for i, u := range tp.units {
		last := i == len(tp.units)-1
		ways, err := wr.unitWays(u, last, plan)
		if err != nil {
			return nil, err
		}
		if len(ways) == 0 {
			// A short word the index does not know matches nothing; the joined form may.
			ways = append(ways, matchWay{term(fieldText, u.words[0]), weightWord, 0})
		}
		sort.SliceStable(ways, func(a, b int) bool { return ways[a].weight > ways[b].weight })
		plan.words = append(plan.words, ways)
		clauses = append(clauses, anyOf(ways))
	}
	var all query.Query
	switch {
	case len(clauses) == 1:
		all = clauses[0]
	case anyWord:
		all = bleve.NewDisjunctionQuery(clauses...)
	default:
		all = bleve.NewConjunctionQuery(clauses...)
	}
	if len(tokens) > 1 && !anyWord {
		if j, err := wr.joined(strings.Join(tokens, "")); err != nil {
			return nil, err
		} else if j != nil {
			plan.joined = j
			all = bleve.NewDisjunctionQuery(all, j)
		}
	}
	tp.q = all
	tp.unknown = wr.unknown
	return tp, nil
}

// anyOf answers a query matching any of ways.
func anyOf(ways []matchWay) query.Query {
	if len(ways) == 1 {
		return ways[0].q
	}
	alts := make([]query.Query, len(ways))
	for j, w := range ways {
		alts[j] = w.q
	}
	return bleve.NewDisjunctionQuery(alts...)
}

// wordReader reads the index's dictionary for one query.
type wordReader struct {
	ctx context.Context
	r   index.IndexReader
	lx  *lexicon
	ix  *Index // remembers term counts across queries of one snapshot (termCounts)
	// unknown are the words (not phrases) the index knows in no form.
	unknown []string
}

// count answers how many documents hold t in field (termCounts).
func (wr *wordReader) count(field, t string) (uint64, error) {
	return wr.ix.termCount(wr.ctx, wr.r, field, t)
}

// unitWays answers the ways one unit matches.
func (wr *wordReader) unitWays(u qunit, last bool, plan *rankPlan) ([]matchWay, error) {
	n := float64(len(u.words))
	var ways []matchWay
	for _, e := range u.entries {
		switch {
		case e.kind == entCity:
			ways = append(ways, matchWay{term("city", e.slug), weightCity * n, 0})
		case e.field:
			ways = append(ways, matchWay{term("field", e.slug), weightCategory * n, 0})
		default:
			ways = append(ways, matchWay{term("categories", e.slug), weightCategory * n, 0})
		}
	}
	if len(u.words) == 1 {
		p := plan
		if len(u.entries) > 0 || len(u.spell) > 0 {
			p = nil // known to the lexicon
		}
		w, err := wr.wordWays(u.words[0], last, p)
		if err != nil {
			return nil, err
		}
		ways = append(ways, w...)
	} else {
		// The phrase's words, every one in any of its forms, or written together.
		var parts []query.Query
		ok := true
		for _, t := range u.words {
			w, err := wr.wordWays(t, false, nil)
			if err != nil {
				return nil, err
			}
			if len(w) == 0 {
				ok = false
				break
			}
			parts = append(parts, anyOf(w))
		}
		var lit query.Query
		if ok {
			lit = bleve.NewConjunctionQuery(parts...)
		}
		j, err := wr.joined(strings.Join(u.words, ""))
		if err != nil {
			return nil, err
		}
		switch {
		case lit != nil && j != nil:
			lit = bleve.NewDisjunctionQuery(lit, j)
		case j != nil:
			lit = j
		}
		if lit != nil {
			ways = append(ways, matchWay{lit, weightWord * n, 0})
		}
	}
	for _, s := range u.spell {
		w, err := wr.wordWays(s, false, nil)
		if err != nil {
			return nil, err
		}
		for _, x := range w {
			x.weight *= n
			ways = append(ways, x)
		}
	}
	return ways, nil
}

// joined answers the query matching words written together, in the text or stemmed, or nil
// when the index holds neither.
func (wr *wordReader) joined(j string) (query.Query, error) {
	var alts []query.Query
	if n, err := wr.count(fieldText, j); err != nil {
		return nil, err
	} else if n > 0 {
		alts = append(alts, term(fieldText, j))
	}
	s := wr.lx.Stem(j)
	if s != j {
		if n, err := wr.count(fieldText, s); err != nil {
			return nil, err
		} else if n > 0 {
			alts = append(alts, term(fieldText, s))
		}
	}
	if n, err := wr.count(fieldStem, s); err != nil {
		return nil, err
	} else if n > 0 {
		alts = append(alts, term(fieldStem, s))
	}
	switch len(alts) {
	case 0:
		return nil, nil
	case 1:
		return alts[0], nil
	}
	return bleve.NewDisjunctionQuery(alts...), nil
}

// wordWays answers the ways one word matches (see profileTextQuery); plan, when given, learns
// the last word's starts (rank.go's startsOnly). The ways nest: the name is part of the text.
// A way holding as many profiles as the next wider one holds the same profiles, and the lighter
// of the two is left out: it would match nothing more, and the rank would read its postings for
// nothing. The starts of the text's words leave the words whole out (filters.go): the last word
// matches as the start of a longer word through fieldPrefix and whole through the ways above.
func (wr *wordReader) wordWays(t string, last bool, plan *rankPlan) ([]matchWay, error) {
	runes := utf8.RuneCountInString(t)
	inText, err := wr.count(fieldText, t)
	if err != nil {
		return nil, err
	}
	var ways []matchWay
	var inName uint64
	if inText > 0 {
		if inName, err = wr.count(fieldName, t); err != nil {
			return nil, err
		}
		if inName > 0 {
			ways = append(ways, matchWay{term(fieldName, t), weightName, inName})
		}
		if inName < inText {
			ways = append(ways, matchWay{term(fieldText, t), weightWord, inText})
		}
	}
	latin := isLatin(t)
	hasStem := false
	if latin {
		m := bleve.NewMatchQuery(t)
		m.SetField(fieldEn)
		ways = append(ways, matchWay{m, weightWord, 0})
	} else {
		// Other forms of the word: the stem written as such, or inflected otherwise.
		s := wr.lx.Stem(t)
		if s != t {
			if n, err := wr.count(fieldText, s); err != nil {
				return nil, err
			} else if n > 0 {
				ways = append(ways, matchWay{term(fieldText, s), weightStem, n})
				hasStem = true
			}
		}
		if n, err := wr.count(fieldStem, s); err != nil {
			return nil, err
		} else if n > 0 {
			ways = append(ways, matchWay{term(fieldStem, s), weightStem, n})
			hasStem = true
		}
	}
	if last && runes >= prefixMinRunes {
		if runes > prefixMaxRunes {
			pq := bleve.NewPrefixQuery(t)
			pq.SetField(fieldText)
			ways = append(ways, matchWay{pq, weightPrefix, 0})
		} else if longer, err := wr.count(fieldPrefix, t); err != nil {
			return nil, err
		} else if longer > 0 {
			ways = append(ways, matchWay{term(fieldPrefix, t), weightPrefix, longer})
			if plan != nil && inText > 0 && inName < inText && !hasStem && !latin {
				plan.starts, plan.inText, plan.longer = t, inText, longer
			}
		}
	}
	known := inText > 0 || len(ways) > 0 && !latin || len(ways) > 1
	if !known && plan != nil {
		wr.unknown = append(wr.unknown, t)
	}
	if inText == 0 && runes >= fuzzyMinRunes && (latin || !known) {
		f := bleve.NewFuzzyQuery(t)
		f.SetField(fieldText)
		f.SetFuzziness(1)
		ways = append(ways, matchWay{f, weightTypo, 0})
	}
	return ways, nil
}

// maxCorrections bounds the candidates didYouMean weighs for one word.
const maxCorrections = 32

// didYouMean answers the query with each of unknown replaced by the word of the index nearest to
// it that most profiles hold: one letter away, or else two (words of six letters or more), as a
// spelling corrector prefers the nearer word; "" when no word of it has such a neighbour. Looking
// two letters away walks many times the dictionary one letter does, so it is done only when one
// letter found nothing.
func (ix *Index) didYouMean(tokens, unknown []string) (string, error) {
	if len(unknown) == 0 {
		return "", nil
	}
	r, err := ix.reader()
	if err != nil {
		return "", err
	}
	defer r.Close()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return "", nil
	}
	fix := map[string]string{}
	for _, w := range unknown {
		runes := utf8.RuneCountInString(w)
		if runes < 3 {
			continue
		}
		for fuzz := 1; fuzz <= 2; fuzz++ {
			if fuzz == 2 && runes < 6 {
				break
			}
			best, err := mostHeld(snap, w, fuzz)
			if err != nil {
				return "", err
			}
			if best != "" {
				fix[w] = best
				break
			}
		}
	}
	if len(fix) == 0 {
		return "", nil
	}
	out := make([]string, len(tokens))
	for i, t := range tokens {
		if f, ok := fix[t]; ok {
			out[i] = f
		} else {
			out[i] = t
		}
	}
	return strings.Join(out, " "), nil
}

// mostHeld answers the word of the text field within fuzz letters of w, other than w, that most
// documents hold ("" if none does).
func mostHeld(snap *scorch.IndexSnapshot, w string, fuzz int) (string, error) {
	words, err := fuzzyWords(snap.Segments(), fieldText, w, fuzz)
	if err != nil {
		return "", err
	}
	// The counts are left out: the few candidates, the first in the dictionary's order, are
	// counted apart.
	var cands []string
	for _, c := range words {
		if len(cands) == maxCorrections {
			break
		}
		if c != w {
			cands = append(cands, c)
		}
	}
	best, bestN := "", uint64(0)
	for _, c := range cands {
		tfr, err := snap.TermFieldReader(context.Background(), []byte(c), fieldText, false, false, false)
		if err != nil {
			return "", err
		}
		n := tfr.Count()
		tfr.Close()
		if n > bestN {
			best, bestN = c, n
		}
	}
	return best, nil
}
