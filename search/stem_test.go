package search_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"kardan/search"
	"kardan/store"
)

// TestStemTrades measures the stemmer on both sides: the forms of trade words it must bring to
// one stem, and the names of people and places it must leave whole. It prints both rates and
// fails below 90% conflation or on any name it changes.
func TestStemTrades(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	stem := func(w string) string {
		return search.Stem(ctx, f.ix, search.QueryTokens(w)[0])
	}
	same := [][]string{
		{"لوله‌کش", "لوله‌کشی", "لوله‌کش‌ها", "لوله‌کشان", "لولهکشها"},
		{"تعمیر", "تعمیرکار", "تعمیرکاران", "تعمیرکاری", "تعمیرات"},
		{"آرایش", "آرایشگر", "آرایشگرها", "آرایشگری"},
		{"برقکار", "برقکاری", "برقکارها", "برقکاران"},
		{"دندانپزشک", "دندانپزشکی", "دندانپزشکان", "دندانپزشک‌ها"},
		{"کلیدساز", "کلیدسازی", "کلیدسازها"},
		{"نجار", "نجاری", "نجارها"},
		{"جوش", "جوشکار", "جوشکاری"},
		{"مهندس", "مهندسان", "مهندس‌ها"},
		{"ارزان", "ارزان‌تر", "ارزان‌ترین"},
		{"وکیل", "وکیل‌ها"},
		{"قالیشو", "قالیشویی"},
		{"خانه", "خانه‌ها", "خانه‌هایمان"},
		{"پزشک", "پزشکان", "پزشکی"},
		{"سریع", "سریعتر", "سریعترین"},
	}
	forms, joined := 0, 0
	for _, group := range same {
		want := stem(group[0])
		for _, w := range group[1:] {
			forms++
			if got := stem(w); got == want {
				joined++
			} else {
				t.Logf("%s: stem %s, want %s (of %s)", w, got, want, group[0])
			}
		}
	}
	// Names of people and places, and words that only look inflected.
	whole := []string{"تهران", "اصفهان", "کرمان", "زنجان", "آبادان", "سمنان", "گرگان", "همدان",
		"لرستان", "کردستان", "خوزستان", "گیلان", "ایران", "محمدی", "احمدی", "رضایی", "کریمی",
		"حسینی", "موسوی", "جعفری", "صادقی", "رحیمی", "کاظمی", "مرادی", "نوری", "سلیمانی", "رستمی",
		"فرهادی", "احمدیان", "رضاییان", "سلطانی", "دندان", "ساختمان", "درمان", "دکتر", "دفتر",
		"خیابان", "میدان", "سازمان", "زبان", "ارزان", "نانوایی", "داروخانه", "رستوران",
		"بیمارستان", "کامپیوتر", "پرینتر", "خدمات", "کاشان", "کیش", "یزد", "قزوین", "اراک",
		"بندرعباس", "کرمانشاه", "شهرکرد", "سنندج", "ارومیه", "زاهدان", "بجنورد", "سبزوار",
		"مریم", "سارا", "علی", "حسن", "نرگس", "امیر", "لیلا", "مهسا", "آرش"}
	kept := 0
	for _, w := range whole {
		folded := search.QueryTokens(w)[0]
		if got := stem(w); got == folded {
			kept++
		} else {
			t.Errorf("%s: stemmed to %s, a name must stay whole", w, got)
		}
	}
	fmt.Printf("stemmer: %d/%d forms of trade words joined (%.0f%%), %d/%d names kept whole\n",
		joined, forms, 100*float64(joined)/float64(forms), kept, len(whole))
	if float64(joined) < 0.9*float64(forms) {
		t.Errorf("only %d of %d forms joined", joined, forms)
	}
}

// TestFinglishSpellings: Latin-script Persian reaches the Persian spellings of the lexicon by
// letter rules, for words the rules were not written for.
func TestFinglishSpellings(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for latin, want := range map[string]string{
		"lolekesh":      "لولهکش",
		"loolekesh":     "لولهکش",
		"arayeshgah":    "ارایشگاه",
		"dandanpezeshk": "دندانپزشک",
		"tehran":        "تهران",
		"shiraz":        "شیراز",
		"yakhchal":      "یخچال",
		"tamir":         "تعمیر",
		"ghalishooyi":   "قالیشویی",
		"kelidsaz":      "کلیدساز",
		"mashhad":       "مشهد",
		"nanvayi":       "نانوایی",
		"vakil":         "وکیل",
	} {
		got := search.Finglish(ctx, f.ix, latin)
		if !slices.Contains(got, want) {
			t.Errorf("%s: spellings %v, want %s among them", latin, got, want)
		}
	}
	if got := search.Finglish(ctx, f.ix, "xq"); len(got) != 0 {
		t.Errorf("xq: spellings %v, want none", got)
	}
}

