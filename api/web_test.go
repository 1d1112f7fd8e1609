package api_test

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"kardan/api"
	"kardan/store/storetest"
)

const manifest = `{
  "index.html": {"file": "assets/app.js", "isEntry": true, "css": ["assets/app.css"]},
  "src/pages/Search/index.tsx": {"file": "assets/Search-1.js", "isDynamicEntry": true,
    "imports": ["index.html", "_Pager-2.js"], "css": ["assets/Search-3.css"]},
  "_Pager-2.js": {"file": "assets/Pager-2.js", "imports": ["index.html"]},
  "src/i18n/texts.en.ts": {"file": "assets/textsEn-5.js", "isEntry": true, "isDynamicEntry": true},
  "node_modules/@fontsource/vazirmatn/files/vazirmatn-arabic-400-normal.woff2": {"file": "assets/vazirmatn-400-4.woff2"}
}`

// TestInlineScriptHashInCSP checks that the index page's inline boot script is allowed by the
// policy by its own hash, and that nothing else inline is.
func TestInlineScriptHashInCSP(t *testing.T) {
	const boot = `(function(){document.documentElement.setAttribute('data-theme','light')})();`
	index := `<!doctype html><html><head><title>x</title><!--app-meta--><script>` + boot + `</script>` +
		`<script type="module" src="/assets/app.js"></script></head><body></body></html>`
	st := storetest.Open(t)
	srv, err := api.New(api.Config{BaseURL: "http://kardan.example", Web: fstest.MapFS{
		"index.html":          {Data: []byte(index)},
		"assets/app.js":       {Data: []byte("console.log(1)")},
		".vite/manifest.json": {Data: []byte(manifest)},
	}}, st)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)

	sum := sha256.Sum256([]byte(boot))
	want := "script-src 'self' 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "';"
	for _, path := range []string{"/", "/search/iran", "/assets/app.js"} {
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, want) {
			t.Errorf("%s: CSP %q lacks %q", path, csp, want)
		}
		if path == "/" && !strings.Contains(string(body), boot) {
			t.Errorf("index page lost its inline script: %s", body)
		}
	}

	t.Run("RoutePreloads", func(t *testing.T) {
		get := func(path string) (int, string) {
			res, err := http.Get(ts.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			return res.StatusCode, string(body)
		}
		_, page := get("/search/iran?q=x")
		for _, want := range []string{
			`<link rel="modulepreload" crossorigin href="/assets/Search-1.js">`,
			`<link rel="stylesheet" crossorigin href="/assets/Search-3.css">`,
			`<link rel="modulepreload" crossorigin href="/assets/Pager-2.js">`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("search page lacks %s: %s", want, page)
			}
		}
		if strings.Contains(page, `href="/assets/app.js"`) {
			t.Errorf("the entry chunk is preloaded again: %s", page)
		}
		if _, home := get("/"); strings.Contains(home, "modulepreload") {
			t.Errorf("home preloads a route's code or the English texts: %s", home)
		}
		// An English page runs its texts' script before the app's (module scripts run in the
		// page's order), so the app starts with them; a Persian page never loads them.
		enText := `<script type="module" crossorigin src="/assets/textsEn-5.js"></script>`
		for _, path := range []string{"/en", "/en/search/iran?q=x"} {
			_, p := get(path)
			texts, app := strings.Index(p, enText), strings.Index(p, `src="/assets/app.js"`)
			if texts < 0 || app < 0 || texts > app {
				t.Errorf("%s does not load the English texts before the app (texts at %d, app at %d): %s", path, texts, app, p)
			}
		}
		for _, path := range []string{"/", "/search/iran?q=x"} {
			if _, p := get(path); strings.Contains(p, "textsEn") {
				t.Errorf("Persian page %s loads the English texts: %s", path, p)
			}
		}
		// Every page asks for the web font with the page, not once its text is drawn.
		for _, path := range []string{"/", "/search/iran", "/no-such-page"} {
			_, p := get(path)
			font := strings.Index(p, `<link rel="preload" as="font" type="font/woff2" crossorigin href="/assets/vazirmatn-400-4.woff2">`)
			if font < 0 {
				t.Errorf("%s does not preload the font: %s", path, p)
			}
			// After the app's own script, which the page needs first.
			if app := strings.Index(p, `src="/assets/app.js"`); font < app || font > strings.Index(p, "</head>") {
				t.Errorf("%s: the font is not asked for after the app, in the head: %s", path, p)
			}
		}
		if code, _ := get("/.vite/manifest.json"); code != http.StatusNotFound {
			t.Errorf("manifest: got %d, want 404", code)
		}
	})
}
