package api_test

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"kardan/api"
	"kardan/store/storetest"
)

// TestPageLanguage serves the web app's real index.html and checks that <html lang dir> follow
// the visitor's language: the language cookie the app writes, else Accept-Language, else Persian.
// The page's boot script keeps its CSP hash, and the API keeps following Accept-Language.
func TestPageLanguage(t *testing.T) {
	index, err := os.ReadFile("../webui/index.html")
	if err != nil {
		t.Fatal(err)
	}
	st := storetest.Open(t)
	srv, err := api.New(api.Config{BaseURL: "https://kardan.example", Web: fstest.MapFS{
		"index.html": {Data: index},
	}}, st)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)

	get := func(t *testing.T, path, acceptLang, cookie string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		if acceptLang != "" {
			req.Header.Set("Accept-Language", acceptLang)
		}
		if cookie != "" {
			req.AddCookie(&http.Cookie{Name: "lang", Value: cookie})
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, string(body)
	}
	htmlTag := regexp.MustCompile(`<html[^>]*>`)
	for _, c := range []struct {
		name, path, acceptLang, cookie string
		want, title                    string
	}{
		{"PersianByDefault", "/", "", "", `<html lang="fa" dir="rtl">`, "کاردان"},
		{"EnglishBrowser", "/", "en-US,en;q=0.9", "", `<html lang="en" dir="ltr">`, "Kardan"},
		{"PersianBrowser", "/about", "fa-IR,fa;q=0.9,en;q=0.5", "", `<html lang="fa" dir="rtl">`, "درباره ما"},
		{"EnglishChoiceOverPersianBrowser", "/about", "fa", "en", `<html lang="en" dir="ltr">`, "About us"},
		{"PersianChoiceOverEnglishBrowser", "/search/iran", "en", "fa", `<html lang="fa" dir="rtl">`, "متخصصان و کسب‌وکارها در ایران"},
		{"UnknownCookieIgnored", "/", "en", "de", `<html lang="en" dir="ltr">`, "Kardan"},
		{"NotFoundPage", "/no-such-page", "", "en", `<html lang="en" dir="ltr">`, "Page Not Found"},
		{"ServiceWorkerShell", "/index.html", "", "en", `<html lang="en" dir="ltr">`, "Kardan"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, body := get(t, c.path, c.acceptLang, c.cookie)
			tags := htmlTag.FindAllString(body, -1)
			if len(tags) != 1 || tags[0] != c.want {
				t.Fatalf("got %v, want %s", tags, c.want)
			}
			if !strings.Contains(body, "<title>"+c.title) {
				t.Errorf("title not in the page's language: %s", body[:min(len(body), 600)])
			}
			if vary := strings.Join(res.Header.Values("Vary"), ","); !strings.Contains(vary, "Cookie") || !strings.Contains(vary, "Accept-Language") {
				t.Errorf("Vary %q: a cache would mix the languages", vary)
			}
		})
	}

	t.Run("BootScriptKeepsItsHash", func(t *testing.T) {
		m := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindStringSubmatch(string(index))
		if m == nil {
			t.Fatal("index.html has no inline boot script")
		}
		sum := sha256.Sum256([]byte(m[1]))
		want := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		for _, cookie := range []string{"fa", "en"} {
			res, body := get(t, "/", "", cookie)
			if !strings.Contains(body, "<script>"+m[1]+"</script>") {
				t.Errorf("%s: the boot script was changed in serving", cookie)
			}
			if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks the boot script's hash %s", cookie, csp, want)
			}
		}
	})

	t.Run("APIFollowsAcceptLanguage", func(t *testing.T) {
		// The spec's client sends its language on every call; the cookie decides only without it.
		for _, c := range []struct{ acceptLang, cookie, want string }{
			{"fa", "en", "موردی یافت نشد"}, {"en", "fa", "Item not found"}, {"", "en", "Item not found"}, {"", "", "موردی یافت نشد"},
		} {
			_, body := get(t, "/v1/no-such-call", c.acceptLang, c.cookie)
			if !strings.Contains(body, c.want) {
				t.Errorf("Accept-Language %q, cookie %q: got %s, want %s", c.acceptLang, c.cookie, body, c.want)
			}
		}
	})
}
