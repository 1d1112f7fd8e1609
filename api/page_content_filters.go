package api

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// The search page's bar and filter column as the server writes them (src/pages/Search's TopSearch
// and FilterForm, in the same elements, classes and order, with the address's filters filled in),
// so the results beside and under them are where the app draws them. The bar is a plain form that
// searches without the app; the filters need the app, so their column is inert until it draws.

// searchOrders are the app's orders after "most relevant", in its order.
var searchOrders = []string{"best", "reviews", "nearest", "newest"}

// chip is one of the filters' round choices.
type chip struct {
	label         string
	checked, star bool
}

// searchBar writes the app's search bar: a form that asks this page again with the words, keeping
// the address's other filters.
func (b *contentBuilder) searchBar(r *http.Request, q url.Values) {
	fmt.Fprintf(b, `<div class="search-top"><form role="search" method="get" action="%s"><label class="field-label" for="f-q">`,
		html.EscapeString(sitePath(r, r.URL.Path)))
	b.text(message(b.lang, "search_text", nil))
	b.WriteString(`</label>`)
	for _, k := range []string{"province", "min_score", "order", "open", "near", "radius", "price_min", "price_max"} {
		if v := q.Get(k); v != "" {
			fmt.Fprintf(b, `<input type="hidden" name="%s" value="%s">`, k, html.EscapeString(v))
		}
	}
	fmt.Fprintf(b, `<div class="input-with-btn"><div class="searchbox"><input id="f-q" class="input" type="search" name="q" autocomplete="off" value="%s" placeholder="%s" enterkeyhint="search"></div>`,
		html.EscapeString(strings.TrimSpace(q.Get("q"))), html.EscapeString(message(b.lang, "search_placeholder", nil)))
	fmt.Fprintf(b, `<button type="submit" class="btn btn-primary" aria-label="%s">`, html.EscapeString(message(b.lang, "search_submit", nil)))
	b.icon(18, "")
	b.WriteString(`</button></div></form></div>`)
}

// filters writes the app's filter column (wide screens only, by the route's styles): province,
// city, category, least score, order, open now, distance, price range and reset, each showing the
// address's choice.
func (b *contentBuilder) filters(r *http.Request, q url.Values, at *searchPlace) {
	msg := func(key string, args map[string]any) string { return message(b.lang, key, args) }
	fmt.Fprintf(b, `<aside class="filters-aside card card-pad" aria-label="%s" inert><div class="filter-form">`, html.EscapeString(msg("search_filters", nil)))

	b.selectField("f-province", msg("search_province", nil), msg("search_all_provinces", nil), at.Province)
	b.WriteString(`<div class="field"><span class="field-label" id="f-city-label">`)
	b.text(msg("search_city", nil))
	b.WriteString(`</span><button type="button" class="select-btn" aria-labelledby="f-city-label f-city" id="f-city">`)
	b.icon(18, "")
	b.WriteString(`<span>`)
	b.text(firstNonEmpty(at.City, msg("search_city_all", nil)))
	b.WriteString(`</span>`)
	b.icon(16, "")
	b.WriteString(`</button></div>`)
	category := at.Category
	if at.Field && category != "" {
		category = msg("search_all_of", map[string]any{"name": category})
	}
	b.selectField("f-category", msg("search_category", nil), msg("search_all_categories", nil), category)

	minScore, _ := strconv.ParseFloat(q.Get("min_score"), 64)
	scores := []chip{{msg("search_any", nil), minScore <= 0 || minScore > 5, false}}
	for _, s := range []float64{4.5, 4, 3.5, 3} {
		scores = append(scores, chip{msg("search_at_least", map[string]any{"score": scoreText(s, b.lang)}), s == minScore, true})
	}
	b.chips(msg("search_min_score", nil), "min_score", scores)

	order := ""
	if slices.Contains(searchOrders, q.Get("order")) {
		order = msg("search_order_"+q.Get("order"), nil)
	}
	b.selectField("f-order", msg("search_order", nil), msg("search_order_relevance", nil), order)

	open := q.Get("open") == "1"
	fmt.Fprintf(b, `<div class="field"><label class="switch"><button id="f-open" type="button" role="switch" aria-checked="%t" class="switch-track"><span class="switch-thumb" aria-hidden="true"></span></button><span class="switch-text"><span>`, open)
	b.text(msg("search_open_now", nil))
	b.WriteString(`</span></span></label></div>`)

	near := nearPoint.MatchString(q.Get("near"))
	if near {
		radius, _ := strconv.Atoi(q.Get("radius"))
		if !slices.Contains(searchRadii, radius) {
			radius = 5000
		}
		var radii []chip
		for _, m := range searchRadii {
			radii = append(radii, chip{msg("search_within_km", map[string]any{"n": strconv.Itoa(m / 1000)}), m == radius, false})
		}
		b.chips(msg("search_distance", nil), "radius", radii)
	} else {
		b.WriteString(`<fieldset class="field chips-field"><legend class="field-label">`)
		b.text(msg("search_distance", nil))
		b.WriteString(`</legend><button type="button" class="btn btn-outline btn-sm">`)
		b.icon(16, "")
		b.text(msg("search_use_position", nil))
		b.WriteString(`</button></fieldset>`)
	}

	b.WriteString(`<form class="field price-range" aria-labelledby="f-price-label"><span class="field-label" id="f-price-label">`)
	b.text(msg("search_price_range", nil))
	b.WriteString(`</span><div class="price-pair">`)
	priced := false
	for _, end := range []struct{ id, key, param string }{{"f-price-min", "search_price_min", "price_min"}, {"f-price-max", "search_price_max", "price_max"}} {
		fmt.Fprintf(b, `<div class="price-end"><label class="small muted" for="%s">`, end.id)
		b.text(msg(end.key, nil))
		value := ""
		if n, err := strconv.ParseInt(q.Get(end.param), 10, 64); err == nil && n > 0 {
			value, priced = groupThousands(n, b.lang), true
		}
		fmt.Fprintf(b, `</label><input id="%s" class="input price-input" dir="ltr" inputmode="numeric" autocomplete="off" value="%s"></div>`, end.id, html.EscapeString(value))
	}
	b.WriteString(`</div><div class="price-actions"><button type="submit" class="btn btn-outline btn-sm">`)
	b.text(msg("search_price_apply", nil))
	b.WriteString(`</button>`)
	if priced {
		b.WriteString(`<button type="button" class="btn btn-ghost btn-sm">`)
		b.text(msg("search_price_clear", nil))
		b.WriteString(`</button>`)
	}
	fmt.Fprintf(b, `</div></form><a href="%s" class="btn btn-ghost btn-block">`, html.EscapeString(sitePath(r, "/search/iran")))
	b.icon(16, "")
	b.text(msg("search_reset", nil))
	b.WriteString(`</a></div></aside>`)
}

