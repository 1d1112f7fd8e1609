// Package search is Kardan's search engine: a Bleve index of the visible profiles (and published
// blogs) fed from the store's outbox, Persian/English text folding, and the query builder behind
// searchUser and blog search.
package search

import (
	"strings"

	"kardan/store"
)

const zwnj = '\u200c'

// IndexText prepares text for the index: spelling variants folded (store.FoldPersian), and each
// word written with a zero-width non-joiner kept both joined and split, so «لوله‌کش» is found by
// «لوله‌کش», «لولهکش» and «لوله کش».
func IndexText(s string) string {
	s = store.FoldPersian(s)
	if !strings.ContainsRune(s, zwnj) {
		return s
	}
	joined := strings.ReplaceAll(s, string(zwnj), "")
	var extra []string
	for _, w := range strings.FieldsFunc(s, isSep) {
		if strings.ContainsRune(w, zwnj) {
			extra = append(extra, strings.ReplaceAll(w, string(zwnj), " "))
		}
	}
	return joined + " " + strings.Join(extra, " ")
}

// QueryTokens folds a query and splits it into words; a zero-width non-joiner joins the halves
// of a word, as the index keeps the joined form.
func QueryTokens(q string) []string {
	q = store.FoldPersian(store.CleanText(q, false))
	q = strings.ReplaceAll(q, string(zwnj), "")
	words := strings.FieldsFunc(q, isSep)
	if len(words) > maxQueryWords {
		words = words[:maxQueryWords]
	}
	return words
}

// maxQueryWords bounds the work one query can ask for.
const maxQueryWords = 8

// fuzzyMinRunes is the shortest word that tolerates one typo (DESIGN.md: five letters or more).
const fuzzyMinRunes = 5

// stemWords answers the stems of the words of name and of words (textWords) that differ from
// the word itself, once each: the index keeps them beside the words, so a query word in another
// form finds them (query_text.go's stem ways).
func (lx *lexicon) stemWords(name string, words []string) string {
	nameWords := strings.FieldsFunc(name, isSep)
	seen := make(map[string]struct{}, len(nameWords)) // the name's words
	stems := make(map[string]struct{}, len(words)/2)
	var b strings.Builder
	add := func(w string) {
		s := lx.Stem(strings.ReplaceAll(w, string(zwnj), ""))
		if s == w {
			return
		}
		if _, ok := stems[s]; ok {
			return
		}
		stems[s] = struct{}{}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	for _, w := range nameWords {
		if _, ok := seen[w]; !ok {
			seen[w] = struct{}{}
			add(w)
		}
	}
	for _, w := range words {
		if _, ok := seen[w]; !ok {
			add(w)
		}
	}
	return b.String()
}
