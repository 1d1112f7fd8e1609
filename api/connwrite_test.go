package api_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"kardan/api"
)

// countingListener's connections record the size of every write made on them.
type countingListener struct {
	net.Listener
	mu     sync.Mutex
	writes []int
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, l: l}, nil
}

func (l *countingListener) take() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.writes
	l.writes = nil
	return w
}

type countingConn struct {
	net.Conn
	l *countingListener
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.l.mu.Lock()
	c.l.writes = append(c.l.writes, len(p))
	c.l.mu.Unlock()
	return c.Conn.Write(p)
}

// gatherServer serves GET /?n=N (a body of N bytes) and /?n=N&close=1 (the same, then the
// connection closed) through GatherWrites over a listener that counts the writes.
func gatherServer(t *testing.T) (string, *countingListener) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &countingListener{Listener: ln}
	srv := &http.Server{ConnState: api.GatheredConnState, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		if r.URL.Query().Get("close") != "" {
			w.Header().Set("Connection", "close")
		}
		w.Header().Set("Content-Length", strconv.Itoa(n))
		w.Header()["Date"] = nil // a fixed header length, so an answer's size is known
		w.Write(bytes.Repeat([]byte{'k'}, n))
	})}
	go srv.Serve(api.GatherWrites(cl))
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), cl
}

// getGathered asks for an answer of n bytes on conn and reads it whole, failing if it does not come
// within two seconds.
func getGathered(t *testing.T, conn net.Conn, r *bufio.Reader, query string, n int) {
	t.Helper()
	conn.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := fmt.Fprintf(conn, "GET /?%s HTTP/1.1\r\nHost: x\r\n\r\n", query); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || len(body) != n || (n > 0 && body[n-1] != 'k') {
		t.Fatalf("%s: %d bytes, %v; want %d", query, len(body), err, n)
	}
}

// An answer up to 64 KiB leaves in one write, a longer one in two, and an answer that ends on the
// server's full buffer, which is held for more, is still sent (when the server goes idle, or as
// the connection closes).
func TestGatheredAnswersLeaveInOneWrite(t *testing.T) {
	addr, cl := gatherServer(t)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	getGathered(t, conn, r, "n=100", 100)
	w := cl.take()
	if len(w) != 1 {
		t.Fatalf("a short answer took writes %v", w)
	}
	head := w[0] - 100 // the status line and headers, Content-Length's three digits included
	for _, n := range []int{4000, 7854, 20000, 60000} {
		getGathered(t, conn, r, "n="+strconv.Itoa(n), n)
		if w := cl.take(); len(w) != 1 {
			t.Errorf("an answer of %d bytes took writes %v, want one", n, w)
		}
	}
	getGathered(t, conn, r, "n=300000", 300000)
	if w := cl.take(); len(w) > 2 {
		t.Errorf("an answer of 300,000 bytes took writes %v, want at most two", w)
	}
	// Answers of exactly one and two full buffers: the server's last write is a full buffer too.
	for _, total := range []int{4096, 8192} {
		n := total - head - 1 // one digit more in Content-Length
		getGathered(t, conn, r, "n="+strconv.Itoa(n), n)
		if w := cl.take(); len(w) != 1 || w[0] != total {
			t.Errorf("an answer of %d bytes in all took writes %v, want one of %d", total, w, total)
		}
	}
	// The same, then the connection closed: the held answer goes out before the close.
	n := 4096 - head - 1 - len("Connection: close\r\n")
	getGathered(t, conn, r, "close=1&n="+strconv.Itoa(n), n)
	if _, err := r.ReadByte(); err != io.EOF {
		t.Errorf("after a closing answer the connection read %v, want EOF", err)
	}
}

// serve's wrappers keep the half-close net/http's server makes before closing a connection
// whose client may still be sending (golang.org/issue/3595): the client reads the end of its
// answers, and the server can still read what the client sends.
func TestWrappedConnectionsHalfClose(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	wrapped := api.GatherWrites(api.LimitConns(ln, 100, nil, 64, false))
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server, err := wrapped.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	cw, ok := server.(interface{ CloseWrite() error })
	if !ok {
		t.Fatal("a served connection cannot half-close")
	}
	if _, err := server.Write(bytes.Repeat([]byte{'a'}, 4096)); err != nil { // held: a full buffer
		t.Fatal(err)
	}
	if err := cw.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	client.SetDeadline(time.Now().Add(2 * time.Second))
	got, err := io.ReadAll(client)
	if err != nil || len(got) != 4096 {
		t.Fatalf("the client read %d bytes then %v, want the 4096 held ones then EOF", len(got), err)
	}
	if _, err := client.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	server.SetDeadline(time.Now().Add(2 * time.Second))
	buf := make([]byte, 4)
	if _, err := io.ReadFull(server, buf); err != nil || string(buf) != "ping" {
		t.Fatalf("after the half-close the server read %q, %v", buf, err)
	}
}

// Closing a connection from another goroutine ends a write blocked on a client that does not
// read, as on a bare connection, instead of waiting for it.
func TestGatheredCloseEndsABlockedWrite(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close() // and never read
	server, err := api.GatherWrites(ln).Accept()
	if err != nil {
		t.Fatal(err)
	}
	wrote := make(chan error, 1)
	go func() {
		_, err := server.Write(make([]byte, 256<<20)) // far more than the sockets' buffers
		wrote <- err
	}()
	time.Sleep(100 * time.Millisecond)
	closed := make(chan error, 1)
	go func() { closed <- server.Close() }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close waited for the blocked write")
	}
	select {
	case err := <-wrote:
		if err == nil {
			t.Fatal("the blocked write ended without an error")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the blocked write did not end with the close")
	}
}
