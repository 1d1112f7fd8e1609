package api_test

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// robotsRule is one Allow/Disallow line of the "*" group.
type robotsRule struct {
	allow bool
	path  string
}

func parseRobots(t *testing.T, body string) []robotsRule {
	t.Helper()
	var rules []robotsRule
	for _, line := range strings.Split(body, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "allow":
			rules = append(rules, robotsRule{true, strings.TrimSpace(v)})
		case "disallow":
			rules = append(rules, robotsRule{false, strings.TrimSpace(v)})
		}
	}
	return rules
}

// firstMatch is how older parsers read robots.txt: the first rule whose path prefixes the URL.
func firstMatch(rules []robotsRule, p string) bool {
	for _, r := range rules {
		if r.path != "" && strings.HasPrefix(p, r.path) {
			return r.allow
		}
	}
	return true
}

// longestMatch is RFC 9309 §2.2.2: the most specific (longest) matching rule wins, Allow on a tie.
func longestMatch(rules []robotsRule, p string) bool {
	best, allow := -1, true
	for _, r := range rules {
		if r.path == "" || !strings.HasPrefix(p, r.path) {
			continue
		}
		if len(r.path) > best || (len(r.path) == best && r.allow) {
			best, allow = len(r.path), r.allow
		}
	}
	return allow
}

func TestRobotsReadAlike(t *testing.T) {
	w := newProfileWorld(t)
	a := w.send(t, req{method: "GET", path: "/robots.txt"})
	if a.Status != 200 || !strings.Contains(a.Body, "Sitemap: https://kardan.example/sitemap.xml") {
		t.Fatalf("got %d %s", a.Status, a.Body)
	}
	rules := parseRobots(t, a.Body)
	for _, r := range rules {
		if r.allow && r.path == "/" {
			t.Fatalf("a leading Allow: / reads as allow-all to first-match parsers: %s", a.Body)
		}
	}
	cases := map[string]bool{
		"/": true, "/profile/x": true, "/blog/y": true, "/search/tehran/plumber": true, "/en/profile/x": true,
		"/sitemap.xml": true, "/sitemap-profiles-1.xml": true, "/robots.txt": true, "/uploads/a.webp": true,
		// Private pages are crawlable so that their noindex is seen.
		"/dashboard": true, "/dashboard/profile": true, "/login": true, "/register": true,
		"/v1/user-technical/searchUser": false, "/setup/": false,
	}
	for p, want := range cases {
		f, l := firstMatch(rules, p), longestMatch(rules, p)
		if f != l {
			t.Errorf("%s: first-match says %v, longest-match says %v", p, f, l)
		}
		if l != want {
			t.Errorf("%s: allowed=%v, want %v", p, l, want)
		}
	}
}

func TestPrivatePagesNoindex(t *testing.T) {
	w := newProfileWorld(t)
	for _, p := range []string{"/dashboard", "/dashboard/profile", "/login", "/register"} {
		a := w.send(t, req{method: "GET", path: p})
		if a.Header.Get("X-Robots-Tag") != "noindex" || !strings.Contains(a.Body, `<meta name="robots" content="noindex">`) {
			t.Errorf("%s: X-Robots-Tag %q, body %s", p, a.Header.Get("X-Robots-Tag"), a.Body)
		}
	}
	if a := w.send(t, req{method: "GET", path: "/about"}); a.Header.Get("X-Robots-Tag") != "" || strings.Contains(a.Body, "noindex") {
		t.Errorf("a public page is noindex: %v", a.Header)
	}
}

func TestSearchPagesUnknownAre404(t *testing.T) {
	w := newProfileWorld(t)
	for p, want := range map[string]int{
		"/search/iran": 200, "/search/tehran": 200, "/search/tehran/plumber": 200, "/search/iran/plumber": 200,
		"/search/atlantis": 404, "/search/tehran/astronaut": 404, "/search/atlantis/plumber": 404, "/search/tehran/plumber/x": 404,
	} {
		a := w.send(t, req{method: "GET", path: p})
		if a.Status != want {
			t.Errorf("%s: %d, want %d", p, a.Status, want)
			continue
		}
		if want == 404 && (!strings.Contains(a.Body, `content="noindex"`) || strings.Contains(a.Body, `rel="canonical"`)) {
			t.Errorf("%s: a 404 must be noindex without canonical: %s", p, a.Body)
		}
	}
	a := w.send(t, req{method: "GET", path: "/search/tehran/plumber?page=2"})
	if !strings.Contains(a.Body, "<title>لوله‌کش در تهران | کاردان</title>") ||
		!strings.Contains(a.Body, `<link rel="canonical" href="https://kardan.example/search/tehran/plumber">`) {
		t.Errorf("category-in-city page: %s", a.Body)
	}
}

