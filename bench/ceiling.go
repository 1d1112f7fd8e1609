package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// ceilingPath is where the ceiling server answers a fixed JSON body of the size in the path.
const ceilingPath = "/fixed/"

// runCeiling serves the ceiling: a bare net/http handler that reads the request and answers a
// ready JSON body of the asked size, the fastest any Go HTTP answer of that size can be here.
func runCeiling(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("ceiling", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var mu sync.Mutex
	bodies := map[int][]byte{}
	body := func(n int) []byte {
		mu.Lock()
		defer mu.Unlock()
		if b, ok := bodies[n]; ok {
			return b
		}
		b := fixedJSON(n)
		bodies[n] = b
		return b
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, ceilingPath))
		if err != nil || n < 0 || n > 8<<20 {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(body(n))
	})
	return serveUntil(ctx, *addr, h)
}

// fixedJSON answers a JSON envelope of exactly n bytes (or the smallest one when n is smaller).
func fixedJSON(n int) []byte {
	const head, tail = `{"payload":"`, `","message":""}` + "\n"
	pad := max(0, n-len(head)-len(tail))
	return []byte(head + strings.Repeat("x", pad) + tail)
}

// serveUntil serves h on addr until ctx ends. addr must be a loopback address.
func serveUntil(ctx context.Context, addr string, h http.Handler) error {
	if err := checkLoopback(addr); err != nil {
		return err
	}
	srv := &http.Server{Addr: addr, Handler: h}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		srv.Shutdown(context.Background())
		if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// checkLoopback checks that addr is a loopback address: the benchmark never listens beyond
// this machine.
func checkLoopback(addr string) error {
	i := strings.LastIndexByte(addr, ':')
	if i < 0 {
		return fmt.Errorf("address %q has no port", addr)
	}
	if host := strings.Trim(addr[:i], "[]"); host != "127.0.0.1" && host != "::1" {
		return fmt.Errorf("address %q is not a loopback address", addr)
	}
	return nil
}
