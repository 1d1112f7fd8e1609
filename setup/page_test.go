package setup_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kardan/setup"
	"kardan/store"
)

// clock is a settable clock: the edge of the world the expiry depends on.
type clock struct{ t atomic.Int64 }

func (c *clock) now() time.Time          { return time.Unix(0, c.t.Load()) }
func (c *clock) advance(d time.Duration) { c.t.Add(int64(d)) }

func newPage(t *testing.T, proxies ...string) (*setup.Page, string, *store.Store, *clock) {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "kardan.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var nets []*net.IPNet
	for _, c := range proxies {
		_, n, err := net.ParseCIDR(c)
		if err != nil {
			t.Fatal(err)
		}
		nets = append(nets, n)
	}
	c := &clock{}
	c.t.Store(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano())
	p, token, err := setup.New(st, nets, c.now)
	if err != nil {
		t.Fatal(err)
	}
	return p, token, st, c
}

// do sends one request to the page as if from peer, answering the status and the body.
func do(p *setup.Page, method, target, peer string, form url.Values, hdr map[string]string) (int, string) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	r := httptest.NewRequest(method, target, body)
	r.RemoteAddr = peer
	r.Host = "127.0.0.1:8080"
	if form != nil {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	p.Wrap(http.NotFoundHandler()).ServeHTTP(w, r)
	return w.Code, w.Body.String()
}

var csrfRe = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

// formOf fetches the page and answers a valid form for it.
func formOf(t *testing.T, p *setup.Page, token string) url.Values {
	t.Helper()
	code, body := do(p, "GET", setup.Prefix+token, "127.0.0.1:5000", nil, nil)
	if code != 200 {
		t.Fatalf("GET the page: %d %s", code, body)
	}
	m := csrfRe.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no csrf field in %s", body)
	}
	return url.Values{"csrf": {m[1]}, "phone": {"09121234567"}, "name": {"Sara"},
		"password": {"a long secret"}, "password2": {"a long secret"}}
}

