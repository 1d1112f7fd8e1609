package api_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
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

// TestSpecialDaysThroughTheAPI: owners set special days and the holiday switch in the create
// and update bodies; bad ones are refused with a localized message on the field; an update that
// leaves them out keeps them; every read form carries them, open_status and next_change.
func TestSpecialDaysThroughTheAPI(t *testing.T) {
	w := newProfileWorld(t)
	day := w.Clock.now().AddDate(0, 1, 0).Format("2006-01-02")
	body := strings.Replace(profileBody, `"hours_of_work"`, `"special_days": [{"date": "`+day+`", "closed": true, "note": "نوروز"}], "open_on_holidays": true, "hours_of_work"`, 1)
	p := w.create(t, w.owner, body)
	a := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/getAuthProfileById/%d", p.ID), token: w.owner})
	var form struct {
		SpecialDays []struct {
			Date   string `json:"date"`
			Closed bool   `json:"closed"`
			Note   string `json:"note"`
		} `json:"special_days"`
		OpenOnHolidays bool   `json:"open_on_holidays"`
		OpenStatus     string `json:"open_status"`
		NextChange     *struct {
			At     time.Time `json:"at"`
			Status string    `json:"status"`
		} `json:"next_change"`
	}
	if err := json.Unmarshal(a.Payload, &form); err != nil {
		t.Fatal(err)
	}
	if len(form.SpecialDays) != 1 || form.SpecialDays[0].Date != day || !form.SpecialDays[0].Closed || !form.OpenOnHolidays {
		t.Fatalf("read form: %s", a.Payload)
	}
	if form.OpenStatus == "" || form.NextChange == nil || !form.NextChange.At.After(w.Clock.now()) {
		t.Errorf("open status %q, next change %+v", form.OpenStatus, form.NextChange)
	}
	// An update without the fields keeps them.
	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", p.ID), token: w.owner, body: profileBody}); a.Status != 200 ||
		!strings.Contains(string(a.Payload), `"special_days":[{"date":"`+day) || !strings.Contains(string(a.Payload), `"open_on_holidays":true`) {
		t.Errorf("update without them: %d %s", a.Status, a.Payload)
	}
	for _, c := range []struct{ days, lang, want string }{
		{`[{"date": "1404-01-01", "closed": true}]`, "en", "is not a correct date"},
		{`[{"date": "` + day + `"}, {"date": "` + day + `"}]`, "en", "given twice"},
		{`[{"date": "` + day + `", "time": [{"open": 100, "close": 3600}]}]`, "en", "whole minutes"},
		{`[{"date": "` + day + `", "closed": true, "boarding": true}]`, "fa", "شبانه‌روزی"},
		{`"soon"`, "en", ""},
	} {
		body := strings.Replace(profileBody, `"hours_of_work"`, `"special_days": `+c.days+`, "hours_of_work"`, 1)
		a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", p.ID), token: w.owner, body: body, lang: c.lang})
		if a.Status != 400 || !strings.Contains(a.Body, c.want) {
			t.Errorf("%s: %d %s", c.days, a.Status, a.Body)
		}
	}
	// Cleared with an empty list.
	body = strings.Replace(profileBody, `"hours_of_work"`, `"special_days": [], "open_on_holidays": false, "hours_of_work"`, 1)
	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", p.ID), token: w.owner, body: body}); a.Status != 200 ||
		!strings.Contains(string(a.Payload), `"special_days":[],"open_on_holidays":false`) {
		t.Errorf("cleared: %d %s", a.Status, a.Payload)
	}
}

// TestOpenNowAndNearest: open_now follows the server's clock, its holidays and the owner's
// switch; order nearest with a point works with text, and every profile of such an answer
// carries its distance.
func TestOpenNowAndNearest(t *testing.T) {
	w := newProfileWorld(t)
	p := w.acceptedPlumber(t) // open Saturdays 08:00-20:00
	// The clock starts on Saturday 1 Farvardin 1405 at 11:30 in Tehran: Nowruz.
	if got := w.search(t, `{"open_now": true}`); got.Count != 0 {
		t.Errorf("open on Nowruz: %+v", got)
	}
	if got := w.search(t, `{"search_txt": "لوله کش"}`); got.Count != 1 || got.Profiles[0].OpenStatus != "Closed" {
		t.Errorf("status on Nowruz: %+v", got)
	}
	body := strings.Replace(profileBody, `"hours_of_work"`, `"open_on_holidays": true, "hours_of_work"`, 1)
	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", p.ID), token: w.owner, body: body}); a.Status != 200 {
		t.Fatalf("update: %d %s", a.Status, a.Body)
	}
	w.Search.Sync(t.Context())
	for _, q := range []string{`{"open_now": true}`, `{"open_now": true, "search_txt": "لوله کش"}`, `{"open_now": true, "lat": 35.7, "long": 51.4}`} {
		if got := w.search(t, q); got.Count != 1 || got.Profiles[0].OpenStatus != "Open" {
			t.Errorf("%s: %+v", q, got)
		}
	}
	w.Clock.advance(9 * time.Hour) // 20:30
	if got := w.search(t, `{"open_now": true, "search_txt": "لوله کش"}`); got.Count != 0 {
		t.Errorf("after closing: %+v", got)
	}
	for _, q := range []string{`{"order": "nearest", "lat": 35.71, "long": 51.41, "search_txt": "لوله کش"}`,
		`{"order": "nearest", "lat": 35.71, "long": 51.41, "category_slag": "plumber"}`,
		`{"order": "nearest", "lat": 35.71, "long": 51.41, "search_txt": "plumbing", "city_slag": "tehran"}`} {
		got := w.search(t, q)
		if got.Count != 1 || got.Profiles[0].Distance == nil || *got.Profiles[0].Distance < 1000 || *got.Profiles[0].Distance > 2000 {
			t.Errorf("%s: %+v", q, got)
		}
	}
	if a := w.send(t, req{method: "POST", path: "/v1/user-technical/searchUser", body: `{"open_now": "yes"}`, lang: "en"}); a.Status != 400 ||
		!strings.Contains(a.Body, "open_now") {
		t.Errorf("a string for open_now: %d %s", a.Status, a.Body)
	}
}
