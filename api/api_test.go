package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"kardan/api"
	"kardan/store"
	"kardan/store/storetest"
)

// testServer is a real server over a real seeded SQLite file.
type testServer struct {
	*httptest.Server
	Store *store.Store
}

func newTestServer(t testing.TB) *testServer {
	t.Helper()
	st := storetest.Seeded(t)
	loc, _ := time.LoadLocation("Asia/Tehran")
	srv, err := api.New(api.Config{BaseURL: "https://kardan.example", Tiles: "https://{s}.tile.example.org/{z}/{x}/{y}.png", Location: loc}, st)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &testServer{Server: ts, Store: st}
}

// answer is a decoded envelope.
type answer struct {
	Status  int
	Header  http.Header
	Payload json.RawMessage
	Message json.RawMessage
	Body    string
}

// do sends one request; lang sets Accept-Language when not empty.
func (ts *testServer) do(t testing.TB, method, path, body, lang, token string) answer {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if lang != "" {
		req.Header.Set("Accept-Language", lang)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	a := answer{Status: res.StatusCode, Header: res.Header, Body: string(raw)}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		var env struct {
			Payload json.RawMessage `json:"payload"`
			Message json.RawMessage `json:"message"`
		}
		if err := json.Unmarshal(raw, &env); err != nil {
			t.Fatalf("%s %s: answer is not the envelope: %v: %s", method, path, err, raw)
		}
		a.Payload, a.Message = env.Payload, env.Message
	}
	return a
}

// scenario is one row of an API test table.
type scenario struct {
	name         string
	method, path string
	body         string
	lang         string
	token        string
	wantStatus   int
	wantContains []string
}

func runScenarios(t *testing.T, ts *testServer, scenarios []scenario) {
	t.Helper()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			a := ts.do(t, sc.method, sc.path, sc.body, sc.lang, sc.token)
			if a.Status != sc.wantStatus {
				t.Fatalf("status: got %d, want %d: %s", a.Status, sc.wantStatus, a.Body)
			}
			for _, w := range sc.wantContains {
				if !strings.Contains(a.Body, w) {
					t.Errorf("body does not contain %q: %s", w, a.Body)
				}
			}
		})
	}
}

