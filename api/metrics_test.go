package api_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"kardan/api"
	"kardan/store/storetest"
)

// failingSender fails every other send, like a flaky SMS provider.
type failingSender struct {
	mu sync.Mutex
	n  int
}

func (f *failingSender) Send(ctx context.Context, phone, code string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	if f.n%2 == 0 {
		return errors.New("provider down")
	}
	return nil
}

func newMetricsServer(t *testing.T, on bool) *httptest.Server {
	t.Helper()
	st := storetest.Seeded(t)
	storetest.Demo(t, st, 10, 1)
	ix := storetest.Index(t, st)
	srv, err := api.New(api.Config{Search: ix, Metrics: on, SMS: &failingSender{}}, st)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	if !on {
		return ts
	}
	// The metrics listener is separate (audit I3): the public one answers /metrics like any
	// unknown page, and the test reads the counts from the operator's listener, which records
	// the public one's traffic.
	ms := httptest.NewServer(srv.MetricsHandler())
	t.Cleanup(ms.Close)
	metricsURLs.Store(ts.URL, ms.URL)
	return ts
}

// metricsURLs maps a test server's address to its metrics listener's.
var metricsURLs sync.Map

func metricsOf(t *testing.T, base string) string {
	t.Helper()
	u, ok := metricsURLs.Load(base)
	if !ok {
		t.Fatalf("no metrics listener for %s", base)
	}
	_, text := get(t, u.(string)+"/metrics")
	return text
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func post(t *testing.T, url, body string) int {
	t.Helper()
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// metricValue answers the value of the sample whose line starts with prefix, or -1.
func metricValue(t *testing.T, text, prefix string) float64 {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, prefix+" ") {
			v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(line, prefix)), 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return v
		}
	}
	return -1
}

func TestMetrics(t *testing.T) {
	ts := newMetricsServer(t, true)
	get(t, ts.URL+"/v1/locations/province/list")
	get(t, ts.URL+"/v1/user-technical/999991")
	get(t, ts.URL+"/v1/user-technical/999992")
	get(t, ts.URL+"/v1/no/such/route")
	get(t, ts.URL+"/about")
	for i := 0; i < 2; i++ { // the second answer comes from the form cache (a browse: it holds every demo profile, whatever words the demo draws)
		if code := post(t, ts.URL+"/v1/user-technical/searchUser", `{}`); code != 200 {
			t.Fatalf("search: %d", code)
		}
	}
	post(t, ts.URL+"/v1/send-sms/sendSmsForSignUp", `{"numberPhone":"09121110001"}`)
	post(t, ts.URL+"/v1/send-sms/sendSmsForSignUp", `{"numberPhone":"09121110002"}`)

	text := metricsOf(t, ts.URL)
	if _, public := get(t, ts.URL+"/metrics"); strings.Contains(public, "kardan_http_requests_total") {
		t.Fatal("the public listener serves the metrics (audit I3)")
	}
	for prefix, want := range map[string]float64{
		`kardan_http_requests_total{code="200",method="GET",route="/v1/locations/province/list"}`:    1,
		`kardan_http_requests_total{code="404",method="GET",route="/v1/user-technical/{id:[0-9]+}"}`: 2,
		`kardan_http_requests_total{code="404",method="GET",route="/v1/unknown"}`:                    1,
		`kardan_http_requests_total{code="200",method="POST",route="/v1/user-technical/searchUser"}`: 2,
		`kardan_http_request_duration_seconds_count{method="GET",route="web"}`:                       1,
		`kardan_search_duration_seconds_count{kind="profiles"}`:                                      2,
		`kardan_sms_sends_total{result="sent"}`:                                                      1,
		`kardan_sms_sends_total{result="failed"}`:                                                    1,
		`kardan_search_outbox_backlog`:                                                               0,
		`kardan_search_index_documents`:                                                              10,
		`kardan_search_fast_path_misses_total`:                                                       0,
		`kardan_form_cache_restarts_total`:                                                           0,
	} {
		if got := metricValue(t, text, prefix); got != want {
			t.Errorf("%s: got %v, want %v", prefix, got, want)
		}
	}
	if hits, misses := metricValue(t, text, "kardan_form_cache_hits_total"), metricValue(t, text, "kardan_form_cache_misses_total"); hits < 1 || hits != misses {
		t.Errorf("form cache: %v hits and %v misses, want as many of each (and some)", hits, misses)
	}
	// The searches above cached forms: at least a slab holds them (other tests' may be live too).
	if v := metricValue(t, text, "kardan_form_cache_slab_bytes"); v < api.FormSlabBytes || int(v)%api.FormSlabBytes != 0 {
		t.Errorf("form cache slabs: got %v bytes", v)
	}
	if v := metricValue(t, text, "kardan_database_size_bytes"); v < 100_000 {
		t.Errorf("database size: got %v", v)
	}
	if strings.Contains(text, "999991") || strings.Contains(text, "/no/such") {
		t.Error("a raw path became a label")
	}
	if !regexp.MustCompile(`(?m)^go_goroutines \d+`).MatchString(text) || !strings.Contains(text, "process_resident_memory_bytes") {
		t.Error("runtime and process metrics missing")
	}
}

func TestMetricsOff(t *testing.T) {
	ts := newMetricsServer(t, false)
	_, text := get(t, ts.URL+"/metrics")
	if strings.Contains(text, "kardan_http_requests_total") {
		t.Fatal("metrics are served without --metrics")
	}
}
