package api

import (
	"net"
	"net/http"
	"sync"
)

// serverWriteBuffer is the size of the buffer net/http's server writes a connection's answers
// through (conn.bufw, 4 KiB): it writes exactly this many bytes when the buffer fills and more of
// the answer follows.
const serverWriteBuffer = 4 << 10

// gatherMax bounds the write joined to a held one by copying; a larger one goes out with it in a
// vectored write where the connection can make one.
const gatherMax = 64 << 10

// GatherWrites wraps ln so that an answer longer than net/http's write buffer leaves in one
// write instead of two or three. The server writes a full buffer (its headers and the answer's
// start) and then the rest, each a system call, a TCP segment and, on the other side, a wake-up:
// a search's answer of 8 KiB took two, and the second `write` was a sixth of the server's time
// in the category + 5 km workload. A connection from ln holds a write of exactly a full buffer,
// which is always followed by more of the same answer, and sends it with the next write.
// GatheredConnState, the server's ConnState hook, sends what is held when an answer ends on a
// full buffer (the server then goes idle) or the connection is hijacked; Close sends it first.
// Every other write passes through at once, so a 1xx answer, a flushed stream or a short answer
// is never held. TestGatheredAnswersLeaveInOneWrite counts the writes.
func GatherWrites(ln net.Listener) net.Listener { return gatherListener{ln} }

type gatherListener struct{ net.Listener }

func (l gatherListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &gatherConn{Conn: c}, nil
}

// heldBufs keeps the held buffers of full-buffer writes between answers, so an idle connection
// holds none.
var heldBufs = sync.Pool{New: func() any { b := make([]byte, 0, serverWriteBuffer); return &b }}

// gatherConn is a connection from GatherWrites. The server writes from the connection's goroutine
// and calls its hook there too; the mutex is for Close, which Server.Close calls from another
// goroutine.
type gatherConn struct {
	net.Conn
	mu       sync.Mutex
	held     *[]byte // a full buffer's write waiting for the rest of its answer, or nil
	hijacked bool    // the hijacker writes as it pleases: nothing is held any more
}

func (c *gatherConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held == nil {
		if len(p) != serverWriteBuffer || c.hijacked {
			return c.Conn.Write(p)
		}
		c.held = heldBufs.Get().(*[]byte)
		*c.held = append((*c.held)[:0], p...)
		return len(p), nil
	}
	held := *c.held
	var n int
	var err error
	switch {
	case len(p) == serverWriteBuffer: // another full buffer: more follows still
		*c.held = append(held, p...)
		if len(*c.held) < gatherMax {
			return len(p), nil
		}
		n, err = c.Conn.Write(*c.held)
	case len(p) <= gatherMax:
		*c.held = append(held, p...)
		n, err = c.Conn.Write(*c.held)
	default:
		bufs := net.Buffers{held, p}
		var n64 int64
		n64, err = bufs.WriteTo(c.Conn)
		n = int(n64)
	}
	c.release()
	if n -= len(held); n < 0 {
		n = 0
	}
	return n, err
}

// flush sends what is held, if anything. A failed write leaves the connection useless: it is
// closed, so the server's next read ends it rather than waiting for a request the client, which
// never got its answer, will not send.
func (c *gatherConn) flush() {
	if c.held == nil {
		return
	}
	_, err := c.Conn.Write(*c.held)
	c.release()
	if err != nil {
		c.Conn.Close()
	}
}

func (c *gatherConn) release() {
	if cap(*c.held) <= gatherMax*2 {
		heldBufs.Put(c.held)
	}
	c.held = nil
}

// Close sends what is held, then closes. A write blocked on another goroutine (Server.Close
// while a slow client reads an answer) is not waited for: the close ends it, as it would on the
// bare connection.
func (c *gatherConn) Close() error {
	if c.mu.TryLock() {
		c.flush()
		c.mu.Unlock()
	}
	return c.Conn.Close()
}

// CloseWrite sends what is held, then half-closes the connection as net/http's server does
// before closing one whose client may still be sending (so its answer is read before a reset),
// when the connection beneath can.
func (c *gatherConn) CloseWrite() error {
	c.mu.Lock()
	c.flush()
	c.mu.Unlock()
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// GatheredConnState is the http.Server's ConnState hook for connections from GatherWrites: an
// answer that ended on a full buffer is sent when the server goes idle after it, and nothing is
// held once the connection is hijacked.
func GatheredConnState(nc net.Conn, state http.ConnState) {
	c, ok := nc.(*gatherConn)
	if !ok || (state != http.StateIdle && state != http.StateHijacked) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flush()
	c.hijacked = c.hijacked || state == http.StateHijacked
}
