package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"kardan/store"
)

// profileMeta answers the meta of a public profile's page, with LocalBusiness JSON-LD, so a
// link shared in a messenger shows a preview and search engines read the business; false when
// no visible profile has that slug.
func (s *Server) profileMeta(r *http.Request, slug string) (pageMeta, bool) {
	p, err := s.store.ProfileBySlug(r.Context(), slug)
	if err != nil || !p.Visible() {
		return pageMeta{}, false
	}
	form, err := s.profileForm(r.Context(), p, nil)
	if err != nil {
		return pageMeta{}, false
	}
	lang := langOf(r)
	trade, city, province := placeNames(form, lang)
	desc := firstRunes(strings.ReplaceAll(p.Descriotion, "\n", " "), 160)
	if desc == "" {
		desc = message(lang, "profile_meta_desc", map[string]any{"trade": trade, "city": city})
	}
	pageURL := s.siteURL(r, "/profile/"+p.Slug)
	image := p.ProfileImage
	if image == "" {
		image = p.Logo
	}
	imageW, imageH := 0, 0
	imageAlt := p.ProfileName
	if image == "" {
		// Without a picture of its own the profile shows its trade's card, whose size is known.
		image, imageW, imageH = tradeCardPath(s.fieldOfForm(r.Context(), form)), ogWidth, ogHeight
		imageAlt = message(lang, "og_trade_alt", map[string]any{"name": p.ProfileName, "trade": trade})
	}
	// JSON-LD's image is the business's picture (or its trade's card); a shared link shows the
	// profile's own card, which also carries its name, trade, city and rating.
	ldImage := image
	if s.cards != nil {
		image, imageW, imageH = cardURL("profile", p.ID, s.profileCardSpec(r.Context(), p, form, lang)), ogWidth, ogHeight
		imageAlt = message(lang, "og_trade_alt", map[string]any{"name": p.ProfileName, "trade": trade})
	}
	ld := map[string]any{
		"@context": "https://schema.org",
		"@type":    "LocalBusiness",
		"@id":      pageURL,
		"name":     p.ProfileName,
		"url":      pageURL,
		"address": map[string]any{
			"@type": "PostalAddress", "addressLocality": city, "addressRegion": province,
			"streetAddress": p.Address, "addressCountry": "IR",
		},
		"geo": map[string]any{"@type": "GeoCoordinates", "latitude": p.Lat, "longitude": p.Long},
	}
	if desc != "" {
		ld["description"] = desc
	}
	ld["image"] = absolute(s.cfg.BaseURL, ldImage)
	for _, l := range p.SocialNetwork {
		if t := strings.ToLower(l.Type); t == "phone" || t == "mobile" {
			if tel := e164(l.Link); tel != "" {
				ld["telephone"] = tel
				break
			}
		}
	}
	if links := sameAs(p.SocialNetwork); len(links) > 0 {
		ld["sameAs"] = links
	}
	if pr := priceRange(p.Services); pr != "" {
		ld["priceRange"] = pr
	}
	var served []map[string]any
	if city != "" {
		served = append(served, map[string]any{"@type": "City", "name": city})
	}
	for _, a := range p.AreaWorking {
		if a = strings.TrimSpace(a); a != "" {
			served = append(served, map[string]any{"@type": "Place", "name": a})
		}
	}
	if len(served) > 0 {
		ld["areaServed"] = served
	}
	if p.CountScorer > 0 {
		ld["aggregateRating"] = map[string]any{"@type": "AggregateRating", "ratingValue": round1(p.Score),
			"reviewCount": p.CountScorer, "bestRating": 5, "worstRating": 1}
	}
	if hours := openingHours(p.HoursOfWork); len(hours) > 0 {
		ld["openingHoursSpecification"] = hours
	}
	if len(p.Services) > 0 {
		var offers []map[string]any
		for _, sv := range p.Services {
			offers = append(offers, map[string]any{"@type": "Offer", "name": sv.Title,
				// Prices are kept in Toman; schema.org wants an ISO currency, and a Toman is ten Rials.
				"price": sv.Price * 10, "priceCurrency": "IRR"})
		}
		ld["makesOffer"] = offers
	}
	title := p.ProfileName
	if trade != "" && city != "" {
		title = fmt.Sprintf("%s | %s %s", p.ProfileName, trade, city)
	}
	trail := []crumb{{message(lang, "site_name", nil), "/"}}
	if form.City != nil {
		trail = append(trail, crumb{city, "/search/" + url.PathEscape(form.City.Slag)})
		if len(form.CategoryList) > 0 {
			trail = append(trail, crumb{trade, "/search/" + url.PathEscape(form.City.Slag) + "/" + url.PathEscape(form.CategoryList[0].Slag)})
		}
	}
	trail = append(trail, crumb{p.ProfileName, "/profile/" + p.Slug})
	return pageMeta{Title: title, Description: desc, Path: "/profile/" + p.Slug, Image: image, ImageWidth: imageW, ImageHeight: imageH,
		ImageAlt: imageAlt, Type: "business.business", JSONLD: []any{ld, s.breadcrumbList(r, trail)},
		Content: profileContent(r, p, form, s.now())}, true
}