// TestFinglishIsTheSameEveryBuild: a Latin word stands for the same few Persian spellings
// however the lexicon's maps were walked when it was built, so a query answers the same after a
// restart. Some words' skeletons hold more spellings than are taken, where the walk decided.
func TestFinglishIsTheSameEveryBuild(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	words := []string{"far", "Far", "sar", "kar", "bar", "dar", "tamir", "lule", "nan", "gol", "mashin",
		"sakht", "bargh", "naghash", "kafsh", "tehran", "arayesh"}
	first, err := search.FinglishOfNewLexicon(ctx, f.ix)
	if err != nil {
		t.Fatal(err)
	}
	crowded := 0
	for _, w := range words {
		if got, pool := first(w); pool > len(got) {
			crowded++
		}
	}
	if crowded < 3 {
		t.Fatalf("only %d words have more spellings than are taken: the test proves little", crowded)
	}
	for range 5 {
		again, err := search.FinglishOfNewLexicon(ctx, f.ix)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range words {
			a, _ := first(w)
			b, _ := again(w)
			if !slices.Equal(a, b) {
				t.Fatalf("%s: spellings %v, then %v from the same reference data", w, a, b)
			}
		}
	}
}

// TestFallbackAndDidYouMean: a query whose words are never all in one profile answers the
// profiles with any of them, the named category first, and says so; a misspelt word is
// answered with the index's nearest word.
func TestFallbackAndDidYouMean(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tree, err := f.st.CategoryTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	plumber := tree.BySlag("plumber")
	painter := tree.BySlag("house-painter")
	a := f.add("خدمات فنی رضوی", "تعمیر لوله و شیرآلات", 1, 1, *plumber.ParentID, plumber.ID, 35.7, 51.4)
	b := f.add("نقاشی مدرن", "رنگ آمیزی شبانه روزی و کاغذ دیواری", 1, 1, *painter.ParentID, painter.ID, 35.7, 51.4)
	f.sync()

	h := f.search(search.ProfileQuery{Text: "لوله کش شبانه روزی"})
	if h.Fallback == nil || h.Fallback.Category == nil || h.Fallback.Category.Slug != "plumber" {
		t.Fatalf("fallback %+v, want the plumber category", h.Fallback)
	}
	if len(h.IDs) != 2 || h.IDs[0] != a.ID || h.IDs[1] != b.ID {
		t.Errorf("fallback ids %v, want the plumber %d then %d", h.IDs, a.ID, b.ID)
	}
	h = f.search(search.ProfileQuery{Text: "لوله کش", City: "tehran", CityID: 1})
	if h.Fallback != nil || len(h.IDs) != 1 || h.IDs[0] != a.ID {
		t.Errorf("exact: %+v, want the plumber by its category and no fallback", h)
	}
	h = f.search(search.ProfileQuery{Text: "کاغذ دیواریی"})
	if h.DidYouMean != "کاغذ دیواری" {
		t.Errorf("did you mean %q, want «کاغذ دیواری»", h.DidYouMean)
	}
	if h = f.search(search.ProfileQuery{Text: "بیبیبیبی"}); h.Total != 0 || h.Fallback != nil {
		t.Errorf("nonsense: %+v, want nothing", h)
	}
	_ = store.StatusOpen
}

// TestDidYouMeanPrefersTheNearerWord: a misspelt word is answered with its neighbour one letter
// away even when a word two letters away is held by more profiles, and with the most held of
// those two letters away when none is one away.
func TestDidYouMeanPrefersTheNearerWord(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tree, err := f.st.CategoryTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	plumber := tree.BySlag("plumber")
	f.add("خدمات رضوی", "کاشیکار ماهر", 1, 1, *plumber.ParentID, plumber.ID, 35.7, 51.4)
	for _, name := range []string{"گروه اول", "گروه دوم", "گروه سوم"} {
		f.add(name, "کاشیکوب ماهر", 1, 1, *plumber.ParentID, plumber.ID, 35.7, 51.4)
	}
	f.sync()
	for q, want := range map[string]string{
		"کاشیکاز": "کاشیکار", // one letter from کاشیکار, two from کاشیکوب
		"کاشیکیز": "کاشیکوب", // two from both: the more held
	} {
		if h := f.search(search.ProfileQuery{Text: q}); h.DidYouMean != want {
			t.Errorf("%s: did you mean %q, want %q", q, h.DidYouMean, want)
		}
	}
}

