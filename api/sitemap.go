package api

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"kardan/store"
)

// sitemapPage is how many pages one sitemap file lists: each twice, in Persian and under /en/ in
// English, so 50,000 addresses, the protocol's limit.
const sitemapPage = 25000

type sitemapURL struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod,omitempty"`
}

type urlSet struct {
	XMLName xml.Name     `xml:"urlset"`
	NS      string       `xml:"xmlns,attr"`
	URLs    []sitemapURL `xml:"url"`
}

type sitemapIndex struct {
	XMLName  xml.Name     `xml:"sitemapindex"`
	NS       string       `xml:"xmlns,attr"`
	Sitemaps []sitemapURL `xml:"sitemap"`
}

const sitemapNS = "http://www.sitemaps.org/schemas/sitemap/0.9"

// writeXML writes a sitemap with an ETag, so a crawler that asks again gets 304 while nothing
// listed changed. No Last-Modified: a profile that leaves the list changes no date in it, and a
// date-only revalidation would then keep the stale list.
func writeXML(w http.ResponseWriter, r *http.Request, v any) error {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	if err := xml.NewEncoder(&b).Encode(v); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	writeConditional(w, r, b.Bytes())
	return nil
}

// handleSitemapIndex handles "GET /sitemap.xml": the index of the static pages' sitemap and one
// sitemap per 40,000 visible profiles.
func (s *Server) handleSitemapIndex(w http.ResponseWriter, r *http.Request) error {
	_, total, err := s.store.VisibleProfileSlugs(r.Context(), 0, 0)
	if err != nil {
		return err
	}
	idx := sitemapIndex{NS: sitemapNS, Sitemaps: []sitemapURL{{Loc: s.cfg.BaseURL + "/sitemap-pages.xml"}}}
	for page := 1; (page-1)*sitemapPage < total; page++ {
		idx.Sitemaps = append(idx.Sitemaps, sitemapURL{Loc: fmt.Sprintf("%s/sitemap-profiles-%d.xml", s.cfg.BaseURL, page)})
	}
	_, blogs, err := s.store.Blogs(r.Context(), store.BlogFilter{PublishedOnly: true, Limit: 1})
	if err != nil {
		return err
	}
	for page := 1; (page-1)*sitemapPage < blogs; page++ {
		idx.Sitemaps = append(idx.Sitemaps, sitemapURL{Loc: fmt.Sprintf("%s/sitemap-blogs-%d.xml", s.cfg.BaseURL, page)})
	}
	return writeXML(w, r, idx)
}

// handleSitemapPages handles "GET /sitemap-pages.xml": the fixed public pages.
func (s *Server) handleSitemapPages(w http.ResponseWriter, r *http.Request) error {
	set := urlSet{NS: sitemapNS}
	for _, p := range []string{"/", "/search/iran", "/map", "/blog", "/about", "/contact", "/terms", "/terms/privacy",
		"/terms/secure-service", "/terms/prohibited"} {
		set.URLs = append(set.URLs, sitemapURL{Loc: s.cfg.BaseURL + p}, sitemapURL{Loc: s.cfg.BaseURL + enAddress(p)})
	}
	return writeXML(w, r, set)
}

// handleSitemapProfiles handles "GET /sitemap-profiles-{page}.xml".
func (s *Server) handleSitemapProfiles(w http.ResponseWriter, r *http.Request) error {
	page, err := strconv.Atoi(mux.Vars(r)["page"])
	if err != nil || page < 1 {
		return store.NotFound()
	}
	entries, _, err := s.store.VisibleProfileSlugs(r.Context(), (page-1)*sitemapPage, sitemapPage)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return store.NotFound()
	}
	set := urlSet{NS: sitemapNS, URLs: make([]sitemapURL, 0, 2*len(entries))}
	for _, e := range entries {
		p, mod := "/profile/"+url.PathEscape(e.Slug), time.Unix(e.UpdateAt, 0).UTC().Format("2006-01-02")
		set.URLs = append(set.URLs, sitemapURL{Loc: s.cfg.BaseURL + p, LastMod: mod}, sitemapURL{Loc: s.cfg.BaseURL + enAddress(p), LastMod: mod})
	}
	return writeXML(w, r, set)
}

// handleSitemapBlogs handles "GET /sitemap-blogs-{page}.xml": the published blogs.
func (s *Server) handleSitemapBlogs(w http.ResponseWriter, r *http.Request) error {
	page, err := strconv.Atoi(mux.Vars(r)["page"])
	if err != nil || page < 1 {
		return store.NotFound()
	}
	blogs, _, err := s.store.Blogs(r.Context(), store.BlogFilter{PublishedOnly: true, Offset: (page - 1) * sitemapPage, Limit: sitemapPage})
	if err != nil {
		return err
	}
	if len(blogs) == 0 {
		return store.NotFound()
	}
	set := urlSet{NS: sitemapNS, URLs: make([]sitemapURL, 0, 2*len(blogs))}
	for _, b := range blogs {
		p, mod := "/blog/"+url.PathEscape(b.Slug), time.Unix(b.UpdateAt, 0).UTC().Format("2006-01-02")
		set.URLs = append(set.URLs, sitemapURL{Loc: s.cfg.BaseURL + p, LastMod: mod}, sitemapURL{Loc: s.cfg.BaseURL + enAddress(p), LastMod: mod})
	}
	return writeXML(w, r, set)
}

// robotsDisallow are the only paths crawlers are kept out of: the API and the first-run setup,
// which are not pages. Private pages (/dashboard, /login, /register) are NOT here: a crawler must
// fetch them to read their noindex (meta and X-Robots-Tag); blocked, their address could still be
// indexed from links. Only Disallow lines and no "Allow: /", so parsers that take the first
// matching rule and parsers that take the longest (RFC 9309) read the file the same
// (TestRobotsReadAlike).
var robotsDisallow = []string{"/v1/", "/setup/"}

// handleRobots handles "GET /robots.txt".
func (s *Server) handleRobots(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for _, p := range robotsDisallow {
		fmt.Fprintf(&b, "Disallow: %s\n", p)
	}
	fmt.Fprintf(&b, "\nSitemap: %s/sitemap.xml\n", s.cfg.BaseURL)
	writeConditional(w, r, []byte(b.String()))
}
