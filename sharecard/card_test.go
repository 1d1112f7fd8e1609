package sharecard

import (
	"bytes"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestRenderSize: a card decodes as a 1200×630 PNG, in both directions, with and without a
// picture. KARDAN_CARD_DIR keeps the cards to look at.
func TestRenderSize(t *testing.T) {
	cards := map[string]Card{
		"fa": {RTL: true, Title: "لوله‌کشی و تأسیسات امیری 24 ساعته", Lines: []string{"لوله‌کش · تهران"}, Rating: "۴٫۷ (۱۲ نظر)",
			Footer: "کاردان", Host: "kardan.example", Initial: "ل", Accent: color.RGBA{0x1d, 0x4e, 0x89, 0xff}},
		"en": {Title: "Amiri Plumbing, open 24/7", Lines: []string{"Plumber · Tehran"}, Rating: "4.7 (12 reviews)",
			Footer: "Kardan", Host: "kardan.example", Initial: "A", Accent: color.RGBA{0x0b, 0x6e, 0x69, 0xff}},
		"long": {RTL: true, Title: "راهنمای کامل انتخاب بهترین لوله‌کش برای خانه‌های قدیمی در تهران و کرج با قیمت‌های ۱۴۰۵", MaxTitle: 3,
			Lines: []string{"نوشتهٔ علی رضایی (Ali Rezaei)"}, Footer: "کاردان", Host: "kardan.example", Initial: "ر", Accent: color.RGBA{0x7a, 0x3e, 0x9d, 0xff}},
	}
	for name, c := range cards {
		b, err := Render(c)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if r := img.Bounds(); r.Dx() != Width || r.Dy() != Height {
			t.Fatalf("%s: %v, want %dx%d", name, r, Width, Height)
		}
		if dir := os.Getenv("KARDAN_CARD_DIR"); dir != "" {
			os.WriteFile(filepath.Join(dir, name+".png"), b, 0o644)
		}
	}
}

// TestCacheKeepsOneVersion: a card is drawn once per version, read back from its file, and a
// new version replaces the subject's old file (and no other subject's).
func TestCacheKeepsOneVersion(t *testing.T) {
	c, err := NewCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	draws := 0
	draw := func(s string) func() ([]byte, error) {
		return func() ([]byte, error) { draws++; return []byte(s), nil }
	}
	for range 3 {
		b, err := c.Card("profile/12-fa", "aaaaaaaa", draw("one"))
		if err != nil || string(b) != "one" {
			t.Fatalf("%q %v", b, err)
		}
	}
	if draws != 1 {
		t.Fatalf("drawn %d times, want 1", draws)
	}
	if _, err := c.Card("profile/123-fa", "cccccccc", draw("other")); err != nil {
		t.Fatal(err)
	}
	b, err := c.Card("profile/12-fa", "bbbbbbbb", draw("two"))
	if err != nil || string(b) != "two" || draws != 3 {
		t.Fatalf("%q %v, drawn %d", b, err, draws)
	}
	if v := c.Versions("profile/12-fa"); len(v) != 1 || v[0] != "bbbbbbbb" {
		t.Fatalf("versions kept: %v", v)
	}
	if v := c.Versions("profile/123-fa"); len(v) != 1 {
		t.Fatalf("another subject's card was removed: %v", v)
	}
	for _, bad := range [][2]string{{"../x/1-fa", "aaaaaaaa"}, {"profile/1-fa", "../../etc"}, {"profile/1-fa/..", "aaaaaaaa"}} {
		if _, err := c.Card(bad[0], bad[1], draw("x")); err != ErrBadKey {
			t.Fatalf("%v: %v", bad, err)
		}
	}
}
