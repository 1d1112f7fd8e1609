package api

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"
	"github.com/klauspost/compress/gzip"

	"kardan/store"
)

type ctxKey int

const (
	ctxRequestID ctxKey = iota
	ctxLang
	ctxUser
	ctxClientIP
	ctxEnAddress // the page was asked under /en: its links and ids name English addresses
)

func requestID(r *http.Request) string {
	id, _ := r.Context().Value(ctxRequestID).(string)
	return id
}

// langOf answers the language chosen for r by the locale middleware (fa when none ran).
func langOf(r *http.Request) Lang {
	if l, ok := r.Context().Value(ctxLang).(Lang); ok {
		return l
	}
	return requestLang(r)
}

// langCookie is the cookie in which the web app keeps the visitor's language choice, so the
// server writes its pages in that language (and direction) from the first byte.
const langCookie = "lang"

// requestLang picks the language of r. The API follows Accept-Language, which the spec's client
// sets on every call to its current language (the cookie only when the header is missing). A
// page follows the visitor's choice in the language cookie, then Accept-Language: an English
// visitor's page arrives left-to-right instead of flipping once the app starts.
func requestLang(r *http.Request) Lang {
	header := r.Header.Get("Accept-Language")
	cookie := Lang("")
	if c, err := r.Cookie(langCookie); err == nil && (c.Value == string(Fa) || c.Value == string(En)) {
		cookie = Lang(c.Value)
	}
	api := strings.HasPrefix(r.URL.Path, "/v1/")
	switch {
	case cookie != "" && (!api || header == ""):
		return cookie
	default:
		return parseLang(header)
	}
}

// parseLang picks fa or en from an Accept-Language header: the first supported tag in the
// client's order of preference (quality), fa when none is supported.
func parseLang(header string) Lang {
	best, bestQ := Fa, -1.0
	for i, part := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if _, err := fmt.Sscanf(v, "%g", &q); err != nil {
				continue
			}
		}
		primary, _, _ := strings.Cut(strings.ToLower(tag), "-")
		var l Lang
		switch primary {
		case "fa", "per":
			l = Fa
		case "en":
			l = En
		default:
			continue
		}
		// Earlier tags win ties, as browsers list them in order.
		if q > bestQ || (q == bestQ && i == 0) {
			best, bestQ = l, q
		}
	}
	return best
}

// withRecover turns a panic into a logged 500 in the envelope, so one bad request never takes
// the server down.
func withRecover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				slog.Error("panic", "id", requestID(r), "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				writeError(w, r, fmt.Errorf("panic: %v", v))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// withRequest gives each request an id (echoed as X-Request-Id), its language and client
// address, and logs it.
func (s *Server) withRequest(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		var b [8]byte
		rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		lang := requestLang(r)
		ctx := context.WithValue(r.Context(), ctxRequestID, id)
		ctx = context.WithValue(ctx, ctxLang, lang)
		ip := s.clientIP(r)
		ctx = context.WithValue(ctx, ctxClientIP, ip)
		w.Header().Set("X-Request-Id", id)
		w.Header().Set("Content-Language", string(lang))
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r.WithContext(ctx))
		level := slog.LevelInfo
		switch {
		case rec.status == http.StatusServiceUnavailable:
			level = slog.LevelWarn // refused on purpose until the server is ready (the search index)
		case rec.status >= 500:
			level = slog.LevelError
		}
		// A record handed to the handler, not slog.LogAttrs: the Logger's methods ask
		// runtime.Callers for the caller's source line, which no handler of ours prints (1% of a
		// search's server time), and attributes, not key-value pairs, box nothing into an any.
		if h := slog.Default().Handler(); h.Enabled(ctx, level) {
			line := slog.NewRecord(time.Now(), level, "request", 0)
			line.AddAttrs(slog.String("id", id), slog.String("method", r.Method),
				slog.String("path", r.URL.Path), slog.Int("status", rec.status), slog.Int("bytes", rec.bytes),
				slog.Float64("ms", float64(time.Since(start).Microseconds())/1000), slog.String("ip", ip))
			_ = h.Handle(ctx, line) // as slog's own methods do: a failed log line fails no answer
		}
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status      int
	bytes       int
	wroteHeader bool
}

