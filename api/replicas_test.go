package api_test

import (
	"context"
	"fmt"
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

// twoReplicas starts two API servers on two stores on one PostgreSQL database, as two replicas
// behind a balancer, with the search limit at rate a second in bursts of burst and both
// stores' clocks stopped at now; both have the cluster's statistics secret (serve --stats-secret).
func twoReplicas(t *testing.T, rate float64, burst int, now time.Time) ([2]*httptest.Server, [2]*api.Server, *store.Store) {
	t.Helper()
	if !storetest.Postgres() {
		t.Skip("replicas share a PostgreSQL database: run with " + storetest.EngineEnv + "=postgres")
	}
	a := storetest.Seeded(t)
	b, err := store.Open(context.Background(), a.Path())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	proxies, _ := api.ParseCIDRs([]string{"127.0.0.1", "::1"})
	tehran, _ := time.LoadLocation("Asia/Tehran")
	var hts [2]*httptest.Server
	var srvs [2]*api.Server
	for i, st := range []*store.Store{a, b} {
		st.Now = func() time.Time { return now }
		srv, err := api.New(api.Config{TrustedProxies: proxies, Location: tehran, SearchRate: rate, SearchBurst: burst,
			StatsSecret: []byte("one secret for the whole cluster")}, st)
		if err != nil {
			t.Fatal(err)
		}
		hts[i], srvs[i] = httptest.NewServer(srv), srv
		t.Cleanup(hts[i].Close)
	}
	return hts, srvs, a
}

// postAs sends a JSON POST from client (behind the trusted proxy) with a browser's user agent
// and answers the status and body.
func postAs(t *testing.T, ts *httptest.Server, path, body, client string) (int, string) {
	t.Helper()
	r, _ := http.NewRequest(http.MethodPost, ts.URL+path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("X-Forwarded-For", client)
	r.Header.Set("User-Agent", "Mozilla/5.0 Firefox/140.0")
	res, err := ts.Client().Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(out)
}

// The search limit holds for the cluster: a burst of 4 is 4 searches across both replicas, not
// 8, and another client keeps its own.
func TestSearchLimitHoldsAcrossReplicas(t *testing.T) {
	hts, _, _ := twoReplicas(t, 0.01, 4, time.Date(2026, 3, 21, 8, 0, 0, 0, time.UTC))
	allowed := 0
	for i := 0; i < 10; i++ {
		if status, _ := postAs(t, hts[i%2], "/v1/user-technical/searchUser", `{}`, "203.0.113.7"); status != http.StatusTooManyRequests {
			allowed++
		}
	}
	if allowed != 4 {
		t.Fatalf("two replicas let one client make %d searches of a burst of 4", allowed)
	}
	if status, _ := postAs(t, hts[1], "/v1/user-technical/searchUser", `{}`, "198.51.100.9"); status == http.StatusTooManyRequests {
		t.Error("another client was refused")
	}
}

// The beacon limit (30 in a burst) holds for the cluster too, and a visitor whose taps reach
// both replicas is counted once a day.
func TestBeaconsHoldAcrossReplicas(t *testing.T) {
	now := time.Date(2026, 3, 21, 8, 0, 0, 0, time.UTC)
	hts, srvs, st := twoReplicas(t, 0, 0, now)
	ctx := context.Background()
	owner := &store.User{NumberPhone: "09120000001", Name: "Owner", PasswordHash: "x"}
	if err := st.CreateUser(ctx, owner); err != nil {
		t.Fatal(err)
	}
	p, err := st.CreateProfile(ctx, owner.ID, &store.ProfileInput{ProfileName: "Plumbing", ProvinceID: 1, CityID: 1, RangeWorker: 1, CategoryList: []int64{101}}, false)
	if err != nil {
		t.Fatal(err)
	}
	tap := fmt.Sprintf(`{"profile_id":%d,"kind":"call","detail":""}`, p.ID)

	// One visitor taps "call" through both replicas, and a second visitor once through B.
	for i := 0; i < 6; i++ {
		if status, body := postAs(t, hts[i%2], "/v1/stats/event", tap, "203.0.113.7"); status != 200 {
			t.Fatalf("tap %d: %d %s", i+1, status, body)
		}
	}
	if status, body := postAs(t, hts[1], "/v1/stats/event", tap, "203.0.113.8"); status != 200 {
		t.Fatalf("second visitor: %d %s", status, body)
	}
	for _, srv := range srvs {
		done, cancel := context.WithCancel(ctx)
		cancel()
		srv.RunStats(done) // a stopped context: it only flushes
	}
	rows, err := st.ProfileStats(ctx, p.ID, "2026-03-21", "2026-03-21")
	if err != nil {
		t.Fatal(err)
	}
	var calls int64
	for _, r := range rows {
		if r.Kind == store.StatCall {
			calls += r.N
		}
	}
	if calls != 2 {
		t.Fatalf("calls counted: %d, want 2 (one visitor through both replicas counts once, and the other)", calls)
	}

	// The beacon limit: 6 taken above by this client; 30 in all across both replicas.
	allowed := 6
	for i := 0; i < 60; i++ {
		if status, _ := postAs(t, hts[i%2], "/v1/stats/event", tap, "203.0.113.7"); status != http.StatusTooManyRequests {
			allowed++
		}
	}
	if allowed != 30 {
		t.Fatalf("two replicas accepted %d beacons from one client in a burst of 30", allowed)
	}
}
