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
	if !strings.HasPrefix(rest, `<main class="ssr">`) {
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
	for _, want := range []string{"<h1>لوله‌کشی علی</h1>", "لوله‌کش، تهران", "<li>باز کردن لوله: ۳۵۰,۰۰۰ تومان</li>", "<li>مشاوره: رایگان</li>",
		`<dt>شنبه</dt><dd><time datetime="08:00">۰۸:۰۰</time>–<time datetime="20:00">۲۰:۰۰</time></dd>`, "<dt>جمعه</dt><dd>تعطیل</dd>", "<address>خیابان ولیعصر</address>"} {
		if !strings.Contains(root, want) {
			t.Errorf("profile page lacks %s in %s", want, root)
		}
	}
	en := rootOf(t, w.send(t, req{method: "GET", path: "/profile/" + p.Slug, lang: "en"}).Body)
	for _, want := range []string{"<li>باز کردن لوله: 350,000 Toman</li>", `<dt>Saturday</dt><dd><time datetime="08:00">08:00</time>–<time datetime="20:00">20:00</time></dd>`, "Plumber, Tehran"} {
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
