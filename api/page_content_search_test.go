package api

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// searchPageAppKeys names, for each text of the server's search page, the app's key it copies.
var searchPageAppKeys = map[string]string{
	"search_text":            "search.text",
	"search_placeholder":     "home.searchPlaceholder",
	"search_submit":          "nav.search",
	"search_on_map":          "search.showOnMap",
	"search_filters":         "search.filters",
	"search_province":        "search.province",
	"search_all_provinces":   "search.allProvinces",
	"search_city":            "city.label",
	"search_city_all":        "city.allIran",
	"search_category":        "search.category",
	"search_all_categories":  "search.allCategories",
	"search_all_of":          "search.allOf",
	"search_min_score":       "search.minScore",
	"search_at_least":        "search.atLeast",
	"search_any":             "search.any",
	"search_order":           "search.order",
	"search_order_relevance": "search.orders.relevance",
	"search_order_best":      "search.orders.best",
	"search_order_reviews":   "search.orders.reviews",
	"search_order_nearest":   "search.orders.nearest",
	"search_order_newest":    "search.orders.newest",
	"search_open_now":        "search.openNow",
	"search_distance":        "search.distance",
	"search_use_position":    "search.useMyPosition",
	"search_within_km":       "search.withinKm",
	"search_price_range":     "search.priceRange",
	"search_price_min":       "search.priceMin",
	"search_price_max":       "search.priceMax",
	"search_price_apply":     "search.priceApply",
	"search_price_clear":     "search.priceClear",
	"search_reset":           "search.reset",
	"search_lead":            "lead.askMany",
	"search_lead_action":     "lead.action",
	"card_verified":          "verified.badge",
	"card_verified_title":    "verified.short",
	"card_until":             "hours.until",
	"card_opens_at":          "hours.opensAt",
	"card_opens_on":          "hours.opensOn",
	"card_price_from":        "price.from",
	"card_price_free":        "price.fromFree",
	"card_metres":            "units.m",
	"card_km":                "units.km",
}

// TestSearchPageMessagesAreTheApps holds the server's search page to the app's words: a text changed
// in webui/src/i18n and not here would make the page change when the app takes it over.
func TestSearchPageMessagesAreTheApps(t *testing.T) {
	placeholder := regexp.MustCompile(`\{\{(\w+)\}\}`)
	for i, lang := range []string{"fa", "en"} {
		raw, err := os.ReadFile("../webui/src/i18n/" + lang + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var app map[string]any
		if err := json.Unmarshal(raw, &app); err != nil {
			t.Fatal(err)
		}
		if len(searchPageAppKeys) != len(searchPageMessages) {
			t.Fatalf("%d keys named for %d messages", len(searchPageAppKeys), len(searchPageMessages))
		}
		for key, appKey := range searchPageAppKeys {
			var v any = app
			for _, part := range strings.Split(appKey, ".") {
				m, _ := v.(map[string]any)
				v = m[part]
			}
			s, ok := v.(string)
			if !ok {
				t.Errorf("%s: the app has no %s", lang, appKey)
				continue
			}
			if want := placeholder.ReplaceAllString(s, "{$1}"); searchPageMessages[key][i] != want {
				t.Errorf("%s %s = %q, the app's %s is %q", lang, key, searchPageMessages[key][i], appKey, want)
			}
		}
	}
}

// TestSearchResultsReadEachCardApart: a result whose card the page cannot read (a week stored in
// an older shape by another writer) is still listed with its link, and the others keep their
// cards; before, one such week left the whole page without results and without its ItemList.
func TestSearchResultsReadEachCardApart(t *testing.T) {
	answer := []byte(`{"payload":{"count":2,"profiles":[
		{"slug":"odd","profile_name":"لوله‌کشی قدیمی","open_status":"Open","hours_of_work":{"saturday":{"time":[{"open":"9","close":"x"}]}}},
		{"slug":"fine","profile_name":"لوله‌کشی امید","open_status":"Open","verified":true,"hours_of_work":{"saturday":{"time":[{"open":540,"close":780}]}}}
	]},"message":""}`)
	res := readSearchResults(&firstAnswer{answer: answer})
	if res == nil || res.Payload.Count != 2 || len(res.Payload.Profiles) != 2 {
		t.Fatalf("read %+v, want both results", res)
	}
	odd, fine := res.Payload.Profiles[0], res.Payload.Profiles[1]
	if odd.Slug != "odd" || odd.ProfileName != "لوله‌کشی قدیمی" || odd.OpenStatus != "" || odd.HoursOfWork != nil {
		t.Errorf("the unreadable card: %+v, want its link and a plain card", odd)
	}
	if fine.Slug != "fine" || fine.OpenStatus != "Open" || !fine.Verified || len(fine.HoursOfWork["saturday"].Time) != 1 {
		t.Errorf("the readable card: %+v", fine)
	}
	if readSearchResults(&firstAnswer{answer: []byte(`{"payload":{"profiles":[{"slug":7}]}}`)}) != nil {
		t.Error("a result without a readable link was read")
	}
}
