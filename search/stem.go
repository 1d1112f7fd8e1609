package search

import (
	"strings"
	"unicode/utf8"
)

// The Persian light stemmer folds the word forms that matter in trade names to one stem, both
// when a profile is indexed and when a query is read: -ی of the trade (لوله‌کشی ~ لوله‌کش), the
// agent endings -کار/-گر (تعمیرکار ~ تعمیر), the plurals -ها, -ان, -ات (with the possessives that
// follow -ها), and the comparative -تر/-ترین. Its input is a folded word with the zero-width
// non-joiner removed (QueryTokens, IndexText), so «لوله‌کش‌ها», «لوله کشها» and «لولهکشها» end
// the same.
//
// A light stemmer over-stems: «تهران» is not the plural of «تهر», «محمدی» is not a trade of
// «محمد». Three guards keep names of people and places whole: a stem keeps at least three
// letters; words of the reference data that end like an inflection (city and province names,
// category words such as «دندان», «ساختمان») and a short list of common words are never
// stemmed; and -ی is taken off only where what remains is a trade (it ends in an agent
// morpheme such as -کش, -ساز, -شو, or is a word of a category name), which surnames such as
// «محمدی», «کریمی», «حسینی» are not. TestStemNames measures both sides.

// stemMinRunes is the shortest stem the stemmer leaves.
const stemMinRunes = 3

// pluralEndings are taken off first, longest first: -ها with the possessives that can follow
// it, then the Arabic -ات and the animate -ان.
var pluralEndings = []string{"هایمان", "هایتان", "هایشان", "هایم", "هایت", "هایش", "های", "ها", "ات", "ان"}

// comparativeEndings make adjectives comparative and superlative (ارزان‌ترین ~ ارزان).
var comparativeEndings = []string{"ترین", "تر"}

// agentEndings make a trade of a noun (تعمیرکار, آرایشگر); taken off last.
var agentEndings = []string{"کار", "گر"}

// tradeMorphemes end the stems that take the -ی of a trade or a shop: لوله‌کشی, کلیدسازی,
// قالیشویی, آرایشگری, لاستیک‌فروشی, لوله‌بازکنی, ...
var tradeMorphemes = []string{"کش", "کار", "ساز", "گر", "شو", "پز", "فروش", "کن", "بر", "دوز",
	"بند", "پزشک", "سنج", "کوب", "تراش", "نویس", "گیر", "پاش", "باف", "درمان", "نگار", "ریز",
	"چین", "زن", "دار", "کاو", "تاب", "مال", "سوز", "پوش", "شناس", "آموز", "خوان", "یاب"}

// keepWhole are common words that end like an inflection but are not one; the reference data
// adds its own (see lexicon.protect).
var keepWhole = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`ارزان خیابان میدان جوان زبان ایران مهمان اسمان باران دندان
		درمان زمان سازمان ساختمان ارمان فرمان پیمان چمدان گلدان زندان نان جان اسان کاروان ایوان
		دیوان بیابان گریبان نردبان پایان نشان میان جهان شبان بیان کمان کتان دکان روان رایگان
		همگان ابان ارمغان بستان استان بیمارستان دبستان شبستان کودکستان تابستان زمستان بوستان
		فیلتر کامپیوتر تئاتر متر کیلومتر سانتیمتر لیتر پوستر اسکوتر هلیکوپتر دفتر دکتر دختر بستر
		چتر کبوتر پرینتر اسانسور موتور پیشتر سراسر ساعات اوقات ثبات نجات حیات صفات مات برات
		دوات نبات زکات حرکات رستوران`) {
		keepWhole[w] = true
	}
}

// Stem answers the stem of one folded word (see the comment above); lex may be nil, and then
// only the static guards hold.
func (lx *lexicon) Stem(w string) string {
	if utf8.RuneCountInString(w) <= stemMinRunes || !isPersianWord(w) || keepWhole[w] {
		return w
	}
	if lx != nil && lx.protect[w] {
		return w
	}
	// Each cut stops at a protected word: «برقکارها» ends at «برقکار», as «برقکار» does.
	s := w
	if t, ok := cutEnding(s, pluralEndings); ok && !lexicalAn(w) {
		s = t
	} else if t, ok := cutEnding(s, comparativeEndings); ok {
		s = t
	}
	if lx.protected(s) {
		return s
	}
	if strings.HasSuffix(s, "ی") && utf8.RuneCountInString(s) > stemMinRunes {
		t := strings.TrimSuffix(s, "ی")
		if strings.HasSuffix(t, "ی") && !strings.HasSuffix(t, "یی") {
			t = strings.TrimSuffix(t, "ی") // قالیشویی, آرایشگاهی
		}
		if lx.isTrade(t) {
			s = t
		}
	}
	if lx.protected(s) {
		return s
	}
	if t, ok := cutEnding(s, agentEndings); ok {
		s = t
	}
	return s
}

// protected reports whether w is a word the stemmer keeps whole.
func (lx *lexicon) protected(w string) bool {
	return keepWhole[w] || lx != nil && lx.protect[w]
}

// isTrade reports whether stem s takes the -ی of a trade: it ends in an agent morpheme, or it is
// a word of a category name (نجار, نقاش, مکانیک, حسابدار).
func (lx *lexicon) isTrade(s string) bool {
	if lx != nil && lx.vocab[s] {
		return true
	}
	for _, m := range tradeMorphemes {
		if strings.HasSuffix(s, m) && utf8.RuneCountInString(s) > utf8.RuneCountInString(m) {
			return true
		}
	}
	return false
}

// lexicalAn reports whether w ends in an -ان that is not a plural: the places in -ستان
// (کردستان, بیمارستان) and the family names in -یان (احمدیان, رضاییان).
func lexicalAn(w string) bool {
	return strings.HasSuffix(w, "ستان") || strings.HasSuffix(w, "یان")
}

// cutEnding takes the first of endings that w ends with off w, when at least stemMinRunes
// letters remain.
func cutEnding(w string, endings []string) (string, bool) {
	for _, e := range endings {
		if strings.HasSuffix(w, e) {
			t := strings.TrimSuffix(w, e)
			if utf8.RuneCountInString(t) >= stemMinRunes {
				return t, true
			}
			return w, false
		}
	}
	return w, false
}

// isPersianWord reports whether w is written in Persian letters only.
func isPersianWord(w string) bool {
	for _, r := range w {
		if r < 0x0600 || r > 0x06ff {
			return false
		}
	}
	return true
}

// englishStem takes the common English endings off a lower-case word, so "plumbing",
// "plumber" and "plumbers" meet at "plumb" and "dentists" at "dent": enough for the category
// names and synonyms the query words are compared with (the p_en field has Bleve's own
// stemmer).
func englishStem(w string) string {
	for _, e := range []string{"ings", "ing", "ers", "er", "ists", "ist", "ians", "ian", "ies", "es", "s"} {
		if strings.HasSuffix(w, e) && len(w)-len(e) >= 3 {
			w = strings.TrimSuffix(w, e)
			if e == "ies" {
				w += "y"
			}
			break
		}
	}
	return w
}
