package search_test

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"kardan/search"
	"kardan/store"
	"kardan/store/storetest"
)

// TestTiersEqualPlain holds the relevance pages made by tiers of weight (tiers.go) to the
// plain path that weighs every hit through Bleve (rank.go): the same page, in the same order,
// and the same count, for every query of the relevance set and for random queries over the
// demo data's vocabulary (whole words, words being typed, typos, stop words, English and Latin
// spellings, words no profile has together, a word written in two parts), with and without a city, a minimum score, and
// pages further on. The index has several segments and deleted documents (profiles blocked,
// some accepted again), as a live one has.
func TestTiersEqualPlain(t *testing.T) {
	ctx := context.Background()
	st := storetest.Seeded(t)
	storetest.Demo(t, st, 3000, 5)
	f := &fixture{t: t, dir: storetest.Dir(st), st: st, ix: storetest.Index(t, st)}
	set, _, _ := loadRelevanceSet(t, f)
	// A word pair whose joined form lifts a profile to the weight of both words whole (the
	// last word also starts a longer word, so its lightest way weighs less than the word).
	f.add("کارگاه یک", "زرافهستاره", 1, 1, 1, 101, 35.7, 51.4)
	f.add("کارگاه دو", "زرافه و ستاره", 1, 1, 1, 101, 35.7, 51.4)
	f.add("کارگاه سه", "ستارهها", 1, 1, 1, 101, 35.7, 51.4)
	f.sync()

	// Deleted documents and more segments: block some demo profiles, accept half of them again.
	for id := int64(1); id <= 3000; id += 37 {
		if _, err := st.SetProfileStatus(ctx, nil, id, store.StatusBlocked, ""); err != nil {
			t.Fatal(err)
		}
	}
	f.sync()
	for id := int64(1); id <= 3000; id += 74 {
		if _, err := st.SetProfileStatus(ctx, nil, id, store.StatusAccepted, ""); err != nil {
			t.Fatal(err)
		}
	}
	f.sync()

	queries := []string{"زرافه ستاره", "زرافه ستار"}
	for _, g := range set.Groups {
		queries = append(queries, g.Queries...)
	}
	queries = append(queries, randomQueries(t, st, 600)...)

	cities := []struct {
		slug string
		id   int64
	}{{"", 0}}
	for _, slug := range []string{"tehran", "shiraz", "isfahan"} {
		c, err := st.CityBySlag(ctx, slug)
		if err != nil {
			t.Fatal(err)
		}
		cities = append(cities, struct {
			slug string
			id   int64
		}{c.Slag, c.ID})
	}
	minScore := 3.5
	rng := rand.New(rand.NewPCG(9, 9))
	var compared, nonEmpty, deep int
	for i, text := range queries {
		q := search.ProfileQuery{Text: text, Take: 20}
		switch i % 5 {
		case 1:
			c := cities[1+rng.IntN(len(cities)-1)]
			q.City, q.CityID = c.slug, c.id
		case 2:
			q.Skip, q.Take = 20*(1+rng.IntN(3)), 20
		case 3:
			q.Take = 1 + rng.IntN(100)
		case 4:
			q.MinScore = &minScore
		}
		tiers, err := f.ix.SearchProfiles(ctx, q)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		plain, err := search.SearchProfilesPlain(ctx, f.ix, q)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		compared++
		if tiers.Total != plain.Total || !slices.Equal(tiers.IDs, plain.IDs) {
			t.Errorf("%q (%+v): tiers %d %v, plain %d %v", text, q, tiers.Total, tiers.IDs, plain.Total, plain.IDs)
			continue
		}
		if (tiers.Fallback == nil) != (plain.Fallback == nil) || tiers.DidYouMean != plain.DidYouMean {
			t.Errorf("%q: fallback or did-you-mean differ", text)
		}
		if plain.Total > 0 {
			nonEmpty++
		}
		if plain.Total > q.Skip+q.Take {
			deep++
		}
	}
	t.Logf("%d queries compared, %d with hits, %d with more hits than the page", compared, nonEmpty, deep)
	// The comparison must cover answers, not only empty ones.
	if nonEmpty < compared/2 || deep < compared/5 {
		t.Errorf("too few answers to compare: %d of %d with hits, %d past the page", nonEmpty, compared, deep)
	}
	if m := f.ix.FastPathMisses(); m.Tiers != 0 {
		t.Errorf("the tiers gave way to the plain path %d times", m.Tiers)
	}
}

