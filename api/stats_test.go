package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"kardan/store"
)

type statsAnswer struct {
	ProfileID int64            `json:"profile_id"`
	From      string           `json:"from"`
	To        string           `json:"to"`
	Totals    map[string]int64 `json:"totals"`
	Previous  map[string]int64 `json:"previous"`
	Days      []struct {
		Date   string           `json:"date"`
		Counts map[string]int64 `json:"counts"`
	} `json:"days"`
	Details map[string]map[string]int64 `json:"details"`
}

func beacon(id int64, kind, detail, ip string) req {
	return req{method: "POST", path: "/v1/stats/event", ip: ip,
		body: fmt.Sprintf(`{"profile_id":%d,"kind":%q,"detail":%q}`, id, kind, detail)}
}

func (w *communityWorld) stats(t *testing.T, token, query string) statsAnswer {
	t.Helper()
	return decodePayload[statsAnswer](t, w.must(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d/stats%s", w.profile.ID, query), token: token}))
}

func (w *communityWorld) counted(t *testing.T, q req) bool {
	t.Helper()
	return decodePayload[struct {
		Counted bool `json:"counted"`
	}](t, w.must(t, q)).Counted
}

// TestStatisticsOverHTTP drives owners' statistics through the API: views, appearances and
// taps counted once per visitor and day, bots, owners and admins left out, the beacon's
// refusals in both languages, and who may read the figures.
func TestStatisticsOverHTTP(t *testing.T) {
	w := newCommunityWorld(t)
	ctx := context.Background()
	if err := w.Index.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	byID := func(ip, token string) req {
		return req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d", w.profile.ID), ip: ip, token: token}
	}
	bySlug := func(ip string) req {
		return req{method: "POST", path: "/v1/user-technical/searchUserSlag", ip: ip, body: fmt.Sprintf(`{"slug":%q}`, w.profile.Slug)}
	}
	search := func(ip string) req {
		return req{method: "POST", path: "/v1/user-technical/searchUser", ip: ip, body: `{"search_txt":"لوله‌کشی"}`}
	}

	// Two visitors view the page, each several times and both ways: two views.
	for range 3 {
		w.must(t, byID("10.30.0.1", ""))
		w.must(t, bySlug("10.30.0.1"))
		w.must(t, bySlug("10.30.0.2"))
	}
	// The owner and an admin are not visitors.
	w.must(t, byID("10.30.0.3", w.owner))
	w.must(t, byID("10.30.0.4", w.admin))
	// Nor is a crawler.
	r, _ := http.NewRequest("GET", fmt.Sprintf("%s/v1/user-technical/%d", w.URL, w.profile.ID), nil)
	r.Header.Set("User-Agent", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
	r.Header.Set("X-Forwarded-For", "10.30.0.5")
	if a := w.roundTrip(t, r); a.Status != 200 {
		t.Fatalf("bot view: %d %s", a.Status, a.Body)
	}
	// Searches: the same visitor twice and another once make two appearances.
	for _, ip := range []string{"10.30.0.1", "10.30.0.1", "10.30.0.6"} {
		if a := w.must(t, search(ip)); !strings.Contains(a.Body, w.profile.Slug) {
			t.Fatalf("search does not find the profile: %s", a.Body)
		}
	}

	// Taps, each counted once per visitor and day; each social network and app apart.
	for _, tc := range []struct {
		kind, detail, ip string
		want             bool
	}{
		{"call", "", "10.30.0.1", true},
		{"call", "", "10.30.0.1", false},
		{"call", "", "10.30.0.2", true},
		{"sms", "", "10.30.0.1", true},
		{"route", "waze", "10.30.0.1", true},
		{"route", "Google", "10.30.0.1", true},
		{"route", "waze", "10.30.0.1", false},
		{"share", "", "10.30.0.1", true},
		{"social", "instagram", "10.30.0.1", true},
		{"social", "Telegram", "10.30.0.1", true},
		{"website", "", "10.30.0.1", true},
	} {
		if got := w.counted(t, beacon(w.profile.ID, tc.kind, tc.detail, tc.ip)); got != tc.want {
			t.Fatalf("%s %s from %s: counted %v, want %v", tc.kind, tc.detail, tc.ip, got, tc.want)
		}
	}
	ownTap := beacon(w.profile.ID, "call", "", "10.30.0.7")
	ownTap.token = w.owner
	if w.counted(t, ownTap) {
		t.Fatal("the owner's own tap was counted")
	}

	t.Run("BeaconErrors", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			q      req
			status int
			fa, en string
		}{
			{"Kind", beacon(w.profile.ID, "like", "", "10.31.0.1"), 400, "را درست وارد کنید", "Enter correct kind"},
			// Quotes are counted by lead/add; a beacon (a cached old app, a direct call) would inflate them.
			{"Quote", beacon(w.profile.ID, "quote", "", "10.31.0.1"), 400, "را درست وارد کنید", "Enter correct kind"},
			{"Detail", beacon(w.profile.ID, "route", "teleport", "10.31.0.1"), 400, "را درست وارد کنید", "Enter correct detail"},
			{"DetailOnCall", beacon(w.profile.ID, "call", "x", "10.31.0.1"), 400, "را درست وارد کنید", "Enter correct kind"},
			{"ID", beacon(0, "call", "", "10.31.0.1"), 400, "را درست وارد کنید", "Enter correct profile_id"},
			{"Missing", beacon(999999, "call", "", "10.31.0.1"), 404, "", ""},
			{"Pending", beacon(w.pending.ID, "call", "", "10.31.0.1"), 404, "", ""},
			{"JSON", req{method: "POST", path: "/v1/stats/event", ip: "10.31.0.1", body: `{"profile_id":`}, 400, "", ""},
			{"IDType", req{method: "POST", path: "/v1/stats/event", ip: "10.31.0.1", body: `{"profile_id":[1],"kind":"call"}`}, 400, "", ""},
		} {
			for _, lang := range []string{"fa", "en"} {
				a := w.send(t, withLang(tc.q, lang))
				want := tc.fa
				if lang == "en" {
					want = tc.en
				}
				if a.Status != tc.status || !strings.Contains(string(a.Message), want) {
					t.Fatalf("%s (%s): %d %s", tc.name, lang, a.Status, a.Body)
				}
			}
		}
	})

	t.Run("Figures", func(t *testing.T) {
		got := w.stats(t, w.owner, "")
		want := map[string]int64{"view": 2, "appearance": 2, "call": 2, "sms": 1, "route": 2, "share": 1, "social": 2, "website": 1, "quote": 0}
		for k, n := range want {
			if got.Totals[k] != n {
				t.Errorf("total %s = %d, want %d (%v)", k, got.Totals[k], n, got.Totals)
			}
		}
		if len(got.Days) != 30 || got.To != "2026-03-21" || got.From != "2026-02-20" || got.Days[29].Counts["view"] != 2 {
			t.Errorf("days: %s..%s, %d days", got.From, got.To, len(got.Days))
		}
		if got.Details["route"]["waze"] != 1 || got.Details["route"]["google"] != 1 || got.Details["social"]["Instagram"] != 1 ||
			got.Details["social"]["Telegram"] != 1 {
			t.Errorf("details: %v", got.Details)
		}
		// Admins read them too.
		if a := w.stats(t, w.admin, ""); a.Totals["view"] != 2 {
			t.Errorf("admin: %v", a.Totals)
		}
		// The site's figures, for admins only.
		site := decodePayload[statsAnswer](t, w.must(t, req{method: "GET", path: "/v1/admin/stats?from=2026-03-21&to=2026-03-21", token: w.admin}))
		if site.Totals["view"] != 2 || site.Totals["call"] != 2 || len(site.Days) != 1 {
			t.Errorf("site: %+v", site)
		}
		if a := w.send(t, req{method: "GET", path: "/v1/admin/stats", token: w.owner}); a.Status != 403 {
			t.Errorf("site figures for an owner: %d %s", a.Status, a.Body)
		}
	})

	t.Run("NextDay", func(t *testing.T) {
		// A new day, a new key: yesterday's visitor counts again, as a visitor of today.
		w.Clock.advance(24 * time.Hour)
		w.must(t, byID("10.30.0.1", ""))
		got := w.stats(t, w.owner, "?from=2026-03-22&to=2026-03-22")
		if len(got.Days) != 1 || got.Totals["view"] != 1 || got.Previous["view"] != 2 || got.Previous["call"] != 2 {
			t.Fatalf("next day: %+v", got)
		}
	})

	t.Run("Privacy", func(t *testing.T) {
		for _, tc := range []struct {
			name, token string
		}{{"SignedOut", ""}, {"AnotherUser", w.other}, {"Commenter", w.commenter}} {
			a := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d/stats", w.profile.ID), token: tc.token})
			if a.Status != 404 {
				t.Errorf("%s: %d %s", tc.name, a.Status, a.Body)
			}
		}
		// Nothing but counts is stored.
		var cols int
		colsQ := `SELECT COUNT(*) FROM pragma_table_info('profile_stats')`
		if w.Store.IsPostgres() {
			colsQ = `SELECT COUNT(*) FROM information_schema.columns WHERE table_name = 'profile_stats'`
		}
		if err := w.Store.DB().QueryRowContext(ctx, colsQ).Scan(&cols); err != nil || cols != 5 {
			t.Fatalf("profile_stats has %d columns (%v)", cols, err)
		}
	})

	t.Run("PeriodErrors", func(t *testing.T) {
		for _, tc := range []struct{ query, en string }{
			{"?from=yesterday", "Enter correct from"},
			{"?to=2026-13-01", "Enter correct to"},
			{"?from=2026-03-22&to=2026-03-01", "Enter correct from"},
			{"?from=2024-01-01&to=2026-03-01", "Enter correct from"},
		} {
			a := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d/stats%s", w.profile.ID, tc.query), token: w.owner, lang: "en"})
			if a.Status != 400 || !strings.Contains(string(a.Message), tc.en) {
				t.Errorf("%s: %d %s", tc.query, a.Status, a.Body)
			}
			a = w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d/stats%s", w.profile.ID, tc.query), token: w.owner, lang: "fa"})
			if a.Status != 400 || !strings.Contains(string(a.Message), "را درست وارد کنید") {
				t.Errorf("%s (fa): %d %s", tc.query, a.Status, a.Body)
			}
		}
	})

	t.Run("RateLimit", func(t *testing.T) {
		var last answer
		for range 40 {
			last = w.send(t, beacon(w.profile.ID, "call", "", "10.32.0.1"))
		}
		if last.Status != 429 {
			t.Fatalf("40 beacons at once: %d %s", last.Status, last.Body)
		}
	})

	t.Run("PurgedProfile", func(t *testing.T) {
		// A count buffered for a profile deleted before the flush is skipped, not an error.
		if err := w.Store.AddStats(ctx, []store.StatCount{{ProfileID: 999999, Day: "2026-03-22", Kind: "view", N: 1},
			{ProfileID: w.profile.ID, Day: "2026-03-22", Kind: "share", N: 1}}); err != nil {
			t.Fatal(err)
		}
	})
}
