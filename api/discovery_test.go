package api_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// acceptedPlumber creates profileBody under the world's owner and accepts it.
func (w *profileWorld) acceptedPlumber(t *testing.T) profileAnswer {
	t.Helper()
	p := w.create(t, w.owner, profileBody)
	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status": "Accepted"}`}); a.Status != 200 {
		t.Fatalf("accept: %d %s", a.Status, a.Body)
	}
	return p
}

// TestSearchFallbackAnswer: words that no profile has all of answer the named category's
// profiles with a fallback saying so, in the asker's language; a misspelt word gets a
// "did you mean".
func TestSearchFallbackAnswer(t *testing.T) {
	w := newProfileWorld(t)
	p := w.acceptedPlumber(t)
	var got struct {
		Count    int `json:"count"`
		Profiles []struct {
			ID int64 `json:"id"`
		} `json:"profiles"`
		Fallback *struct {
			Category *struct{ Slag string } `json:"category"`
			City     *struct{ Slag string } `json:"city"`
			Message  string                 `json:"message"`
		} `json:"fallback"`
		DidYouMean string `json:"did_you_mean"`
	}
	for _, c := range []struct{ lang, want string }{{"en", "No exact match: showing Plumber in Tehran"}, {"fa", "لوله‌کش در تهران"}} {
		a := w.send(t, req{method: "POST", path: "/v1/user-technical/searchUser", lang: c.lang,
			body: `{"search_txt": "لوله کش شبانه روزی", "city_slag": "tehran"}`})
		if a.Status != 200 {
			t.Fatalf("%d %s", a.Status, a.Body)
		}
		got.Fallback = nil
		if err := json.Unmarshal(a.Payload, &got); err != nil {
			t.Fatal(err)
		}
		if got.Count != 1 || got.Profiles[0].ID != p.ID || got.Fallback == nil || got.Fallback.Category.Slag != "plumber" ||
			got.Fallback.City.Slag != "tehran" || !strings.Contains(got.Fallback.Message, c.want) {
			t.Errorf("%s: %s", c.lang, a.Payload)
		}
	}
	a := w.send(t, req{method: "POST", path: "/v1/user-technical/searchUser", body: `{"search_txt": "لوله کش"}`})
	if strings.Contains(string(a.Payload), "fallback") || strings.Contains(string(a.Payload), "did_you_mean") {
		t.Errorf("an exact answer says more than it should: %s", a.Payload)
	}
	a = w.send(t, req{method: "POST", path: "/v1/user-technical/searchUser", body: `{"search_txt": "مشاورهه"}`})
	if err := json.Unmarshal(a.Payload, &got); err != nil || got.DidYouMean != "مشاوره" {
		t.Errorf("did you mean: %s", a.Payload)
	}
	// English finds the Persian profile through its category.
	if got := w.search(t, `{"search_txt": "plumbing"}`); got.Count != 1 {
		t.Errorf("plumbing: %+v", got)
	}
}

// TestSuggestEndpoint: categories, cities and profiles for a prefix, Persian, English or
// Finglish; bad input is a localized 400; the route shares search's rate limit.
func TestSuggestEndpoint(t *testing.T) {
	w := newProfileWorld(t)
	p := w.acceptedPlumber(t)
	type place struct{ Slag, FarsiName, EnglishName string }
	var got struct {
		Categories []place `json:"categories"`
		Cities     []place `json:"cities"`
		Profiles   []struct {
			ID          int64  `json:"id"`
			ProfileName string `json:"profile_name"`
			Slug        string `json:"slug"`
			City        *place `json:"city"`
		} `json:"profiles"`
	}
	suggest := func(q, city string) {
		t.Helper()
		a := w.send(t, req{method: "GET", path: "/v1/search/suggest?q=" + url.QueryEscape(q) + "&city_slag=" + city})
		if a.Status != 200 {
			t.Fatalf("%q: %d %s", q, a.Status, a.Body)
		}
		got.Categories, got.Cities, got.Profiles = nil, nil, nil
		if err := json.Unmarshal(a.Payload, &got); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{"لوله", "plum", "lolek"} {
		suggest(q, "")
		if len(got.Categories) == 0 || got.Categories[0].Slag != "plumber" {
			t.Errorf("%q: categories %+v", q, got.Categories)
		}
	}
	suggest("لوله‌کشی ع", "tehran")
	if len(got.Profiles) != 1 || got.Profiles[0].ID != p.ID || got.Profiles[0].Slug != p.Slug || got.Profiles[0].City.Slag != "tehran" {
		t.Errorf("profiles %+v", got.Profiles)
	}
	suggest("لوله‌کشی ع", "shiraz")
	if len(got.Profiles) != 0 {
		t.Errorf("in shiraz: %+v", got.Profiles)
	}
	suggest("ت", "")
	if len(got.Cities) == 0 {
		t.Errorf("ت: no city")
	}
	suggest("", "")
	if len(got.Categories)+len(got.Cities)+len(got.Profiles) != 0 {
		t.Errorf("empty: %+v", got)
	}
	a := w.send(t, req{method: "GET", path: "/v1/search/suggest?q=x&city_slag=atlantis", lang: "en"})
	if a.Status != 400 || !strings.Contains(string(a.Message), "city") {
		t.Errorf("bad city: %d %s", a.Status, a.Body)
	}
	a = w.send(t, req{method: "GET", path: "/v1/search/suggest?q=" + strings.Repeat("ا", 101)})
	if a.Status != 400 {
		t.Errorf("too long: %d %s", a.Status, a.Body)
	}
}
