package store_test

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"kardan/store"
)

// The fuzz targets below check properties, not only the absence of panics. `go test` runs their
// seeds (f.Add and testdata/fuzz/<name>/); `go test -fuzz=FuzzName` explores further.

var mobilePattern = regexp.MustCompile(`^09[0-9]{9}$`)

func FuzzNormalizeMobile(f *testing.F) {
	for _, s := range []string{"09121234567", "+98 912 123 4567", "۰۹۱۲۱۲۳۴۵۶۷", "٠٩١٢١٢٣٤٥٦٧", "0098 912-123-4567",
		"9121234567", "+98 (0) 912 123 4567", "02188776655", "", "+", "00", "0098", "98", "\u200e+989350001122\u200f",
		"0912123456a", "+19121234567", "۰۹۱۲ ۱۲۳ ۴۵۶۷", "(0912) 123.4567"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, ok := store.NormalizeMobile(in)
		if !ok {
			if out != "" {
				t.Fatalf("NormalizeMobile(%q) refused but answered %q", in, out)
			}
			return
		}
		if !mobilePattern.MatchString(out) {
			t.Fatalf("NormalizeMobile(%q) = %q, which is not 09 and nine digits", in, out)
		}
		if again, ok := store.NormalizeMobile(out); !ok || again != out {
			t.Fatalf("not idempotent: NormalizeMobile(%q) = %q, then %q (%v)", in, out, again, ok)
		}
		// The number's own digits survive: the answer's last nine are the input's last nine.
		var digits []rune
		for _, r := range store.ASCIIDigits(in) {
			if r >= '0' && r <= '9' {
				digits = append(digits, r)
			}
		}
		if len(digits) < 9 || string(digits[len(digits)-9:]) != out[2:] {
			t.Fatalf("NormalizeMobile(%q) = %q does not end in the input's digits", in, out)
		}
	})
}

// foldedAway are the characters FoldPersian must never leave behind.
var foldedAway = []rune{'ي', 'ى', 'ك', 'ة', 'أ', 'إ', 'ـ', '\u064b', '\u064e', '\u0650', '\u0651', '\u0652', '\u0670'}

func FuzzFoldPersian(f *testing.F) {
	for _, s := range []string{"لوله‌کش", "لوله كش", "علي", "مهندسی", "آرایشگاه", "مؤسسه", "ۀ", "سلام ٌ", "تهـــران",
		"۰۱۲۳۴۵۶۷۸۹", "٠١٢٣٤٥٦٧٨٩", "ABC Def", "İstanbul", "ΣΑΣ", "\xff\xfe", "a\u0301", "ئ", "ٱ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := store.FoldPersian(in)
		if want := foldPlain(in); out != want {
			t.Fatalf("FoldPersian(%q) = %q, the plain fold %q", in, out, want)
		}
		if again := store.FoldPersian(out); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
		}
		if utf8.RuneCountInString(out) > utf8.RuneCountInString(in) {
			t.Fatalf("FoldPersian(%q) = %q grew", in, out)
		}
		for _, r := range out {
			for _, bad := range foldedAway {
				if r == bad {
					t.Fatalf("FoldPersian(%q) = %q keeps %U", in, out, r)
				}
			}
			if (r >= '۰' && r <= '۹') || (r >= '٠' && r <= '٩') {
				t.Fatalf("FoldPersian(%q) = %q keeps a non-ASCII digit", in, out)
			}
		}
		// The zero-width non-joiner is the caller's to decide on: never dropped here.
		if strings.Count(out, "\u200c") != strings.Count(in, "\u200c") {
			t.Fatalf("FoldPersian(%q) = %q changed the ZWNJs", in, out)
		}
	})
}

