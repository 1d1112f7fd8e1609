package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// roundRobin is the small front of the two-replica rows: each request goes to the next replica
// in turn, as nginx's default upstream does, with keep-alive connections to each replica (a
// front that dialled per request would measure the kernel's TIME_WAIT, not Kardan).
type roundRobin struct {
	backends []*httputil.ReverseProxy
	next     atomic.Uint64
}

// newRoundRobin builds a front over the replicas at bases, which must be loopback URLs.
func newRoundRobin(bases []string) (*roundRobin, error) {
	if len(bases) == 0 {
		return nil, errors.New("the front needs at least one replica")
	}
	tr := &http.Transport{
		MaxIdleConns:        256,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     time.Minute,
		DisableCompression:  true, // the clients' Accept-Encoding passes through, as nginx's does
	}
	rr := &roundRobin{}
	for _, b := range bases {
		u, err := url.Parse(strings.TrimSpace(b))
		if err != nil || u.Scheme != "http" || u.Host == "" {
			return nil, fmt.Errorf("replica %q: want http://127.0.0.1:PORT", b)
		}
		if ip := net.ParseIP(u.Hostname()); ip == nil || !ip.IsLoopback() {
			return nil, fmt.Errorf("replica %q is not a loopback address", b)
		}
		p := httputil.NewSingleHostReverseProxy(u)
		p.Transport = tr
		p.ErrorHandler = func(w http.ResponseWriter, r *http.Request, err error) {
			http.Error(w, "replica "+u.Host+": "+err.Error(), http.StatusBadGateway)
		}
		rr.backends = append(rr.backends, p)
	}
	return rr, nil
}

// maxBufferedBody bounds the request body the front reads before passing a request on: the
// benchmark's requests are small JSON, and a larger one is refused rather than streamed.
const maxBufferedBody = 1 << 20

func (rr *roundRobin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The whole body is read before the request goes on, as nginx does by default
	// (proxy_request_buffering): passed on as it came, Go's server drains and closes it once the
	// answer starts, while the transport may still have to read it, and that read's error cut
	// one answer in a few hundred off mid-way (golang/go#40747; TestRoundRobinBodyClosedAsTheAnswerStarts).
	if r.Body != nil && r.ContentLength != 0 {
		if r.ContentLength > maxBufferedBody {
			http.Error(w, "front: request body over 1 MiB", http.StatusRequestEntityTooLarge)
			return
		}
		var body []byte
		var err error
		if r.ContentLength > 0 { // read what was declared, without waiting for the end of it
			body = make([]byte, r.ContentLength)
			_, err = io.ReadFull(r.Body, body)
		} else if body, err = io.ReadAll(io.LimitReader(r.Body, maxBufferedBody+1)); err == nil && len(body) > maxBufferedBody {
			http.Error(w, "front: request body over 1 MiB", http.StatusRequestEntityTooLarge)
			return
		}
		if err != nil {
			http.Error(w, "front: reading the request: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	}
	i := rr.next.Add(1) - 1
	rr.backends[i%uint64(len(rr.backends))].ServeHTTP(w, r)
}

// runFront is `bench front`: the round-robin front of the two-replica rows, a process of its
// own (as a balancer is), started by run and cluster.
func runFront(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("front", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	to := fs.String("to", "", "comma-separated replica base URLs, e.g. http://127.0.0.1:8081,http://127.0.0.1:8082")
	if err := fs.Parse(args); err != nil {
		return err
	}
	rr, err := newRoundRobin(strings.Split(*to, ","))
	if err != nil {
		return err
	}
	return serveUntil(ctx, *addr, rr)
}
