package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// callTimeout bounds one call when its context has no earlier deadline.
const callTimeout = 30 * time.Second

// httpCaller sends requests to base, which must be a loopback address: the benchmark never
// loads anything but this machine. Compression is off for every target alike (no
// Accept-Encoding is sent), so the figures compare search, storage and JSON work, not gzip.
//
// The load generator shares the machine's cores with the server it measures, so every
// millisecond of processor time it spends is taken from that server, and a costly client pulls
// every ratio between two servers toward 1: net/http's Transport (two goroutines a connection
// and a handoff to each of them a request, a context watched per request) cost 0.13 ms a request
// in Kardan's category + 5 km workload, two thirds of the 0.19 ms Kardan spent answering it. So
// the caller does what a load generator such as wrk does: each call takes a kept-alive
// connection of its own from a pool, writes its request in one write and reads the answer with
// net/http's own parser (http.ReadResponse), chunked bodies included, on the calling goroutine.
// A call is cut off at its context's deadline or after callTimeout; a context cancelled
// without one ends nothing before the answer, which on the loopback is a few milliseconds.
// TestRawCallerAnswersAsNetHTTP holds it to net/http's client.
func httpCaller(base string, clients int) (caller, error) {
	c, err := newRawClient(base, clients)
	if err != nil {
		return nil, err
	}
	return c.call, nil
}

// newRawClient is a pool of connections to base, a loopback http:// address, for about clients
// calls at once (more are served too).
func newRawClient(base string, clients int) (*rawClient, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("target %q: %w", base, err)
	}
	if ip := net.ParseIP(u.Hostname()); ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("target %q is not a loopback address", base)
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("target %q: only http:// is measured", base)
	}
	return &rawClient{host: u.Host, prefix: u.EscapedPath(), idle: make([]*rawConn, 0, clients)}, nil
}

// rawClient is a pool of kept-alive connections to one host (httpCaller's, and the mixed load's).
type rawClient struct {
	host   string
	prefix string // base's path, put before every request's
	// headers are postJSON's header lines (each ending in CRLF), as the mixed load sets them.
	headers string
	mu      sync.Mutex
	idle    []*rawConn
}

// rawConn is one kept-alive connection, used by one call at a time.
type rawConn struct {
	net.Conn
	r        *bufio.Reader
	buf      []byte    // the request being written, kept for the next
	deadline time.Time // the deadline last set on the connection
	reused   bool      // it has answered a request before
}

func (c *rawClient) get() (*rawConn, error) {
	c.mu.Lock()
	if n := len(c.idle); n > 0 {
		rc := c.idle[n-1]
		c.idle = c.idle[:n-1]
		c.mu.Unlock()
		return rc, nil
	}
	c.mu.Unlock()
	conn, err := net.Dial("tcp", c.host)
	if err != nil {
		return nil, err
	}
	return &rawConn{Conn: conn, r: bufio.NewReaderSize(conn, 32<<10)}, nil
}

func (c *rawClient) put(rc *rawConn) {
	rc.reused = true
	c.mu.Lock()
	c.idle = append(c.idle, rc)
	c.mu.Unlock()
}

// call is httpCaller's caller: the size of a 2xx answer's body, or the failure.
func (c *rawClient) call(ctx context.Context, r *request) (int, error) {
	a, err := c.do(ctx, r.Method, r.Path, acceptFarsi, r.Body, false)
	if err != nil {
		return 0, err
	}
	if a.status/100 != 2 {
		return 0, fmt.Errorf("%s %s: status %d", r.Method, r.Path, a.status)
	}
	return a.size, nil
}

// acceptFarsi is the header every benchmark request carries: the default language's answers.
const acceptFarsi = "Accept-Language: fa\r\n"

// reply is what rawClient.do read.
type reply struct {
	status int
	size   int    // the body's length as sent (compressed, when it was)
	body   []byte // the body, decompressed, when do was asked to keep it
}