func FuzzCleanText(f *testing.F) {
	for _, s := range []string{"  سلام   دنیا  ", "a\u202eevil\u202c", "line1\r\nline2\n\n\n\nline3", "\x00\x01\x7f", "tab\there",
		"\u200bzero\ufeffwidth", "لوله\u200cکش", "\xff\xfeinvalid", "\u2066iso\u2069", "\u00a0nbsp\u00a0", " \u2000 a \u2000 "} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, in string, multiline bool) {
		out := store.CleanText(in, multiline)
		if !utf8.ValidString(out) {
			t.Fatalf("CleanText(%q) = %q is not valid UTF-8", in, out)
		}
		if again := store.CleanText(out, multiline); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
		}
		if out != strings.TrimSpace(out) {
			t.Fatalf("CleanText(%q) = %q has space at an end", in, out)
		}
		if strings.Contains(out, "  ") {
			t.Fatalf("CleanText(%q) = %q keeps a run of spaces", in, out)
		}
		if strings.Contains(out, "\n\n\n") {
			t.Fatalf("CleanText(%q) = %q keeps more than one empty line", in, out)
		}
		for _, r := range out {
			switch {
			case r == '\n' && multiline:
			case unicode.IsControl(r):
				t.Fatalf("CleanText(%q) = %q keeps control %U", in, out, r)
			case (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') || r == '\u200e' || r == '\u200f' ||
				r == '\u061c' || r == '\ufeff' || r == '\u200b':
				t.Fatalf("CleanText(%q) = %q keeps invisible mark %U", in, out, r)
			}
		}
		if strings.Count(out, "\u200c") != strings.Count(strings.ToValidUTF8(in, ""), "\u200c") {
			t.Fatalf("CleanText(%q) = %q dropped a ZWNJ, which Persian spelling needs", in, out)
		}
	})
}

var slugPattern = regexp.MustCompile(`^[\p{L}\p{N}]+(-[\p{L}\p{N}]+)*$`)

func FuzzSlugify(f *testing.F) {
	for _, s := range []string{"لوله‌کشی تهران", "Ali's Plumbing & Co.", "  --  ", "علي كريمي", "۱۲۳ خدمات", "a--b", "-lead", "trail-",
		strings.Repeat("ب", 200), strings.Repeat("ab ", 60), "\u202eevil", "Straße", "ǅemal", "x\u0301y", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := store.Slugify(in)
		if out == "" {
			// Nothing sluggable: no letter or digit survives cleaning.
			for _, r := range store.FoldPersian(store.CleanText(in, false)) {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					t.Fatalf("Slugify(%q) is empty though %q is a letter or digit", in, r)
				}
			}
			return
		}
		if !slugPattern.MatchString(out) {
			t.Fatalf("Slugify(%q) = %q does not match the slug pattern", in, out)
		}
		if n := utf8.RuneCountInString(out); n > 80 {
			t.Fatalf("Slugify(%q) = %q has %d characters, more than 80", in, out, n)
		}
		if again := store.Slugify(out); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
		}
		if store.FoldPersian(out) != out {
			t.Fatalf("Slugify(%q) = %q is not folded, so two spellings would make two slugs", in, out)
		}
	})
}

// foldPlain is FoldPersian without its fast path: every rune through the rules, copied.
func foldPlain(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == 'ي' || r == 'ى' || r == 'ئ' || r == 'ې' || r == 'ۍ':
			r = 'ی'
		case r == 'ك' || r == 'ڪ':
			r = 'ک'
		case r == 'ة' || r == 'ۀ' || r == 'ە':
			r = 'ه'
		case r == 'أ' || r == 'إ' || r == 'ٱ' || r == 'آ':
			r = 'ا'
		case r == 'ؤ':
			r = 'و'
		case r >= '۰' && r <= '۹':
			r = '0' + (r - '۰')
		case r >= '٠' && r <= '٩':
			r = '0' + (r - '٠')
		case r == 'ـ' || (r >= '\u064b' && r <= '\u065f') || r == '\u0670' || r == '\u0654' || r == '\u0655':
			continue
		default:
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestFoldPersianAsPlain compares FoldPersian with the plain fold over random text drawn from
// every case the rules name, the whole Arabic block, Latin of both cases, other scripts and
// invalid bytes, mostly already folded (the fast path's case) and sometimes not.
func TestFoldPersianAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	var alphabet []string
	for r := rune(0x0600); r <= 0x06ff; r++ {
		alphabet = append(alphabet, string(r))
	}
	for _, x := range []string{"a", "Z", "q", "M", " ", "\u200c", "İ", "Σ", "é", "Ж", "\ufffd", "\xff", "\xe2\x80", "7", "\n"} {
		alphabet = append(alphabet, x)
	}
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := rng.IntN(24); n > 0; n-- {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		in := b.String()
		if i%2 == 0 {
			in = foldPlain(in) // folded already, unless folding is not idempotent on it
		}
		if got, want := store.FoldPersian(in), foldPlain(in); got != want {
			t.Fatalf("FoldPersian(%q) = %q, the plain fold %q", in, got, want)
		}
	}
}
