// Package setup serves the one-time page that creates the first administrator from a browser on
// the server itself, so an operator with only the binary needs no shell command to get started.
package setup

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"kardan/auth"
	"kardan/store"
)

// Prefix is where the page lives: Prefix + token.
const Prefix = "/setup/"

// TTL is how long a setup link works after the server printed it.
const TTL = time.Hour

// nameMax is the longest display name, as for every account.
const nameMax = 100

// Page is the one-time setup page. It knows one token (only its hash is kept), which expires
// after TTL and is spent by the first administrator it creates.
type Page struct {
	st      *store.Store
	hasher  *auth.Hasher
	proxies []*net.IPNet
	now     func() time.Time
	csrfKey []byte

	mu      sync.Mutex // serialises the check-and-create, so one token makes one administrator
	token   [sha256.Size]byte
	expires time.Time
	used    bool
}

// New makes the page and its token; now is the clock (time.Now in production). proxies are the
// --trusted-proxy networks: a request from one of them came through a proxy, so it is refused.
func New(st *store.Store, proxies []*net.IPNet, now func() time.Time) (*Page, string, error) {
	raw := make([]byte, 32)
	key := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, "", fmt.Errorf("setup token: %w", err)
	}
	if _, err := rand.Read(key); err != nil {
		return nil, "", fmt.Errorf("setup token: %w", err)
	}
	token := hex.EncodeToString(raw)
	p := &Page{
		st: st, hasher: auth.NewHasher(auth.DefaultParams, 1), proxies: proxies, now: now, csrfKey: key,
		token: sha256.Sum256([]byte(token)), expires: now().Add(TTL),
	}
	return p, token, nil
}

// Expires answers when the token stops working.
func (p *Page) Expires() time.Time { return p.expires }

// LoopbackTrusted reports whether a trusted proxy network covers a loopback address: then every
// loopback client may be a proxy's, and the page can never be used.
func LoopbackTrusted(proxies []*net.IPNet) bool {
	for _, n := range proxies {
		if n.Contains(net.IPv4(127, 0, 0, 1)) || n.Contains(net.IPv6loopback) {
			return true
		}
	}
	return false
}

