package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/gorilla/mux"
)

// TestWrongMethodIs405 sends every /v1 route of the table each method it does not take and
// expects 405 with the catalogue's message and an Allow header naming the methods it does take;
// unknown paths stay 404.
func TestWrongMethodIs405(t *testing.T) {
	_, _, srv := newRefServer(t)
	vars := regexp.MustCompile(`\{[a-zA-Z]+(:[^}]*)?\}`)
	takes := map[string]map[string]bool{} // concrete path → methods
	err := srv.router.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		tmpl, err := route.GetPathTemplate()
		if err != nil || !strings.HasPrefix(tmpl, "/v1/") {
			return nil
		}
		methods, err := route.GetMethods()
		if err != nil {
			return nil // a subrouter's prefix
		}
		path := vars.ReplaceAllString(tmpl, "7")
		if takes[path] == nil {
			takes[path] = map[string]bool{}
		}
		for _, m := range methods {
			takes[path][m] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(takes) < 40 {
		t.Fatalf("walked only %d paths", len(takes))
	}
	for path, methods := range takes {
		for _, m := range routeMethods {
			if methods[m] {
				continue
			}
			for _, lang := range []Lang{Fa, En} {
				req := httptest.NewRequest(m, path, strings.NewReader("{}"))
				req.Header.Set("Accept-Language", string(lang))
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, req)
				var env struct{ Message string }
				json.Unmarshal(rec.Body.Bytes(), &env)
				if rec.Code != http.StatusMethodNotAllowed || env.Message != message(lang, "method_not_allowed", nil) {
					t.Errorf("%s %s (%s): got %d %s", m, path, lang, rec.Code, rec.Body)
					continue
				}
				for allowed := range methods {
					if !strings.Contains(rec.Header().Get("Allow"), allowed) {
						t.Errorf("%s %s: Allow %q does not name %s", m, path, rec.Header().Get("Allow"), allowed)
					}
				}
			}
		}
	}
	for _, c := range [][2]string{{"GET", "/v1/nothing"}, {"POST", "/v1/user-technical/nothing"}, {"GET", "/v1/user-technical/abc"}, {"DELETE", "/v1/blog/get"}} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(c[0], c[1], nil))
		if rec.Code != http.StatusNotFound {
			t.Errorf("%s %s: got %d, want 404", c[0], c[1], rec.Code)
		}
	}
}
