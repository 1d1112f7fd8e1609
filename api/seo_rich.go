package api

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"kardan/store"
)

// e164 answers an Iranian phone number as E.164 (+98…), as Google asks for a business's
// telephone, or "" when it is not one: mobiles and landlines in national (0…), 0098 or +98 form,
// Persian digits and separators allowed.
func e164(raw string) string {
	var d strings.Builder
	for i, r := range store.ASCIIDigits(strings.TrimSpace(raw)) {
		switch {
		case r >= '0' && r <= '9':
			d.WriteRune(r)
		case r == '+' && i == 0:
			d.WriteString("00")
		case strings.ContainsRune(" -.()\u00a0\u200c\u200e\u200f", r):
		default:
			return ""
		}
	}
	n := d.String()
	switch {
	case strings.HasPrefix(n, "0098"):
		n = strings.TrimPrefix(n[4:], "0")
	case strings.HasPrefix(n, "98") && len(n) >= 11:
		n = n[2:]
	case strings.HasPrefix(n, "0") && !strings.HasPrefix(n, "00"):
		n = n[1:]
	default:
		return ""
	}
	// National significant numbers are ten digits: 9xx xxx xxxx for mobiles, area code and
	// subscriber number for landlines.
	if len(n) != 10 || n[0] == '0' {
		return ""
	}
	return "+98" + n
}

// socialWeb is the web address of a handle on each network, as webui/src/lib/links.ts builds it.
var socialWeb = map[string]string{
	"telegram": "https://t.me/", "instagram": "https://instagram.com/", "eitaa": "https://eitaa.com/",
	"bale": "https://ble.ir/", "rubika": "https://rubika.ir/", "soroush": "https://splus.ir/",
	"igap": "https://igap.net/", "gap": "https://gap.im/", "linkedin": "https://www.linkedin.com/in/",
	"github": "https://github.com/", "gitlab": "https://gitlab.com/", "twitter": "https://x.com/",
	"facebook": "https://facebook.com/", "youtube": "https://youtube.com/@", "tiktok": "https://www.tiktok.com/@",
	"pinterest": "https://pinterest.com/", "reddit": "https://www.reddit.com/user/",
}

// sameAs answers the profile's pages on social networks and its own site, for schema.org sameAs.
func sameAs(links []store.SocialLink) []string {
	var out []string
	for _, l := range links {
		kind := strings.ToLower(strings.TrimSpace(l.Type))
		v := strings.TrimSpace(l.Link)
		if v == "" {
			continue
		}
		if kind == "site" {
			if u, err := url.Parse(v); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
				out = append(out, u.String())
			} else if err == nil && u.Scheme == "" && strings.Contains(v, ".") && !strings.ContainsAny(v, " /@") {
				out = append(out, "https://"+v)
			}
			continue
		}
		base, ok := socialWeb[kind]
		if !ok {
			continue
		}
		h := strings.TrimPrefix(v, "@")
		if i := strings.Index(h, "://"); i >= 0 {
			h = h[i+3:]
			if j := strings.Index(h, "/"); j >= 0 {
				h = h[j+1:]
			} else {
				h = ""
			}
		}
		h = strings.Trim(h, "/")
		if h == "" || strings.ContainsAny(h, " \"<>") {
			continue
		}
		out = append(out, base+url.PathEscape(h))
	}
	return out
}

// priceRange answers the span of the profile's priced services for schema.org priceRange, in
// Rials (prices are kept in Toman, ten Rials each) with the ISO currency, e.g. "IRR 3500000–9000000";
// "" when no service has a price. Free services (price 0) say nothing about the range.
func priceRange(services []store.Service) string {
	var lo, hi int64
	for _, sv := range services {
		if sv.Price <= 0 {
			continue
		}
		if lo == 0 || sv.Price < lo {
			lo = sv.Price
		}
		hi = max(hi, sv.Price)
	}
	switch {
	case lo == 0:
		return ""
	case lo == hi:
		return fmt.Sprintf("IRR %d", lo*10)
	}
	return fmt.Sprintf("IRR %d–%d", lo*10, hi*10)
}

// crumb is one step of a breadcrumb trail: its name and its path on the site.
type crumb struct{ name, path string }

// breadcrumbList answers schema.org BreadcrumbList JSON-LD for the trail.
func (s *Server) breadcrumbList(r *http.Request, trail []crumb) map[string]any {
	items := make([]map[string]any, len(trail))
	for i, c := range trail {
		items[i] = map[string]any{"@type": "ListItem", "position": i + 1, "name": c.name, "item": s.siteURL(r, c.path)}
	}
	return map[string]any{"@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": items}
}
