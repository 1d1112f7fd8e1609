package store

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// CleanText makes user text safe to store and show: invalid UTF-8, control characters (newlines
// kept when multiline) and the bidi override and isolate marks that can disguise text are removed,
// runs of spaces are folded and the ends trimmed. The zero-width non-joiner, which Persian
// spelling needs, is kept.
func CleanText(s string, multiline bool) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "")
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case r == '\n' && multiline:
			b.WriteRune('\n')
			space = false
			continue
		case r == '\r':
			continue
		case r == '\t' || r == '\n' || r == '\u00a0':
			r = ' '
		case isBidiControl(r) || (unicode.IsControl(r)) || r == '\ufeff' || r == '\u200b':
			continue
		}
		if r == ' ' {
			if space {
				continue
			}
			space = true
		} else {
			space = false
		}
		b.WriteRune(r)
	}
	out := b.String()
	if multiline {
		lines := strings.Split(out, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimSpace(l)
		}
		out = strings.Join(lines, "\n")
		for strings.Contains(out, "\n\n\n") {
			out = strings.ReplaceAll(out, "\n\n\n", "\n\n")
		}
	}
	return strings.TrimSpace(out)
}

func isBidiControl(r rune) bool {
	return (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') || r == '\u200e' || r == '\u200f' || r == '\u061c'
}

// FoldPersian folds the spelling variants of Persian text to one form, so that text typed on an
// Arabic keyboard, with diacritics, with tatweel, or with Persian or Arabic digits matches: Arabic
// yeh and kaf become Persian ی and ک, teh marbuta becomes ه, hamza-carrying letters their bare
// letter, diacritics and tatweel are dropped, digits become ASCII and letters lower case.
// The zero-width non-joiner is left for the caller to decide on.
func FoldPersian(s string) string {
	// Most text is folded already (every profile's is, each time the index reads it): answer it
	// as it is unless some rune changes, and copy only from there.
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				return foldFrom(s, i)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if f, keep := foldRune(r); !keep || f != r || r == utf8.RuneError {
			return foldFrom(s, i) // an invalid byte becomes U+FFFD, as ranging over s gives it
		}
		i += n
	}
	return s
}

// foldFrom answers FoldPersian(s) where s[:i] is known to stay as it is.
func foldFrom(s string, i int) string {
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if f, keep := foldRune(r); keep {
			b.WriteRune(f)
		}
	}
	return b.String()
}

// foldRune answers what FoldPersian turns r into, or false when it drops it.
func foldRune(r rune) (rune, bool) {
	switch {
	case r < utf8.RuneSelf:
		if 'A' <= r && r <= 'Z' {
			return r + ('a' - 'A'), true
		}
		return r, true
	case r == 'ي' || r == 'ى' || r == 'ئ' || r == 'ې' || r == 'ۍ':
		return 'ی', true
	case r == 'ك' || r == 'ڪ':
		return 'ک', true
	case r == 'ة' || r == 'ۀ' || r == 'ە':
		return 'ه', true
	case r == 'أ' || r == 'إ' || r == 'ٱ' || r == 'آ':
		return 'ا', true
	case r == 'ؤ':
		return 'و', true
	case r >= '۰' && r <= '۹':
		return '0' + (r - '۰'), true
	case r >= '٠' && r <= '٩':
		return '0' + (r - '٠'), true
	case r == 'ـ' || (r >= '\u064b' && r <= '\u065f') || r == '\u0670' || r == '\u0654' ||
		r == '\u0655':
		return 0, false
	case r >= 0x0600 && r <= 0x06ff:
		return r, true // the Arabic block has no case
	}
	return unicode.ToLower(r), true
}

// ASCIIDigits turns Persian and Arabic digits into ASCII ones and leaves everything else.
func ASCIIDigits(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= '۰' && r <= '۹':
			return '0' + (r - '۰')
		case r >= '٠' && r <= '٩':
			return '0' + (r - '٠')
		}
		return r
	}, s)
}

// Slugify makes a URL slug: lower case, letters (Persian included) and digits, words joined by
// hyphens. Persian spelling variants are folded and the zero-width non-joiner becomes a hyphen,
// so the same name always gives the same slug. At most 80 characters.
func Slugify(s string) string {
	s = FoldPersian(CleanText(s, false))
	var b strings.Builder
	hyphen := false
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if hyphen && b.Len() > 0 {
				if n+2 > 80 { // a hyphen and one character more would pass the limit
					break
				}
				b.WriteByte('-')
				n++
			}
			hyphen = false
			b.WriteRune(r)
			n++
			if n >= 80 {
				break
			}
			continue
		}
		hyphen = true
	}
	return b.String()
}

// RuneLen is the length of s in characters.
func RuneLen(s string) int { return utf8.RuneCountInString(s) }