func (s *statusRecorder) WriteHeader(code int) {
	if !s.wroteHeader {
		s.status, s.wroteHeader = code, true
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(p []byte) (int, error) {
	s.wroteHeader = true
	n, err := s.ResponseWriter.Write(p)
	s.bytes += n
	return n, err
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// clientIP answers the client's address: the peer's, or the proxy-reported one when the peer is
// one of the trusted proxies (--trusted-proxy), so limits count real clients behind nginx.
func (s *Server) clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip := net.ParseIP(host); ip != nil && s.trustedProxy(ip) {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			parts := strings.Split(xff, ",")
			// The right-most entry is the one our proxy added: the client as the proxy saw it.
			if c := strings.TrimSpace(parts[len(parts)-1]); net.ParseIP(c) != nil {
				return c
			}
		}
		if c := strings.TrimSpace(r.Header.Get("X-Real-Ip")); net.ParseIP(c) != nil {
			return c
		}
	}
	return host
}

func (s *Server) trustedProxy(ip net.IP) bool {
	for _, n := range s.proxies {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// ParseCIDRs parses the --trusted-proxy networks.
func ParseCIDRs(cidrs []string) ([]*net.IPNet, error) {
	var nets []*net.IPNet
	for _, c := range cidrs {
		if c = strings.TrimSpace(c); c == "" {
			continue
		}
		if !strings.Contains(c, "/") {
			if strings.Contains(c, ":") {
				c += "/128"
			} else {
				c += "/32"
			}
		}
		_, n, err := net.ParseCIDR(c)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: %w", c, err)
		}
		nets = append(nets, n)
	}
	return nets, nil
}

// clientIPOf answers the client address resolved for r by withRequest.
func clientIPOf(r *http.Request) string {
	ip, _ := r.Context().Value(ctxClientIP).(string)
	return ip
}

// sharedHeader is a header whose value every answer shares (withSecurityHeaders).
type sharedHeader struct {
	key   string
	value []string
}

// withSecurityHeaders sets the headers every answer carries.
func (s *Server) withSecurityHeaders(next http.Handler) http.Handler {
	// The values are made once and shared by every answer, keys already canonical: Header.Set
	// made a slice for each, five or six allocations a request. A shared slice is safe: a literal's
	// length is its capacity, so an Add on one of these keys copies it, and a Set replaces it.
	headers := []sharedHeader{
		{"X-Content-Type-Options", []string{"nosniff"}},
		{"Referrer-Policy", []string{"strict-origin-when-cross-origin"}},
		{"X-Frame-Options", []string{"DENY"}},
		{"Content-Security-Policy", []string{s.contentSecurityPolicy()}},
		{"Permissions-Policy", []string{"geolocation=(self), camera=(), microphone=()"}},
	}
	if strings.HasPrefix(s.cfg.BaseURL, "https://") {
		headers = append(headers, sharedHeader{"Strict-Transport-Security", []string{"max-age=31536000; includeSubDomains"}})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for _, kv := range headers {
			h[kv.key] = kv.value
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) contentSecurityPolicy() string {
	img := "'self' data: blob:"
	if host := tileOrigin(s.cfg.Tiles); host != "" {
		img += " " + host
	}
	// Images redirected to a CDN load from its origin.
	if host := tileOrigin(s.cfg.UploadsURL); host != "" {
		img += " " + host
	}
	script := "script-src 'self'"
	if s.web != nil && len(s.web.scriptHashes) > 0 {
		script += " " + strings.Join(s.web.scriptHashes, " ")
	}
	return strings.Join([]string{
		"default-src 'self'",
		script,
		"style-src 'self' 'unsafe-inline'", // Leaflet and the crop dialog position elements with style attributes
		"img-src " + img,
		"font-src 'self'",
		"connect-src 'self'",
		"manifest-src 'self'",
		"worker-src 'self'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
}

// tileOrigin answers the scheme and host of a tile URL template, with Leaflet's {s} subdomain
// placeholder widened to a wildcard.
func tileOrigin(tiles string) string {
	scheme, rest, ok := strings.Cut(tiles, "://")
	if !ok {
		return ""
	}
	host, _, _ := strings.Cut(rest, "/")
	host = strings.ReplaceAll(host, "{s}", "*")
	return scheme + "://" + host
}

// withGzip compresses answers for clients that accept it, except what is compressed already.
func withGzip(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !acceptsEncoding(r.Header.Get("Accept-Encoding"), "gzip") || r.Method == http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Accept-Encoding")
		gw := &gzipWriter{ResponseWriter: w}
		defer gw.Close()
		next.ServeHTTP(gw, r)
	})
}

// klauspost/compress's gzip (in the build already, for the S3 client) in place of the standard
// library's: at level 1 it takes a third to a half less time for answers 1-2% larger, and
// compression was a tenth of the server's CPU under make loadtest (A/B: 684 -> 723 writes a
// second, 0.525 -> 0.50 ms of CPU a request).
var gzipPool = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed); return w }}

// gzipWriter decides at the first write whether the answer is worth compressing.
type gzipWriter struct {
	http.ResponseWriter
	gz      *gzip.Writer
	decided bool
	status  int
}

func (g *gzipWriter) WriteHeader(code int) {
	if g.decided {
		return
	}
	g.status = code
	g.decide()
	g.ResponseWriter.WriteHeader(code)
}

func (g *gzipWriter) decide() {
	g.decided = true
	h := g.ResponseWriter.Header()
	if h.Get("Content-Encoding") != "" || g.status == http.StatusNoContent || g.status == http.StatusNotModified {
		return
	}
	if !compressible(h.Get("Content-Type")) {
		return
	}
	h.Del("Content-Length")
	h.Set("Content-Encoding", "gzip")
	g.gz = gzipPool.Get().(*gzip.Writer)
	g.gz.Reset(g.ResponseWriter)
}

func (g *gzipWriter) Write(p []byte) (int, error) {
	if !g.decided {
		if g.ResponseWriter.Header().Get("Content-Type") == "" {
			g.ResponseWriter.Header().Set("Content-Type", http.DetectContentType(p))
		}
		g.WriteHeader(http.StatusOK)
	}
	if g.gz != nil {
		return g.gz.Write(p)
	}
	return g.ResponseWriter.Write(p)
}

func (g *gzipWriter) Flush() {
	if g.gz != nil {
		g.gz.Flush()
	}
	if f, ok := g.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (g *gzipWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if h, ok := g.ResponseWriter.(http.Hijacker); ok {
		return h.Hijack()
	}
	return nil, nil, errors.New("hijack not supported")
}

func (g *gzipWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

func (g *gzipWriter) Close() {
	if g.gz != nil {
		g.gz.Close()
		gzipPool.Put(g.gz)
		g.gz = nil
	}
}

func compressible(ct string) bool {
	ct, _, _ = strings.Cut(ct, ";")
	switch {
	case strings.HasPrefix(ct, "text/"),
		ct == "application/json", ct == "application/javascript", ct == "application/manifest+json",
		ct == "application/xml", ct == "image/svg+xml", ct == "text/javascript":
		return true
	}
	return false
}

// handle adapts a handler that returns an error: the error is written in the envelope.
func handle(fn func(w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := fn(w, r); err != nil {
			writeError(w, r, err)
		}
	}
}

// noRouteJSON answers /v1 requests no route took: 405 when the path is a real one that takes
// other methods, else 404. gorilla/mux (1.8.1) loses the method mismatch when a subrouter
// (/user-technical) comes after the matching route, so the router is asked again here, once per
// method, whether the path has a route.
func (s *Server) noRouteJSON(w http.ResponseWriter, r *http.Request) {
	if allow := s.allowedMethods(r); len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		methodNotAllowed(w, r)
		return
	}
	writeError(w, r, store.NotFound())
}

// routeMethods are the methods the route table uses.
var routeMethods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete}

// allowedMethods answers the methods with which r's path has a route.
func (s *Server) allowedMethods(r *http.Request) []string {
	var allow []string
	for _, m := range routeMethods {
		if m == r.Method {
			continue
		}
		probe := r.Clone(r.Context())
		probe.Method = m
		var match mux.RouteMatch
		if s.router.Match(probe, &match) && match.MatchErr == nil {
			allow = append(allow, m)
		}
	}
	return allow
}

// methodNotAllowed answers 405 with the catalogue's message.
func methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusMethodNotAllowed, nil, message(langOf(r), "method_not_allowed", nil))
}
