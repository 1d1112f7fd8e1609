package api

import (
	"net"
	"sync"
)

// LimitConns wraps ln so that one client address (an IPv4 address or an IPv6 prefix of
// ipv6Prefix bits) holds at most perAddr open connections; more are closed as soon as they
// are accepted. Without it one client holding thousands of connections used up the process's
// file descriptors and nobody else could connect (audit L3). Connections from trusted proxies
// are not limited, nor, with exemptLoopback, those from the machine itself: every visitor comes
// through a proxy, and a proxy on the same machine may not be named with --trusted-proxy.
// perAddr <= 0 answers ln unchanged.
func LimitConns(ln net.Listener, perAddr int, trusted []*net.IPNet, ipv6Prefix int, exemptLoopback bool) net.Listener {
	if perAddr <= 0 {
		return ln
	}
	return &connLimit{Listener: ln, per: perAddr, trusted: trusted, prefix: ipv6Prefix, loopback: exemptLoopback, open: map[string]int{}}
}

type connLimit struct {
	net.Listener
	per      int
	trusted  []*net.IPNet
	prefix   int
	loopback bool

	mu   sync.Mutex
	open map[string]int
}

func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host, _, err := net.SplitHostPort(c.RemoteAddr().String())
		if err != nil {
			return c, nil
		}
		if ip := net.ParseIP(host); ip != nil {
			if l.loopback && ip.IsLoopback() {
				return c, nil
			}
			for _, n := range l.trusted {
				if n.Contains(ip) {
					return c, nil
				}
			}
		}
		key := addrKey(host, l.prefix)
		l.mu.Lock()
		if l.open[key] >= l.per {
			l.mu.Unlock()
			c.Close()
			continue
		}
		l.open[key]++
		l.mu.Unlock()
		return &limitedConn{Conn: c, release: func() { l.release(key) }}, nil
	}
}

func (l *connLimit) release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key]--; l.open[key] <= 0 {
		delete(l.open, key)
	}
}

// limitedConn gives its place back once, when it is closed.
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

// CloseWrite half-closes the connection when the one beneath can, as net/http's server does
// before closing a connection whose client may still be sending: without it, the close reset the
// connection and the client could lose the answer it had not read yet (golang.org/issue/3595).
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
