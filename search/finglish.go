package search

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Finglish is Persian written in Latin letters («lule kesh», «lolekesh», «arayeshgah»). Its
// spelling is free: vowels come and go (Persian writes few of them), one sound has several
// letters on both sides (s: س ص ث; z: ز ذ ض ظ; t: ت ط), and digraphs stand for single letters
// (sh ش, kh خ, ch چ, gh/q ق غ, zh ژ). So both scripts are reduced to one consonant skeleton: the
// letter rules below map every letter to a class, drop the vowels and the letters that are
// vowels as often as consonants (و v/u/o, ی y/i, ه h/e, ع, ا), and merge doubled letters. A
// Latin word's skeleton is then looked up among the skeletons of the lexicon's names and name
// words (categories, cities), which are the dictionary: «lolekesh» and «لوله‌کش» both reduce to
// "lkS". The candidates are Persian spellings, searched like the words a person would type.

// persianClass maps Persian letters to their class; letters not listed are dropped.
var persianClass = map[rune]byte{
	'ب': 'b', 'پ': 'p', 'ت': 't', 'ط': 't', 'ث': 's', 'س': 's', 'ص': 's', 'ج': 'j', 'چ': 'C',
	'خ': 'X', 'د': 'd', 'ذ': 'z', 'ز': 'z', 'ض': 'z', 'ظ': 'z', 'ر': 'r', 'ژ': 'Z', 'ش': 'S',
	'غ': 'Q', 'ق': 'Q', 'ف': 'f', 'ک': 'k', 'گ': 'g', 'ل': 'l', 'م': 'm', 'ن': 'n',
}

// latinDigraphs are read before single letters.
var latinDigraphs = map[string]byte{"sh": 'S', "kh": 'X', "ch": 'C', "zh": 'Z', "gh": 'Q', "ph": 'f'}

// latinClass maps single Latin letters to their class; vowels, h, v, w, y and the rest are
// dropped.
var latinClass = map[byte]byte{
	'b': 'b', 'p': 'p', 't': 't', 's': 's', 'j': 'j', 'd': 'd', 'z': 'z', 'r': 'r', 'f': 'f',
	'k': 'k', 'c': 'k', 'g': 'g', 'l': 'l', 'm': 'm', 'n': 'n', 'q': 'Q', 'x': 'X',
}

// skeleton answers the consonant skeleton of a Persian or Latin word (see above).
func skeleton(w string) string { return skeletonOf(w, false) }

// fullSkeleton is the skeleton keeping و/v and ی/y as letters of their own: a word whose
// skeleton is a letter or two («نانوایی», "nanvayi": "n") is told apart by them ("nvy").
func fullSkeleton(w string) string { return skeletonOf(w, true) }

func skeletonOf(w string, full bool) string {
	var b strings.Builder
	var last byte
	put := func(c byte) {
		if c != 0 && c != last {
			b.WriteByte(c)
		}
		last = c
	}
	if !isLatin(w) {
		for _, r := range w {
			if c, ok := persianClass[r]; ok {
				put(c)
			} else if full && r == 'و' {
				put('v')
			} else if full && r == 'ی' {
				put('y')
			}
		}
		return b.String()
	}
	w = strings.ToLower(w)
	for i := 0; i < len(w); i++ {
		if i+1 < len(w) {
			if c, ok := latinDigraphs[w[i:i+2]]; ok {
				put(c)
				i++
				continue
			}
		}
		switch c, ok := latinClass[w[i]]; {
		case w[i] == 'g' && i == len(w)-2 && w[i+1] == 'e':
			put('j') // a soft g at the end of a loanword: package, garage
		case ok:
			put(c)
		case full && (w[i] == 'v' || w[i] == 'w'):
			put('v')
		case full && w[i] == 'y':
			put('y')
		}
	}
	return b.String()
}

// maxFinglishCandidates bounds the Persian spellings one Latin word stands for.
const maxFinglishCandidates = 3

// finglish answers the lexicon entries whose Persian spelling a Latin word (or words written
// together) may be. With words set, plain name words are answered too (entries of kind
// entWord); otherwise only categories and cities. A trade's Finglish often carries the ending
// of the trade («tamirkar», «lolekeshi»): without a match whole, the word is tried without it.
func (lx *lexicon) finglish(latin string, words bool) []*lexEntry {
	if lx == nil || utf8.RuneCountInString(latin) < 3 {
		return nil
	}
	try := func(l string) []*lexEntry {
		es := lx.skel[skeleton(l)]
		if len(skeleton(l)) < 2 {
			es = nil
		}
		if len(es) == 0 {
			es = lx.skel["+"+fullSkeleton(l)]
		}
		var out []*lexEntry
		for _, e := range es {
			if e.kind != entWord || words {
				out = append(out, e)
			}
		}
		// Categories and cities first (the lexicon files them so), then the spellings closest in
		// length to the Latin word, the shorter and then the first in Persian order on a tie: the
		// same candidates whatever order the lexicon was built in.
		n := utf8.RuneCountInString(latin)
		slices.SortStableFunc(out, func(a, b *lexEntry) int {
			if a.kind != b.kind {
				return cmp.Compare(a.kind, b.kind)
			}
			sa, sb := a.persianSpelling(), b.persianSpelling()
			la, lb := utf8.RuneCountInString(sa), utf8.RuneCountInString(sb)
			if c := cmp.Compare(abs(la-n), abs(lb-n)); c != 0 {
				return c
			}
			if c := cmp.Compare(la, lb); c != 0 {
				return c
			}
			return strings.Compare(sa, sb)
		})
		return out[:min(len(out), maxFinglishCandidates)]
	}
	if es := try(latin); len(es) > 0 {
		return es
	}
	for _, end := range []string{"kari", "gari", "kar", "gar", "i"} {
		if strings.HasSuffix(latin, end) && len(latin)-len(end) >= 3 {
			if es := try(strings.TrimSuffix(latin, end)); len(es) > 0 {
				return es
			}
		}
	}
	return nil
}

// persianSpelling answers the Persian words an entry stands for, as query tokens.
func (e *lexEntry) persianSpelling() string {
	if e.key != "" {
		return e.key
	}
	return e.fa
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
