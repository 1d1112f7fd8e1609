// Package search is Kardan's search engine: a Bleve index of the visible profiles (and published
// blogs) fed from the store's outbox, Persian/English text folding, and the query builder behind
// searchUser and blog search.
package search

import (
	"strings"
	"unicode"

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

func isSep(r rune) bool {
	return !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == zwnj)
}

// fuzzyMinRunes is the shortest word that tolerates one typo (DESIGN.md: five letters or more).
const fuzzyMinRunes = 5
