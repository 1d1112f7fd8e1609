package search_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"kardan/search"
	"kardan/store"
)

var textSeeds = []string{"لوله‌کش", "لوله کش", "لولهکش", "علي كريمي", "دندانپزشک تهران", "electrician Tehran", "۱۲۳ تعمیر",
	"  ", "a\u202eb", "\u200c\u200c", "x\u200c", "\u200cx", "Ali's plumbing", "سلامٌ", "تهـــران", "one two three four five six seven eight nine ten",
	"\xff\xfe", "ǅ", "İ", "a\u0301b", "日本語", "🙂 emoji", "a-b_c.d", "\u064b\u064c"}

// FuzzQueryTokens checks the words a search is made of: at most eight, none empty, none holding a
// separator or a zero-width non-joiner, already folded, and stable (searching the words again
// gives the same words).
func FuzzQueryTokens(f *testing.F) {
	for _, s := range textSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		words := search.QueryTokens(q)
		if len(words) > 8 {
			t.Fatalf("QueryTokens(%q): %d words, more than 8", q, len(words))
		}
		for _, w := range words {
			if w == "" || !utf8.ValidString(w) {
				t.Fatalf("QueryTokens(%q): bad word %q", q, w)
			}
			if strings.ContainsRune(w, '\u200c') {
				t.Fatalf("QueryTokens(%q): word %q keeps a ZWNJ", q, w)
			}
			for _, r := range w {
				if !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)) {
					t.Fatalf("QueryTokens(%q): word %q holds separator %U", q, w, r)
				}
			}
			if store.FoldPersian(w) != w {
				t.Fatalf("QueryTokens(%q): word %q is not folded", q, w)
			}
		}
		again := search.QueryTokens(strings.Join(words, " "))
		if strings.Join(again, " ") != strings.Join(words, " ") {
			t.Fatalf("QueryTokens(%q) = %q, but searching those words gives %q", q, words, again)
		}
	})
}

// FuzzIndexText checks that what is indexed for a text holds every word a search for that same
// text is made of, so typing a profile's own name always has the words to find it, and that
// indexing is stable under folding.
func FuzzIndexText(f *testing.F) {
	for _, s := range textSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		s = store.CleanText(s, false) // stored text is always cleaned first
		indexed := search.IndexText(s)
		if store.FoldPersian(indexed) != indexed {
			t.Fatalf("IndexText(%q) = %q is not folded", s, indexed)
		}
		for _, w := range search.QueryTokens(s) {
			if !strings.Contains(indexed, w) {
				t.Fatalf("IndexText(%q) = %q lacks the query word %q", s, indexed, w)
			}
		}
	})
}
