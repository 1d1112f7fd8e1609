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
	"kardan/store/storetest"
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
	defer app.Close()
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
	if err := app.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	runDone := make(chan error, 1)
	go func() { runDone <- app.Run(ctx) }()
	defer func() {
		stop()
		if err := <-runDone; err != nil {
			t.Error(err)
		}
	}()
	for deadline := time.Now().Add(60 * time.Second); ; {
		res, err := http.Get(app.URL() + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if strings.Contains(string(body), `"search":"ready"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the index was not built within a minute: %s", body)
		}
		time.Sleep(20 * time.Millisecond)
	}
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
	if _, err := storetest.FindPostgres(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skipf("NO POSTGRESQL: the replica's health while building was not checked: %v", err)
	}
	c, err := storetest.StartCluster()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	name, err := c.CreateDB("")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := run(t, "seed", "--data", dir, "--db", c.URL(name), "--demo", "10", "--log-level", "warn"); err != nil {
		t.Fatal(err)
	}
	g := &cmd.Globals{DataDir: t.TempDir(), DB: c.URL(name), Out: io.Discard, Err: io.Discard}
	app, err := cmd.Open(context.Background(), g, cmd.ServeConfig{Addr: "127.0.0.1:0", Moderation: "pre",
		Timezone: "Asia/Tehran", IndexWhileServingFrom: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	rec := httptest.NewRecorder()
	app.Handler.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), `"search":"building"`) {
		t.Fatalf("healthz of a replica building its index: %d %s", rec.Code, rec.Body)
	}
	if err := app.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	runDone := make(chan error, 1)
	go func() { runDone <- app.Run(ctx) }()
	defer func() {
		stop()
		<-runDone
	}()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		res, err := http.Get(app.URL() + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode == 200 && strings.Contains(string(body), `"search":"ready"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replica never became healthy: %d %s", res.StatusCode, body)
		}
	}
}