// randomQueries draws n queries from the words of the store's profiles and the categories'
// and cities' names: one to four words, sometimes with the last cut as if being typed, a
// letter changed, a stop word between, or written in Latin letters.
func randomQueries(t *testing.T, st *store.Store, n int) []string {
	t.Helper()
	ctx := context.Background()
	rows, err := st.DB().QueryContext(ctx, `SELECT profile_name || ' ' || descriotion || ' ' || services FROM profiles ORDER BY id LIMIT 400`)
	if err != nil {
		t.Fatal(err)
	}
	var vocab []string
	seen := map[string]bool{}
	addWords := func(s string) {
		for _, w := range search.QueryTokens(s) {
			if !seen[w] && len([]rune(w)) > 1 {
				seen[w] = true
				vocab = append(vocab, w)
			}
		}
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		addWords(s)
	}
	rows.Close()
	var phrases []string
	rows, err = st.DB().QueryContext(ctx, `SELECT farsi_name, english_name FROM work_categories UNION ALL SELECT farsi_name, slag FROM cities WHERE id < 200`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var fa, en string
		if err := rows.Scan(&fa, &en); err != nil {
			t.Fatal(err)
		}
		phrases = append(phrases, fa, strings.ToLower(en))
		addWords(fa)
	}
	rows.Close()
	slices.Sort(vocab) // the map's order must not pick the queries
	rng := rand.New(rand.NewPCG(17, 3))
	stop := []string{"و", "در", "با", "برای"}
	out := make([]string, 0, n)
	for len(out) < n {
		var words []string
		switch k := rng.IntN(10); {
		case k < 2:
			words = strings.Fields(phrases[rng.IntN(len(phrases))])
		case k < 4:
			// A word written apart, which its joined form matches («لوله کش»), alone or with
			// another word.
			w := []rune(vocab[rng.IntN(len(vocab))])
			if len(w) < 5 {
				continue
			}
			at := 2 + rng.IntN(len(w)-3)
			words = []string{string(w[:at]), string(w[at:])}
			if rng.IntN(2) == 0 {
				words = append([]string{vocab[rng.IntN(len(vocab))]}, words...)
			}
		default:
			for range 1 + rng.IntN(3) {
				words = append(words, vocab[rng.IntN(len(vocab))])
			}
		}
		if len(words) == 0 {
			continue
		}
		last := []rune(words[len(words)-1])
		switch k := rng.IntN(10); {
		case k < 3 && len(last) > 3:
			words[len(words)-1] = string(last[:3+rng.IntN(len(last)-3)])
		case k < 4 && len(last) >= 5:
			at := 1 + rng.IntN(len(last)-1)
			last[at] = []rune("ابتدرسکلمنوهی")[rng.IntN(13)]
			words[len(words)-1] = string(last)
		case k < 5 && len(words) > 1:
			words = slices.Insert(words, 1, stop[rng.IntN(len(stop))])
		case k < 6:
			words = append(words, vocab[rng.IntN(len(vocab))]) // often nothing has both: the fallback
		}
		out = append(out, strings.Join(words, " "))
	}
	return out
}

