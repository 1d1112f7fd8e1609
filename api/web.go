package api

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"
)

// webFile is one file of the built web app, read once at start-up with its gzip form, so a
// hashed asset is answered from memory without compressing it again.
type webFile struct {
	body  []byte
	gz    []byte
	etag  string
	ctype string
}

// webApp is the embedded web app: its files and the index page split around the spots the
// server fills per page.
type webApp struct {
	files map[string]*webFile
	// index is index.html cut at its <title> contents and at the <!--app-meta--> marker.
	indexHead, indexMid, indexTail string
	// heads is indexHead per language: its <html> tag carries that language and direction. Made
	// once at start-up from the embedded page, which cannot change while the server runs
	// (TestPageLanguage, TestHTMLLang).
	heads map[Lang]string
	// indexEnd is the page from its </body> on: a page's first API answer goes before it.
	indexEnd string
	// appAt is where in indexTail the app's root is empty, just after its opening tag: a page's
	// server-rendered content goes there (-1: no root found).
	appAt     int
	hasMarker bool
	// scriptHashes are the CSP sources ('sha256-…') of the index page's inline scripts, taken
	// from the built file itself, so an edited script can never drift from the policy.
	scriptHashes []string
	// preloads are the <link> tags that fetch a page's own code with the page, by route (a page
	// source of Vite's manifest, such as "src/pages/Profile/index.tsx").
	preloads map[string]string
}

// Routes whose code the index page preloads: without it a browser learns of a page's chunk only
// after the app's script has run, one more round trip before a profile or a search shows.
const (
	routeProfile = "src/pages/Profile/index.tsx"
	routeSearch  = "src/pages/Search/index.tsx"
	routeBlog    = "src/pages/BlogPost/index.tsx"
)

const viteManifest = "/.vite/manifest.json"

const metaMarker = "<!--app-meta-->"

func loadWebApp(fsys fs.FS) (*webApp, error) {
	if fsys == nil {
		app := *fallbackWeb
		app.splitIndex(string(app.files["/index.html"].body))
		return &app, nil
	}
	app := &webApp{files: map[string]*webFile{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		f := &webFile{body: body, etag: `"` + hex.EncodeToString(sum[:8]) + `"`, ctype: contentType(p)}
		if compressible(f.ctype) && len(body) > 512 {
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			zw.Write(body)
			zw.Close()
			f.gz = buf.Bytes()
		}
		app.files["/"+p] = f
		return nil
	})
	if err != nil {
		return nil, err
	}
	index, ok := app.files["/index.html"]
	if !ok {
		index = fallbackWeb.files["/index.html"]
		app.files["/index.html"] = index
	}
	app.splitIndex(string(index.body))
	app.scriptHashes = inlineScriptHashes(string(index.body))
	if m, ok := app.files[viteManifest]; ok {
		// The manifest is for the server only; it is not served.
		delete(app.files, viteManifest)
		var chunks map[string]manifestChunk
		if err := json.Unmarshal(m.body, &chunks); err != nil {
			return nil, fmt.Errorf("%s: %w", viteManifest, err)
		}
		app.preloads = routePreloads(chunks, routeProfile, routeSearch, routeBlog)
		fonts := fontPreloads(chunks)
		// At the end of the head: the app's script and stylesheet are asked for first.
		if i := strings.LastIndex(app.indexTail, "</head>"); i >= 0 {
			app.indexTail = app.indexTail[:i] + fonts + app.indexTail[i:]
			app.findAppRoot()
		}
	}
	return app, nil
}

// fontPreloads answers the tags that preload the app's web fonts (its .woff2 files, which the
// entry stylesheet uses on every page). Found through the stylesheet, a font is asked for only
// once the app has drawn text: the first layout then shapes every line in a fallback font, and
// again when the font arrives. Asked for with the page, it is there before the app draws.
func fontPreloads(m map[string]manifestChunk) string {
	var files []string
	for _, c := range m {
		if strings.HasSuffix(c.File, ".woff2") {
			files = append(files, c.File)
		}
	}
	slices.Sort(files)
	var b strings.Builder
	for _, f := range files {
		fmt.Fprintf(&b, `<link rel="preload" as="font" type="font/woff2" crossorigin href="/%s">`, html.EscapeString(f))
	}
	return b.String()
}

// manifestChunk is one entry of Vite's build manifest.
type manifestChunk struct {
	File    string   `json:"file"`
	IsEntry bool     `json:"isEntry"`
	Imports []string `json:"imports"`
	CSS     []string `json:"css"`
}

// routePreloads answers, for each route, the tags that preload its chunk and the chunks it
// imports, and the stylesheets they use; the entry chunk is left out, since the page loads it
// anyway. The styles are linked outright (a few KB, fetched beside the app's own stylesheet), so
// the page is styled at its first layout instead of again when the app adds them; the app sees
// them linked and does not add them twice.
func routePreloads(m map[string]manifestChunk, routes ...string) map[string]string {
	out := map[string]string{}
	for _, route := range routes {
		if _, ok := m[route]; !ok {
			continue
		}
		var b strings.Builder
		seen := map[string]bool{}
		var walk func(key string)
		walk = func(key string) {
			c, ok := m[key]
			if !ok || c.IsEntry || seen[key] {
				return
			}
			seen[key] = true
			fmt.Fprintf(&b, `<link rel="modulepreload" crossorigin href="/%s">`, html.EscapeString(c.File))
			for _, css := range c.CSS {
				if !seen[css] {
					seen[css] = true
					fmt.Fprintf(&b, `<link rel="stylesheet" crossorigin href="/%s">`, html.EscapeString(css))
				}
			}
			for _, imp := range c.Imports {
				walk(imp)
			}
		}
		walk(route)
		out[route] = b.String()
	}
	return out
}

