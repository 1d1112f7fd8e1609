package api

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestConnectionsCappedPerAddress is audit L3: one client held 21,000 connections and the
// server could accept no more. With a cap, the extra ones are closed at once, others still
// connect, and a freed place is given back.
func TestConnectionsCappedPerAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })}
	go srv.Serve(LimitConns(ln, 3, nil, 64, false))
	defer srv.Close()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	served := func(c net.Conn) bool {
		c.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		b := make([]byte, 64)
		n, _ := io.ReadAtLeast(c, b, 12)
		return strings.HasPrefix(string(b[:n]), "HTTP/1.1 200")
	}
	held := []net.Conn{dial(), dial(), dial()}
	for _, c := range held {
		if !served(c) {
			t.Fatal("a connection within the cap was not served")
		}
	}
	extra := dial()
	if served(extra) {
		t.Fatal("a fourth connection from one address was served")
	}
	held[0].Close()
	time.Sleep(50 * time.Millisecond)
	if c := dial(); !served(c) {
		t.Fatal("a closed connection did not give its place back")
	}

	// Trusted proxies and, when exempt, loopback are never capped.
	for _, l := range []net.Listener{
		LimitConns(mustListen(t), 1, mustCIDRs(t, "127.0.0.1"), 64, false),
		LimitConns(mustListen(t), 1, nil, 64, true),
	} {
		s := &http.Server{Handler: srv.Handler}
		go s.Serve(l)
		defer s.Close()
		a, _ := net.Dial("tcp", l.Addr().String())
		b, _ := net.Dial("tcp", l.Addr().String())
		if !served(a) || !served(b) {
			t.Fatal("an exempt address was capped")
		}
	}
}

func mustListen(t *testing.T) net.Listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

func mustCIDRs(t *testing.T, s string) []*net.IPNet {
	n, err := ParseCIDRs([]string{s})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSlowJSONBodyCut is audit L3's slow body: a JSON body trickled in kept its connection for
// the server's whole minute; it now gets jsonBodyTimeout from the handler's start.
func TestSlowJSONBodyCut(t *testing.T) {
	old := jsonBodyTimeout
	jsonBodyTimeout = 300 * time.Millisecond
	defer func() { jsonBodyTimeout = old }()
	ln := mustListen(t)
	srv := &http.Server{ReadTimeout: time.Minute, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var v map[string]any
		if err := decodeJSON(w, r, &v); err != nil {
			http.Error(w, "refused", http.StatusBadRequest)
			return
		}
		io.WriteString(w, "ok")
	})}
	go srv.Serve(ln)
	defer srv.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":")
	start := time.Now()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	b, _ := io.ReadAll(c) // the server answers and closes, or just closes
	if el := time.Since(start); el > 3*time.Second {
		t.Fatalf("the slow body held the connection %v (%q)", el, b)
	}
}
