package api_test

import (
	"fmt"
	"strings"
	"testing"
)

func TestSEO(t *testing.T) {
	w := newProfileWorld(t)
	p := w.create(t, w.owner, profileBody)
	page := fmt.Sprintf("/profile/%s", p.Slug)

	t.Run("ErrPendingProfileIs404", func(t *testing.T) {
		a := w.send(t, req{method: "GET", path: page})
		if a.Status != 404 || !strings.Contains(a.Body, `content="noindex"`) {
			t.Fatalf("got %d %s", a.Status, a.Body)
		}
	})

	w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status": "Accepted"}`})

	t.Run("ProfileMeta", func(t *testing.T) {
		a := w.send(t, req{method: "GET", path: page})
		if a.Status != 200 {
			t.Fatalf("got %d %s", a.Status, a.Body)
		}
		for _, want := range []string{
			"<title>لوله‌کشی علی | لوله‌کش تهران | کاردان</title>",
			`<link rel="canonical" href="https://kardan.example/profile/` + p.Slug + `">`,
			`<meta property="og:type" content="business.business">`,
			`<meta name="description" content="لوله‌کشی آب و گاز">`,
			`<script type="application/ld+json">`, `"@type":"LocalBusiness"`, `"addressLocality":"تهران"`,
			`"telephone":"+989123456789"`, `"dayOfWeek":"Saturday","opens":"08:00"`, `"priceCurrency":"IRR"`,
		} {
			if !strings.Contains(a.Body, want) {
				t.Errorf("page lacks %s", want)
			}
		}
		// The owner's sign-in number is private, even in the page's data.
		if strings.Contains(a.Body, "09120000001") {
			t.Error("the owner's number is in the page")
		}
	})

	t.Run("ProfileMetaEnglish", func(t *testing.T) {
		a := w.send(t, req{method: "GET", path: page, lang: "en"})
		if !strings.Contains(a.Body, "<title>لوله‌کشی علی | Plumber Tehran | Kardan</title>") {
			t.Errorf("got %s", a.Body)
		}
	})

	t.Run("ErrMissingProfileIs404", func(t *testing.T) {
		if a := w.send(t, req{method: "GET", path: "/profile/no-such-one"}); a.Status != 404 {
			t.Fatalf("got %d", a.Status)
		}
	})

	t.Run("Sitemap", func(t *testing.T) {
		a := w.send(t, req{method: "GET", path: "/sitemap.xml"})
		if a.Status != 200 || !strings.Contains(a.Body, "<sitemapindex") || !strings.Contains(a.Body, "https://kardan.example/sitemap-profiles-1.xml") {
			t.Fatalf("index: %d %s", a.Status, a.Body)
		}
		a = w.send(t, req{method: "GET", path: "/sitemap-profiles-1.xml"})
		if a.Status != 200 || !strings.Contains(a.Body, "<loc>https://kardan.example/profile/%D9%84") {
			t.Fatalf("profiles: %d %s", a.Status, a.Body)
		}
		if a := w.send(t, req{method: "GET", path: "/sitemap-profiles-2.xml"}); a.Status != 404 {
			t.Fatalf("past the end: %d", a.Status)
		}
		a = w.send(t, req{method: "GET", path: "/sitemap-pages.xml"})
		if !strings.Contains(a.Body, "https://kardan.example/terms/privacy") {
			t.Fatalf("pages: %s", a.Body)
		}
	})

	t.Run("BlogSitemap", func(t *testing.T) {
		if a := w.send(t, req{method: "GET", path: "/sitemap.xml"}); strings.Contains(a.Body, "sitemap-blogs") {
			t.Fatalf("no blog yet, but: %s", a.Body)
		}
		a := w.send(t, req{method: "POST", path: "/v1/blog/add", token: w.admin,
			body: `{"title": "راهنمای انتخاب لوله‌کش", "content": "<p>چند نکته</p>", "category_list": [101], "isDraft": false}`})
		if a.Status != 200 {
			t.Fatalf("add blog: %d %s", a.Status, a.Body)
		}
		blog := decodePayload[struct {
			ID     int64  `json:"id"`
			Status string `json:"status"`
		}](t, a)
		if blog.Status == "Pending" {
			if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/blog/%d/status", blog.ID), token: w.admin, body: `{"status": "Accepted"}`}); a.Status != 200 {
				t.Fatalf("accept blog: %d %s", a.Status, a.Body)
			}
		}
		if a := w.send(t, req{method: "GET", path: "/sitemap.xml"}); !strings.Contains(a.Body, "https://kardan.example/sitemap-blogs-1.xml") {
			t.Fatalf("index: %s", a.Body)
		}
		a = w.send(t, req{method: "GET", path: "/sitemap-blogs-1.xml"})
		if a.Status != 200 || !strings.Contains(a.Body, "<loc>https://kardan.example/blog/") {
			t.Fatalf("blogs: %d %s", a.Status, a.Body)
		}
	})

	t.Run("Robots", func(t *testing.T) {
		a := w.send(t, req{method: "GET", path: "/robots.txt"})
		if a.Status != 200 || !strings.Contains(a.Body, "Sitemap: https://kardan.example/sitemap.xml") || strings.Contains(a.Body, "Allow: /\n") {
			t.Fatalf("got %d %s", a.Status, a.Body)
		}
	})
}
