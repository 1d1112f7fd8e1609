package api_test

import (
	"fmt"
	"strings"
	"testing"
)

// rootOf answers what the page holds inside the app's root, as a reader without script sees it.
func rootOf(t *testing.T, page string) string {
	t.Helper()
	i := strings.Index(page, `<div id="app">`)
	if i < 0 {
		t.Fatalf("no app root in %s", page)
	}
	rest := page[i+len(`<div id="app">`):]
	if !strings.HasPrefix(rest, `<header class="site-header">`) {
		return ""
	}
	return rest[:strings.Index(rest, "</main>")+len("</main>")]
}

// TestContentInHTML: the profile page fetched without JavaScript holds the name, every service
// with its price, the hours and the address inside the app's root; a search page holds its
// results as links.
func TestContentInHTML(t *testing.T) {
	w := newProfileWorld(t)
	p := w.create(t, w.owner, profileBody)
	w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status": "Accepted"}`})

	a := w.send(t, req{method: "GET", path: "/profile/" + p.Slug})
	root := rootOf(t, a.Body)
	for _, want := range []string{`<h1 dir="auto">لوله‌کشی علی</h1>`, "<a class=\"chip\" href=\"/search/tehran/plumber\">لوله‌کش</a>", " · </span>تهران",
		`<strong dir="auto">باز کردن لوله</strong></div><span class="price">۳۵۰٬۰۰۰ تومان</span>`,
		`<strong dir="auto">مشاوره</strong></div><span class="price free">رایگان</span>`,
		`<th scope="row">شنبه</th><td><span class="nowrap"><time datetime="08:00">۰۸:۰۰</time>–<time datetime="20:00">۲۰:۰۰</time></span></td>`,
		`<th scope="row">جمعه</th><td class="muted">تعطیل</td>`, `<th scope="row">یکشنبه</th><td class="muted">تعطیل</td>`,
		`<address class="p-address" dir="auto">خیابان ولیعصر</address>`, `<a class="btn btn-primary" href="tel:09123456789">تماس</a>`} {
		if !strings.Contains(root, want) {
			t.Errorf("profile page lacks %s in %s", want, root)
		}
	}
	en := rootOf(t, w.send(t, req{method: "GET", path: "/profile/" + p.Slug, lang: "en"}).Body)
	for _, want := range []string{`<span class="price">350,000 Toman</span>`,
		`<th scope="row">Saturday</th><td><span class="nowrap"><time datetime="08:00">08:00</time>–<time datetime="20:00">20:00</time></span></td>`,
		">Plumber</a>", " · </span>Tehran"} {
		if !strings.Contains(en, want) {
			t.Errorf("English profile page lacks %s in %s", want, en)
		}
	}

	s := rootOf(t, w.send(t, req{method: "GET", path: "/search/tehran/plumber"}).Body)
	for _, want := range []string{"<h1>لوله‌کش در تهران</h1>", "۱ نتیجه", `<a href="/profile/`, "لوله‌کشی علی</a>"} {
		if !strings.Contains(s, want) {
			t.Errorf("search page lacks %s in %s", want, s)
		}
	}
	// Pages without content keep the root empty for the app.
	if r := rootOf(t, w.send(t, req{method: "GET", path: "/about"}).Body); r != "" {
		t.Errorf("about: %s", r)
	}
}