// selectField writes one of the filters' lists showing its choice: the "all" option, and the
// chosen one when there is one (the app's other options need the app).
func (b *contentBuilder) selectField(id, label, all, chosen string) {
	fmt.Fprintf(b, `<div class="field"><label for="%s">`, id)
	b.text(label)
	fmt.Fprintf(b, `</label><select id="%s" class="select"><option value="">`, id)
	b.text(all)
	b.WriteString(`</option>`)
	if chosen != "" {
		b.WriteString(`<option selected>`)
		b.text(chosen)
		b.WriteString(`</option>`)
	}
	b.WriteString(`</select></div>`)
}

// chips writes a row of the filters' round choices, the checked one marked.
func (b *contentBuilder) chips(legend, name string, choices []chip) {
	b.WriteString(`<fieldset class="field chips-field"><legend class="field-label">`)
	b.text(legend)
	b.WriteString(`</legend><div class="chip-row">`)
	for _, c := range choices {
		cls, attr := "chip-radio ", ""
		if c.checked {
			cls, attr = "chip-radio checked", " checked"
		}
		fmt.Fprintf(b, `<label class="%s"><input type="radio" name="%s"%s>`, cls, name, attr)
		if c.star {
			b.icon(14, "")
		}
		b.text(c.label)
		b.WriteString(`</label>`)
	}
	b.WriteString(`</div></fieldset>`)
}

// activeFilters counts the filters the address sets, as the app's filter button does: the place
// once, whether a province, a city or both name it.
func activeFilters(r *http.Request, q url.Values) int {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/search/"), "/")
	n := 0
	if len(parts) > 1 && parts[1] != "" {
		n++ // the category
	}
	if strings.TrimSpace(q.Get("q")) != "" {
		n++
	}
	if q.Get("province") != "" || (parts[0] != "" && !strings.EqualFold(parts[0], "iran")) {
		n++
	}
	if ms, err := strconv.ParseFloat(q.Get("min_score"), 64); err == nil && ms > 0 && ms <= 5 {
		n++
	}
	if slices.Contains(searchOrders, q.Get("order")) || q.Get("order") == "relevance" {
		n++
	}
	if q.Get("open") == "1" {
		n++
	}
	if nearPoint.MatchString(q.Get("near")) && q.Get("radius") != "" {
		n++
	}
	if q.Get("price_min") != "" || q.Get("price_max") != "" {
		n++
	}
	return n
}

// mapPathOf answers the map page showing the same search (the app's mapUrlOf): the point, the
// category and the words, when the address has them.
func mapPathOf(r *http.Request) string {
	q := r.URL.Query()
	out := url.Values{}
	if m := nearPoint.FindStringSubmatch(q.Get("near")); m != nil {
		lat, _ := strconv.ParseFloat(m[1], 64)
		long, _ := strconv.ParseFloat(m[2], 64)
		out.Set("lat", strconv.FormatFloat(lat, 'f', 5, 64))
		out.Set("long", strconv.FormatFloat(long, 'f', 5, 64))
	}
	if parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/search/"), "/"); len(parts) > 1 && parts[1] != "" {
		out.Set("category", parts[1])
	}
	if v := strings.TrimSpace(q.Get("q")); v != "" {
		out.Set("q", v)
	}
	if len(out) == 0 {
		return "/map"
	}
	return "/map?" + out.Encode()
}
