package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// answerServer answers the shapes of answer a load generator meets: small and large bodies,
// chunked ones, failures with bodies, a HEAD, a connection the server closes after its answer,
// and an echo of what the request carried. idle, when not 0, is how long it keeps a connection
// without a request.
func answerServer(t *testing.T, idle time.Duration) (*httptest.Server, *atomic.Int64) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/small":
			w.Write([]byte("hello"))
		case "/large": // more than net/http's buffer: sent chunked, flushed in pieces
			for i := 0; i < 50; i++ {
				w.Write(bytes.Repeat([]byte{'a' + byte(i%26)}, 997))
				w.(http.Flusher).Flush()
			}
		case "/fail":
			http.Error(w, "no such thing", http.StatusNotFound)
		case "/close":
			w.Header().Set("Connection", "close")
			w.Write([]byte("bye"))
		case "/head":
			w.Header().Set("Content-Length", "1234")
		default: // the echo
			body, _ := io.ReadAll(r.Body)
			fmt.Fprintf(w, "%s %s %q lang=%s type=%s len=%d enc=%q", r.Method, r.URL.Path, r.URL.RawQuery,
				r.Header.Get("Accept-Language"), r.Header.Get("Content-Type"), len(body), r.Header.Get("Accept-Encoding"))
		}
	}))
	srv.Config.IdleTimeout = idle
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &conns
}

// netHTTPCall is the same call made with net/http's client, as httpCaller made it before.
func netHTTPCall(ctx context.Context, base string, r *request) (int, string, error) {
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, base+r.Path, body)
	if err != nil {
		return 0, "", err
	}
	if r.Body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept-Language", "fa")
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	resp, err := tr.RoundTrip(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, "", err
	}
	if resp.StatusCode/100 != 2 {
		return 0, "", fmt.Errorf("%s %s: status %d", r.Method, r.Path, resp.StatusCode)
	}
	return len(got), string(got), nil
}

var clientCalls = []request{
	{Method: "GET", Path: "/small"},
	{Method: "GET", Path: "/large"},
	{Method: "GET", Path: "/fail"},
	{Method: "GET", Path: "/close"},
	{Method: "HEAD", Path: "/head"},
	{Method: "GET", Path: "/echo?q=%D9%84%D9%88%D9%84%D9%87&page=2"},
	{Method: "GET", Path: "/echo?q=لوله کش"}, // unescaped: escaped as net/http escapes it
	{Method: "POST", Path: "/echo", Body: []byte(`{"profile_id":12,"page":1}`)},
	{Method: "POST", Path: "/echo"},
	{Method: "DELETE", Path: "/echo/7"},
}

// The raw caller answers each call as net/http's client does (the body's size, the failure of a
// status outside 2xx), and the server reads the same request from both.
func TestRawCallerAnswersAsNetHTTP(t *testing.T) {
	srv, _ := answerServer(t, 0)
	call, err := httpCaller(srv.URL, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for round := 0; round < 3; round++ { // the later rounds on kept-alive connections
		for _, r := range clientCalls {
			wantN, wantBody, wantErr := netHTTPCall(ctx, srv.URL, &r)
			n, err := call(ctx, &r)
			if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Fatalf("%s %s: error %v, net/http's %v", r.Method, r.Path, err, wantErr)
			}
			if n != wantN {
				t.Fatalf("%s %s: %d bytes, net/http's %d (%q)", r.Method, r.Path, n, wantN, wantBody)
			}
		}
	}
	if n, _ := call(ctx, &request{Method: "GET", Path: "/large"}); n != 50*997 {
		t.Fatalf("a chunked answer of %d bytes read as %d", 50*997, n)
	}
}

// Concurrent calls use at most as many connections as calls at once, kept alive between them.
func TestRawCallerKeepsConnectionsAlive(t *testing.T) {
	srv, conns := answerServer(t, 0)
	call, err := httpCaller(srv.URL, 4)
	if err != nil {
		t.Fatal(err)
	}
	res := runLoad(context.Background(), loadConfig{Clients: 4, Duration: time.Minute, MaxRequests: 2000},
		[]request{{Method: "GET", Path: "/small"}, {Method: "GET", Path: "/large"}, {Method: "POST", Path: "/echo", Body: []byte("{}")}}, call)
	if res.Requests != 2000 || res.Errors != 0 {
		t.Fatalf("%d requests, %d errors (%s); want 2000 and none", res.Requests, res.Errors, res.FirstError)
	}
	if n := conns.Load(); n > 4 {
		t.Fatalf("%d connections for 4 clients", n)
	}
}

