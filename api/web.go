package api

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// handleWeb serves everything that is not the API: a file of the web app when one exists at the
// path, otherwise the app's index page with that page's meta (404 for pages that do not exist).
func (s *Server) handleWeb(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, r)
		return
	}
	p := r.URL.Path
	prefix := ""
	if p == enPrefix || strings.HasPrefix(p, enPrefix+"/") {
		// English has its own addresses, /en/…: the same page, in English whatever the
		// visitor's cookie or browser says, so a crawler can index both languages.
		prefix = enPrefix
		r = r.Clone(context.WithValue(context.WithValue(r.Context(), ctxLang, En), ctxEnAddress, true))
		r.URL.Path = strings.TrimPrefix(p, enPrefix)
		if r.URL.Path == "" {
			r.URL.Path = "/"
		}
		r.URL.RawPath = ""
		p = r.URL.Path
		if _, ok := s.web.files[p]; ok && p != "/index.html" {
			// Files live at one address only.
			http.Error(w, "404 page not found", http.StatusNotFound)
			return
		}
	}
	if p == "/index.html" {
		// The service worker precaches the app shell by this name; it gets the home page's meta.
		home := r.Clone(r.Context())
		home.URL.Path = "/"
		s.writeIndex(w, r, s.pageMeta(home))
		return
	}
	if f, ok := s.web.files[p]; ok {
		serveWebFile(w, r, p, f)
		return
	}
	if path.Ext(p) != "" && !strings.HasPrefix(p, "/profile/") && !strings.HasPrefix(p, "/blog/") {
		// A missing asset must not be answered with the HTML page: the browser would run it as script.
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	meta := s.pageMeta(r)
	meta.Prefix = prefix
	meta.First = s.firstAnswerFor(r, meta)
	if meta.Route == routeSearch && meta.Status == 0 {
		res := readSearchResults(meta.First)
		if res != nil && len(res.Payload.Profiles) > 0 {
			lds, _ := meta.JSONLD.([]any)
			meta.JSONLD = append(lds, s.itemList(r, res))
		}
		heading := meta.Heading
		if heading == "" {
			heading = meta.Title
		}
		meta.Content = searchContent(r, heading, meta.Search, res, s.now())
	}
	s.writeIndex(w, r, meta)
}