// TestSuggestBitsEqualPlain holds the suggestions' best profiles collected from bitmaps of the
// postings (collectBits) to those Bleve's searcher hands over one by one: the same profiles in
// the same order for the starts of profile names, one letter to eight, alone and within a city,
// on an index with several segments and deleted documents.
func TestSuggestBitsEqualPlain(t *testing.T) {
	ctx := context.Background()
	f, st := demoWithDeletions(t, 29)
	// The names whole, of the profiles blocked (and of those accepted again) among them: so few
	// hits that a deleted document would show.
	rows, err := st.DB().QueryContext(ctx, `SELECT CASE WHEN id % 29 = 1 THEN profile_name ELSE substr(profile_name, 1, 8) END FROM profiles ORDER BY id LIMIT 600`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		names = append(names, s)
	}
	rows.Close()
	rng := rand.New(rand.NewPCG(5, 8))
	full := 0
	for i, name := range names {
		r := []rune(name)
		typed := name
		if len(r) <= 8 {
			typed = string(r[:1+rng.IntN(len(r))])
		}
		city := []string{"", "", "tehran", "shiraz"}[i%4]
		fast := suggestAsPlain(t, f.ix, typed, city, "")
		bits, all, err := search.SuggestCounts(ctx, f.ix, typed, city)
		if err != nil || bits != all {
			t.Fatalf("%q in %q: %d hits from the bitmaps, %d from Bleve (%v)", typed, city, bits, all, err)
		}
		if len(fast.Profiles) == 6 {
			full++
		}
	}
	if full < len(names)/4 {
		t.Fatalf("only %d of %d prefixes filled a page", full, len(names))
	}
	if m := f.ix.FastPathMisses(); m.Tiers != 0 {
		t.Fatalf("fast path misses: %+v", m)
	}
}

// suggestAsPlain answers the suggestions for typed in city, failing the test (its message led
// by when) unless their profiles are those Bleve's searcher hands over one by one (SuggestPlain).
func suggestAsPlain(t *testing.T, ix *search.Index, typed, city, when string) *search.Suggestions {
	t.Helper()
	ctx := context.Background()
	fast, err := ix.Suggest(ctx, typed, city)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := search.SuggestPlain(ctx, ix, typed, city)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fast.Profiles, plain.Profiles) {
		t.Fatalf("%s%q in %q: %v from the bitmaps, %v from Bleve", when, typed, city, fast.Profiles, plain.Profiles)
	}
	return fast
}

