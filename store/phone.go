package store

import "strings"

// NormalizeMobile answers an Iranian mobile number in the one form Kardan stores, 09xxxxxxxxx, or
// false when s is not a mobile number. It accepts Persian and Arabic-Indic digits, the +98, 0098
// and 98 country prefixes, a missing leading zero, and spaces, dashes, dots and brackets between
// digits; landlines (021...) and wrong lengths are refused.
func NormalizeMobile(s string) (string, bool) {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.TrimSpace(s) {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r >= '۰' && r <= '۹':
			b.WriteRune('0' + (r - '۰'))
		case r >= '٠' && r <= '٩':
			b.WriteRune('0' + (r - '٠'))
		case r == '+' && b.Len() == 0:
			b.WriteString("00")
		case r == ' ' || r == '-' || r == '.' || r == '(' || r == ')' || r == '\u00a0' ||
			r == '\u200c' || r == '\u200e' || r == '\u200f':
			// Separators people type or paste (and the invisible marks a right-to-left field adds).
		default:
			return "", false
		}
	}
	d := b.String()
	switch {
	case strings.HasPrefix(d, "0098"):
		d = d[4:]
		if !strings.HasPrefix(d, "0") { // "+98 (0) 912..." keeps its trunk zero
			d = "0" + d
		}
	case strings.HasPrefix(d, "98") && len(d) == 12:
		d = "0" + d[2:]
	case strings.HasPrefix(d, "9") && len(d) == 10:
		d = "0" + d
	}
	if len(d) != 11 || !strings.HasPrefix(d, "09") {
		return "", false
	}
	return d, true
}