// TestSuggest: categories and cities for a prefix of one letter or more, in Persian, English
// or Finglish; profiles by the start of their name, in the city asked for.
func TestSuggest(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tree, err := f.st.CategoryTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	plumber := tree.BySlag("plumber")
	a := f.add("لوله‌کشی رضایی", "تعمیر لوله", 1, 1, *plumber.ParentID, plumber.ID, 35.7, 51.4)
	b := f.add("لوله‌کشی رستمی", "تعمیر لوله", 4, 60, *plumber.ParentID, plumber.ID, 29.6, 52.5)
	f.sync()
	has := func(ps []search.Place, slug string) bool {
		return slices.ContainsFunc(ps, func(p search.Place) bool { return p.Slug == slug })
	}
	for _, c := range []struct{ prefix, cat, city string }{
		{"لوله ک", "plumber", ""},
		{"لوله‌ک", "plumber", ""},
		{"plum", "plumber", ""},
		{"lolek", "plumber", ""},
		{"dandanp", "dentist", ""},
		{"دندانپ", "dentist", ""},
		{"تهر", "", "tehran"},
		{"teh", "", "tehran"},
		{"shir", "", "shiraz"},
		{"ش", "", "shiraz"},
	} {
		s, err := f.ix.Suggest(ctx, c.prefix, "")
		if err != nil {
			t.Fatal(err)
		}
		if c.cat != "" && !has(s.Categories, c.cat) {
			t.Errorf("%q: categories %+v, want %s", c.prefix, s.Categories, c.cat)
		}
		if c.city != "" && !has(s.Cities, c.city) {
			t.Errorf("%q: cities %+v, want %s", c.prefix, s.Cities, c.city)
		}
	}
	s, err := f.ix.Suggest(ctx, "ل", "")
	if err != nil || len(s.Profiles) != 2 {
		t.Fatalf("ل: %+v %v, want both profiles", s, err)
	}
	s, err = f.ix.Suggest(ctx, "لوله کشی ر", "shiraz")
	if err != nil || !slices.Equal(s.Profiles, []int64{b.ID}) {
		t.Errorf("in shiraz: %+v %v, want %d", s, err, b.ID)
	}
	s, err = f.ix.Suggest(ctx, "رضا", "")
	if err != nil || !slices.Equal(s.Profiles, []int64{a.ID}) {
		t.Errorf("رضا: %+v %v, want %d", s, err, a.ID)
	}
	if s, err = f.ix.Suggest(ctx, "  ", ""); err != nil || len(s.Profiles)+len(s.Categories)+len(s.Cities) != 0 {
		t.Errorf("blank: %+v %v, want nothing", s, err)
	}
}

// TestLexiconFollowsReferenceData: a search synonym added to the reference data reaches queries
// once the lexicon is older than its maximum age, without a restart.
func TestLexiconFollowsReferenceData(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tree, err := f.st.CategoryTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	plumber := tree.BySlag("plumber")
	a := f.add("خدمات فنی رضوی", "تعمیر لوله", 1, 1, *plumber.ParentID, plumber.ID, 35.7, 51.4)
	f.sync()
	if h := f.search(search.ProfileQuery{Text: "آبرسانی"}); h.Total != 0 {
		t.Fatalf("before: %+v", h)
	}
	if _, err := f.raw().Exec(`UPDATE work_categories SET synonyms = '["آبرسانی"]' WHERE slag = 'plumber'`); err != nil {
		t.Fatal(err)
	}
	defer search.SetRefMaxAge(0)()
	deadline := time.Now().Add(10 * time.Second)
	for {
		h := f.search(search.ProfileQuery{Text: "آبرسانی"})
		if h.Total == 1 && h.IDs[0] == a.ID {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new synonym never reached the query: %+v", h)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
