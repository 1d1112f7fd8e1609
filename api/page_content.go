package api

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"kardan/store"
)

// A page's main content, written by the server inside the app's root as plain semantic HTML: a
// crawler that runs no script, and a visitor whose script never arrives, read the profile, the
// article or the results. The app empties the root before it draws (src/main.tsx), so it never
// reuses these nodes. The texts come from the same read forms the API answers with (the profile
// and blog records, the page's first search answer), so the page and the app say the same thing.

// contentBuilder writes escaped HTML.
type contentBuilder struct {
	strings.Builder
	lang Lang
}

func (b *contentBuilder) text(s string) { b.WriteString(html.EscapeString(s)) }

// el writes <tag>text</tag>, escaped; nothing for empty text.
func (b *contentBuilder) el(tag, text string) {
	if text == "" {
		return
	}
	fmt.Fprintf(b, "<%s>", tag)
	b.text(text)
	fmt.Fprintf(b, "</%s>", tag)
}

// digits writes numbers as the page's language writes them.
func (b *contentBuilder) digits(s string) string {
	if b.lang == Fa {
		return persianDigits(s)
	}
	return s
}

// groupThousands writes n with thousands separators in the language's digits, as the app's
// formatNumber does (Intl's fa-IR: Persian digits and the Arabic thousands separator U+066C).
func groupThousands(n int64, lang Lang) string {
	s := strconv.FormatInt(n, 10)
	sep := ","
	if lang == Fa {
		sep = "\u066c"
	}
	var out strings.Builder
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out.WriteString(sep)
		}
		out.WriteByte(s[i])
	}
	if lang == Fa {
		return persianDigits(out.String())
	}
	return out.String()
}

