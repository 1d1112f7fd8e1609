package cmd_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"kardan/cmd"
)

// A missing index of many profiles is built while serve answers, not before: browsing is answered
// from the database meanwhile, exactly as with the index; every other search answers 503 with
// Retry-After and a message in the visitor's language, and /healthz says the index is building.
// Once built, every search answers as it did on a server that had its index from the start.
func TestServeBuildsTheIndexWhileServing(t *testing.T) {
	dir := t.TempDir()
	if _, err := run(t, "seed", "--data", dir, "--demo", "60", "--log-level", "warn"); err != nil {
		t.Fatal(err)
	}
	// The answers of a server that built its index before serving (a small one: the default).
	before, cancel, done := startApp(t, dir, nil)
	if before.Search == nil {
		t.Fatal("a small missing index was not built before serving")
	}
	want := searchAnswers(t, before.URL())
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := before.Close(); err != nil {
		t.Fatal(err)
	}
	g := &cmd.Globals{DataDir: dir, Out: io.Discard, Err: io.Discard}
	if err := os.RemoveAll(g.IndexDir()); err != nil {
		t.Fatal(err)
	}

	app, err := cmd.Open(context.Background(), g, cmd.ServeConfig{Addr: "127.0.0.1:0", Moderation: "pre",
		Timezone: "Asia/Tehran", IndexWhileServingFrom: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Close() })
	if app.Search != nil {
		t.Fatal("the index was built before serving")
	}
	// Until Run, nothing builds it: the handler is asked directly, in the building state.
	ask := func(method, path, body, lang string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if lang != "" {
			req.Header.Set("Accept-Language", lang)
		}
		rec := httptest.NewRecorder()
		app.Handler.ServeHTTP(rec, req)
		return rec
	}
	for i, body := range searchBodies {
		rec := ask("POST", "/v1/user-technical/searchUser", body, "")
		if strings.Contains(body, "search_txt") || strings.Contains(body, "radius") {
			if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "30" ||
				!strings.Contains(rec.Body.String(), "فهرست جستجو در حال ساخت است") {
				t.Errorf("search %s while building: %d %q %s", body, rec.Code, rec.Header().Get("Retry-After"), rec.Body)
			}
			continue
		}
		var env struct {
			Payload json.RawMessage `json:"payload"`
		}
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &env) != nil {
			t.Fatalf("browse %s while building: %d %s", body, rec.Code, rec.Body)
		}
		if string(env.Payload) != want[i] {
			t.Errorf("browse %s while building:\n got %s\nwant %s", body, env.Payload, want[i])
		}
	}
	if rec := ask("POST", "/v1/user-technical/searchUser", `{"search_txt":"لوله کش"}`, "en"); rec.Code != 503 ||
		!strings.Contains(rec.Body.String(), "The search index is being built") {
		t.Errorf("English refusal: %d %s", rec.Code, rec.Body)
	}
	if rec := ask("GET", "/v1/search/suggest?q=%D9%84%D9%88%D9%84%D9%87", "", "en"); rec.Code != 503 {
		t.Errorf("suggest while building: %d %s", rec.Code, rec.Body)
	}
	if rec := ask("POST", "/v1/blog/search", `{"search_txt":"لوله"}`, ""); rec.Code != 503 {
		t.Errorf("blog search while building: %d %s", rec.Code, rec.Body)
	}
	if rec := ask("POST", "/v1/blog/search", `{}`, ""); rec.Code != 200 {
		t.Errorf("blog list while building: %d %s", rec.Code, rec.Body)
	}
	if rec := ask("GET", "/healthz", "", ""); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"search":"building"`) {
		t.Errorf("healthz while building: %d %s", rec.Code, rec.Body)
	}

	// Serving builds it; searches then answer as before.
	serveUntilCleanup(t, app)
	waitSearchReady(t, app.URL())
	got := searchAnswers(t, app.URL())
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("search %s once built:\n got %s\nwant %s", searchBodies[i], got[i], want[i])
		}
	}
}

// A replica of a PostgreSQL cluster building its index is unhealthy until it has: its balancer
// sends searches to the others meanwhile, and a rolling upgrade waits for it.
func TestReplicaIsUnhealthyWhileBuilding(t *testing.T) {
	db := postgresDB(t, "the replica's health while building was not checked")
	dir := t.TempDir()
	if _, err := run(t, "seed", "--data", dir, "--db", db, "--demo", "10", "--log-level", "warn"); err != nil {
		t.Fatal(err)
	}
	g := &cmd.Globals{DataDir: t.TempDir(), DB: db, Out: io.Discard, Err: io.Discard}
	app, err := cmd.Open(context.Background(), g, cmd.ServeConfig{Addr: "127.0.0.1:0", Moderation: "pre",
		Timezone: "Asia/Tehran", IndexWhileServingFrom: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Close() })
	rec := httptest.NewRecorder()
	app.Handler.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), `"search":"building"`) {
		t.Fatalf("healthz of a replica building its index: %d %s", rec.Code, rec.Body)
	}
	serveUntilCleanup(t, app)
	waitSearchReady(t, app.URL())
}

// serveUntilCleanup serves an opened app until the test's cleanup, which stops it before the
// cleanups registered earlier (its Close) run.
func serveUntilCleanup(t *testing.T, app *cmd.App) {
	t.Helper()
	if err := app.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- app.Run(ctx) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
}

// waitSearchReady waits until the server at url says, with a 200 from /healthz, that its
// search index is built.
func waitSearchReady(t *testing.T, url string) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		res, err := http.Get(url + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode == 200 && strings.Contains(string(body), `"search":"ready"`) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the search index was not built within a minute: %d %s", res.StatusCode, body)
		}
	}
}
