package api

import (
	"net/http"
	"strconv"
	"strings"
)

// staticPages are the web app's fixed pages: path → catalogue key of their title and
// description ("page.<key>.title", "page.<key>.desc").
var staticPages = map[string]string{
	"/":                     "home",
	"/about":                "about",
	"/blog":                 "blog",
	"/contact":              "contact",
	"/login":                "login",
	"/register":             "register",
	"/map":                  "map",
	"/terms":                "terms",
	"/terms/privacy":        "privacy",
	"/terms/secure-service": "secure_service",
	"/terms/prohibited":     "prohibited",
	"/offline":              "offline",
	"/saved":                "saved",
}

// pageMeta answers the meta of the page at r's path; unknown paths are 404 with the not-found
// meta, so the app shows its not-found page and search engines do not index it.
func (s *Server) pageMeta(r *http.Request) pageMeta {
	lang := langOf(r)
	p := strings.TrimSuffix(r.URL.Path, "/")
	if p == "" {
		p = "/"
	}
	page := func(key string) pageMeta {
		return pageMeta{
			Title:       message(lang, "page."+key+".title", nil),
			Description: message(lang, "page."+key+".desc", nil),
			Path:        p,
		}
	}
	if key, ok := staticPages[p]; ok {
		m := page(key)
		switch key {
		case "home":
			m.Title = message(lang, "site_name", nil)
			m.JSONLD = map[string]any{
				"@context": "https://schema.org", "@type": "WebSite", "name": m.Title, "url": s.siteURL(r, "/"),
				"potentialAction": map[string]any{
					"@type": "SearchAction", "target": s.siteURL(r, "/search/iran") + "?q={search_term_string}",
					"query-input": "required name=search_term_string",
				},
			}
		case "login", "register", "offline", "saved":
			m.NoIndex = true
		}
		return m
	}
	switch {
	case p == "/search":
		m := page("search")
		m.Route = routeSearch
		return m
	case strings.HasPrefix(p, "/search/"):
		if m, ok := s.searchMeta(r, p); ok {
			m.Route = routeSearch
			return m
		}
	case strings.HasPrefix(p, "/preview/"):
		// The owner's or an admin's preview of a profile not public yet: the page asks the API
		// with the visitor's token (which this request does not carry) and shows not-found to
		// anyone else. Never indexed.
		m := page("preview")
		m.NoIndex = true
		return m
	case p == "/dashboard" || strings.HasPrefix(p, "/dashboard/"):
		m := page("dashboard")
		m.NoIndex = true
		return m
	case strings.HasPrefix(p, "/profile/"):
		if m, ok := s.profileMeta(r, strings.TrimPrefix(p, "/profile/")); ok {
			m.Route = routeProfile
			return m
		}
	case strings.HasPrefix(p, "/poster/"):
		// A public profile's printable poster: not for search engines, 404 like the profile.
		if id, err := strconv.ParseInt(strings.TrimPrefix(p, "/poster/"), 10, 64); err == nil && id > 0 {
			if pr, err := s.store.Profile(r.Context(), id); err == nil && pr.Visible() {
				m := page("poster")
				m.Title = message(lang, "page.poster.title", nil) + " – " + pr.ProfileName
				m.NoIndex = true
				return m
			}
		}
	case strings.HasPrefix(p, "/blog/"):
		if m, ok := s.blogMeta(r, strings.TrimPrefix(p, "/blog/")); ok {
			m.Route = routeBlog
			return m
		}
	}
	return pageMeta{
		Status:      http.StatusNotFound,
		Title:       message(lang, "page_not_found", nil),
		Description: message(lang, "page_not_exist", nil),
		NoIndex:     true,
	}
}