// profileContent renders a profile's page in the app's own shape and classes (the header's box,
// breadcrumbs, the hero with picture, name, trade and city, rating and categories, the action
// row, then about, services with prices, the week's hours and the address): the route's styles
// are linked with the page, so these boxes are the app's boxes and the page does not jump when
// the app takes the root over (journey 38 measures it). The texts are written as the app writes
// them (digits, separators, the week's days, "closed", "open 24 hours"), so the server's page
// and the app say the same thing (journey 39 compares them).
func profileContent(r *http.Request, p *store.Profile, form *profileForm, now time.Time) string {
	lang := langOf(r)
	b := &contentBuilder{lang: lang}
	b.WriteString(siteHeader(r))
	b.WriteString(`<main id="main" class="ssr"><article class="profile container">`)
	var field, city, province string
	if form.RangeWorker != nil {
		field = pick(lang, form.RangeWorker.FarsiName, form.RangeWorker.EnglishName)
	}
	if form.City != nil {
		city = pick(lang, form.City.FarsiName, form.City.EnglishName)
	}
	if form.Province != nil {
		province = pick(lang, form.Province.FarsiName, form.Province.EnglishName)
	}
	citySlag := "iran"
	if form.City != nil && form.City.Slag != "" {
		citySlag = form.City.Slag
	}

	// Breadcrumbs, as the app's: home / city / field.
	fmt.Fprintf(b, `<nav class="crumbs small" aria-label="%s">`, html.EscapeString(message(lang, "content_crumbs", nil)))
	b.link(r, "/", message(lang, "content_home", nil), "")
	if city != "" {
		b.WriteString(`<span aria-hidden="true">/</span>`)
		b.link(r, "/search/"+url.PathEscape(citySlag), city, "")
	} else {
		b.WriteString(`<span aria-hidden="true">/</span>`)
		b.link(r, "/search/iran", message(lang, "search_all_iran", nil), "")
	}
	if form.RangeWorker != nil && form.RangeWorker.Slag != "" {
		b.WriteString(`<span aria-hidden="true">/</span>`)
		b.link(r, "/search/"+url.PathEscape(citySlag)+"/"+url.PathEscape(form.RangeWorker.Slag), field, "")
	}
	b.WriteString(`</nav>`)

	// A listing an admin made for a business that can still claim it.
	if form.Claimable {
		b.WriteString(`<div class="claim-note"><span class="inline-icon ssr-icon ssr-icon-lg" aria-hidden="true"></span><span>`)
		b.text(message(lang, "content_claim", nil))
		b.WriteString(`</span><span class="btn btn-sm btn-outline ssr-box" aria-hidden="true">`)
		b.text(message(lang, "content_claim_action", nil))
		b.WriteString(`</span></div>`)
	}

	// The hero.
	b.WriteString(`<header class="p-hero card"><div class="p-cover" aria-hidden="true"></div><div class="p-id"><div class="p-pics">`)
	if pic := firstNonEmpty(append([]string{p.ProfileImage}, append(p.PortfolioImages, p.Logo)...)...); pic != "" {
		fmt.Fprintf(b, `<img class="p-avatar" src="%s" alt="%s" width="112" height="112">`, html.EscapeString(pic),
			html.EscapeString(message(lang, "content_picture", map[string]any{"name": p.ProfileName})))
	} else {
		b.WriteString(`<span class="p-avatar trade-ph ssr-avatar" aria-hidden="true"></span>`)
	}
	b.WriteString(`</div><div class="p-title"><h1 dir="auto">`)
	b.text(p.ProfileName)
	b.WriteString(`</h1><p class="muted">`)

	b.text(field)
	if city != "" {
		b.WriteString(`<span aria-hidden="true"> · </span>`)
		b.text(city)
		if province != "" && province != city {
			b.text(message(lang, "list_sep", nil) + province)
		}
	}
	b.WriteString(`</p><div class="p-badges">`)
	if form.Verified {
		b.WriteString(`<span class="badge badge-plain verified-badge"><span class="inline-icon ssr-icon" aria-hidden="true"></span>`)
		b.text(message(lang, "content_verified", nil))
		b.WriteString(`<span class="inline-icon ssr-icon" aria-hidden="true"></span></span>`)
	}
	b.WriteString(`<span class="stars">`)
	if p.CountScorer > 0 {
		key := "content_rating"
		if p.CountScorer == 1 {
			key = "content_rating_one"
		}
		b.text(message(lang, key, map[string]any{"score": scoreText(p.Score, lang), "count": b.digits(strconv.Itoa(p.CountScorer))}))
	} else {
		b.text(message(lang, "content_new", nil))
	}
	b.WriteString(`</span>`)
	// The open badge and today's hours, as the app shows them on its first draw.
	// The app shows the server's open status when the business has hours or special days.
	status := ""
	if hasHours(p.HoursOfWork) || form.NextChange != nil || len(p.SpecialDays) > 0 {
		status = form.OpenStatus
	}
	today := store.Weekdays[(int(now.Weekday())+1)%7]
	if key, ok := map[string]string{"Open": "content_open", "Closed": "content_closed_now", "Boarding": "content_all_day"}[status]; ok {
		cls := map[string]string{"Open": "badge-open", "Closed": "badge-closed", "Boarding": "badge-boarding"}[status]
		fmt.Fprintf(b, `<span class="badge %s">`, cls)
		b.text(message(lang, key, nil))
		b.WriteString(`</span>`)
	}
	if hasHours(p.HoursOfWork) && status != "Boarding" {
		b.WriteString(`<span class="small muted"><span class="inline-icon ssr-icon" aria-hidden="true"></span>`)
		b.text(message(lang, "content_today", map[string]any{"hours": b.dayText(p.HoursOfWork[today])}))
		b.WriteString(`</span>`)
	}
	b.WriteString(`</div>`)
	if len(form.CategoryList) > 0 {
		fmt.Fprintf(b, `<ul class="chips" aria-label="%s">`, html.EscapeString(message(lang, "content_categories", nil)))
		for _, c := range form.CategoryList {
			b.WriteString("<li>")
			b.link(r, "/search/"+url.PathEscape(citySlag)+"/"+url.PathEscape(c.Slag), pick(lang, c.FarsiName, c.EnglishName), "chip")
			b.WriteString("</li>")
		}
		b.WriteString("</ul>")
	}
	b.WriteString(`</div></div>`)
	b.actions(p, form)
	b.WriteString(`</header>`)

	// The main column: about and services.
	b.WriteString(`<div class="p-layout"><div class="p-main">`)
	if p.Descriotion != "" || p.WorkHistoryYears > 0 {
		b.WriteString(`<section class="card card-pad p-section">`)
		b.el("h2", message(lang, "content_about", nil))
		if p.WorkHistoryYears > 0 {
			b.WriteString(`<p class="p-exp">`)
			b.text(message(lang, "content_experience", map[string]any{"years": b.digits(strconv.Itoa(p.WorkHistoryYears))}))
			b.WriteString(`</p>`)
		}
		if p.Descriotion != "" {
			b.WriteString(`<p class="p-desc" dir="auto">`)
			b.text(p.Descriotion)
			b.WriteString(`</p>`)
		}
		b.WriteString(`</section>`)
	}
	if len(p.Services) > 0 {
		b.WriteString(`<section class="card card-pad p-section">`)
		b.el("h2", message(lang, "content_services", nil))
		b.WriteString(`<ul class="services">`)
		for _, sv := range p.Services {
			b.WriteString(`<li class="service"><div><strong dir="auto">`)
			b.text(sv.Title)
			b.WriteString(`</strong>`)
			if sv.Description != "" {
				b.WriteString(`<p class="small muted" dir="auto">`)
				b.text(sv.Description)
				b.WriteString(`</p>`)
			}
			if sv.Price > 0 {
				b.WriteString(`</div><span class="price">`)
				b.text(message(lang, "content_price", map[string]any{"price": groupThousands(sv.Price, lang)}))
			} else {
				b.WriteString(`</div><span class="price free">`)
				b.text(message(lang, "content_free", nil))
			}
			b.WriteString(`</span></li>`)
		}
		b.WriteString(`</ul></section>`)
	}
	b.WriteString(`</div><aside class="p-side">`)
	if hasHours(p.HoursOfWork) {
		b.WriteString(`<section class="card card-pad p-section"><div class="section-head">`)
		b.el("h2", message(lang, "content_hours", nil))
		b.WriteString(`</div><table class="hours-table"><tbody>`)
		for _, day := range store.Weekdays {
			b.WriteString(`<tr><th scope="row">`)
			b.text(message(lang, "day."+day, nil))
			b.WriteString(`</th>`)
			d, ok := p.HoursOfWork[day]
			slots := openSlots(d)
			switch {
			case !ok || d.Closed || (!d.Boarding && len(slots) == 0):
				b.WriteString(`<td class="muted">`)
			default:
				b.WriteString(`<td>`)
			}
			b.dayHTML(d)
			b.WriteString(`</td></tr>`)
		}
		b.WriteString(`</tbody></table></section>`)
	}
	if p.Address != "" {
		b.WriteString(`<section class="card card-pad p-section" id="location">`)
		b.el("h2", message(lang, "content_location", nil))
		b.WriteString(`<address class="p-address" dir="auto">`)
		b.text(p.Address)
		b.WriteString(`</address></section>`)
	}
	b.WriteString(`</aside></div></article></main>`)
	return b.String()
}