func serveWebFile(w http.ResponseWriter, r *http.Request, p string, f *webFile) {
	h := w.Header()
	if strings.HasPrefix(p, "/assets/") {
		// Vite names these by content hash: a changed file is a new name.
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	h.Set("Content-Type", f.ctype)
	h.Set("ETag", f.etag)
	h.Add("Vary", "Accept-Encoding")
	if match := r.Header.Get("If-None-Match"); match != "" && match == f.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := f.body
	switch ae := r.Header.Get("Accept-Encoding"); {
	case f.br != nil && acceptsEncoding(ae, "br"):
		h.Set("Content-Encoding", "br")
		body = f.br
	case f.gz != nil && acceptsEncoding(ae, "gzip"):
		h.Set("Content-Encoding", "gzip")
		body = f.gz
	}
	h.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// acceptsEncoding reports whether an Accept-Encoding header accepts the coding: named (or "*")
// with a quality above zero.
func acceptsEncoding(header, coding string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != coding && name != "*" {
			continue
		}
		ok := true
		for _, p := range strings.Split(params, ";") {
			if k, v, found := strings.Cut(strings.TrimSpace(p), "="); found && strings.EqualFold(strings.TrimSpace(k), "q") {
				if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil || q <= 0 {
					ok = false
				}
			}
		}
		if name == coding {
			return ok
		}
		star = ok
	}
	return star
}

// pageMeta is what the server writes into the index page for one page.
type pageMeta struct {
	Status      int
	Title       string
	Heading     string // the page's h1 in its server-written content, when it is not the title
	Description string
	Path        string // canonical path
	Image       string
	ImageWidth  int    // the image's size, when known (the share cards')
	ImageHeight int    //
	ImageAlt    string // the image's text alternative
	Type        string // Open Graph type
	JSONLD      any
	NoIndex     bool
	Route       string       // the page's source in Vite's manifest, whose code is preloaded
	First       *firstAnswer // the answer to the page's first API request, for its app to take
	Content     string       // the page's main content as HTML, for readers without the app
	Prefix      string       // the language's address prefix the page was asked under ("" or "/en")
	Search      *searchPlace // a search page's city and category, for its filters
}

// enAddress answers the English address of a page's path.
func enAddress(p string) string {
	if p == "/" {
		return enPrefix
	}
	return enPrefix + p
}

// enPrefix is where the English pages live: /en/profile/x is /profile/x in English.
const enPrefix = "/en"

// sitePath answers the address of a page's path as the page being written links it: under /en
// when that page was asked for under /en, so an English page's links, JSON-LD ids, breadcrumbs
// and lists stay in English, and the Persian address otherwise.
func sitePath(r *http.Request, p string) string {
	if en, _ := r.Context().Value(ctxEnAddress).(bool); en {
		return enAddress(p)
	}
	return p
}

// siteURL is sitePath as an absolute address.
func (s *Server) siteURL(r *http.Request, p string) string { return s.cfg.BaseURL + sitePath(r, p) }

// writeIndex writes the app's index page with meta filled in.
func (s *Server) writeIndex(w http.ResponseWriter, r *http.Request, m pageMeta) {
	lang := langOf(r)
	siteName := message(lang, "site_name", nil)
	title := m.Title
	if title == "" {
		title = siteName
	} else if title != siteName {
		title += " | " + siteName
	}
	if m.Type == "" {
		m.Type = "website"
	}
	var b strings.Builder
	b.Grow(len(s.web.indexHead) + len(s.web.indexMid) + len(s.web.indexTail) + 1024)
	b.WriteString(s.web.heads[lang])
	b.WriteString(html.EscapeString(title))
	b.WriteString(s.web.indexMid)
	esc := html.EscapeString
	tag := func(attr, key, val string) {
		if val != "" {
			fmt.Fprintf(&b, `<meta %s="%s" content="%s">`, attr, key, esc(val))
		}
	}
	tag("name", "description", m.Description)
	if m.NoIndex {
		tag("name", "robots", "noindex")
	}
	canonical := ""
	if m.Path != "" {
		canonical = s.cfg.BaseURL + m.Path
		if m.Prefix != "" {
			canonical = s.cfg.BaseURL + enAddress(m.Path)
		}
		fmt.Fprintf(&b, `<link rel="canonical" href="%s">`, esc(canonical))
		if !m.NoIndex {
			// Each language's address names the other, and Persian is the default.
			fa, en := s.cfg.BaseURL+m.Path, s.cfg.BaseURL+enAddress(m.Path)
			fmt.Fprintf(&b, `<link rel="alternate" hreflang="fa" href="%s"><link rel="alternate" hreflang="en" href="%s"><link rel="alternate" hreflang="x-default" href="%s">`,
				esc(fa), esc(en), esc(fa))
		}
	}
	tag("property", "og:site_name", siteName)
	tag("property", "og:title", title)
	tag("property", "og:description", m.Description)
	tag("property", "og:type", m.Type)
	tag("property", "og:url", canonical)
	if m.Image == "" && m.Status == 0 {
		// Every page shares with a picture: the site's card when it has none of its own.
		m.Image, m.ImageWidth, m.ImageHeight = ogSitePath, ogWidth, ogHeight
		m.ImageAlt = message(lang, "og_site_alt", nil)
	}
	if m.Image != "" {
		img := absolute(s.cfg.BaseURL, m.Image)
		tag("property", "og:image", img)
		if strings.HasPrefix(img, "https://") {
			tag("property", "og:image:secure_url", img)
		}
		if m.ImageWidth > 0 && m.ImageHeight > 0 {
			tag("property", "og:image:width", fmt.Sprint(m.ImageWidth))
			tag("property", "og:image:height", fmt.Sprint(m.ImageHeight))
		}
		if m.ImageAlt == "" {
			m.ImageAlt = m.Title
		}
		tag("property", "og:image:alt", m.ImageAlt)
		tag("name", "twitter:card", "summary_large_image")
		tag("name", "twitter:image:alt", m.ImageAlt)
	} else {
		tag("name", "twitter:card", "summary")
	}
	if lang == En {
		tag("property", "og:locale", "en_US")
	} else {
		tag("property", "og:locale", "fa_IR")
	}
	lds, ok := m.JSONLD.([]any)
	if !ok && m.JSONLD != nil {
		lds = []any{m.JSONLD}
	}
	for _, ld := range lds {
		if data, err := json.Marshal(ld); err == nil {
			// JSON-LD is data, not script: it is allowed under script-src 'self'. "<" is escaped by
			// encoding/json, so no "</script>" can end it early.
			fmt.Fprintf(&b, `<script type="application/ld+json">%s</script>`, data)
		}
	}
	b.WriteString(s.web.preloads[m.Route])
	b.WriteString(s.web.langPreloads[lang])
	if s.web.appAt >= 0 && m.Content != "" {
		b.WriteString(s.web.indexTail[:s.web.appAt])
		b.WriteString(m.Content)
		b.WriteString(s.web.indexTail[s.web.appAt:])
	} else {
		b.WriteString(s.web.indexTail)
	}
	if m.First != nil {
		b.Write(appendFirstAnswer(nil, m.First))
	}
	b.WriteString(s.web.indexEnd)

	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	// The page's language, direction and texts follow the language cookie and Accept-Language.
	h.Add("Vary", "Cookie")
	h.Add("Vary", "Accept-Language")
	if m.NoIndex {
		// Also as a header: a crawler reads it without parsing the page, and it holds for any
		// client that never sees the meta tag.
		h.Set("X-Robots-Tag", "noindex")
	}
	if m.Status == 0 || m.Status == http.StatusOK {
		// The ETag (the page's hash) is the only validator: no Last-Modified, because a page
		// changes without any record's date moving (the open badge and today's hours follow the
		// clock, a search page follows other profiles), and a client revalidating by date alone
		// would keep the stale page.
		writeConditional(w, r, []byte(b.String()))
		return
	}
	w.WriteHeader(m.Status)
	if r.Method != http.MethodHead {
		w.Write([]byte(b.String()))
	}
}
