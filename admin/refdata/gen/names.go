package main

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// key folds a Persian name for matching: letter variants unified, diacritics, ZWNJ, spaces,
// hyphens and brackets removed (the audit's rule).
func key(s string) string {
	r := strings.NewReplacer("ي", "ی", "ك", "ک", "ة", "ه", "ۀ", "ه", "أ", "ا", "إ", "ا", "آ", "ا", "ئ", "ی", "ى", "ی")
	s = r.Replace(s)
	var b strings.Builder
	for _, c := range s {
		switch {
		case c >= 0x064B && c <= 0x065F, c == '\u200c', c == ' ', c == '-', c == '(', c == ')', c == '_':
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// key2 is key without a leading «شهر جدید», «شهر» or «بندر», for a second round of matching.
// What remains must be a name of its own (four letters or more), so شهرکرد stays whole.
func key2(s string) string {
	k := key(s)
	for _, p := range []string{"شهرجدید", "شهر", "بندر"} {
		if rest := strings.TrimPrefix(k, p); rest != k && utf8.RuneCountInString(rest) >= 4 {
			return rest
		}
	}
	return k
}

// tidyFarsi writes an official name the way the product writes Persian: Persian ye and kaf,
// single spaces.
func tidyFarsi(s string) string {
	s = strings.NewReplacer("ي", "ی", "ك", "ک", "_", " ").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// camelJoin finds a capital inside a word ("NezamShahr"): two words written as one.
var camelJoin = regexp.MustCompile(`[a-z][A-Z]`)

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// slugify makes a URL slug from an English name.
func slugify(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("'", "", "’", "", "‘", "").Replace(s)
	return strings.Trim(nonSlug.ReplaceAllString(s, "-"), "-")
}

// tidyEnglish cleans a source's English name: ASCII only, single spaces, first letters capital.
func tidyEnglish(s string) string {
	s = strings.NewReplacer("’", "'", "‘", "'", "ā", "a", "ī", "i", "ū", "u", "Ā", "A", "ē", "e", "`", "'").Replace(s)
	var b strings.Builder
	for _, r := range s {
		if r <= unicode.MaxASCII {
			b.WriteRune(r)
		}
	}
	words := strings.Fields(b.String())
	for i, w := range words {
		w = camelJoin.ReplaceAllStringFunc(w, strings.ToLower)
		words[i] = w
		if w != "" && w[0] >= 'a' && w[0] <= 'z' && !(i > 0 && (w == "e" || strings.HasPrefix(w, "e-") || w == "va")) {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(words, " ")
}

// wordLatin holds the usual romanisation of words common in place names; transliterate uses it
// before falling back to letters.
var wordLatin = map[string]string{
	"آباد": "abad", "اباد": "abad", "شهر": "shahr", "بندر": "Bandar", "قلعه": "Qaleh", "کوه": "kuh", "سر": "sar",
	"علی": "Ali", "حسن": "Hasan", "حسین": "Hoseyn", "محمد": "Mohammad", "احمد": "Ahmad", "جدید": "Jadid",
	"امام": "Emam", "خمینی": "Khomeyni", "نو": "now", "رود": "rud", "چشمه": "Cheshmeh", "ده": "Deh", "دره": "Darreh",
	"سید": "Seyyed", "شاه": "Shah", "میر": "Mir", "زاده": "zadeh", "کلا": "kola", "تپه": "tappeh", "باغ": "Bagh",
	"سرخ": "Sorkh", "سفید": "Sefid", "سیاه": "Siah", "بالا": "Bala", "پایین": "Pain", "غربی": "Gharbi", "شرقی": "Sharqi",
	"شمالی": "Shomali", "جنوبی": "Jonubi", "مرکزی": "Markazi", "گل": "Gol", "دشت": "dasht", "آب": "Ab", "چاه": "Chah",
	"خان": "Khan", "بیگ": "Beyg", "آقا": "Aqa", "کهنه": "Kohneh", "حاجی": "Haji", "رضا": "Reza", "جعفر": "Jafar",
	"فتح": "Fath", "دولت": "Dowlat", "نصر": "Nasr", "نظر": "Nazar", "قاسم": "Qasem", "کریم": "Karim", "زین": "Zeyn",
	"مهدی": "Mahdi", "عباس": "Abbas", "یوسف": "Yusef", "اسلام": "Eslam", "نور": "Nur", "مبارک": "Mobarak",
}

// letterLatin romanises single letters for names no source spells in English.
var letterLatin = map[rune]string{
	'ا': "a", 'آ': "a", 'ب': "b", 'پ': "p", 'ت': "t", 'ث': "s", 'ج': "j", 'چ': "ch", 'ح': "h", 'خ': "kh",
	'د': "d", 'ذ': "z", 'ر': "r", 'ز': "z", 'ژ': "zh", 'س': "s", 'ش': "sh", 'ص': "s", 'ض': "z", 'ط': "t",
	'ظ': "z", 'ع': "", 'غ': "gh", 'ف': "f", 'ق': "q", 'ک': "k", 'گ': "g", 'ل': "l", 'م': "m", 'ن': "n",
	'و': "v", 'ه': "h", 'ی': "y", 'ء': "", 'ئ': "y", 'أ': "a", 'ؤ': "v",
}

// transliterate romanises a Persian name by rule. Persian script leaves short vowels unwritten,
// so the rule guesses: an 'a' between two consonants, و and ی as vowels between consonants, a
// final ه as "eh". It is the last resort, for towns no source spells in English.
func transliterate(fa string) string {
	var words []string
	for _, w := range strings.Fields(strings.ReplaceAll(fa, "\u200c", " ")) {
		words = append(words, translitWord(w))
	}
	return tidyEnglish(strings.Join(words, " "))
}

func translitWord(w string) string {
	if l, ok := wordLatin[w]; ok {
		return l
	}
	// A compound ending in a common word (…آباد, …شهر, …رود) keeps that word's usual spelling.
	for _, suffix := range []string{"آباد", "اباد", "شهر", "رود", "کلا", "دشت", "تپه", "زاده"} {
		if strings.HasSuffix(w, suffix) && len(w) > len(suffix)+2 {
			return translitWord(strings.TrimSuffix(w, suffix)) + wordLatin[suffix]
		}
	}
	rs := []rune(w)
	isVowelish := func(r rune) bool { return r == 'ا' || r == 'آ' || r == 'و' || r == 'ی' }
	var b strings.Builder
	prevConsonant := false
	for i, r := range rs {
		first, last := i == 0, i == len(rs)-1
		var out string
		switch r {
		case 'آ':
			out = "a"
		case 'ا':
			if first {
				out = "e"
				if i+1 < len(rs) && (rs[i+1] == 'ی' || rs[i+1] == 'و') {
					out = ""
				}
			} else {
				out = "a"
			}
		case 'و':
			switch {
			case first:
				out = "v"
			case prevConsonant && i > 0 && rs[i-1] == 'خ' && i+1 < len(rs) && rs[i+1] == 'ا':
				out = "" // خوا is read "kha"
			case prevConsonant || (i > 0 && rs[i-1] == 'ا' && first):
				out = "u"
			case i > 0 && rs[i-1] == 'ا':
				out = "v"
			default:
				out = "u"
			}
		case 'ی':
			switch {
			case first:
				out = "y"
			case i > 0 && (rs[i-1] == 'ا' || rs[i-1] == 'و') && !last:
				out = "y"
			case last && i > 0 && rs[i-1] == 'ا':
				out = "i"
			default:
				out = "i"
			}
		case 'ه':
			if last && i > 0 {
				out = "eh"
			} else {
				out = "h"
			}
		case 'ع':
			out = ""
			if first && i+1 < len(rs) && !isVowelish(rs[i+1]) {
				out = "a"
			}
		default:
			out = letterLatin[r]
		}
		consonant := !isVowelish(r) && r != 'ع' && !(r == 'ه' && last)
		if out != "" && consonant && prevConsonant && i > 0 && !(i == 1 && rs[0] == 'ا') {
			b.WriteString("a")
		}
		if first && consonant && i+1 < len(rs) && !isVowelish(rs[i+1]) && rs[i+1] != 'ه' {
			// A word cannot start with two consonants in Persian: the first takes a vowel.
			b.WriteString(out)
			b.WriteString("a")
			prevConsonant = false
			continue
		}
		b.WriteString(out)
		prevConsonant = consonant && out != ""
	}
	return b.String()
}