func TestReferenceEndpoints(t *testing.T) {
	ts := newTestServer(t)
	runScenarios(t, ts, []scenario{
		{name: "ProvinceList", method: "GET", path: "/v1/locations/province/list", wantStatus: 200,
			wantContains: []string{`"farsi_name":"تهران"`, `"english_name":"East Azerbaijan"`, `"message":""`}},
		{name: "Cities", method: "GET", path: "/v1/locations/cities/list/6", wantStatus: 200,
			wantContains: []string{`"slag":"tabriz"`, `"capital":true`}},
		{name: "ErrCitiesBadIDFa", method: "GET", path: "/v1/locations/cities/list/abc", wantStatus: 400,
			wantContains: []string{"شناسه نامعتبر است"}},
		{name: "ErrCitiesBadIDEn", method: "GET", path: "/v1/locations/cities/list/abc", lang: "en-US,en;q=0.9", wantStatus: 400,
			wantContains: []string{"The id is not valid"}},
		{name: "ErrCitiesNegativeID", method: "GET", path: "/v1/locations/cities/list/-3", lang: "en", wantStatus: 400},
		{name: "ErrCitiesHugeID", method: "GET", path: "/v1/locations/cities/list/99999999999999999999999", lang: "en", wantStatus: 400},
		{name: "ErrCitiesUnknownProvinceFa", method: "GET", path: "/v1/locations/cities/list/999", wantStatus: 404,
			wantContains: []string{"موردی یافت نشد"}},
		{name: "ErrCitiesUnknownProvinceEn", method: "GET", path: "/v1/locations/cities/list/999", lang: "en", wantStatus: 404,
			wantContains: []string{"Item not found"}},
		{name: "TreeWhole", method: "GET", path: "/v1/work_category/getTreeById", wantStatus: 200,
			wantContains: []string{`"slag":"plumber"`, `"children":[`}},
		{name: "TreeOneField", method: "GET", path: "/v1/work_category/getTreeById?id=1", wantStatus: 200,
			wantContains: []string{`"id":1,`, `"parent_id":1`}},
		{name: "ErrTreeUnknownID", method: "GET", path: "/v1/work_category/getTreeById?id=424242", lang: "en", wantStatus: 404,
			wantContains: []string{"Item not found"}},
		{name: "ErrTreeBadID", method: "GET", path: "/v1/work_category/getTreeById?id=x1", wantStatus: 400,
			wantContains: []string{"شناسه نامعتبر است"}},
		{name: "Favourites", method: "GET", path: "/v1/work_category/getFavourite", wantStatus: 200,
			wantContains: []string{`"favourite":true`}},
		{name: "NearestTabriz", method: "GET", path: "/v1/locations/nearest?lat=38.07&long=46.30", wantStatus: 200,
			wantContains: []string{`"slag":"tabriz"`, `"distance":`}},
		{name: "NearestPersianLangKeepsLatinNumbers", method: "GET", path: "/v1/locations/nearest?lat=29.61&long=52.53", wantStatus: 200,
			wantContains: []string{`"slag":"shiraz"`}},
		{name: "ErrNearestMissingFa", method: "GET", path: "/v1/locations/nearest", wantStatus: 400,
			wantContains: []string{"عرض جغرافیایی را وارد کنید", "طول جغرافیایی را وارد کنید"}},
		{name: "ErrNearestMissingEn", method: "GET", path: "/v1/locations/nearest?lat=35", lang: "en", wantStatus: 400,
			wantContains: []string{"Enter longitude", `"fields":{"long":"Enter longitude"}`}},
		{name: "ErrNearestNotANumberEn", method: "GET", path: "/v1/locations/nearest?lat=abc&long=NaN", lang: "en", wantStatus: 400,
			wantContains: []string{"Enter correct latitude", "Enter correct longitude"}},
		{name: "ErrNearestOutsideIranEn", method: "GET", path: "/v1/locations/nearest?lat=48.85&long=2.35", lang: "en", wantStatus: 404,
			wantContains: []string{"Your position was not found, you can use search in this range"}},
		{name: "ErrNearestOutsideIranFa", method: "GET", path: "/v1/locations/nearest?lat=48.85&long=2.35", wantStatus: 404,
			wantContains: []string{"موقعیت شما پیدا نشد"}},
		{name: "ErrUnknownV1Path", method: "GET", path: "/v1/no/such/thing", lang: "en", wantStatus: 404,
			wantContains: []string{`"payload":null`, "Item not found"}},
		{name: "Config", method: "GET", path: "/v1/config", wantStatus: 200,
			wantContains: []string{`"tiles":"https://{s}.tile.example.org/{z}/{x}/{y}.png"`, `"moderation":"pre"`}},
		{name: "Health", method: "GET", path: "/healthz", wantStatus: 200, wantContains: []string{`"status":"ok"`}},
	})
}

func TestProvinceCount(t *testing.T) {
	ts := newTestServer(t)
	a := ts.do(t, "GET", "/v1/locations/province/list", "", "", "")
	var ps []store.Province
	if err := json.Unmarshal(a.Payload, &ps); err != nil {
		t.Fatal(err)
	}
	if len(ps) != 31 {
		t.Fatalf("got %d provinces, want 31", len(ps))
	}
}

func TestLanguageNegotiation(t *testing.T) {
	ts := newTestServer(t)
	for _, tc := range []struct{ header, want string }{
		{"", "fa"},
		{"en", "en"},
		{"en-US,en;q=0.9", "en"},
		{"fa-IR,fa;q=0.9,en;q=0.8", "fa"},
		{"de-DE,en;q=0.5", "en"},
		{"de-DE", "fa"},
		{"fa;q=0.2,en;q=0.9", "en"},
		{";;;,q=abc", "fa"},
	} {
		a := ts.do(t, "GET", "/v1/locations/cities/list/x", "", tc.header, "")
		if got := a.Header.Get("Content-Language"); got != tc.want {
			t.Errorf("Accept-Language %q: got %s, want %s", tc.header, got, tc.want)
		}
	}
}

