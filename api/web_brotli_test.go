package api_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"kardan/api"
	"kardan/store/storetest"
)

// TestBrotliAssets: a built file with a Brotli form beside it (x.js.br, written at build time)
// is answered in Brotli to a client that accepts br, in gzip to one that accepts only gzip (or
// refuses br with q=0), as it is to one that accepts neither; the .br file has no address of its
// own, and every answer says it varies by Accept-Encoding.
func TestBrotliAssets(t *testing.T) {
	js := []byte(strings.Repeat("console.log('کاردان');\n", 200))
	br := []byte("pretend-brotli-bytes") // the server never decodes it: it sends what the build wrote
	st := storetest.Open(t)
	srv, err := api.New(api.Config{BaseURL: "http://kardan.example", Web: fstest.MapFS{
		"index.html":       {Data: []byte(`<!doctype html><html><head><title>x</title></head><body><div id="app"></div></body></html>`)},
		"assets/app.js":    {Data: js},
		"assets/app.js.br": {Data: br},
		"assets/other.css": {Data: bytes.Repeat([]byte("a{b:c}"), 200)},
	}}, st)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(path, ae string) (*http.Response, []byte) {
		t.Helper()
		r, _ := http.NewRequest("GET", ts.URL+path, nil)
		if ae != "" {
			r.Header.Set("Accept-Encoding", ae)
		}
		res, err := client.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, b
	}
	for _, c := range []struct{ path, ae, want string }{
		{"/assets/app.js", "gzip, deflate, br, zstd", "br"},
		{"/assets/app.js", "br", "br"},
		{"/assets/app.js", "*", "br"},
		{"/assets/app.js", "gzip", "gzip"},
		{"/assets/app.js", "br;q=0, gzip", "gzip"},
		{"/assets/app.js", "BR ; q=0.5", "br"},
		{"/assets/app.js", "", ""},
		{"/assets/app.js", "gzip;q=0", ""},
		{"/assets/other.css", "br, gzip", "gzip"}, // no Brotli form: gzip
	} {
		res, body := get(c.path, c.ae)
		if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != c.want {
			t.Errorf("%s with %q: %d, encoding %q, want %q", c.path, c.ae, res.StatusCode, res.Header.Get("Content-Encoding"), c.want)
			continue
		}
		if !strings.Contains(strings.Join(res.Header.Values("Vary"), ","), "Accept-Encoding") {
			t.Errorf("%s with %q: Vary %v", c.path, c.ae, res.Header.Values("Vary"))
		}
		switch c.want {
		case "br":
			if !bytes.Equal(body, br) {
				t.Errorf("%s: not the build's Brotli form", c.path)
			}
		case "gzip":
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			plain, _ := io.ReadAll(zr)
			if c.path == "/assets/app.js" && !bytes.Equal(plain, js) {
				t.Errorf("%s: gzip form differs from the file", c.path)
			}
		case "":
			if !bytes.Equal(body, js) {
				t.Errorf("%s: identity form differs", c.path)
			}
		}
	}
	if res, _ := get("/assets/app.js.br", "br"); res.StatusCode != 404 {
		t.Errorf("the Brotli form has an address of its own: %d", res.StatusCode)
	}
}