// TestSuggestTopEqualPlain holds the suggestions collected from the hits cut to the best
// profiles (facts.top, bestOfTop) to Bleve's plain walk of every hit, for the first letters and
// starts of profile names, alone and within a city, on an index with several segments and deleted
// documents; then again after profiles joined top and others left it, so each segment's top
// documents had to be read again (a cut from the old ones would miss the profiles that joined);
// and the pages of searches for words in the best order.
func TestSuggestTopEqualPlain(t *testing.T) {
	ctx := context.Background()
	f, st := demoWithDeletions(t, 31)
	defer search.CutToTop()()
	rows, err := st.DB().QueryContext(ctx, `SELECT id, profile_name FROM profiles ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	names := map[int64][]rune{}
	for rows.Next() {
		var id int64
		var s string
		if err := rows.Scan(&id, &s); err != nil {
			t.Fatal(err)
		}
		names[id] = []rune(s)
	}
	rows.Close()
	prefixes := map[string]bool{}
	for id := int64(1); id <= 3000; id += 7 {
		if r := names[id]; len(r) >= 3 {
			prefixes[string(r[:1])], prefixes[string(r[:2])], prefixes[string(r[:3])] = true, true, true
		}
	}
	check := func(when string) {
		t.Helper()
		cuts := 0
		for typed := range prefixes {
			for _, city := range []string{"", "tehran"} {
				suggestAsPlain(t, f.ix, typed, city, when+": ")
				if cut, err := search.SuggestCut(ctx, f.ix, typed, city); err != nil {
					t.Fatal(err)
				} else if cut {
					cuts++
				}
			}
		}
		// Top is the best fiftieth of 3,000 profiles: a prefix often has fewer than a page of
		// them among its hits, and is walked whole.
		if cuts < 30 {
			t.Fatalf("%s: %d of %d suggestions were cut to the best profiles", when, cuts, 2*len(prefixes))
		}
		t.Logf("%s: %d of %d suggestions cut to the best profiles", when, cuts, 2*len(prefixes))
	}
	check("as built")
	// The best of the first letters' suggestions leave top; profiles spread over the directory
	// join it with the highest level, so each one leads the suggestions for its name's start.
	for typed := range prefixes {
		if len([]rune(typed)) != 1 {
			continue
		}
		s, err := f.ix.Suggest(ctx, typed, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range s.Profiles[:min(2, len(s.Profiles))] {
			f.setScores(id, 1, 1, 0)
		}
	}
	for id := int64(3); id <= 3000; id += 53 {
		f.setScores(id, 5, 1000+int(id), 5)
	}
	f.sync()
	check("after profiles joined and left the best")
	// Searches in the best order are cut the same way: words, alone or within a city, first and
	// later pages.
	var queries []search.ProfileQuery
	for i, words := range randomQueries(t, st, 60) {
		for _, skip := range []int{0, 7} {
			queries = append(queries, search.ProfileQuery{Text: words, City: []string{"", "tehran"}[i%2], Order: search.OrderBest, Take: 6, Skip: skip})
		}
	}
	for _, q := range queries {
		fast, err := f.ix.SearchProfiles(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := search.SearchProfilesPlain(ctx, f.ix, q)
		if err != nil {
			t.Fatal(err)
		}
		if fast.Total != plain.Total || !slices.Equal(fast.IDs, plain.IDs) {
			t.Fatalf("%+v: %d %v cut to the best, %d %v from Bleve", q, fast.Total, fast.IDs, plain.Total, plain.IDs)
		}
	}
	if len(queries) < 20 {
		t.Fatalf("only %d best-ordered searches compared", len(queries))
	}
}

// TestBitsEqualPlain holds the pages in an order of the facts table (best, nearest, newest,
// reviews) collected from bitmaps of the postings (collectBits, a circle's cells read within
// the other conditions, or not read when those leave few documents, each way) to those whose
// hits Bleve's searcher hands over one by one: the same page and the same count, for random
// mixes of a circle (500 m to 100 km around a profile), a category, a city, words, open now, a
// price range, a lowest score and later pages, over segments with deleted documents.
func TestBitsEqualPlain(t *testing.T) {
	ctx := context.Background()
	f, st := demoWithDeletions(t, 23)
	var points [][2]float64
	var cats, cities []string
	for _, c := range []struct {
		sql  string
		scan func(*sql.Rows) error
	}{
		{`SELECT lat, long FROM profiles WHERE lat IS NOT NULL ORDER BY id LIMIT 200`, func(r *sql.Rows) error {
			var p [2]float64
			err := r.Scan(&p[0], &p[1])
			points = append(points, p)
			return err
		}},
		{`SELECT slag FROM work_categories WHERE id IN (SELECT category_id FROM profile_categories) ORDER BY id`, func(r *sql.Rows) error {
			var s string
			err := r.Scan(&s)
			cats = append(cats, s)
			return err
		}},
		{`SELECT slag FROM cities WHERE id IN (SELECT city_id FROM profiles) ORDER BY id`, func(r *sql.Rows) error {
			var s string
			err := r.Scan(&s)
			cities = append(cities, s)
			return err
		}},
	} {
		rows, err := st.DB().QueryContext(ctx, c.sql)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			if err := c.scan(rows); err != nil {
				t.Fatal(err)
			}
		}
		rows.Close()
	}
	words := randomQueries(t, st, 100)
	rng := rand.New(rand.NewPCG(23, 5))
	orders := []string{search.OrderBest, search.OrderNearest, search.OrderNewest, search.OrderReviews}
	minScore := 3.0
	var compared, nonEmpty, deep, circles int
	for i := range 800 {
		q := search.ProfileQuery{Order: orders[i%len(orders)], Take: 1 + rng.IntN(30)}
		if i%3 != 2 {
			p := points[rng.IntN(len(points))]
			q.HasPoint, q.Lat, q.Long = true, p[0], p[1]
			q.Radius = []float64{500, 2000, 5000, 20000, 100000}[rng.IntN(5)]
		}
		if rng.IntN(2) == 0 {
			q.Category = cats[rng.IntN(len(cats))]
		}
		if rng.IntN(4) == 0 {
			q.City = cities[rng.IntN(len(cities))]
		}
		if q.Category == "" && !q.HasPoint || rng.IntN(5) == 0 {
			q.Text = words[rng.IntN(len(words))]
		}
		switch rng.IntN(8) {
		case 0:
			q.OpenNow, q.Now = true, time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
		case 1:
			q.PriceMin, q.PriceMax = 100000, 2000000
		case 2:
			q.MinScore = &minScore
		case 3, 4:
			q.Skip = q.Take * (1 + rng.IntN(3))
		case 5:
			q.Take = 0 // the count alone
		}
		fast, err := f.ix.SearchProfiles(ctx, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		plain, err := search.SearchProfilesPlain(ctx, f.ix, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		restore := search.SetCellsWorthReading(0)
		cells, err := f.ix.SearchProfiles(ctx, q)
		restore()
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		compared++
		if fast.Total != plain.Total || !slices.Equal(fast.IDs, plain.IDs) {
			t.Errorf("%+v: bitmaps %d %v, Bleve %d %v", q, fast.Total, fast.IDs, plain.Total, plain.IDs)
		}
		if cells.Total != plain.Total || !slices.Equal(cells.IDs, plain.IDs) {
			t.Errorf("%+v: bitmaps reading the cells %d %v, Bleve %d %v", q, cells.Total, cells.IDs, plain.Total, plain.IDs)
		}
		if plain.Total > 0 {
			nonEmpty++
			if q.HasPoint {
				circles++
			}
		}
		if plain.Total > q.Skip+q.Take {
			deep++
		}
	}
	t.Logf("%d queries compared, %d with hits (%d in a circle), %d with more hits than the page", compared, nonEmpty, circles, deep)
	if nonEmpty < compared*2/5 || deep < compared/5 || circles < compared/5 {
		t.Errorf("too few answers to compare: %d of %d with hits, %d in a circle, %d past the page", nonEmpty, compared, circles, deep)
	}
	if m := f.ix.FastPathMisses(); m.Tiers != 0 || m.Cells != 0 {
		t.Errorf("the bitmaps gave way to Bleve: %+v", m)
	}
}

// demoWithDeletions indexes 3,000 demo profiles and blocks one in every, then accepts half of
// those again: the blocked ones' documents and the first documents of those accepted again stay
// in their segments, deleted.
func demoWithDeletions(t *testing.T, every int64) (*fixture, *store.Store) {
	t.Helper()
	ctx := context.Background()
	st := storetest.Seeded(t)
	storetest.Demo(t, st, 3000, 5)
	f := &fixture{t: t, dir: storetest.Dir(st), st: st, ix: storetest.Index(t, st)}
	for _, status := range []string{store.StatusBlocked, store.StatusAccepted} {
		for id := int64(1); id <= 3000; id += every {
			if status == store.StatusAccepted && id%2 == 0 {
				continue
			}
			if _, err := st.SetProfileStatus(ctx, nil, id, status, ""); err != nil {
				t.Fatal(err)
			}
		}
		f.sync()
	}
	if search.DeletedDocuments(f.ix) == 0 {
		t.Fatal("no deleted documents to leave out")
	}
	return f, st
}
