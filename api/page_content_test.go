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

	// A search page says what the app's results page says: its heading, the count, and each card's
	// name (a link), field and city, stars, open status and lowest price (journey 39 compares them
	// with the app's), under the app's search bar holding the address's words and beside its
	// filters showing the address's city and category.
	s := rootOf(t, w.send(t, req{method: "GET", path: "/search/tehran/plumber"}).Body)
	for _, want := range []string{"<h1>لوله‌کش در تهران</h1>", `<p class="muted small result-count">۱ نتیجه</p>`,
		`<a class="pcard-link" href="/profile/`, `dir="auto">لوله‌کشی علی</h2>`,
		`<p class="pcard-field muted small">تأسیسات ساختمان<span aria-hidden="true"> · </span><span class="ssr-i inline-icon" style="inline-size: 14px; block-size: 14px" aria-hidden="true"></span>تهران</p>`,
		`<span class="stars" role="img" aria-label="هنوز امتیازی ثبت نشده"><span class="stars-icons" aria-hidden="true" style="--star-size: 14px"><span class="stars-fg" style="inline-size: 0%"></span></span><span aria-hidden="true">تازه‌وارد</span></span>`,
		`<span class="small pcard-price">خدمت رایگان دارد</span>`, `<p class="lead-bar card card-pad">`} {
		if !strings.Contains(s, want) {
			t.Errorf("search page lacks %s in %s", want, s)
		}
	}
	// Its search bar and filters show the address's words, place and filters.
	s = rootOf(t, w.send(t, req{method: "GET", path: "/search/tehran/plumber?q=%D9%84%D9%88%D9%84%D9%87&min_score=4"}).Body)
	for _, want := range []string{`<form role="search" method="get" action="/search/tehran/plumber">`, `<input type="hidden" name="min_score" value="4">`,
		`name="q" autocomplete="off" value="لوله"`, `<span>تهران</span>`, `<option selected>لوله‌کش</option>`,
		`<label class="chip-radio checked"><input type="radio" name="min_score" checked><span class="ssr-i"`,
		`<span class="count-dot">۴</span>`} {
		if !strings.Contains(s, want) {
			t.Errorf("filtered search page lacks %s in %s", want, s)
		}
	}
	if a := w.send(t, req{method: "POST", path: "/v1/comment/add", token: w.other,
		body: fmt.Sprintf(`{"category_list":[101],"description":"کار تمیز و سریع","score":4,"user_technical_id":%d}`, p.ID)}); a.Status != 200 {
		t.Fatalf("rating: %d %s", a.Status, a.Body)
	}
	s = rootOf(t, w.send(t, req{method: "GET", path: "/en/search/iran"}).Body)
	for _, want := range []string{"<h1>Businesses in all of Iran</h1>", `<p class="muted small result-count">1 result</p>`,
		`<a class="pcard-link" href="/en/profile/`,
		`<span class="stars" role="img" aria-label="Score 4 of 5 from 1 review"><span class="stars-icons" aria-hidden="true" style="--star-size: 14px"><span class="stars-fg" style="inline-size: 80%"></span></span><span aria-hidden="true"><strong>4</strong> (1)</span></span>`,
		`<span>All of Iran</span>`, `<a class="btn btn-outline on-map" href="/en/map">`} {
		if !strings.Contains(s, want) {
			t.Errorf("English search page lacks %s in %s", want, s)
		}
	}
	// An article: its title, writer, summary and body.
	a = w.send(t, req{method: "POST", path: "/v1/blog/add", token: w.admin,
		body: `{"title": "راهنمای انتخاب لوله‌کش", "summary": "چند نکته پیش از تماس", "content": "<p>قیمت را <strong>بپرسید</strong></p>", "category_list": [101], "isDraft": false}`})
	blog := decodePayload[struct {
		ID     int64  `json:"id"`
		Slug   string `json:"slug"`
		Status string `json:"status"`
	}](t, a)
	if blog.Status == "Pending" {
		w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/blog/%d/status", blog.ID), token: w.admin, body: `{"status": "Accepted"}`})
	}
	post := rootOf(t, w.send(t, req{method: "GET", path: "/blog/" + blog.Slug}).Body)
	for _, want := range []string{`<h1 dir="auto">راهنمای انتخاب لوله‌کش</h1>`, `<p class="post-summary" dir="auto">چند نکته پیش از تماس</p>`,
		`<div class="post-body" dir="auto"><p>قیمت را <strong>بپرسید</strong></p></div>`} {
		if !strings.Contains(post, want) {
			t.Errorf("article page lacks %s in %s", want, post)
		}
	}
	// Pages without content keep the root empty for the app.
	if r := rootOf(t, w.send(t, req{method: "GET", path: "/about"}).Body); r != "" {
		t.Errorf("about: %s", r)
	}
}