// actions writes the hero's row of actions with the app's buttons' boxes (the same buttons in
// the same order, src/pages/Profile): calling and texting work without the app (tel:, sms:); the
// app's other buttons (request a price, directions, save, share, report) are kept as hidden boxes
// of their size, so the row is as tall as the app's.
func (b *contentBuilder) actions(p *store.Profile, form *profileForm) {
	b.WriteString(`<div class="p-actions">`)
	var call, sms string
	for _, l := range p.SocialNetwork {
		t, v := strings.ToLower(strings.TrimSpace(l.Type)), store.ASCIIDigits(strings.TrimSpace(l.Link))
		if v == "" {
			continue
		}
		if call == "" && (t == "mobile" || t == "phone") {
			call = v
		}
		if sms == "" && t == "mobile" {
			sms = v
		}
	}
	box := func() { b.WriteString(`<span class="btn btn-outline ssr-box" aria-hidden="true"></span>`) }
	digits := func(s string) string {
		return strings.Map(func(r rune) rune {
			if (r >= '0' && r <= '9') || r == '+' {
				return r
			}
			return -1
		}, s)
	}
	if call != "" {
		fmt.Fprintf(b, `<a class="btn btn-primary" href="tel:%s">`, html.EscapeString(digits(call)))
		b.text(message(b.lang, "content_call", nil))
		b.WriteString(`</a>`)
	}
	if form.City != nil && form.City.ID != 0 {
		box() // request a price
	}
	if sms != "" {
		fmt.Fprintf(b, `<a class="btn btn-outline" href="sms:%s">`, html.EscapeString(digits(sms)))
		b.text(message(b.lang, "content_sms", nil))
		b.WriteString(`</a>`)
	}
	if p.Lat != 0 || p.Long != 0 {
		box() // directions
	}
	box() // save
	box() // share
	box() // report
	b.WriteString(`</div>`)
}

// dayHTML writes a day's hours as the app's week table does: "closed", "open 24 hours", or its
// ranges, each unbroken, in <time> elements.
func (b *contentBuilder) dayHTML(d store.DayHours) {
	slots := openSlots(d)
	switch {
	case d.Closed || (!d.Boarding && len(slots) == 0):
		b.text(message(b.lang, "content_closed", nil))
	case d.Boarding:
		b.text(message(b.lang, "content_all_day", nil))
	default:
		for i, sl := range slots {
			if i > 0 {
				b.text(message(b.lang, "list_sep", nil))
			}
			// The datetime attribute keeps the machine-readable time when the text is in Persian
			// digits; 24:00 is written as the app writes it, 23:59 for machines.
			fmt.Fprintf(b, `<span class="nowrap"><time datetime="%s">%s</time>–<time datetime="%s">%s</time></span>`,
				clock(sl.Open), b.digits(clockText(sl.Open)), clock(min(sl.Close, 86340)), b.digits(clockText(sl.Close)))
		}
	}
}

