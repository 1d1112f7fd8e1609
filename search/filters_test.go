package search_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"

	"kardan/search"
)

// TestStartsLeaveTheWordOut checks the prefix field's filter: a word's first 3 to 15 letters,
// counted in letters, not bytes, and never the word whole.
func TestStartsLeaveTheWordOut(t *testing.T) {
	for _, c := range []struct {
		words []string
		want  []string
	}{
		{[]string{"ab"}, nil},
		{[]string{"abc"}, nil},
		{[]string{"abcd"}, []string{"abc"}},
		{[]string{"کاشیکار"}, []string{"کاش", "کاشی", "کاشیک", "کاشیکا"}},
		{[]string{"abcdefghijklmno"}, []string{"abc", "abcd", "abcde", "abcdef", "abcdefg", "abcdefgh",
			"abcdefghi", "abcdefghij", "abcdefghijk", "abcdefghijkl", "abcdefghijklm", "abcdefghijklmn"}},
		{[]string{"abcdefghijklmnopq"}, []string{"abc", "abcd", "abcde", "abcdef", "abcdefg", "abcdefgh",
			"abcdefghi", "abcdefghij", "abcdefghijk", "abcdefghijkl", "abcdefghijklm", "abcdefghijklmn",
			"abcdefghijklmno"}},
		{[]string{"لوله", "ab", "plumb"}, []string{"لول", "plu", "plum"}},
		{nil, nil},
	} {
		if got := search.Starts(c.words...); !slices.Equal(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.words, got, c.want)
		}
	}
}

// TestStartsMatchWhatTheWordsStartWith checks the index against the profiles' own words: a
// query's last word matches, through the text field's whole words and the prefix field's starts
// of longer words, exactly the profiles holding a word that starts with it, for every start of
// every word (the prefix field holding each word whole as well, as Bleve's edge n-grams made it,
// matched the same). The search itself finds each of them, on the tiers and on the plain path.
func TestStartsMatchWhatTheWordsStartWith(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	vocabulary := []string{"کاش", "کاشی", "کاشیکار", "کاشیکاری", "کاشان", "لوله", "لوله‌کش", "لوله‌کشی",
		"plum", "Plumber", "PLUMBING", "abcdefghijklmn", "abcdefghijklmno", "abcdefghijklmnop",
		"abcdefghijklmnopqrs", "نقاش", "نقاشی", "نقاشیهای"}
	rng := rand.New(rand.NewPCG(14, 14))
	words := map[int64][]string{} // every profile's words, as its text field holds them
	var ids []int64
	for i := 0; i < 60; i++ {
		var desc []string
		for n := 1 + rng.IntN(4); n > 0; n-- {
			desc = append(desc, vocabulary[rng.IntN(len(vocabulary))])
		}
		p := f.add("خدمات", strings.Join(desc, " "), 1, 1, 1, 101, tehranLat, tehranLong)
		if p.KeyWord == "" {
			t.Fatal("the profile came back without its key_word")
		}
		text := search.IndexText(p.KeyWord + " \n " + p.Descriotion + " \n خدمات عمومی")
		for _, tok := range unicode.NewUnicodeTokenizer().Tokenize([]byte(text)) {
			words[p.ID] = append(words[p.ID], strings.ToLower(string(tok.Term)))
		}
		ids = append(ids, p.ID)
	}
	f.sync()
	starts := map[string]bool{}
	for _, ws := range words {
		for _, w := range ws {
			r := []rune(w)
			for n := 3; n <= min(len(r), 15); n++ {
				starts[string(r[:n])] = true
			}
		}
	}
	starts["zzz"] = true // a start no word has
	checked := 0
	for s := range starts {
		var want []int64
		for _, id := range ids {
			if slices.ContainsFunc(words[id], func(w string) bool { return strings.HasPrefix(w, s) }) {
				want = append(want, id)
			}
		}
		got, err := search.StartsOf(ctx, f.ix, s, ids)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q (%d letters): index matches %v, the words %v", s, utf8.RuneCountInString(s), got, want)
			continue
		}
		q := search.ProfileQuery{Text: s, Take: 100}
		tiers := f.search(q)
		plain, err := search.SearchProfilesPlain(ctx, f.ix, q)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(tiers.IDs, plain.IDs) || tiers.Total != plain.Total {
			t.Errorf("%q: tiers %v (%d), plain path %v (%d)", s, tiers.IDs, tiers.Total, plain.IDs, plain.Total)
		}
		for _, id := range want {
			if !slices.Contains(tiers.IDs, id) {
				t.Errorf("%q: the search misses profile %d, whose words start with it", s, id)
			}
		}
		checked++
	}
	if checked < 40 {
		t.Fatalf("only %d starts checked", checked)
	}
}

// TestLatinKeepsWordsWithoutPersian checks the English field's filter: words with a Persian
// letter or digit anywhere go, every other script stays.
func TestLatinKeepsWordsWithoutPersian(t *testing.T) {
	got := search.KeepLatin("apple", "سرویس", "café", "۱۲۳", "abc۱", "2024", "Москва", "لوله‌کش", "x")
	want := []string{"apple", "café", "2024", "Москва", "x"}
	if !slices.Equal(got, want) {
		t.Errorf("kept %q, want %q", got, want)
	}
}

// TestEnglishFieldMatchesAsBefore checks that leaving the Persian words out of the English field
// changes no Latin search: for every word of the profiles' English text, the field matches
// exactly the profiles whose text, analysed as Bleve's English analyzer does, holds the word's
// analysed form. Names and services mix the scripts, as real ones do.
func TestEnglishFieldMatchesAsBefore(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	names := []string{"Apple سرویس", "تعمیرات Apple's", "Plumbing لوله‌کشی", "کافه Café", "e-mail-پست",
		"۱۲۳abc", "abc ۱۲۳", "Tehran Best Plumbers", "نقاشی ساختمان", "The Painters نقاش", "Москва کافه"}
	cache := registry.NewCache()
	english, err := cache.AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		t.Fatal(err)
	}
	terms := func(text string) map[string]bool {
		out := map[string]bool{}
		for _, tok := range english.Analyze([]byte(text)) {
			out[string(tok.Term)] = true
		}
		return out
	}
	var ids []int64
	held := map[int64]map[string]bool{}
	words := map[string]bool{}
	for i, name := range names {
		p := f.add(name, "توضیحات", 1, 1, 1, 101, tehranLat, tehranLong)
		if i%3 == 0 {
			p = f.add(name+" Service", "", 1, 1, 1, 101, tehranLat, tehranLong)
		}
		text, err := search.EnglishText(ctx, f.ix, p)
		if err != nil {
			t.Fatal(err)
		}
		held[p.ID] = terms(text)
		for _, w := range search.QueryTokens(text) {
			words[w] = true
		}
		ids = append(ids, p.ID)
	}
	f.sync()
	checked := 0
	for w := range words {
		if !search.IsLatin(w) {
			continue
		}
		var want []int64
		for _, id := range ids {
			for term := range terms(w) { // a match query wants any of the word's terms
				if held[id][term] {
					want = append(want, id)
					break
				}
			}
		}
		got, err := search.EnglishOf(ctx, f.ix, w, ids)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: the English field matches %v, the English analyzer %v", w, got, want)
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("only %d Latin words checked", checked)
	}
}
