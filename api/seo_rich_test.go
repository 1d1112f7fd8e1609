package api_test

import (
	"encoding/json"
	"fmt"
	"image/png"
	"regexp"
	"strings"
	"testing"
)

// Google Search Central's structured data documentation, as of this writing: the properties it
// marks required and recommended for each rich result this site claims. Recommended properties
// that do not apply to a directory of trades (LocalBusiness menu, servesCuisine, department,
// review: reviews are written on Kardan, and Google refuses self-serving review markup) are left
// out; "image" is required here because the share card is always there.
var richResultFields = map[string]struct{ required, recommended []string }{
	"LocalBusiness": {
		required: []string{"name", "address", "address.streetAddress", "address.addressLocality", "address.addressCountry", "image"},
		recommended: []string{"url", "telephone", "priceRange", "geo.latitude", "geo.longitude", "openingHoursSpecification",
			"aggregateRating.ratingValue", "aggregateRating.reviewCount", "sameAs", "areaServed"},
	},
	"BlogPosting": {
		recommended: []string{"headline", "image", "datePublished", "dateModified", "author", "author.name",
			"author.url", "publisher.name", "publisher.logo.url"},
	},
	"BreadcrumbList": {required: []string{"itemListElement", "itemListElement.position", "itemListElement.name", "itemListElement.item"}},
	"ItemList":       {required: []string{"itemListElement", "itemListElement.position", "itemListElement.url"}},
}

var ldBlock = regexp.MustCompile(`<script type="application/ld\+json">(.*?)</script>`)

// jsonLD answers the page's JSON-LD objects by @type.
func jsonLD(t *testing.T, page string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, m := range ldBlock.FindAllStringSubmatch(page, -1) {
		var v map[string]any
		if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
			t.Fatalf("JSON-LD does not parse: %v: %s", err, m[1])
		}
		if v["@context"] != "https://schema.org" {
			t.Errorf("@context %v", v["@context"])
		}
		out[fmt.Sprint(v["@type"])] = v
	}
	return out
}

// present reports whether the dotted path has a non-empty value in v; through a list, in every
// element (a ListItem's "item" may be left out on the last crumb only).
func present(v any, path []string, lastCrumb bool) bool {
	if len(path) == 0 {
		switch x := v.(type) {
		case nil:
			return false
		case string:
			return x != ""
		case []any:
			return len(x) > 0
		}
		return true
	}
	switch x := v.(type) {
	case map[string]any:
		return present(x[path[0]], path[1:], lastCrumb)
	case []any:
		if len(x) == 0 {
			return false
		}
		for i, e := range x {
			if !present(e, path, lastCrumb && i == len(x)-1) && !(lastCrumb && i == len(x)-1 && path[0] == "item") {
				return false
			}
		}
		return true
	}
	return false
}

func checkRichResult(t *testing.T, typ string, v map[string]any) {
	t.Helper()
	if v == nil {
		t.Fatalf("no %s JSON-LD", typ)
	}
	f := richResultFields[typ]
	for _, group := range [][]string{f.required, f.recommended} {
		for _, p := range group {
			if !present(v, strings.Split(p, "."), typ == "BreadcrumbList") {
				t.Errorf("%s lacks %s: %v", typ, p, v)
			}
		}
	}
}

