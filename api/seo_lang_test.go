package api_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

var (
	canonicalRe = regexp.MustCompile(`<link rel="canonical" href="([^"]*)">`)
	hreflangRe  = regexp.MustCompile(`<link rel="alternate" hreflang="([^"]*)" href="([^"]*)">`)
)

// TestTwoLanguagesTwoAddresses: every indexable page has a Persian address and an English one
// under /en/, each canonical to itself, both naming each other and x-default (reciprocal), and the
// English one is English whatever the visitor's browser asks for; the sitemaps list both.
func TestTwoLanguagesTwoAddresses(t *testing.T) {
	w := newProfileWorld(t)
	p := w.create(t, w.owner, profileBody)
	w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status": "Accepted"}`})
	const base = "https://kardan.example"
	alternates := func(path string) (string, map[string]string, string) {
		a := w.send(t, req{method: "GET", path: path, lang: "fa"})
		if a.Status != 200 {
			t.Fatalf("%s: %d", path, a.Status)
		}
		c := canonicalRe.FindStringSubmatch(a.Body)
		if c == nil {
			t.Fatalf("%s: no canonical", path)
		}
		alt := map[string]string{}
		for _, m := range hreflangRe.FindAllStringSubmatch(a.Body, -1) {
			alt[m[1]] = m[2]
		}
		return c[1], alt, a.Body
	}
	for _, fa := range []string{"/", "/about", "/blog", "/profile/" + p.Slug, "/search/tehran/plumber", "/search/iran"} {
		en := "/en" + fa
		if fa == "/" {
			en = "/en"
		}
		faCanon, faAlt, _ := alternates(fa)
		enCanon, enAlt, enBody := alternates(en)
		if faCanon != base+fa || enCanon != base+en {
			t.Errorf("%s: canonicals %s and %s", fa, faCanon, enCanon)
		}
		want := map[string]string{"fa": base + fa, "en": base + en, "x-default": base + fa}
		for lang, href := range want {
			if faAlt[lang] != href || enAlt[lang] != href {
				t.Errorf("%s: hreflang %s: %q and %q, want %q", fa, lang, faAlt[lang], enAlt[lang], href)
			}
		}
		// Reciprocity: the page each alternate names names this one back.
		for lang, href := range faAlt {
			_, back, _ := alternates(strings.TrimPrefix(href, base))
			if back["fa"] != base+fa || back["en"] != base+en {
				t.Errorf("%s → %s (%s) does not point back: %v", fa, href, lang, back)
			}
		}
		if !strings.Contains(enBody, `<html lang="en" dir="ltr">`) || !strings.Contains(enBody, `content="en_US"`) {
			t.Errorf("%s is not English for a Persian browser", en)
		}
	}
	// Private and missing pages have no alternates; files have one address.
	for path, status := range map[string]int{"/en/login": 200, "/en/profile/none": 404, "/en/robots.txt": 404, "/en/dashboard": 200} {
		a := w.send(t, req{method: "GET", path: path})
		if a.Status != status || strings.Contains(a.Body, "hreflang") {
			t.Errorf("%s: %d (want %d), hreflang %v", path, a.Status, status, strings.Contains(a.Body, "hreflang"))
		}
	}
	for sitemap, want := range map[string][]string{
		"/sitemap-pages.xml":      {"<loc>" + base + "/</loc>", "<loc>" + base + "/en</loc>", "<loc>" + base + "/en/terms/privacy</loc>"},
		"/sitemap-profiles-1.xml": {"<loc>" + base + "/profile/%D9", "<loc>" + base + "/en/profile/%D9"},
	} {
		a := w.send(t, req{method: "GET", path: sitemap})
		for _, s := range want {
			if !strings.Contains(a.Body, s) {
				t.Errorf("%s lacks %s", sitemap, s)
			}
		}
	}
}

// TestEnglishPagesLinkEnglish: an English page's JSON-LD ids and urls, breadcrumbs, result list
// and the links in its server-written content name the English addresses, and a Persian page's
// the Persian ones (pictures and cards have one address).
func TestEnglishPagesLinkEnglish(t *testing.T) {
	w := newProfileWorld(t)
	p := w.create(t, w.owner, profileBody)
	w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status": "Accepted"}`})
	// The profile's owner writes the article, so its author.url (the writer's page) is checked too.
	a := w.send(t, req{method: "POST", path: "/v1/blog/add", token: w.owner,
		body: `{"title": "راهنمای انتخاب لوله‌کش", "summary": "چند نکته", "content": "<p>چند نکته</p>", "category_list": [101], "isDraft": false}`})
	blog := decodePayload[struct {
		ID     int64  `json:"id"`
		Slug   string `json:"slug"`
		Status string `json:"status"`
	}](t, a)
	if blog.Status == "Pending" {
		w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/blog/%d/status", blog.ID), token: w.admin, body: `{"status": "Accepted"}`})
	}
	const base = "https://kardan.example"
	hrefRe := regexp.MustCompile(`href="([^"]*)"`)
	isFile := func(u string) bool {
		for _, f := range []string{"/og/", "/uploads/", "/images/"} {
			if strings.HasPrefix(strings.TrimPrefix(u, base), f) {
				return true
			}
		}
		return false
	}
	var walk func(v any, out *[]string)
	walk = func(v any, out *[]string) {
		switch x := v.(type) {
		case string:
			if strings.HasPrefix(x, base) && !isFile(x) {
				*out = append(*out, x)
			}
		case map[string]any:
			for _, e := range x {
				walk(e, out)
			}
		case []any:
			for _, e := range x {
				walk(e, out)
			}
		}
	}
	for _, page := range []string{"/", "/profile/" + p.Slug, "/search/tehran/plumber", "/blog/" + blog.Slug} {
		for _, en := range []bool{false, true} {
			path := page
			if en {
				path = strings.TrimSuffix("/en"+page, "/")
			}
			a := w.send(t, req{method: "GET", path: path, lang: "fa"})
			if a.Status != 200 {
				t.Fatalf("%s: %d", path, a.Status)
			}
			var urls []string
			for _, ld := range ldBlock.FindAllStringSubmatch(a.Body, -1) {
				var v any
				json.Unmarshal([]byte(ld[1]), &v)
				walk(v, &urls)
			}
			if i := strings.Index(a.Body, `<div id="app">`); i >= 0 {
				for _, m := range hrefRe.FindAllStringSubmatch(a.Body[i:], -1) {
					if strings.HasPrefix(m[1], "/") {
						urls = append(urls, base+m[1])
					}
				}
			}
			if len(urls) == 0 {
				t.Fatalf("%s: no links found", path)
			}
			for _, u := range urls {
				rest := strings.TrimPrefix(u, base)
				english := rest == "/en" || strings.HasPrefix(rest, "/en/") || strings.HasPrefix(rest, "/en?")
				if english != en {
					t.Errorf("%s links %s", path, u)
				}
			}
		}
	}
}