func admins(t *testing.T, st *store.Store) int {
	t.Helper()
	role := store.RoleAdmin
	_, n, err := st.Users(context.Background(), store.UserFilter{Role: &role})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSetupCreatesOneAdminThenIsGone(t *testing.T) {
	p, token, st, _ := newPage(t)
	form := formOf(t, p, token)
	code, body := do(p, "POST", setup.Prefix+token+"?lang=en", "127.0.0.1:5000", form, map[string]string{"Origin": "http://127.0.0.1:8080"})
	if code != http.StatusCreated || !strings.Contains(body, "09121234567") {
		t.Fatalf("create: %d %s", code, body)
	}
	if n := admins(t, st); n != 1 {
		t.Fatalf("%d administrators, want 1", n)
	}
	u, err := st.UserByPhone(context.Background(), "09121234567")
	if err != nil || !u.IsAdmin() || u.Name != "Sara" || u.PasswordHash == "" || strings.Contains(u.PasswordHash, "secret") {
		t.Fatalf("stored account: %+v %v", u, err)
	}
	// Used once: both a second form and a visit say so, in the asked language.
	form.Set("phone", "09121234568")
	code, body = do(p, "POST", setup.Prefix+token+"?lang=en", "127.0.0.1:5000", form, nil)
	if code != http.StatusGone || !strings.Contains(body, "already been used") {
		t.Fatalf("second use: %d %s", code, body)
	}
	code, body = do(p, "GET", setup.Prefix+token, "127.0.0.1:5000", nil, map[string]string{"Accept-Language": "fa-IR,fa;q=0.9"})
	if code != http.StatusGone || !strings.Contains(body, "پیش‌تر به کار رفته") || !strings.Contains(body, `dir="rtl"`) {
		t.Fatalf("visit after use: %d %s", code, body)
	}
	if n := admins(t, st); n != 1 {
		t.Fatalf("%d administrators after the second use, want 1", n)
	}
}

func TestSetupRefusesNonLoopbackClients(t *testing.T) {
	p, token, st, _ := newPage(t, "10.0.0.0/8")
	form := formOf(t, p, token)
	cases := []struct {
		name, peer string
		hdr        map[string]string
	}{
		{"another machine", "203.0.113.7:4000", nil},
		{"a trusted proxy", "10.1.2.3:4000", nil},
		{"a proxy on this machine (X-Forwarded-For)", "127.0.0.1:4000", map[string]string{"X-Forwarded-For": "203.0.113.7"}},
		{"a proxy on this machine (X-Real-Ip)", "127.0.0.1:4000", map[string]string{"X-Real-Ip": "203.0.113.7"}},
		{"a proxy on this machine (Forwarded)", "[::1]:4000", map[string]string{"Forwarded": "for=203.0.113.7"}},
		{"a rebinding site's Host", "127.0.0.1:4000", map[string]string{"Host": "evil.example"}},
	}
	for _, c := range cases {
		for _, method := range []string{"GET", "POST"} {
			var f url.Values
			if method == "POST" {
				f = form
			}
			r := httptest.NewRequest(method, setup.Prefix+token+"?lang=en", nil)
			if f != nil {
				r = httptest.NewRequest(method, setup.Prefix+token+"?lang=en", strings.NewReader(f.Encode()))
				r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			r.RemoteAddr, r.Host = c.peer, "127.0.0.1:8080"
			for k, v := range c.hdr {
				if k == "Host" {
					r.Host = v
					continue
				}
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			p.ServeHTTP(w, r)
			if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "only a browser on the server itself") ||
				!strings.Contains(w.Body.String(), "kardan user create") {
				t.Errorf("%s, %s: %d %s", c.name, method, w.Code, w.Body.String())
			}
		}
	}
	if n := admins(t, st); n != 0 {
		t.Fatalf("a refused client made %d administrators", n)
	}
	// The page still works for the real local browser afterwards.
	if code, body := do(p, "POST", setup.Prefix+token, "[::1]:5000", form, nil); code != http.StatusCreated {
		t.Fatalf("local browser after refusals: %d %s", code, body)
	}
}

func TestSetupTokenExpiresAfterAnHour(t *testing.T) {
	p, token, st, c := newPage(t)
	form := formOf(t, p, token)
	c.advance(setup.TTL - time.Second)
	if code, _ := do(p, "GET", setup.Prefix+token, "127.0.0.1:5000", nil, nil); code != 200 {
		t.Fatalf("a second before the hour: %d", code)
	}
	c.advance(time.Second)
	code, body := do(p, "POST", setup.Prefix+token+"?lang=en", "127.0.0.1:5000", form, nil)
	if code != http.StatusGone || !strings.Contains(body, "expired") || !strings.Contains(body, "kardan user create") {
		t.Fatalf("after the hour: %d %s", code, body)
	}
	if code, body := do(p, "GET", setup.Prefix+token, "127.0.0.1:5000", nil, nil); code != http.StatusGone || !strings.Contains(body, "منقضی") {
		t.Fatalf("visit after the hour (fa): %d %s", code, body)
	}
	if n := admins(t, st); n != 0 {
		t.Fatalf("an expired token made %d administrators", n)
	}
}

func TestSetupRefusesForgedAndBadForms(t *testing.T) {
	p, token, st, _ := newPage(t)
	form := formOf(t, p, token)
	path := setup.Prefix + token + "?lang=en"
	if code, _ := do(p, "GET", setup.Prefix+"0123", "127.0.0.1:5000", nil, nil); code != http.StatusNotFound {
		t.Fatalf("a wrong token: %d", code)
	}
	// Cross-site posts: another origin, a cross-site fetch, no or a wrong csrf field.
	for name, hdr := range map[string]map[string]string{
		"origin":     {"Origin": "http://evil.example"},
		"fetch site": {"Sec-Fetch-Site": "cross-site"},
	} {
		if code, body := do(p, "POST", path, "127.0.0.1:5000", form, hdr); code != http.StatusForbidden || !strings.Contains(body, "not sent from this page") {
			t.Errorf("%s: %d %s", name, code, body)
		}
	}
	for _, v := range []string{"", strings.Repeat("0", 64)} {
		f := url.Values{}
		for k, vs := range form {
			f[k] = vs
		}
		f.Set("csrf", v)
		if code, _ := do(p, "POST", path, "127.0.0.1:5000", f, nil); code != http.StatusForbidden {
			t.Errorf("csrf %q: %d", v, code)
		}
	}
	// Bad fields: a clear message for each, the form kept, the token not spent.
	bad := []struct{ field, value, want string }{
		{"phone", "12345", "Iranian mobile number"},
		{"password", "short", "at least 8"},
		{"password", "qwertyuiop", "most common"},
		{"password2", "another secret", "differ"},
		{"name", strings.Repeat("x", 101), "at most 100"},
	}
	for _, b := range bad {
		f := url.Values{}
		for k, vs := range form {
			f[k] = vs
		}
		f.Set(b.field, b.value)
		if b.field == "password" {
			f.Set("password2", b.value)
		}
		code, body := do(p, "POST", path, "127.0.0.1:5000", f, nil)
		if code != http.StatusBadRequest || !strings.Contains(body, b.want) || !strings.Contains(body, `name="csrf"`) {
			t.Errorf("bad %s: %d %s", b.field, code, body)
		}
	}
	if code, _ := do(p, "PUT", path, "127.0.0.1:5000", nil, nil); code != http.StatusMethodNotAllowed {
		t.Errorf("PUT: %d", code)
	}
	if n := admins(t, st); n != 0 {
		t.Fatalf("bad forms made %d administrators", n)
	}
	// A number already registered as a user is refused with the command that promotes it.
	if err := st.CreateUser(context.Background(), &store.User{NumberPhone: "09121234567", PasswordHash: "x", Role: store.RoleUser}); err != nil {
		t.Fatal(err)
	}
	if code, body := do(p, "POST", path, "127.0.0.1:5000", form, nil); code != http.StatusConflict || !strings.Contains(body, "kardan user promote") {
		t.Fatalf("registered number: %d %s", code, body)
	}
	form.Set("phone", "09121234568")
	if code, body := do(p, "POST", path, "127.0.0.1:5000", form, nil); code != http.StatusCreated {
		t.Fatalf("after fixing the form: %d %s", code, body)
	}
}

func TestSetupConcurrentPostsMakeOneAdmin(t *testing.T) {
	p, token, st, _ := newPage(t)
	form := formOf(t, p, token)
	const n = 6
	codes := make(chan int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			f := url.Values{}
			for k, vs := range form {
				f[k] = vs
			}
			f.Set("phone", "0912123456"+string(rune('0'+i)))
			code, _ := do(p, "POST", setup.Prefix+token, "127.0.0.1:5000", f, nil)
			codes <- code
		}(i)
	}
	wg.Wait()
	close(codes)
	created := 0
	for c := range codes {
		switch c {
		case http.StatusCreated:
			created++
		case http.StatusGone:
		default:
			t.Errorf("status %d", c)
		}
	}
	if created != 1 || admins(t, st) != 1 {
		t.Fatalf("%d created answers, %d administrators; want 1 and 1", created, admins(t, st))
	}
}

func TestSetupClosesWhenAnAdminAppearsMeanwhile(t *testing.T) {
	p, token, st, _ := newPage(t)
	form := formOf(t, p, token)
	if err := st.CreateUser(context.Background(), &store.User{NumberPhone: "09351234567", PasswordHash: "x", Role: store.RoleAdmin}); err != nil {
		t.Fatal(err)
	}
	if code, body := do(p, "POST", setup.Prefix+token+"?lang=en", "127.0.0.1:5000", form, nil); code != http.StatusGone || !strings.Contains(body, "already exists") {
		t.Fatalf("%d %s", code, body)
	}
	if code, body := do(p, "GET", setup.Prefix+token+"?lang=en", "127.0.0.1:5000", nil, nil); code != http.StatusGone || !strings.Contains(body, "already been used") {
		t.Fatalf("visit after: %d %s", code, body)
	}
	if admins(t, st) != 1 {
		t.Fatal("a second administrator was made")
	}
}

func TestSetupFormClosesWhenAnAdminExists(t *testing.T) {
	p, token, st, _ := newPage(t)
	if err := st.CreateUser(context.Background(), &store.User{NumberPhone: "09351234567", PasswordHash: "x", Role: store.RoleAdmin}); err != nil {
		t.Fatal(err)
	}
	if code, body := do(p, "GET", setup.Prefix+token+"?lang=en", "127.0.0.1:5000", nil, nil); code != http.StatusGone || !strings.Contains(body, "already exists") || strings.Contains(body, "<form") {
		t.Fatalf("%d %s", code, body)
	}
}

func TestLoopbackTrusted(t *testing.T) {
	for cidr, want := range map[string]bool{"127.0.0.1/32": true, "::1/128": true, "0.0.0.0/0": true, "10.0.0.0/8": false} {
		_, n, _ := net.ParseCIDR(cidr)
		if got := setup.LoopbackTrusted([]*net.IPNet{n}); got != want {
			t.Errorf("%s: %v, want %v", cidr, got, want)
		}
	}
}