func TestRichResults(t *testing.T) {
	w := newProfileWorld(t)
	p := w.create(t, w.owner, strings.Replace(profileBody, `{"type": "mobile", "link": "۰۹۱۲۳۴۵۶۷۸۹"}`,
		`{"type": "mobile", "link": "۰۹۱۲۳۴۵۶۷۸۹"}, {"type": "Instagram", "link": "https://instagram.com/ali.plumber/"}`, 1))
	w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status": "Accepted"}`})
	// A rating, so aggregateRating is there.
	if a := w.send(t, req{method: "POST", path: "/v1/comment/add", token: w.other,
		body: fmt.Sprintf(`{"category_list":[101],"description":"کار تمیز و سریع","score":4,"user_technical_id":%d}`, p.ID)}); a.Status != 200 {
		t.Fatalf("rating: %d %s", a.Status, a.Body)
	}

	t.Run("LocalBusiness", func(t *testing.T) {
		a := w.send(t, req{method: "GET", path: "/profile/" + p.Slug})
		ld := jsonLD(t, a.Body)
		lb := ld["LocalBusiness"]
		checkRichResult(t, "LocalBusiness", lb)
		if lb["telephone"] != "+989123456789" {
			t.Errorf("telephone %v, want E.164", lb["telephone"])
		}
		if lb["priceRange"] != "IRR 3500000" {
			t.Errorf("priceRange %v (the free service says nothing)", lb["priceRange"])
		}
		if s := fmt.Sprint(lb["sameAs"]); !strings.Contains(s, "https://t.me/ali_plumber") || !strings.Contains(s, "https://instagram.com/ali.plumber") {
			t.Errorf("sameAs %s", s)
		}
		img := fmt.Sprint(lb["image"])
		if !strings.HasPrefix(img, "https://kardan.example/og/trade/") {
			t.Errorf("a profile without a picture shows its trade's card: %s", img)
		} else if c := w.send(t, req{method: "GET", path: strings.TrimPrefix(img, "https://kardan.example")}); c.Status != 200 {
			t.Errorf("the trade's card %s: %d", img, c.Status)
		} else if cfg, err := png.DecodeConfig(strings.NewReader(c.Body)); err != nil || cfg.Width != 1200 || cfg.Height != 630 {
			t.Errorf("the trade's card: %v %dx%d", err, cfg.Width, cfg.Height)
		}
		// A shared link shows the profile's own card (TestProfileShareCard).
		for _, want := range []string{fmt.Sprintf(`<meta property="og:image" content="https://kardan.example/og/profile/%d-fa-`, p.ID), `<meta property="og:image:width" content="1200">`,
			`<meta property="og:image:alt" content="لوله‌کشی علی، لوله‌کش در کاردان">`} {
			if !strings.Contains(a.Body, want) {
				t.Errorf("profile page lacks %s", want)
			}
		}
		checkRichResult(t, "BreadcrumbList", ld["BreadcrumbList"])
		if s := fmt.Sprint(ld["BreadcrumbList"]); !strings.Contains(s, "https://kardan.example/search/tehran/plumber") {
			t.Errorf("crumbs %s", s)
		}
	})

	t.Run("SearchPage", func(t *testing.T) {
		a := w.send(t, req{method: "GET", path: "/search/tehran/plumber"})
		ld := jsonLD(t, a.Body)
		checkRichResult(t, "BreadcrumbList", ld["BreadcrumbList"])
		checkRichResult(t, "ItemList", ld["ItemList"])
		if s := fmt.Sprint(ld["ItemList"]); !strings.Contains(s, "/profile/") {
			t.Errorf("items %s", s)
		}
	})

	t.Run("BlogPosting", func(t *testing.T) {
		// The profile's owner writes it, so the author has a business page to point to.
		publish := func(token, title string) string {
			a := w.send(t, req{method: "POST", path: "/v1/blog/add", token: token,
				body: `{"title": "` + title + `", "summary": "چند نکته", "content": "<p>چند نکته</p>", "category_list": [101], "isDraft": false}`})
			blog := decodePayload[struct {
				ID     int64  `json:"id"`
				Slug   string `json:"slug"`
				Status string `json:"status"`
			}](t, a)
			if blog.Status == "Pending" {
				w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/blog/%d/status", blog.ID), token: w.admin, body: `{"status": "Accepted"}`})
			}
			return blog.Slug
		}
		slug := publish(w.owner, "راهنمای انتخاب لوله‌کش")
		for path, want := range map[string]string{"/blog/" + slug: "https://kardan.example/profile/" + p.Slug,
			"/en/blog/" + slug: "https://kardan.example/en/profile/" + p.Slug} {
			a := w.send(t, req{method: "GET", path: path})
			if a.Status != 200 {
				t.Fatalf("blog page %s: %d", path, a.Status)
			}
			bp := jsonLD(t, a.Body)["BlogPosting"]
			checkRichResult(t, "BlogPosting", bp)
			if author, _ := bp["author"].(map[string]any); author["url"] != want {
				t.Errorf("%s: author %v, want url %s", path, bp["author"], want)
			}
		}
		// A writer without a public page has no author.url rather than a wrong one.
		a := w.send(t, req{method: "GET", path: "/blog/" + publish(w.admin, "نکته‌های نگهداری آبگرمکن")})
		if author, _ := jsonLD(t, a.Body)["BlogPosting"]["author"].(map[string]any); author == nil || author["name"] == nil || author["url"] != nil {
			t.Errorf("the admin's article: author %v, want a name and no url", author)
		}
	})
}

func TestShareCards(t *testing.T) {
	w := newProfileWorld(t)
	for path, want := range map[string]int{"/og/site.png": 200, "/og/trade/no-such-field.png": 404, "/og/trade/plumber.png": 404} {
		a := w.send(t, req{method: "GET", path: path})
		if a.Status != want {
			t.Errorf("%s: %d, want %d", path, a.Status, want)
			continue
		}
		if want == 200 {
			cfg, err := png.DecodeConfig(strings.NewReader(a.Body))
			if err != nil || cfg.Width != 1200 || cfg.Height != 630 || a.Header.Get("Content-Type") != "image/png" {
				t.Errorf("%s: %v %dx%d", path, err, cfg.Width, cfg.Height)
			}
		}
	}
	// Every page shares with a picture, its size and a text alternative.
	for _, path := range []string{"/", "/blog", "/search/tehran", "/about"} {
		a := w.send(t, req{method: "GET", path: path})
		for _, want := range []string{`<meta property="og:image" content="https://kardan.example/og/site.png">`,
			`<meta property="og:image:width" content="1200">`, `<meta property="og:image:height" content="630">`,
			`<meta property="og:image:alt" content="`, `<meta name="twitter:card" content="summary_large_image">`} {
			if !strings.Contains(a.Body, want) {
				t.Errorf("%s lacks %s", path, want)
			}
		}
	}
}