// placeNames answers a profile's trade (its first category, else its range of work), city and
// province in lang.
func placeNames(form *profileForm, lang Lang) (trade, city, province string) {
	if form.RangeWorker != nil {
		trade = pick(lang, form.RangeWorker.FarsiName, form.RangeWorker.EnglishName)
	}
	if len(form.CategoryList) > 0 {
		trade = pick(lang, form.CategoryList[0].FarsiName, form.CategoryList[0].EnglishName)
	}
	if form.City != nil {
		city = pick(lang, form.City.FarsiName, form.City.EnglishName)
	}
	if form.Province != nil {
		province = pick(lang, form.Province.FarsiName, form.Province.EnglishName)
	}
	return trade, city, province
}

// fieldOfForm answers the slug of the field of a profile's first category (or of its range of
// work), "" when it has none.
func (s *Server) fieldOfForm(ctx context.Context, form *profileForm) string {
	tree, err := s.categories(ctx)
	if err != nil {
		return ""
	}
	var id int64
	switch {
	case len(form.CategoryList) > 0:
		id = form.CategoryList[0].ID
	case form.RangeWorker != nil:
		id = form.RangeWorker.ID
	default:
		return ""
	}
	c := tree.ByID(id)
	for c != nil && !c.IsField() {
		c = tree.ByID(*c.ParentID)
	}
	if c == nil {
		return ""
	}
	return c.Slag
}

var schemaDays = map[string]string{"saturday": "Saturday", "sunday": "Sunday", "monday": "Monday", "tuesday": "Tuesday",
	"wednesday": "Wednesday", "thursday": "Thursday", "friday": "Friday"}

// openingHours writes hours_of_work as schema.org OpeningHoursSpecification entries.
func openingHours(h store.Hours) []map[string]any {
	var out []map[string]any
	for _, day := range store.Weekdays {
		d, ok := h[day]
		if !ok || d.Closed {
			continue
		}
		if d.Boarding {
			out = append(out, map[string]any{"@type": "OpeningHoursSpecification", "dayOfWeek": schemaDays[day], "opens": "00:00", "closes": "23:59"})
			continue
		}
		for _, sl := range d.Time {
			out = append(out, map[string]any{"@type": "OpeningHoursSpecification", "dayOfWeek": schemaDays[day],
				"opens": clock(sl.Open), "closes": clock(min(sl.Close, 86340))})
		}
	}
	return out
}

func clock(sec int) string { return fmt.Sprintf("%02d:%02d", sec/3600, sec%3600/60) }

func absolute(base, path string) string {
	if strings.HasPrefix(path, "/") {
		return base + path
	}
	return path
}

func firstRunes(s string, n int) string {
	s = strings.TrimSpace(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