// Wrap answers the page's paths itself and passes every other request to next.
func (p *Page) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, Prefix) {
			p.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// tokenState is what a presented token is worth.
type tokenState int

const (
	tokenValid tokenState = iota
	tokenUnknown
	tokenUsed
	tokenExpired
)

// state answers what token is worth now; the caller holds p.mu.
func (p *Page) state(token string) tokenState {
	sum := sha256.Sum256([]byte(token))
	switch {
	case subtle.ConstantTimeCompare(sum[:], p.token[:]) != 1:
		return tokenUnknown
	case p.used:
		return tokenUsed
	case !p.now().Before(p.expires):
		return tokenExpired
	}
	return tokenValid
}

// csrf answers the form's anti-forgery value for token: only a page rendered by this process
// for this token carries it.
func (p *Page) csrf(token string) string {
	m := hmac.New(sha256.New, p.csrfKey)
	m.Write([]byte(token))
	return hex.EncodeToString(m.Sum(nil))
}

// ServeHTTP answers GET with the form and POST by creating the administrator.
func (p *Page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	lang := pickLang(r)
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	// The token is in the URL: no referrer may carry it elsewhere.
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")

	if !p.loopbackClient(r) {
		slog.Warn("setup page refused: not a loopback client", "peer", r.RemoteAddr)
		p.render(w, http.StatusForbidden, lang, view{Notice: "not_local"})
		return
	}
	token := strings.TrimPrefix(r.URL.Path, Prefix)
	p.mu.Lock()
	st := p.state(token)
	p.mu.Unlock()
	switch st {
	case tokenUnknown:
		p.render(w, http.StatusNotFound, lang, view{Notice: "unknown"})
		return
	case tokenUsed:
		p.render(w, http.StatusGone, lang, view{Notice: "used"})
		return
	case tokenExpired:
		p.render(w, http.StatusGone, lang, view{Notice: "expired"})
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		// An administrator made meanwhile with `kardan user create --admin` closes the page.
		if n, err := p.adminCount(r.Context()); err != nil {
			p.fail(w, lang, err)
			return
		} else if n > 0 {
			p.mu.Lock()
			p.used = true
			p.mu.Unlock()
			p.render(w, http.StatusGone, lang, view{Notice: "admin_exists"})
			return
		}
		p.render(w, http.StatusOK, lang, view{Form: true, CSRF: p.csrf(token)})
	case http.MethodPost:
		p.create(w, r, lang, token)
	default:
		h.Set("Allow", "GET, HEAD, POST")
		p.render(w, http.StatusMethodNotAllowed, lang, view{Notice: "method"})
	}
}

// create checks the form and makes the first administrator.
func (p *Page) create(w http.ResponseWriter, r *http.Request, lang, token string) {
	if !sameOrigin(r) {
		slog.Warn("setup page refused: cross-site form", "origin", r.Header.Get("Origin"), "site", r.Header.Get("Sec-Fetch-Site"))
		p.render(w, http.StatusForbidden, lang, view{Notice: "csrf"})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		p.render(w, http.StatusBadRequest, lang, view{Notice: "bad_form"})
		return
	}
	if !hmac.Equal([]byte(r.PostForm.Get("csrf")), []byte(p.csrf(token))) {
		p.render(w, http.StatusForbidden, lang, view{Notice: "csrf"})
		return
	}
	v := view{Form: true, CSRF: p.csrf(token), Errors: map[string]string{}}
	v.Phone = strings.TrimSpace(r.PostForm.Get("phone"))
	v.Name = store.CleanText(r.PostForm.Get("name"), false)
	password := r.PostForm.Get("password")
	phone, ok := store.NormalizeMobile(v.Phone)
	if !ok {
		v.Errors["phone"] = "phone_invalid"
	}
	if utf8.RuneCountInString(v.Name) > nameMax {
		v.Errors["name"] = "name_long"
	}
	if short, long := auth.ValidPasswordLength(password); short {
		v.Errors["password"] = "password_short"
	} else if long {
		v.Errors["password"] = "password_long"
	} else if auth.CommonPassword(password) {
		v.Errors["password"] = "password_common"
	} else if password != r.PostForm.Get("password2") {
		v.Errors["password2"] = "password_mismatch"
	}
	if len(v.Errors) > 0 {
		p.render(w, http.StatusBadRequest, lang, v)
		return
	}
	// Hashing takes a moment and memory: done before taking the lock, and at most once at a time.
	hash, err := p.hasher.Hash(r.Context(), password)
	if err != nil {
		p.fail(w, lang, err)
		return
	}
	u, code, err := p.createAdmin(r.Context(), token, phone, v.Name, hash)
	switch {
	case err != nil:
		p.fail(w, lang, err)
	case code != "":
		status := http.StatusGone
		if code == "phone_taken" {
			status = http.StatusConflict
			v.Errors["phone"] = code
			p.render(w, status, lang, v)
			return
		}
		p.render(w, status, lang, view{Notice: code})
	default:
		slog.Info("first administrator created from the setup page", "user", u.ID)
		p.render(w, http.StatusCreated, lang, view{Notice: "created", Phone: u.NumberPhone})
	}
}

// createAdmin spends the token on one administrator. code names a refusal the form shows.
func (p *Page) createAdmin(ctx context.Context, token, phone, name, hash string) (*store.User, string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch p.state(token) {
	case tokenUsed:
		return nil, "used", nil
	case tokenExpired:
		return nil, "expired", nil
	case tokenUnknown:
		return nil, "unknown", nil
	}
	if n, err := p.adminCount(ctx); err != nil {
		return nil, "", err
	} else if n > 0 {
		// Someone ran `kardan user create --admin` meanwhile: the page has no more purpose.
		p.used = true
		return nil, "admin_exists", nil
	}
	u := &store.User{NumberPhone: phone, Name: name, PasswordHash: hash, Role: store.RoleAdmin}
	if err := p.st.CreateUser(ctx, u); err != nil {
		if store.ErrorCode(err) == store.EConflict {
			return nil, "phone_taken", nil
		}
		return nil, "", err
	}
	p.used = true
	return u, "", nil
}

func (p *Page) adminCount(ctx context.Context) (int, error) {
	role := store.RoleAdmin
	_, n, err := p.st.Users(ctx, store.UserFilter{Role: &role, Limit: 1})
	return n, err
}

func (p *Page) fail(w http.ResponseWriter, lang string, err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	slog.Error("setup page", "err", err)
	p.render(w, http.StatusInternalServerError, lang, view{Notice: "internal"})
}

// loopbackClient reports whether r came straight from a browser on this machine: a loopback
// peer that is not a trusted proxy, no header a proxy adds, and a loopback Host (so a page of
// another site that resolves its name to 127.0.0.1 cannot reach it).
func (p *Page) loopbackClient(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return false
	}
	for _, n := range p.proxies {
		if n.Contains(ip) {
			return false
		}
	}
	for _, name := range []string{"X-Forwarded-For", "X-Real-Ip", "Forwarded", "X-Forwarded-Host", "X-Forwarded-Proto", "Via"} {
		if _, ok := r.Header[http.CanonicalHeaderKey(name)]; ok {
			return false
		}
	}
	return loopbackHost(r.Host)
}

// loopbackHost reports whether a Host header names this machine.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// sameOrigin refuses a form posted from another site: browsers send Sec-Fetch-Site, and Origin
// on every POST; a client that sends neither (curl) is on this machine already.
func sameOrigin(r *http.Request) bool {
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" && s != "none" {
		return false
	}
	if o := r.Header.Get("Origin"); o != "" {
		return o == "http://"+r.Host || o == "https://"+r.Host
	}
	return true
}
