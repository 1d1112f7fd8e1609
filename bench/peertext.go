package main

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// The peers' text query: what a developer who knows the engine would write to match Kardan's
// answers (the fairness review's "expert version", shared/research/perf/REVIEW.md §1): the same
// folding and words (search.QueryTokens), stop words left out among other words, the last word
// also as a prefix (people type), several words also written together, and one typo corrected
// only for a word of five letters or more that the index does not know, against the index's own
// vocabulary (so the costly fuzzy expansion runs only for words likely mistyped, as Kardan does).

// peerStop are the words in nearly every profile that Kardan leaves out of a query of several
// words (search/profiles.go stopWords, search/lexicon.go englishStop).
var peerStop = map[string]bool{
	"و": true, "در": true, "به": true, "از": true, "با": true, "که": true, "را": true, "تا": true,
	"یا": true, "این": true, "ان": true, "برای": true, "های": true, "ها": true, "هم": true,
	"and": true, "or": true, "the": true, "of": true, "in": true, "a": true, "an": true, "for": true,
	"near": true, "me": true, "to": true, "on": true,
}

const (
	peerPrefixMin = 3 // the shortest last word matched as a prefix (search/profiles.go prefixMinRunes)
	peerTypoMin   = 5 // the shortest word that tolerates one typo
	peerMaxFixes  = 10
)

// peerAlt is one way a word of the query matches: the word, or the word as a prefix.
type peerAlt struct {
	word   string
	prefix bool
}

// peerQuery is a text query as both peers run it: every unit must match (in any of its ways),
// or the words written together (joined) match.
type peerQuery struct {
	units  [][]peerAlt
	joined string
}

// typoLexicon is the index's vocabulary with each word's document count, and a map from every
// word with one letter left out to the words it came from: a word one edit away from a query
// word shares one of these keys with it (deletion neighbourhoods).
type typoLexicon struct {
	docs    map[string]int
	deletes map[string][]string
}

func newTypoLexicon(docs map[string]int) *typoLexicon {
	lx := &typoLexicon{docs: docs, deletes: map[string][]string{}}
	for w := range docs {
		if utf8.RuneCountInString(w) < peerTypoMin-1 {
			continue
		}
		for _, d := range deletions(w) {
			lx.deletes[d] = append(lx.deletes[d], w)
		}
	}
	return lx
}

// deletions answers w with each one of its letters left out, once each.
func deletions(w string) []string {
	r := []rune(w)
	out := make([]string, 0, len(r))
	seen := map[string]bool{}
	for i := range r {
		d := string(r[:i]) + string(r[i+1:])
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// fixes answers the known words one edit (a letter added, left out or changed) from w, most
// documents first, at most peerMaxFixes.
func (lx *typoLexicon) fixes(w string) []string {
	found := map[string]bool{}
	for _, c := range lx.deletes[w] { // a letter left out of the word typed
		found[c] = true
	}
	for _, d := range deletions(w) {
		if lx.docs[d] > 0 { // a letter added
			found[d] = true
		}
		for _, c := range lx.deletes[d] { // a letter changed (or two swapped... only when equal)
			if c != w && utf8.RuneCountInString(c) == utf8.RuneCountInString(w) {
				found[c] = true
			}
		}
	}
	out := make([]string, 0, len(found))
	for c := range found {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if lx.docs[out[i]] != lx.docs[out[j]] {
			return lx.docs[out[i]] > lx.docs[out[j]]
		}
		return out[i] < out[j]
	})
	if len(out) > peerMaxFixes {
		out = out[:peerMaxFixes]
	}
	return out
}

// buildPeerQuery makes the query of tokens (search.QueryTokens of what was typed).
func buildPeerQuery(tokens []string, lx *typoLexicon) *peerQuery {
	content := make([]string, 0, len(tokens))
	for _, t := range tokens {
		if !peerStop[t] {
			content = append(content, t)
		}
	}
	if len(content) == 0 {
		content = tokens
	}
	q := &peerQuery{}
	for i, t := range content {
		runes := utf8.RuneCountInString(t)
		known := lx.docs[t] > 0
		var alts []peerAlt
		if i == len(content)-1 && runes >= peerPrefixMin {
			alts = append(alts, peerAlt{t, true}) // the prefix holds the word itself
		} else {
			alts = append(alts, peerAlt{t, false})
		}
		if !known && runes >= peerTypoMin {
			for _, f := range lx.fixes(t) {
				alts = append(alts, peerAlt{f, false})
			}
		}
		q.units = append(q.units, alts)
	}
	if len(tokens) > 1 {
		if j := strings.Join(tokens, ""); lx.docs[j] > 0 {
			q.joined = j
		}
	}
	return q
}

// tsquery writes q for PostgreSQL's to_tsquery.
func (q *peerQuery) tsquery() string {
	quote := func(a peerAlt) string {
		s := "'" + strings.ReplaceAll(a.word, "'", "''") + "'"
		if a.prefix {
			s += ":*"
		}
		return s
	}
	return q.render(quote, " & ", " | ")
}

// fts5 writes q for SQLite FTS5's MATCH, on the columns name and body.
func (q *peerQuery) fts5() string {
	quote := func(a peerAlt) string {
		s := `"` + strings.ReplaceAll(a.word, `"`, `""`) + `"`
		if a.prefix {
			s += "*"
		}
		return s
	}
	return "{name body} : (" + q.render(quote, " AND ", " OR ") + ")"
}

func (q *peerQuery) render(quote func(peerAlt) string, and, or string) string {
	units := make([]string, len(q.units))
	for i, alts := range q.units {
		parts := make([]string, len(alts))
		for j, a := range alts {
			parts[j] = quote(a)
		}
		units[i] = strings.Join(parts, or)
		if len(parts) > 1 {
			units[i] = "(" + units[i] + ")"
		}
	}
	s := strings.Join(units, and)
	if q.joined != "" {
		s = "(" + s + ")" + or + quote(peerAlt{word: q.joined})
	}
	return s
}
