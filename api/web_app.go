// Loading the built web app: its files, Vite's manifest, preloads and the inline scripts' CSP
// hashes, read once at start; serving pages from it is in web.go.
package api

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"mime"
	"path"
	"regexp"
	"slices"
	"strings"
)

// webFile is one file of the built web app, read once at start-up with its gzip form, so a
// hashed asset is answered from memory without compressing it again, and its Brotli form when the
// build wrote one beside it (x.js.br, webui/scripts/precompress.mjs).
type webFile struct {
	body  []byte
	gz    []byte
	br    []byte
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
	// langPreloads are the tags that load a language's texts with the page, before the app's
	// script: the app carries Persian; an English page runs the English texts' own entry first
	// (webui/src/i18n/texts.en.ts), so the app draws as soon as it runs, in one task, instead of
	// after fetching them (one more round trip, and a first draw after the server's page has
	// painted, which blocks input).
	langPreloads map[Lang]string
}

// Routes whose code the index page preloads: without it a browser learns of a page's chunk only
// after the app's script has run, one more round trip before a profile or a search shows.
const (
	routeProfile = "src/pages/Profile/index.tsx"
	routeSearch  = "src/pages/Search/index.tsx"
	routeBlog    = "src/pages/BlogPost/index.tsx"
)

const viteManifest = "/.vite/manifest.json"

// textsEn is the English texts' entry in Vite's manifest (webui/src/i18n).
const textsEn = "src/i18n/texts.en.ts"

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
	for p, f := range app.files {
		// A Brotli form belongs to its file; it is not served under its own name.
		if orig, ok := app.files[strings.TrimSuffix(p, ".br")]; ok && strings.HasSuffix(p, ".br") {
			orig.br = f.body
			delete(app.files, p)
		}
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
		if c, ok := chunks[textsEn]; ok {
			// Module scripts run in the order of the page, so before the app's, which comes after.
			app.langPreloads = map[Lang]string{En: fmt.Sprintf(`<script type="module" crossorigin src="/%s"></script>`, html.EscapeString(c.File))}
		}
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
