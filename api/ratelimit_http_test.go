package api_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kardan/api"
	"kardan/store/storetest"
)

func TestSearchRateLimit(t *testing.T) {
	st, ix := storetest.Indexed(t)
	_, loopback, _ := net.ParseCIDR("127.0.0.1/32")
	srv, err := api.New(api.Config{Search: ix, SearchRate: 1, SearchBurst: 5, TrustedProxies: []*net.IPNet{loopback}}, st)
	if err != nil {
		t.Fatal(err)
	}
	hts := httptest.NewServer(srv)
	defer hts.Close()
	ts := &testServer{Server: hts, Store: st}

	send := func(client, path string) answer {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+path, strings.NewReader(`{}`))
		req.Header.Set("X-Forwarded-For", client)
		req.Header.Set("Accept-Language", "en")
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		return answer{Status: res.StatusCode, Header: res.Header}
	}
	for i := 0; i < 5; i++ {
		if a := send("203.0.113.7", "/v1/user-technical/searchUser"); a.Status != 200 {
			t.Fatalf("request %d of the burst: got %d, want 200", i+1, a.Status)
		}
	}
	a := send("203.0.113.7", "/v1/user-technical/searchUser")
	if a.Status != 429 || a.Header.Get("Retry-After") != "1" {
		t.Fatalf("over the limit: got %d, Retry-After %q; want 429 and 1", a.Status, a.Header.Get("Retry-After"))
	}
	if a := send("203.0.113.7", "/v1/user-technical/searchUserSlag"); a.Status != 429 {
		t.Errorf("the slug search shares the limit: got %d, want 429", a.Status)
	}
	if a := send("198.51.100.9", "/v1/user-technical/searchUser"); a.Status != 200 {
		t.Errorf("another client behind the same proxy: got %d, want 200", a.Status)
	}
	res, err := http.Get(ts.URL + "/v1/locations/province/list")
	if err != nil || res.StatusCode != 200 {
		t.Errorf("other routes are not limited: %v %v", res, err)
	}
}