// do sends one request (headers: header lines, each ending in CRLF; a body is sent as JSON) and
// reads its answer, keeping the body only when keep is set. A call is cut off at ctx's deadline
// (or after callTimeout) with ctx's error.
func (c *rawClient) do(ctx context.Context, method, path, headers string, body []byte, keep bool) (reply, error) {
	for {
		rc, err := c.get()
		if err != nil {
			return reply{}, err
		}
		reused := rc.reused
		a, keepConn, err := c.roundTrip(ctx, rc, method, path, headers, body, keep)
		if err == nil {
			if keepConn {
				c.put(rc)
			} else {
				rc.Close()
			}
			return a, nil
		}
		rc.Close()
		// A kept-alive connection the server closed while it sat idle answers nothing: ask again
		// on a fresh one, as net/http's Transport does. The server read no request on it.
		if reused && a.size < 0 && (errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)) {
			continue
		}
		// The context's deadline and the connection's are the same instant, but the
		// connection's may fire first: wait for the context's, so the caller sees a call cut
		// off by its phase's end, not a failed one.
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
				<-ctx.Done()
			}
		}
		if ctx.Err() != nil {
			return reply{}, ctx.Err()
		}
		return reply{}, err
	}
}

// roundTrip writes a request on rc and reads its answer, and whether the connection may be used
// again. The answer's size is -1 when no byte of it was read.
func (c *rawClient) roundTrip(ctx context.Context, rc *rawConn, method, path, headers string, body []byte, keep bool) (a reply, keepConn bool, err error) {
	a.size = -1
	deadline := time.Now().Add(callTimeout)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	// Setting a deadline moves a timer; a phase's calls share its deadline, so it is set once
	// a phase on each connection, and only the 30 s bound of a call without one moves per call.
	if !deadline.Equal(rc.deadline) {
		if err := rc.SetDeadline(deadline); err != nil {
			return a, false, err
		}
		rc.deadline = deadline
	}
	rc.buf = c.appendRequest(rc.buf[:0], method, path, headers, body)
	if _, err := rc.Write(rc.buf); err != nil {
		return a, false, err
	}
	if _, err := rc.r.Peek(1); err != nil {
		return a, false, err
	}
	a.size = 0
	resp, err := http.ReadResponse(rc.r, headRequest(method))
	if err != nil {
		return a, false, err
	}
	defer resp.Body.Close()
	a.status = resp.StatusCode
	if !keep {
		n, err := io.Copy(io.Discard, resp.Body)
		a.size = int(n)
		return a, err == nil && !resp.Close, err
	}
	if a.body, err = io.ReadAll(resp.Body); err != nil {
		return a, false, err
	}
	a.size = len(a.body)
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(a.body))
		if err != nil {
			return a, false, err
		}
		if a.body, err = io.ReadAll(zr); err != nil {
			return a, false, err
		}
	}
	return a, !resp.Close, nil
}

// head is the request http.ReadResponse is told a HEAD's answer belongs to (an answer to a HEAD
// has no body, whatever its Content-Length says); other answers need none.
var head = &http.Request{Method: http.MethodHead}

func headRequest(method string) *http.Request {
	if method == http.MethodHead {
		return head
	}
	return nil
}

// appendRequest appends a request as HTTP/1.1 puts it on the wire: the request line, Host, the
// given header lines, a body's Content-Type and Content-Length as net/http's client would send
// them, and the body.
func (c *rawClient) appendRequest(b []byte, method, path, headers string, body []byte) []byte {
	b = append(b, method...)
	b = append(b, ' ')
	b = append(b, c.prefix...)
	b = appendRequestURI(b, path)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, c.host...)
	b = append(b, "\r\n"...)
	b = append(b, headers...)
	if body != nil {
		b = append(b, "Content-Type: application/json\r\nContent-Length: "...)
		b = strconv.AppendInt(b, int64(len(body)), 10)
		b = append(b, "\r\n"...)
	} else if method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch {
		b = append(b, "Content-Length: 0\r\n"...)
	}
	b = append(b, "\r\n"...)
	return append(b, body...)
}

// appendRequestURI appends path as a request line carries it: as it is when it is already
// escaped (every workload's is), or escaped as net/http's client would escape it.
func appendRequestURI(b []byte, path string) []byte {
	for i := 0; i < len(path); i++ {
		if ch := path[i]; ch <= ' ' || ch >= 0x7f {
			if u, err := url.Parse(path); err == nil {
				return append(b, u.RequestURI()...)
			}
			break
		}
	}
	return append(b, path...)
}
