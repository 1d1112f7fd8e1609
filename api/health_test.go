package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kardan/api"
	"kardan/store/storetest"
)

// While serve builds the search index, /healthz says so: 200 on a single SQLite server, which
// answers browsing meanwhile, and 503 on a PostgreSQL replica, so that its balancer sends its
// searches to the others. Once SetSearch gives it the index, 200 and ready on both; a server that
// has no index and builds none (a test's) is healthy.
func TestHealthWhileBuilding(t *testing.T) {
	st, ix := storetest.Indexed(t)
	health := func(srv *api.Server) (int, string) {
		t.Helper()
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
		body, _ := io.ReadAll(rec.Body)
		return rec.Code, string(body)
	}
	building, err := api.New(api.Config{SearchBuilding: true}, st)
	if err != nil {
		t.Fatal(err)
	}
	want := http.StatusOK
	if st.IsPostgres() {
		want = http.StatusServiceUnavailable
	}
	if code, body := health(building); code != want || !strings.Contains(body, `"search":"building"`) {
		t.Errorf("while building: %d %s, want %d and building", code, body, want)
	}
	building.SetSearch(ix)
	if code, body := health(building); code != 200 || !strings.Contains(body, `"search":"ready"`) {
		t.Errorf("once built: %d %s", code, body)
	}
	none, err := api.New(api.Config{}, st)
	if err != nil {
		t.Fatal(err)
	}
	if code, body := health(none); code != 200 || !strings.Contains(body, `"search":"none"`) {
		t.Errorf("without an index: %d %s", code, body)
	}
}