// A connection the server closed while it sat idle is replaced, and the call answered.
func TestRawCallerRedialsAConnectionClosedWhileIdle(t *testing.T) {
	srv, conns := answerServer(t, 20*time.Millisecond)
	call, err := httpCaller(srv.URL, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if n, err := call(context.Background(), &request{Method: "POST", Path: "/echo", Body: []byte("{}")}); err != nil || n == 0 {
			t.Fatalf("call %d after the server closed its idle connection: %d bytes, %v", i, n, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if n := conns.Load(); n != 3 {
		t.Fatalf("%d connections, want 3 (each closed while idle)", n)
	}
	// A connection the server closes after its answer is not used again.
	for i := 0; i < 2; i++ {
		if _, err := call(context.Background(), &request{Method: "GET", Path: "/close"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := call(context.Background(), &request{Method: "GET", Path: "/small"}); err != nil {
		t.Fatal(err)
	}
}

// A call still waiting at its context's deadline is cut off then, with the context's error (which
// loadPhase takes for the phase's end, not a failure), and the next call finds a fresh connection.
func TestRawCallerIsCutOffAtTheDeadline(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			<-release
		}
		w.Write([]byte("done"))
	}))
	defer srv.Close()
	defer once.Do(func() { close(release) })
	call, err := httpCaller(srv.URL, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := call(context.Background(), &request{Method: "GET", Path: "/fast"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = call(ctx, &request{Method: "GET", Path: "/slow"})
	if !errors.Is(err, context.DeadlineExceeded) || ctx.Err() == nil {
		t.Fatalf("a call past its deadline answered %v (context: %v)", err, ctx.Err())
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("cut off after %v, want about 100ms", took)
	}
	once.Do(func() { close(release) })
	if n, err := call(context.Background(), &request{Method: "GET", Path: "/fast"}); err != nil || n != 4 {
		t.Fatalf("the call after a cut-off one: %d bytes, %v", n, err)
	}
}

func TestRawCallerRefusesOtherTargets(t *testing.T) {
	for _, base := range []string{"http://192.0.2.1:80", "https://127.0.0.1:8443", "http://example.com"} {
		if _, err := httpCaller(base, 1); err == nil || !strings.Contains(err.Error(), base) {
			t.Errorf("%s: %v, want a refusal naming it", base, err)
		}
	}
}

// postJSON over the raw client: a bearer token and gzip asked for, a compressed envelope decoded
// when its payload is wanted, a refusal's body in the error, and -1 for a call the load's end
// cut off.
func TestPostJSONOverTheRawClient(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in map[string]any
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		if r.URL.Path == "/slow" {
			time.Sleep(300 * time.Millisecond)
		}
		if r.Header.Get("Authorization") != "Bearer tok" {
			http.Error(w, `{"message":"sign in"}`, http.StatusConflict)
			return
		}
		if r.Header.Get("Accept-Encoding") != "gzip" {
			http.Error(w, "gzip not asked for", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		fmt.Fprintf(zw, `{"status":"ok","payload":{"id":%v}}`, in["n"])
		zw.Close()
	}))
	defer srv.Close()
	c, err := newRawClient(srv.URL, 2)
	if err != nil {
		t.Fatal(err)
	}
	c.headers = "Accept-Encoding: gzip\r\n"
	ctx := context.Background()
	var got struct {
		ID int64 `json:"id"`
	}
	if status, err := postJSON(ctx, c, "/add", "tok", map[string]any{"n": 7}, &got); status != 200 || err != nil || got.ID != 7 {
		t.Fatalf("status %d, %v, id %d; want 200 and id 7", status, err, got.ID)
	}
	if status, err := postJSONMethod(ctx, c, http.MethodPut, "/edit", "tok", map[string]any{"n": 8}, nil); status != 200 || err != nil {
		t.Fatalf("an answer not decoded: status %d, %v", status, err)
	}
	if status, err := postJSON(ctx, c, "/add", "other", map[string]any{"n": 9}, &got); status != http.StatusConflict || err == nil || !strings.Contains(err.Error(), "sign in") {
		t.Fatalf("a refusal: status %d, %v; want 409 with its body", status, err)
	}
	cut, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if status, err := postJSON(cut, c, "/slow", "tok", map[string]any{"n": 1}, &got); status != -1 || err != nil {
		t.Fatalf("a call cut off by the load's end: status %d, %v; want -1 and no error", status, err)
	}
}
