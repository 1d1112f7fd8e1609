package api

import (
	"fmt"
	"html"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"kardan/store"
)

// searchContent renders a search page in the app's own shape (src/pages/Search): the search bar,
// the heading row with the count and the map and filter buttons, the filter column (shown on wide
// screens by the route's styles, as the app shows it), the price-request bar of a category in a
// city, and the first page of results as the app's cards (src/components/ProfileCard), so the
// page does not jump when the app takes the root over (journey 38). The texts are the app's, so
// journey 39 can compare the two letter for letter.
func searchContent(r *http.Request, heading string, at *searchPlace, res *searchResults, now time.Time) string {
	lang := langOf(r)
	b := &contentBuilder{lang: lang}
	if at == nil {
		at = &searchPlace{}
	}
	q := r.URL.Query()
	b.WriteString(siteHeader(r))
	b.WriteString(`<main id="main" class="ssr"><div class="container search-page">`)
	b.searchBar(r, q)
	b.WriteString(`<div class="search-head"><div>`)
	b.el("h1", heading)
	b.WriteString(`<p class="muted small result-count">`)
	if res != nil {
		key := "content_count"
		if res.Payload.Count == 1 {
			key = "content_count_one"
		}
		b.text(message(lang, key, map[string]any{"count": groupThousands(int64(res.Payload.Count), lang)}))
	} else {
		b.WriteString("&nbsp;")
	}
	b.WriteString(`</p></div><div class="search-head-actions">`)
	fmt.Fprintf(b, `<a class="btn btn-outline on-map" href="%s">`, html.EscapeString(sitePath(r, mapPathOf(r))))
	b.icon(18, "")
	b.text(message(lang, "search_on_map", nil))
	// The phone's button that opens the filters' sheet: the app's box, which only the app can open.
	b.WriteString(`</a><span class="btn btn-outline filter-toggle" aria-hidden="true">`)
	b.icon(18, "")
	b.text(message(lang, "search_filters", nil))
	if n := activeFilters(r, q); n > 0 {
		b.WriteString(`<span class="count-dot">`)
		b.text(groupThousands(int64(n), lang))
		b.WriteString(`</span>`)
	}
	b.WriteString(`</span></div></div><div class="search-layout">`)
	b.filters(r, q, at)
	b.WriteString(`<div class="results">`)
	if res != nil && len(res.Payload.Profiles) > 0 {
		// The app's bar that asks the first five for a price at once, its button a box here.
		if at.Category != "" && at.City != "" && res.Payload.Profiles[0].City != nil && res.Payload.Profiles[0].City.ID != 0 {
			b.WriteString(`<p class="lead-bar card card-pad"><span>`)
			b.text(message(lang, "search_lead", nil))
			b.WriteString(`</span><span class="btn btn-primary btn-sm lead-many-btn ssr-box" aria-hidden="true">`)
			b.text(message(lang, "search_lead_action", nil))
			b.WriteString(`</span></p>`)
		}
		b.WriteString(`<div class="results-grid">`)
		for i := range res.Payload.Profiles {
			b.card(r, &res.Payload.Profiles[i], now)
		}
		b.WriteString(`</div>`)
	}
	b.WriteString(`</div></div></div></main>`)
	return b.String()
}

// card writes a result as the app's ProfileCard: the picture (or the trade's placeholder) in its
// box, the name, field and city, then the verified mark, the stars, the open status and its next
// change, the lowest price and the distance, each as the app words it.
func (b *contentBuilder) card(r *http.Request, p *searchResult, now time.Time) {
	lang := b.lang
	b.WriteString(`<article class="pcard card">`)
	fmt.Fprintf(b, `<a class="pcard-link" href="%s">`, html.EscapeString(sitePath(r, "/profile/"+url.PathEscape(p.Slug))))
	if pic := firstNonEmpty(append([]string{p.ProfileImage}, append(p.PortfolioImages, p.Logo)...)...); pic != "" {
		fmt.Fprintf(b, `<img class="pcard-img" src="%s" alt="" width="96" height="96" loading="lazy" decoding="async">`, html.EscapeString(pic))
	} else {
		b.WriteString(`<span class="pcard-img trade-ph ssr-avatar" aria-hidden="true"></span>`)
	}
	b.WriteString(`<div class="pcard-body"><h2 class="pcard-name" dir="auto">`)
	b.text(p.ProfileName)
	b.WriteString(`</h2><p class="pcard-field muted small">`)
	if p.RangeWorker != nil {
		b.text(pick(lang, p.RangeWorker.FarsiName, p.RangeWorker.EnglishName))
	}
	if p.City != nil {
		b.WriteString(`<span aria-hidden="true"> · </span>`)
		b.icon(14, "inline-icon")
		b.text(pick(lang, p.City.FarsiName, p.City.EnglishName))
	}
	b.WriteString(`</p><div class="pcard-meta">`)
	if p.Verified {
		fmt.Fprintf(b, `<span class="badge badge-plain verified-badge" title="%s">`, html.EscapeString(message(lang, "card_verified_title", nil)))
		b.icon(14, "")
		b.text(message(lang, "card_verified", nil))
		b.WriteString(`</span>`)
	}
	b.stars(p.Score, p.CountScorer, 14)
	status := ""
	if p.OpenStatus != "" && (hasHours(p.HoursOfWork) || p.NextChange != nil || len(p.SpecialDays) > 0) &&
		(p.NextChange == nil || p.NextChange.At.After(now)) {
		status = p.OpenStatus
	}
	if key, ok := map[string]string{"Open": "content_open", "Closed": "content_closed_now", "Boarding": "content_all_day"}[status]; ok {
		cls := map[string]string{"Open": "badge-open", "Closed": "badge-closed", "Boarding": "badge-boarding"}[status]
		fmt.Fprintf(b, `<span class="badge %s">`, cls)
		b.text(message(lang, key, nil))
		b.WriteString(`</span>`)
	}
	if status != "" {
		if next := b.nextChange(p.NextChange, status, now); next != "" {
			b.WriteString(`<span class="muted small pcard-next">`)
			b.text(next)
			b.WriteString(`</span>`)
		}
	}
	if from, ok := lowestPrice(p.Services); ok {
		b.WriteString(`<span class="small pcard-price">`)
		if from > 0 {
			b.text(message(lang, "card_price_from", map[string]any{"price": groupThousands(from, lang)}))
		} else {
			b.text(message(lang, "card_price_free", nil))
		}
		b.WriteString(`</span>`)
	}
	if p.Distance != nil {
		b.WriteString(`<span class="chip pcard-distance">`)
		b.text(distanceText(*p.Distance, lang))
		b.WriteString(`</span>`)
	}
	b.WriteString(`</div></div></a></article>`)
}