var inlineScript = regexp.MustCompile(`(?is)<script([^>]*)>(.*?)</script>`)

// inlineScriptHashes answers the CSP hash source of every inline script the browser would run:
// the boot script that sets theme and direction before the first paint lives in index.html, as a
// separate file it would cost a render-blocking request. Scripts with a src and data blocks (JSON)
// are left out.
func inlineScriptHashes(page string) []string {
	var out []string
	for _, m := range inlineScript.FindAllStringSubmatch(page, -1) {
		attrs := strings.ToLower(m[1])
		if strings.Contains(attrs, "src=") || (strings.Contains(attrs, "type=") && !strings.Contains(attrs, "javascript") && !strings.Contains(attrs, "module")) {
			continue
		}
		sum := sha256.Sum256([]byte(m[2]))
		out = append(out, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	return out
}

// fallbackWeb serves when no web app was embedded at all (a test build).
var fallbackWeb = func() *webApp {
	body := []byte(`<!doctype html><html lang="fa" dir="rtl"><head><meta charset="utf-8"><title>کاردان</title>` +
		metaMarker + `</head><body>` + appRoot + `</div><noscript><p>Kardan</p></noscript></body></html>`)
	return &webApp{files: map[string]*webFile{"/index.html": {body: body, ctype: "text/html; charset=utf-8"}}}
}()

func (a *webApp) splitIndex(s string) {
	// The title's contents are replaced per page; the marker becomes the page's meta tags.
	open := strings.Index(s, "<title>")
	end := strings.Index(s, "</title>")
	if open < 0 || end < open {
		i := strings.Index(s, "</head>")
		if i < 0 {
			i = 0
		}
		s = s[:i] + "<title></title>" + s[i:]
		open = strings.Index(s, "<title>")
		end = strings.Index(s, "</title>")
	}
	head := s[:open+len("<title>")]
	a.heads = map[Lang]string{Fa: htmlLang(head, Fa), En: htmlLang(head, En)}
	rest := s[end:]
	if m := strings.Index(rest, metaMarker); m >= 0 {
		a.hasMarker = true
		a.indexHead, a.indexMid, a.indexTail = head, rest[:m], rest[m+len(metaMarker):]
	} else {
		// No marker: put the meta right after the title.
		a.indexHead, a.indexMid, a.indexTail = head, "</title>", rest[len("</title>"):]
	}
	if i := strings.LastIndex(a.indexTail, "</body>"); i >= 0 {
		a.indexTail, a.indexEnd = a.indexTail[:i], a.indexTail[i:]
	}
	a.findAppRoot()
}

// findAppRoot sets appAt; called again whenever indexTail changes.
func (a *webApp) findAppRoot() {
	a.appAt = -1
	if i := strings.Index(a.indexTail, appRoot+"</div>"); i >= 0 {
		a.appAt = i + len(appRoot)
	}
}

// appRoot is the element the app draws into (webui/index.html).
const appRoot = `<div id="app">`

var (
	htmlTag  = regexp.MustCompile(`(?i)<html\b[^>]*>`)
	langAttr = regexp.MustCompile(`(?i)\s(lang|dir)\s*=\s*("[^"]*"|'[^']*'|[^\s>]*)`)
)

// htmlLang answers head with its <html> tag set to lang and its direction (fa right-to-left),
// other attributes kept; a head without the tag is answered as it is.
func htmlLang(head string, lang Lang) string {
	loc := htmlTag.FindStringIndex(head)
	if loc == nil {
		return head
	}
	dir := "rtl"
	if lang == En {
		dir = "ltr"
	}
	tag := head[loc[0]:loc[1]]
	rest := langAttr.ReplaceAllString(tag[len("<html"):len(tag)-1], "")
	tag = fmt.Sprintf(`<html lang="%s" dir="%s"%s>`, lang, dir, rest)
	return head[:loc[0]] + tag + head[loc[1]:]
}

func contentType(p string) string {
	switch path.Ext(p) {
	case ".webmanifest":
		return "application/manifest+json"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".html":
		return "text/html; charset=utf-8"
	case ".woff2":
		return "font/woff2"
	}
	if t := mime.TypeByExtension(path.Ext(p)); t != "" {
		return t
	}
	return "application/octet-stream"
}

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
		r = r.Clone(context.WithValue(r.Context(), ctxLang, En))
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
			meta.JSONLD = append(lds, s.itemList(res))
		}
		meta.Content = searchContent(langOf(r), meta.Title, res)
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
	if f.gz != nil && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		body = f.gz
	}
	h.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// pageMeta is what the server writes into the index page for one page.
type pageMeta struct {
	Status      int
	Title       string
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
		writeConditional(w, r, []byte(b.String()), time.Time{})
		return
	}
	w.WriteHeader(m.Status)
	if r.Method != http.MethodHead {
		w.Write([]byte(b.String()))
	}
}