// TestConditionalGet: pages, sitemaps and robots.txt carry an ETag and answer 304 to it; another
// tag, or a changed page, gets the full answer.
func TestConditionalGet(t *testing.T) {
	w := newProfileWorld(t)
	p := w.create(t, w.owner, profileBody)
	w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status": "Accepted"}`})
	get := func(path, etag string) answer {
		r, err := http.NewRequest("GET", w.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Header.Set("Accept-Encoding", "gzip")
		if etag != "" {
			r.Header.Set("If-None-Match", etag)
		}
		return w.roundTrip(t, r)
	}
	for _, path := range []string{"/", "/profile/" + p.Slug, "/search/tehran/plumber", "/sitemap.xml", "/sitemap-pages.xml", "/sitemap-profiles-1.xml", "/robots.txt"} {
		a := get(path, "")
		tag := a.Header.Get("ETag")
		if a.Status != 200 || !strings.HasPrefix(tag, `W/"`) {
			t.Fatalf("%s: %d ETag %q", path, a.Status, tag)
		}
		if b := get(path, tag); b.Status != http.StatusNotModified || b.Body != "" {
			t.Errorf("%s: revalidation: %d %q", path, b.Status, b.Body)
		}
		if b := get(path, `W/"other", `+strings.TrimPrefix(tag, "W/")); b.Status != http.StatusNotModified {
			t.Errorf("%s: a list holding the tag: %d", path, b.Status)
		}
		if b := get(path, `"stale"`); b.Status != 200 || b.Body == "" {
			t.Errorf("%s: another tag: %d", path, b.Status)
		}
		// The ETag is the only validator (writeIndex, writeXML): a date would revalidate a stale
		// page, so none is sent and a date-only revalidation gets the page.
		if lm := a.Header.Get("Last-Modified"); lm != "" {
			t.Errorf("%s: Last-Modified %q", path, lm)
		}
		r, _ := http.NewRequest("GET", w.URL+path, nil)
		r.Header.Set("If-Modified-Since", "Fri, 01 Jan 2100 00:00:00 GMT")
		if b := w.roundTrip(t, r); b.Status != 200 || b.Body == "" {
			t.Errorf("%s: If-Modified-Since alone: %d", path, b.Status)
		}
	}
	// The tag is the page's hash: an edit to the profile changes it.
	page := "/profile/" + p.Slug
	before := get(page, "").Header.Get("ETag")
	hours := strings.Replace(profileBody, `"open": 28800, "close": 72000`, `"open": 32400, "close": 72000`, 1)
	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", p.ID), token: w.owner, body: hours}); a.Status != 200 {
		t.Fatalf("hours: %d %s", a.Status, a.Body)
	}
	if a := get(page, before); a.Status != 200 {
		t.Errorf("a changed page answered %d to the old tag", a.Status)
	}
	// A 404 has no validator.
	if a := get("/profile/none", ""); a.Status != 404 || a.Header.Get("ETag") != "" {
		t.Errorf("404: %d %q", a.Status, a.Header.Get("ETag"))
	}
}

// TestServiceWorkerLeavesCrawlFilesAlone reads the service worker's navigation denylist from the
// web app's build config: a path it does not deny is answered with the cached app page, and a
// crawler with a service worker (or a person opening a sitemap) would get HTML for XML.
func TestServiceWorkerLeavesCrawlFilesAlone(t *testing.T) {
	src, err := os.ReadFile("../webui/vite.config.ts")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`navigateFallbackDenylist:\s*\[(.*)\]`).FindSubmatch(src)
	if m == nil {
		t.Fatal("no navigateFallbackDenylist in vite.config.ts")
	}
	var deny []*regexp.Regexp
	for _, lit := range regexp.MustCompile(`/((?:\\/|[^/])+)/`).FindAllSubmatch(m[1], -1) {
		deny = append(deny, regexp.MustCompile(strings.ReplaceAll(string(lit[1]), `\/`, `/`)))
	}
	denied := func(p string) bool {
		for _, re := range deny {
			if re.MatchString(p) {
				return true
			}
		}
		return false
	}
	for _, p := range []string{"/robots.txt", "/sitemap.xml", "/sitemap-pages.xml", "/sitemap-profiles-1.xml", "/sitemap-blogs-12.xml", "/v1/x", "/uploads/a.webp"} {
		if !denied(p) {
			t.Errorf("the service worker answers %s with the app page", p)
		}
	}
	for _, p := range []string{"/", "/profile/x", "/search/tehran", "/en/blog"} {
		if denied(p) {
			t.Errorf("the service worker does not serve the app for %s", p)
		}
	}
}