// nextChange words a status's next change as the card does (src/lib/hours.ts nextChangeOf): "until
// 18:00" while open, "opens at 09:00" later today, "opens Sunday 09:00" on another day; nothing
// when the change does not fit the status shown.
func (b *contentBuilder) nextChange(c *store.Change, status string, now time.Time) string {
	if c == nil || !c.At.After(now) {
		return ""
	}
	at := c.At.In(now.Location())
	clock := b.digits(clockText(at.Hour()*3600 + at.Minute()*60))
	until := c.Status == "Closed"
	if until != (status == "Open" || status == "Boarding") {
		return ""
	}
	if until {
		return message(b.lang, "card_until", map[string]any{"time": clock})
	}
	if at.Weekday() == now.Weekday() && at.Sub(now) < 24*time.Hour {
		return message(b.lang, "card_opens_at", map[string]any{"time": clock})
	}
	return message(b.lang, "card_opens_on", map[string]any{"day": message(b.lang, "day."+store.Weekdays[(int(at.Weekday())+1)%7], nil), "time": clock})
}

// lowestPrice answers the lowest price of the services (0 for a free one), as the card's "from".
func lowestPrice(services []searchService) (int64, bool) {
	var low *float64
	for _, s := range services {
		if s.Price != nil && *s.Price >= 0 && (low == nil || *s.Price < *low) {
			low = s.Price
		}
	}
	if low == nil {
		return 0, false
	}
	return int64(math.Round(*low)), true
}

// distanceText writes metres as the card does: to 10 m below a kilometre, else to 0.1 km.
func distanceText(m float64, lang Lang) string {
	if m < 1000 {
		return groupThousands(int64(math.Round(m/10)*10), lang) + " " + message(lang, "card_metres", nil)
	}
	km := strconv.FormatFloat(math.Round(m/100)/10, 'f', -1, 64)
	if lang == Fa {
		km = persianDigitsDecimal(km)
	}
	return km + " " + message(lang, "card_km", nil)
}

// persianDigitsDecimal writes a decimal in Persian digits with the Persian decimal separator.
func persianDigitsDecimal(s string) string {
	out := []rune{}
	for _, c := range persianDigits(s) {
		if c == '.' {
			c = '٫'
		}
		out = append(out, c)
	}
	return string(out)
}

// stars writes a rating as the app's Stars does: five stars filled to the score, its spoken label,
// and the score and count it shows ("New" before any).
func (b *contentBuilder) stars(score float64, count, size int) {
	label := message(b.lang, "content_no_rating", nil)
	key := "content_rating"
	if count == 1 {
		key = "content_rating_one"
	}
	n := groupThousands(int64(count), b.lang)
	if count > 0 {
		label = message(b.lang, key, map[string]any{"score": scoreText(score, b.lang), "count": n})
	}
	fill := math.Max(0, math.Min(5, score)) / 5 * 100
	fmt.Fprintf(b, `<span class="stars" role="img" aria-label="%s"><span class="stars-icons" aria-hidden="true" style="--star-size: %dpx"><span class="stars-fg" style="inline-size: %s%%"></span></span><span aria-hidden="true">`,
		html.EscapeString(label), size, strconv.FormatFloat(fill, 'f', -1, 64))
	if count <= 0 {
		b.text(message(b.lang, "content_new", nil))
	} else {
		b.WriteString(`<strong>`)
		b.text(scoreText(score, b.lang))
		b.WriteString(`</strong> (`)
		b.text(n)
		b.WriteString(`)`)
	}
	b.WriteString(`</span></span>`)
}

// icon writes the box of one of the app's icons (an SVG of size×size): empty, as the server page
// has no drawings of its own.
func (b *contentBuilder) icon(size int, class string) {
	if class != "" {
		class = " " + class
	}
	fmt.Fprintf(b, `<span class="ssr-i%s" style="inline-size: %dpx; block-size: %dpx" aria-hidden="true"></span>`, class, size, size)
}
