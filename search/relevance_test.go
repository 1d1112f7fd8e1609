package search_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"

	"kardan/search"
	"kardan/store"
)

// relevanceSet is testdata/relevance.json: a fixed set of profiles and the queries people type
// for them, each group with the profiles it expects (every profile of a category, of a category
// in a city, or named ones).
type relevanceSet struct {
	Profiles []struct {
		Key, Cat, City, Name, Text string
	}
	Groups []struct {
		Cat     json.RawMessage // a slug or a list of slugs
		In      string          // the expected profiles are in this city (named in the text)
		City    string          // the query filters on this city
		Keys    []string
		Queries []string
	}
}

// relevanceMeta is the category and city slugs of a profile of the relevance set.
type relevanceMeta struct{ cat, city string }

// loadRelevanceSet adds testdata/relevance.json's profiles to f and answers the set, their ids
// by key and their categories and cities by id.
func loadRelevanceSet(t *testing.T, f *fixture) (relevanceSet, map[string]int64, map[int64]relevanceMeta) {
	t.Helper()
	raw, err := os.ReadFile("testdata/relevance.json")
	if err != nil {
		t.Fatal(err)
	}
	var set relevanceSet
	if err := json.Unmarshal(raw, &set); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tree, err := f.st.CategoryTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	byID := map[int64]relevanceMeta{}
	for _, p := range set.Profiles {
		c := tree.BySlag(p.Cat)
		city, err := f.st.CityBySlag(ctx, p.City)
		if c == nil || err != nil {
			t.Fatalf("profile %s: category %q or city %q unknown (%v)", p.Key, p.Cat, p.City, err)
		}
		f.n++
		u := &store.User{NumberPhone: fmt.Sprintf("0913%07d", f.n), Name: "owner", PasswordHash: "x"}
		if err := f.st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		pr, err := f.st.CreateProfile(ctx, u.ID, &store.ProfileInput{
			ProfileName: p.Name, Descriotion: p.Text, ProvinceID: city.ProvinceID, CityID: city.ID,
			RangeWorker: *c.ParentID, CategoryList: []int64{c.ID},
			Location: &store.Location{Lat: city.Lat, Long: city.Long},
			Services: []store.Service{{Title: "خدمات", Price: 0}},
		}, false)
		if err != nil {
			t.Fatalf("profile %s: %v", p.Key, err)
		}
		ids[p.Key] = pr.ID
		byID[pr.ID] = relevanceMeta{p.Cat, p.City}
	}
	f.sync()
	return set, ids, byID
}

// TestRelevance runs the relevance set and prints hits@3 (a query counts when one of its
// expected profiles is among the first three) and the zero-result rate. Every query has a
// matching profile, so no answer may be empty; hits@3 must reach 95%.
func TestRelevance(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	set, ids, byID := loadRelevanceSet(t, f)
	var queries, hits, zero int
	for _, g := range set.Groups {
		var cats []string
		if len(g.Cat) > 0 {
			var one string
			if json.Unmarshal(g.Cat, &one) == nil {
				cats = []string{one}
			} else if err := json.Unmarshal(g.Cat, &cats); err != nil {
				t.Fatal(err)
			}
		}
		want := map[int64]bool{}
		for _, k := range g.Keys {
			want[ids[k]] = true
		}
		where := g.In
		if g.City != "" {
			where = g.City
		}
		for id, m := range byID {
			if slices.Contains(cats, m.cat) && (where == "" || where == m.city) {
				want[id] = true
			}
		}
		if len(want) == 0 {
			t.Fatalf("group %v expects no profile", g.Queries)
		}
		q := search.ProfileQuery{}
		if g.City != "" {
			c, err := f.st.CityBySlag(ctx, g.City)
			if err != nil {
				t.Fatal(err)
			}
			q.City, q.CityID = c.Slag, c.ID
		}
		for _, text := range g.Queries {
			queries++
			q.Text = text
			h := f.search(q)
			if h.Total == 0 {
				zero++
				t.Errorf("%q: no answer (did you mean %q)", text, h.DidYouMean)
				continue
			}
			top := h.IDs[:min(3, len(h.IDs))]
			if slices.ContainsFunc(top, func(id int64) bool { return want[id] }) {
				hits++
				continue
			}
			var got []string
			for _, id := range top {
				got = append(got, fmt.Sprintf("%d:%s/%s", id, byID[id].cat, byID[id].city))
			}
			t.Logf("miss %q: top %v", text, got)
		}
	}
	rate := float64(hits) / float64(queries)
	fmt.Printf("relevance: %d queries, hits@3 %.1f%%, zero-result %.1f%%\n", queries, 100*rate, 100*float64(zero)/float64(queries))
	if rate < 0.95 {
		t.Errorf("hits@3 %.1f%%, want at least 95%%", 100*rate)
	}
}