// dayText is dayHTML's text, for "today: …".
func (b *contentBuilder) dayText(d store.DayHours) string {
	t := &contentBuilder{lang: b.lang}
	t.dayHTML(d)
	return html.UnescapeString(tagRe.ReplaceAllString(t.String(), ""))
}

var tagRe = regexp.MustCompile(`<[^>]*>`)

// link writes an anchor to a page of the site, under /en on an English page.
func (b *contentBuilder) link(r *http.Request, path, text, class string) {
	if class != "" {
		fmt.Fprintf(b, `<a class="%s" href="%s">`, class, html.EscapeString(sitePath(r, path)))
	} else {
		fmt.Fprintf(b, `<a href="%s">`, html.EscapeString(sitePath(r, path)))
	}
	b.text(text)
	b.WriteString("</a>")
}

// siteHeader writes a bar in the box of the app's header (its height and border), holding the
// site's name as a link home, so the content under it starts where the app's does.
func siteHeader(r *http.Request) string {
	b := &contentBuilder{lang: langOf(r)}
	b.WriteString(`<header class="site-header"><div class="container header-row">`)
	b.link(r, "/", message(b.lang, "site_name", nil), "brand")
	b.WriteString(`</div></header>`)
	return b.String()
}

// hasHours reports whether a week has any day set, as the app's hasHours decides to show them.
func hasHours(h store.Hours) bool {
	for _, day := range store.Weekdays {
		if d, ok := h[day]; ok && (d.Boarding || d.Closed || len(d.Time) > 0) {
			return true
		}
	}
	return false
}

// openSlots answers a day's ranges that are not empty, as the app shows them.
func openSlots(d store.DayHours) []store.Slot {
	var out []store.Slot
	for _, sl := range d.Time {
		if sl.Close > sl.Open {
			out = append(out, sl)
		}
	}
	return out
}

// clockText writes seconds after midnight as hh:mm, 24:00 for the end of the day.
func clockText(sec int) string { return fmt.Sprintf("%02d:%02d", sec/3600, sec%3600/60) }

// scoreText writes a score as the app does: one decimal unless whole, the Persian decimal
// separator in Persian.
func scoreText(score float64, lang Lang) string {
	s := strconv.FormatFloat(round1(score), 'f', -1, 64)
	if lang == Fa {
		return strings.ReplaceAll(persianDigits(s), ".", "٫")
	}
	return s
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}

// blogContent renders an article's page in the app's classes (src/pages/BlogPost): its title,
// writer, summary and sanitised body, the texts journey 39 compares with the app's.
func blogContent(r *http.Request, b *store.Blog, writer string) string {
	lang := langOf(r)
	c := &contentBuilder{lang: lang}
	c.WriteString(siteHeader(r))
	c.WriteString(`<main id="main" class="ssr"><article class="container post">`)
	// Breadcrumbs, as the app's (home / blog), so the title starts where the app draws it.
	fmt.Fprintf(c, `<nav class="crumbs small" aria-label="%s">`, html.EscapeString(message(lang, "content_crumbs", nil)))
	c.link(r, "/", message(lang, "content_home", nil), "")
	c.WriteString(`<span aria-hidden="true">/</span>`)
	c.link(r, "/blog", message(lang, "content_blog", nil), "")
	c.WriteString(`</nav><h1 dir="auto">`)
	c.text(b.Title)
	c.WriteString(`</h1>`)
	if writer != "" {
		c.WriteString(`<div class="post-meta"><span>`)
		c.text(writer)
		c.WriteString(`</span></div>`)
	}
	if b.Summary != "" {
		c.WriteString(`<p class="post-summary" dir="auto">`)
		c.text(b.Summary)
		c.WriteString(`</p>`)
	}
	// Stored sanitised (store.SanitizeBlogHTML), the same HTML the app shows.
	c.WriteString(`<div class="post-body" dir="auto">`)
	c.WriteString(b.Content)
	c.WriteString("</div></article></main>")
	return c.String()
}

// pick answers the name in the page's language (Persian when there is no English one).
func pick(lang Lang, fa, en string) string {
	if lang == En && en != "" {
		return en
	}
	return fa
}