func TestSecurityHeaders(t *testing.T) {
	ts := newTestServer(t)
	a := ts.do(t, "GET", "/", "", "", "")
	for h, want := range map[string]string{
		"X-Content-Type-Options": "nosniff",
		"Referrer-Policy":        "strict-origin-when-cross-origin",
		"X-Frame-Options":        "DENY",
	} {
		if got := a.Header.Get(h); got != want {
			t.Errorf("%s: got %q, want %q", h, got, want)
		}
	}
	csp := a.Header.Get("Content-Security-Policy")
	for _, w := range []string{"script-src 'self'", "frame-ancestors 'none'", "https://*.tile.example.org"} {
		if !strings.Contains(csp, w) {
			t.Errorf("CSP lacks %q: %s", w, csp)
		}
	}
	if !strings.Contains(a.Header.Get("Strict-Transport-Security"), "max-age=") {
		t.Error("no HSTS with an https base URL")
	}
	if a.Header.Get("X-Request-Id") == "" {
		t.Error("no request id")
	}
}

func TestGzip(t *testing.T) {
	ts := newTestServer(t)
	req, _ := http.NewRequest("GET", ts.URL+"/v1/locations/province/list", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("got Content-Encoding %q, want gzip", res.Header.Get("Content-Encoding"))
	}
}

func TestWebApp(t *testing.T) {
	ts := newTestServer(t)
	t.Run("IndexIsPersianRTL", func(t *testing.T) {
		a := ts.do(t, "GET", "/", "", "", "")
		if a.Status != 200 || !strings.Contains(a.Body, `lang="fa" dir="rtl"`) {
			t.Fatalf("got %d %s", a.Status, a.Body)
		}
		if !strings.Contains(a.Body, `<link rel="canonical" href="https://kardan.example/">`) {
			t.Errorf("no canonical link: %s", a.Body)
		}
	})
	t.Run("IndexHTMLForTheServiceWorker", func(t *testing.T) {
		a := ts.do(t, "GET", "/index.html", "", "", "")
		if a.Status != 200 || !strings.Contains(a.Header.Get("Content-Type"), "text/html") || !strings.Contains(a.Body, `lang="fa"`) {
			t.Fatalf("got %d %s", a.Status, a.Body)
		}
	})
	t.Run("StaticPageMeta", func(t *testing.T) {
		a := ts.do(t, "GET", "/about", "", "en", "")
		if a.Status != 200 || !strings.Contains(a.Body, "<title>About us | Kardan</title>") {
			t.Fatalf("got %d %s", a.Status, a.Body)
		}
	})
	t.Run("SearchPageFallsBackToApp", func(t *testing.T) {
		a := ts.do(t, "GET", "/search/tehran/plumber", "", "", "")
		if a.Status != 200 || !strings.Contains(a.Body, "<title>لوله‌کش در تهران | کاردان</title>") {
			t.Fatalf("got %d %s", a.Status, a.Body)
		}
	})
	t.Run("ErrUnknownPageIs404WithApp", func(t *testing.T) {
		a := ts.do(t, "GET", "/no-such-page", "", "", "")
		if a.Status != 404 || !strings.Contains(a.Body, `<meta name="robots" content="noindex">`) {
			t.Fatalf("got %d %s", a.Status, a.Body)
		}
	})
	t.Run("ErrMissingAssetIsNotHTML", func(t *testing.T) {
		a := ts.do(t, "GET", "/assets/missing-123.js", "", "", "")
		if a.Status != 404 || strings.Contains(a.Body, "<html") {
			t.Fatalf("got %d %s", a.Status, a.Body)
		}
	})
	t.Run("ErrPostToPage", func(t *testing.T) {
		a := ts.do(t, "POST", "/about", "{}", "en", "")
		if a.Status != 405 {
			t.Fatalf("got %d", a.Status)
		}
	})
}
