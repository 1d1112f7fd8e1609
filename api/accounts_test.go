package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"kardan/api"
	"kardan/auth"
	"kardan/media"
	"kardan/search"
	"kardan/store/storetest"
)

// smsRecorder is the SMS edge for tests: it keeps the last code sent to each number, and fails
// while fail is set, as a provider that refuses the send.
type smsRecorder struct {
	mu      sync.Mutex
	codes   map[string]string
	notices map[string]string
	// templates holds the templated messages (notices of new leads, moderation) per number.
	templates map[string][]string
	sent      int
	fail      error
}

func (r *smsRecorder) SendNotice(ctx context.Context, phone string, n auth.Notice) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		return r.fail
	}
	if r.notices == nil {
		r.notices = map[string]string{}
	}
	r.notices[phone] = string(n)
	r.sent++
	return nil
}

// SendTemplate records "template token..." per number, as the file sender writes it.
func (r *smsRecorder) SendTemplate(ctx context.Context, phone, template string, tokens ...string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		return r.fail
	}
	if r.templates == nil {
		r.templates = map[string][]string{}
	}
	r.templates[phone] = append(r.templates[phone], strings.Join(append([]string{template}, tokens...), " "))
	r.sent++
	return nil
}

// templated answers the templated messages sent to phone, oldest first.
func (r *smsRecorder) templated(phone string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.templates[phone]...)
}

func (r *smsRecorder) notice(phone string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.notices[phone]
}

func (r *smsRecorder) Send(ctx context.Context, phone, code string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		return r.fail
	}
	r.codes[phone] = code
	r.sent++
	return nil
}

func (r *smsRecorder) code(phone string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.codes[phone]
}

func (r *smsRecorder) setFail(err error) {
	r.mu.Lock()
	r.fail = err
	r.mu.Unlock()
}

// accountClock is the store's clock under the test's control.
type accountClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *accountClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *accountClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// accountServer is a real server over a real SQLite file, with the SMS recorder, a local
// uploads directory, a controllable clock, and loopback as a trusted proxy so tests can speak
// for different client addresses through X-Forwarded-For.
type accountServer struct {
	*testServer
	API     *api.Server
	SMS     *smsRecorder
	Clock   *accountClock
	Uploads *media.LocalDir
	Search  *search.Index
	// Cards is the directory of drawn share cards.
	Cards string
}

func newAccountServer(t testing.TB) *accountServer {
	t.Helper()
	st, ix := storetest.Indexed(t)
	tehran, _ := time.LoadLocation("Asia/Tehran")
	clk := &accountClock{t: time.Date(2026, 3, 21, 8, 0, 0, 0, time.UTC)}
	st.Now = clk.now
	uploads, err := media.NewLocalDir(filepath.Join(t.TempDir(), "uploads"))
	if err != nil {
		t.Fatal(err)
	}
	rec := &smsRecorder{codes: map[string]string{}}
	proxies, _ := api.ParseCIDRs([]string{"127.0.0.1", "::1"})
	cards := filepath.Join(t.TempDir(), "cards")
	srv, err := api.New(api.Config{BaseURL: "https://kardan.example", TrustedProxies: proxies, SMS: rec, Uploads: uploads,
		ShareCards: cards, Search: ix, Location: tehran, Moderation: "pre", Now: clk.now}, st)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &accountServer{testServer: &testServer{Server: ts, Store: st}, API: srv, SMS: rec, Clock: clk, Uploads: uploads, Search: ix, Cards: cards}
}

// req is one request: the JSON body, the language, the token and the client address.
type req struct {
	method, path, body string
	lang, token, ip    string
}

func (as *accountServer) send(t testing.TB, q req) answer {
	t.Helper()
	var rd io.Reader
	if q.body != "" {
		rd = strings.NewReader(q.body)
	}
	r, err := http.NewRequest(q.method, as.URL+q.path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if q.body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	if q.lang != "" {
		r.Header.Set("Accept-Language", q.lang)
	}
	if q.token != "" {
		r.Header.Set("Authorization", "Bearer "+q.token)
	}
	if q.ip != "" {
		r.Header.Set("X-Forwarded-For", q.ip)
	}
	return as.roundTrip(t, r)
}

func (as *accountServer) roundTrip(t testing.TB, r *http.Request) answer {
	t.Helper()
	res, err := as.Client().Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	a := answer{Status: res.StatusCode, Header: res.Header, Body: string(raw)}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		var env struct {
			Payload json.RawMessage `json:"payload"`
			Message json.RawMessage `json:"message"`
		}
		if err := json.Unmarshal(raw, &env); err != nil {
			t.Fatalf("%s %s: answer is not the envelope: %v: %s", r.Method, r.URL.Path, err, raw)
		}
		a.Payload, a.Message = env.Payload, env.Message
	}
	return a
}

// wantError checks an error answer's status and that its message holds fa in Persian and en in
// English, sending the request once per language (q.lang is overwritten). Requests that change
// state must be repeatable for this (or use wantErrorOnce).
func (as *accountServer) wantError(t testing.TB, q req, status int, fa, en string) {
	t.Helper()
	for _, l := range []struct{ lang, want string }{{"fa-IR", fa}, {"en", en}} {
		q.lang = l.lang
		a := as.send(t, q)
		checkError(t, a, status, l.want)
	}
}

func checkError(t testing.TB, a answer, status int, want string) {
	t.Helper()
	if a.Status != status {
		t.Fatalf("status: got %d, want %d: %s", a.Status, status, a.Body)
	}
	if !strings.Contains(string(a.Message), want) {
		t.Fatalf("message: got %s, want it to contain %q", a.Message, want)
	}
}

func (as *accountServer) sendCode(t testing.TB, phone, ip string) answer {
	t.Helper()
	return as.send(t, req{method: "POST", path: "/v1/send-sms/sendSmsForSignUp", body: `{"numberPhone":"` + phone + `"}`, ip: ip})
}

type loginAnswer struct {
	Token         string `json:"token"`
	ID            int64  `json:"id"`
	UserTechnical []any  `json:"userTechnical"`
	IsAdmin       bool   `json:"isAdmin"`
}

func decodePayload[T any](t testing.TB, a answer) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(a.Payload, &v); err != nil {
		t.Fatalf("payload: %v: %s", err, a.Body)
	}
	return v
}

// mustSignUp registers phone with password through the API and answers the login answer.
func (as *accountServer) mustSignUp(t testing.TB, phone, password string) loginAnswer {
	t.Helper()
	if a := as.sendCode(t, phone, ""); a.Status != 200 {
		t.Fatalf("send code: %d %s", a.Status, a.Body)
	}
	body := fmt.Sprintf(`{"numberPhone":%q,"name":"Test","password":%q,"profileImage":"","otpCode":%q}`, phone, password, as.SMS.code(phone))
	a := as.send(t, req{method: "POST", path: "/v1/user/create", body: body})
	if a.Status != 200 {
		t.Fatalf("create: %d %s", a.Status, a.Body)
	}
	return decodePayload[loginAnswer](t, a)
}

func (as *accountServer) login(t testing.TB, phone, password, ip string) answer {
	t.Helper()
	return as.send(t, req{method: "POST", path: "/v1/user/login", body: fmt.Sprintf(`{"numberPhone":%q,"password":%q}`, phone, password), ip: ip})
}

func TestSignUpJourney(t *testing.T) {
	as := newAccountServer(t)
	const phone = "09121234567"

	a := as.sendCode(t, "+98 912 123 4567", "")
	if a.Status != 200 || !strings.Contains(a.Body, `"numberPhone":"09121234567"`) || !strings.Contains(a.Body, "۰۹۱۲۱۲۳۴۵۶۷") {
		t.Fatalf("send code: %d %s", a.Status, a.Body)
	}
	code := as.SMS.code(phone)
	if len(code) != 6 {
		t.Fatalf("got code %q, want 6 digits sent to the normalised number", code)
	}
	// The code is typed on a Persian keyboard and sent as text.
	fa := strings.Map(func(r rune) rune { return '۰' + (r - '0') }, code)
	a = as.send(t, req{method: "POST", path: "/v1/user/create",
		body: `{"numberPhone":"۰۹۱۲۱۲۳۴۵۶۷","name":"  سارا  ","password":"correct horse","profileImage":"","otpCode":"` + fa + `"}`})
	if a.Status != 200 {
		t.Fatalf("create: %d %s", a.Status, a.Body)
	}
	created := decodePayload[loginAnswer](t, a)
	if len(created.Token) != 43 || created.ID == 0 || created.UserTechnical == nil || len(created.UserTechnical) != 0 || created.IsAdmin {
		t.Fatalf("create answer: got %s, want {token, id, userTechnical: [], isAdmin: false}", a.Payload)
	}

	a = as.login(t, phone, "correct horse", "")
	if a.Status != 200 {
		t.Fatalf("login: %d %s", a.Status, a.Body)
	}
	var raw map[string]json.RawMessage
	json.Unmarshal(a.Payload, &raw)
	for _, k := range []string{"token", "id", "userTechnical", "isAdmin"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("login answer lacks %q: %s", k, a.Payload)
		}
	}
	if string(raw["userTechnical"]) != "[]" {
		t.Errorf("userTechnical: got %s, want []", raw["userTechnical"])
	}
	token := decodePayload[loginAnswer](t, a).Token

	a = as.send(t, req{method: "GET", path: "/v1/user", token: token})
	if a.Status != 200 {
		t.Fatalf("get user: %d %s", a.Status, a.Body)
	}
	var me map[string]any
	json.Unmarshal(a.Payload, &me)
	if me["numberPhone"] != phone || me["name"] != "سارا" || me["isAdmin"] != false || me["profileImage"] != "" ||
		me["create_at"] == nil || me["id"] != float64(created.ID) {
		t.Fatalf("got %s, want the user's read form", a.Payload)
	}
	if strings.Contains(a.Body, "argon2") || strings.Contains(a.Body, "assword") {
		t.Fatalf("the read form leaks the password: %s", a.Body)
	}

	a = as.send(t, req{method: "PUT", path: "/v1/user/edit", token: token, body: fmt.Sprintf(`{"id":"%d","name":"Sara K"}`, created.ID)})
	if a.Status != 200 || !strings.Contains(a.Body, `"name":"Sara K"`) {
		t.Fatalf("edit: %d %s", a.Status, a.Body)
	}

	a = as.send(t, req{method: "POST", path: "/v1/user/logout", token: token, lang: "en"})
	if a.Status != 200 || !strings.Contains(string(a.Message), "signed out") {
		t.Fatalf("logout: %d %s", a.Status, a.Body)
	}
	as.wantError(t, req{method: "GET", path: "/v1/user", token: token}, 401, "لطفاً ابتدا وارد شوید", "Please sign in first")
	// The sign-up session is another session: still alive.
	if a := as.send(t, req{method: "GET", path: "/v1/user", token: created.Token}); a.Status != 200 {
		t.Fatalf("the other session: %d %s", a.Status, a.Body)
	}
}

func TestSendCodeErrors(t *testing.T) {
	as := newAccountServer(t)
	send := func(phone string) req {
		return req{method: "POST", path: "/v1/send-sms/sendSmsForSignUp", body: `{"numberPhone":"` + phone + `"}`}
	}
	t.Run("ErrPhoneRequired", func(t *testing.T) {
		as.wantError(t, send(""), 400, "شماره موبایل را وارد کنید", "Enter mobile number")
	})
	t.Run("ErrLandline", func(t *testing.T) {
		as.wantError(t, send("021-88776655"), 400, "شماره موبایل را درست وارد کنید", "Enter correct mobile number")
	})
	t.Run("ErrShort", func(t *testing.T) {
		as.wantError(t, send("0912123456"), 400, "شماره موبایل را درست وارد کنید", "Enter correct mobile number")
	})
	t.Run("ErrNoBody", func(t *testing.T) {
		as.wantError(t, req{method: "POST", path: "/v1/send-sms/sendSmsForSignUp"}, 400, "اطلاعات دریافت نشد", "Information not received")
	})
	t.Run("ErrProviderFails", func(t *testing.T) {
		as.SMS.setFail(errors.New("provider down"))
		as.wantError(t, send("09351110000"), 502, "ارسال پیامک انجام نشد", "The SMS could not be sent")
		as.SMS.setFail(nil)
		// Neither failed send counted: no cooldown now.
		if a := as.send(t, send("09351110000")); a.Status != 200 {
			t.Fatalf("after the provider recovered: %d %s", a.Status, a.Body)
		}
	})
	t.Run("ErrCooldown", func(t *testing.T) {
		if a := as.send(t, send("09352220000")); a.Status != 200 {
			t.Fatalf("first send: %d %s", a.Status, a.Body)
		}
		as.Clock.advance(15 * time.Second)
		as.wantError(t, send("09352220000"), 429, "۴۵ ثانیه", "try again in 45 seconds")
		a := as.send(t, send("09352220000"))
		if a.Header.Get("Retry-After") != "45" {
			t.Fatalf("Retry-After: got %q, want 45", a.Header.Get("Retry-After"))
		}
		as.Clock.advance(45 * time.Second)
		if a := as.send(t, send("09352220000")); a.Status != 200 {
			t.Fatalf("after the cooldown: %d %s", a.Status, a.Body)
		}
	})
	t.Run("ErrHourlyCapPerNumber", func(t *testing.T) {
		for i := 0; i < 5; i++ {
			if a := as.sendCode(t, "09353330000", fmt.Sprintf("10.1.0.%d", i)); a.Status != 200 {
				t.Fatalf("send %d: %d %s", i+1, a.Status, a.Body)
			}
			as.Clock.advance(time.Minute)
		}
		// Five sends at 0..4 minutes; now is 5 minutes: the first leaves the hour in 55 minutes.
		as.wantError(t, req{method: "POST", path: "/v1/send-sms/sendSmsForSignUp", body: `{"numberPhone":"09353330000"}`, ip: "10.1.1.1"},
			429, "۳۳۰۰ ثانیه", "try again in 3300 seconds")
	})
	t.Run("ErrHourlyCapPerAddress", func(t *testing.T) {
		for i := 0; i < 20; i++ {
			if a := as.sendCode(t, fmt.Sprintf("0936%07d", i), "10.2.0.1"); a.Status != 200 {
				t.Fatalf("send %d: %d %s", i+1, a.Status, a.Body)
			}
		}
		as.wantError(t, req{method: "POST", path: "/v1/send-sms/sendSmsForSignUp", body: `{"numberPhone":"09369999999"}`, ip: "10.2.0.1"},
			429, "۳۶۰۰ ثانیه", "try again in 3600 seconds")
		if a := as.sendCode(t, "09369999999", "10.2.0.2"); a.Status != 200 {
			t.Fatalf("another address: %d %s", a.Status, a.Body)
		}
	})
	t.Run("RegisteredGetsANoticeNotACode", func(t *testing.T) {
		as.mustSignUp(t, "09354440000", "long enough")
		as.Clock.advance(time.Minute)
		before := as.SMS.code("09354440000")
		a := as.sendCode(t, "+989354440000", "10.2.9.1")
		if a.Status != 200 || !strings.Contains(a.Body, `"expiresIn":120`) {
			t.Fatalf("got %d %s, want the usual answer", a.Status, a.Body)
		}
		if got := as.SMS.notice("09354440000"); got != "account_exists" || as.SMS.code("09354440000") != before {
			t.Fatalf("got notice %q and code %q, want the account-exists notice and no new code", got, as.SMS.code("09354440000"))
		}
	})
}

func TestCreateErrors(t *testing.T) {
	as := newAccountServer(t)
	create := func(phone, password, code string) req {
		return req{method: "POST", path: "/v1/user/create",
			body: fmt.Sprintf(`{"numberPhone":%q,"name":"N","password":%q,"profileImage":"","otpCode":%q}`, phone, password, code)}
	}
	wrong := func(code string) string {
		if code == "000000" {
			return "111111"
		}
		return "000000"
	}
	t.Run("ErrFieldsRequired", func(t *testing.T) {
		as.wantError(t, req{method: "POST", path: "/v1/user/create", body: `{}`}, 400, "رمز عبور را وارد کنید", "Enter password")
		a := as.send(t, req{method: "POST", path: "/v1/user/create", body: `{}`, lang: "en"})
		for _, want := range []string{"Enter mobile number", "Enter password", "Enter verification code", `"otpCode"`, `"numberPhone"`} {
			if !strings.Contains(a.Body, want) {
				t.Errorf("got %s, want %q", a.Body, want)
			}
		}
	})
	t.Run("ErrPasswordTooShort", func(t *testing.T) {
		as.wantError(t, create("09121110000", "1234567", "123456"), 400, "رمز عبور باید دست‌کم ۸ نویسه باشد", "The password must be at least 8 characters")
	})
	t.Run("ErrPasswordTooLong", func(t *testing.T) {
		as.wantError(t, create("09121110000", strings.Repeat("p", 129), "123456"), 400, "رمز عبور حداکثر ۱۲۸ نویسه", "Password can be at most 128 characters")
	})
	t.Run("ErrCodeMalformed", func(t *testing.T) {
		as.wantError(t, create("09121110000", "long enough", "12345"), 400, "کد تأیید را درست وارد کنید", "Enter correct verification code")
	})
	t.Run("ErrProfileImageNotOwned", func(t *testing.T) {
		as.wantError(t, req{method: "POST", path: "/v1/user/create",
			body: `{"numberPhone":"09121110000","password":"long enough","otpCode":"123456","profileImage":"/uploads/ab/someone-else.jpg"}`},
			400, "تصویر پروفایل را درست وارد کنید", "Enter correct profile image")
	})
	t.Run("ErrNoCodeSent", func(t *testing.T) {
		as.wantError(t, create("09121110001", "long enough", "123456"), 400, "کد تأیید منقضی شده است", "The verification code has expired")
	})
	t.Run("ErrWrongCode", func(t *testing.T) {
		as.sendCode(t, "09121110002", "")
		code := as.SMS.code("09121110002")
		as.wantError(t, create("09121110002", "long enough", wrong(code)), 400, "کد تأیید درست نیست", "The verification code is wrong")
		// Two wrong tries so far; the right code still works.
		if a := as.send(t, create("09121110002", "long enough", code)); a.Status != 200 {
			t.Fatalf("the right code after two wrong: %d %s", a.Status, a.Body)
		}
	})
	t.Run("ErrExpired", func(t *testing.T) {
		as.sendCode(t, "09121110003", "")
		as.Clock.advance(2*time.Minute + time.Second)
		code := as.SMS.code("09121110003")
		as.wantError(t, create("09121110003", "long enough", code), 400, "کد تأیید منقضی شده است", "The verification code has expired")
	})
	t.Run("ErrBurnedAfterFiveWrong", func(t *testing.T) {
		as.sendCode(t, "09121110004", "")
		code := as.SMS.code("09121110004")
		for i := 0; i < 4; i++ {
			checkError(t, as.send(t, create("09121110004", "long enough", wrong(code))), 400, "کد تأیید درست نیست")
		}
		checkError(t, as.send(t, create("09121110004", "long enough", wrong(code))), 400, "بیش از حد اشتباه")
		as.wantError(t, create("09121110004", "long enough", code), 400, "کد تأیید بیش از حد اشتباه وارد شد", "entered wrong too many times")
	})
	t.Run("ErrDuplicateRegistrationAnsweredLikeNoCode", func(t *testing.T) {
		as.mustSignUp(t, "09121110005", "long enough")
		as.wantError(t, create("09121110005", "long enough", "123456"), 400, "کد تأیید منقضی شده است", "The verification code has expired")
	})
	t.Run("CodeOfAnotherNumber", func(t *testing.T) {
		as.Clock.advance(time.Minute)
		as.sendCode(t, "09121110006", "")
		as.sendCode(t, "09121110007", "")
		as.wantError(t, create("09121110007", "long enough", as.SMS.code("09121110006")), 400, "کد تأیید درست نیست", "The verification code is wrong")
	})
}

func TestLoginErrors(t *testing.T) {
	as := newAccountServer(t)
	as.mustSignUp(t, "09121234567", "correct horse")
	login := func(phone, password, ip string) req {
		return req{method: "POST", path: "/v1/user/login", body: fmt.Sprintf(`{"numberPhone":%q,"password":%q}`, phone, password), ip: ip}
	}
	t.Run("ErrFieldsRequired", func(t *testing.T) {
		as.wantError(t, login("", "x", "10.0.0.1"), 400, "شماره موبایل را وارد کنید", "Enter mobile number")
		as.wantError(t, login("09121234567", "", "10.0.0.1"), 400, "رمز عبور را وارد کنید", "Enter password")
	})
	t.Run("ErrSameAnswerForUnknownAndWrong", func(t *testing.T) {
		wrong := as.send(t, login("09121234567", "wrong horse", "10.0.0.2"))
		unknown := as.send(t, login("09129999999", "wrong horse", "10.0.0.2"))
		if wrong.Status != 400 || wrong.Body != unknown.Body {
			t.Fatalf("got %d %s and %d %s, want one answer", wrong.Status, wrong.Body, unknown.Status, unknown.Body)
		}
		as.wantError(t, login("09121234567", "wrong horse", "10.0.0.2"), 400, "شماره موبایل یا رمز عبور درست نیست", "The mobile number or password is wrong")
	})
	t.Run("ErrSlowedPerNumberNeverLocked", func(t *testing.T) {
		as.Clock.advance(time.Hour)
		// Ten failures from ten addresses in one second: the number is slowed down for every
		// address (one second, then doubling), never locked for the window.
		for i := 0; i < 10; i++ {
			checkError(t, as.send(t, login("09121234567", "wrong horse", fmt.Sprintf("10.3.0.%d", i))), 400, "")
		}
		as.wantError(t, login("09121234567", "correct horse", "10.3.1.1"), 429, "۱ ثانیه", "try again in 1 seconds")
		as.Clock.advance(time.Second)
		checkError(t, as.send(t, login("09121234567", "wrong horse", "10.3.0.20")), 400, "")
		if a := as.send(t, login("09121234567", "correct horse", "10.3.1.1")); a.Header.Get("Retry-After") != "2" {
			t.Fatalf("Retry-After after 11 failures: got %q, want 2", a.Header.Get("Retry-After"))
		}
		for i := 0; i < 12; i++ { // the wait doubles and stops at a minute
			as.Clock.advance(time.Minute)
			checkError(t, as.send(t, login("09121234567", "wrong horse", fmt.Sprintf("10.3.2.%d", i))), 400, "")
		}
		if a := as.send(t, login("09121234567", "correct horse", "10.3.1.1")); a.Header.Get("Retry-After") != "60" {
			t.Fatalf("Retry-After at the cap: got %q, want 60", a.Header.Get("Retry-After"))
		}
		as.Clock.advance(time.Minute)
		if a := as.send(t, login("09121234567", "correct horse", "10.3.1.1")); a.Status != 200 {
			t.Fatalf("the owner a minute later: %d %s", a.Status, a.Body)
		}
	})
	t.Run("ErrThrottledPerAddress", func(t *testing.T) {
		as.Clock.advance(time.Hour)
		for i := 0; i < 20; i++ {
			checkError(t, as.send(t, login(fmt.Sprintf("0919%07d", i), "guess-guess", "10.4.0.1")), 400, "")
		}
		as.wantError(t, login("09121234567", "correct horse", "10.4.0.1"), 429, "ثانیه", "seconds")
		if a := as.send(t, login("09121234567", "correct horse", "10.4.0.2")); a.Status != 200 {
			t.Fatalf("another address: %d %s", a.Status, a.Body)
		}
	})
	t.Run("ErrThrottledPerNumberAndAddress", func(t *testing.T) {
		as.Clock.advance(time.Hour)
		for i := 0; i < 5; i++ {
			checkError(t, as.send(t, login("09121234567", "wrong horse", "10.6.0.1")), 400, "")
		}
		as.wantError(t, login("09121234567", "correct horse", "10.6.0.1"), 429, "۳۰ ثانیه", "try again in 30 seconds")
		if a := as.send(t, login("09121234567", "correct horse", "10.6.0.2")); a.Status != 200 {
			t.Fatalf("the owner from another address: %d %s", a.Status, a.Body)
		}
	})
	t.Run("SuccessClearsFailuresFromItsAddress", func(t *testing.T) {
		as.Clock.advance(time.Hour)
		for i := 0; i < 4; i++ {
			checkError(t, as.send(t, login("09121234567", "wrong horse", "10.5.0.1")), 400, "")
		}
		if a := as.send(t, login("09121234567", "correct horse", "10.5.0.1")); a.Status != 200 {
			t.Fatalf("login: %d %s", a.Status, a.Body)
		}
		for i := 0; i < 5; i++ {
			checkError(t, as.send(t, login("09121234567", "wrong horse", "10.5.0.1")), 400, "")
		}
	})
}

func TestAccessErrors(t *testing.T) {
	as := newAccountServer(t)
	me := as.mustSignUp(t, "09121234567", "correct horse")
	other := as.mustSignUp(t, "09127654321", "another horse")
	const unauth, unauthFa = "Please sign in first", "لطفاً ابتدا وارد شوید"
	t.Run("ErrNoToken", func(t *testing.T) {
		as.wantError(t, req{method: "GET", path: "/v1/user"}, 401, unauthFa, unauth)
		as.wantError(t, req{method: "PUT", path: "/v1/user/edit", body: `{"name":"x"}`}, 401, unauthFa, unauth)
		as.wantError(t, req{method: "POST", path: "/v1/user/logout"}, 401, unauthFa, unauth)
		as.wantError(t, req{method: "POST", path: "/v1/upload-file"}, 401, unauthFa, unauth)
	})
	t.Run("ErrBadToken", func(t *testing.T) {
		for _, tok := range []string{"abc", strings.Repeat("A", 43), me.Token + "x", me.Token[:42] + "!"} {
			as.wantError(t, req{method: "GET", path: "/v1/user", token: tok}, 401, unauthFa, unauth)
		}
	})
	t.Run("PublicRoutesIgnoreBadToken", func(t *testing.T) {
		if a := as.send(t, req{method: "GET", path: "/v1/config", token: strings.Repeat("A", 43)}); a.Status != 200 {
			t.Fatalf("got %d, want a visitor served", a.Status)
		}
	})
	t.Run("ErrOtherUsersID", func(t *testing.T) {
		body := fmt.Sprintf(`{"id":%d,"name":"hijacked"}`, other.ID)
		as.wantError(t, req{method: "PUT", path: "/v1/user/edit", token: me.Token, body: body}, 403, "شما اجازه این کار را ندارید", "You are not allowed to do this")
		a := as.send(t, req{method: "GET", path: "/v1/user", token: other.Token})
		if strings.Contains(a.Body, "hijacked") {
			t.Fatal("another user's name changed")
		}
	})
	t.Run("ErrExpired", func(t *testing.T) {
		a := as.login(t, "09121234567", "correct horse", "")
		tok := decodePayload[loginAnswer](t, a).Token
		as.Clock.advance(72*time.Hour - time.Minute)
		if a := as.send(t, req{method: "GET", path: "/v1/user", token: tok}); a.Status != 200 {
			t.Fatalf("a minute before expiry: %d", a.Status)
		}
		as.Clock.advance(time.Minute)
		as.wantError(t, req{method: "GET", path: "/v1/user", token: tok}, 401, unauthFa, unauth)
	})
	t.Run("ErrRevokedByLogout", func(t *testing.T) {
		tok := decodePayload[loginAnswer](t, as.login(t, "09121234567", "correct horse", "")).Token
		if a := as.send(t, req{method: "POST", path: "/v1/user/logout", token: tok}); a.Status != 200 {
			t.Fatalf("logout: %d %s", a.Status, a.Body)
		}
		as.wantError(t, req{method: "GET", path: "/v1/user", token: tok}, 401, unauthFa, unauth)
		as.wantError(t, req{method: "POST", path: "/v1/user/logout", token: tok}, 401, unauthFa, unauth)
	})
	t.Run("PasswordChangeEndsOtherSessions", func(t *testing.T) {
		a := decodePayload[loginAnswer](t, as.login(t, "09127654321", "another horse", "")).Token
		b := decodePayload[loginAnswer](t, as.login(t, "09127654321", "another horse", "")).Token
		if r := as.send(t, req{method: "PUT", path: "/v1/user/edit", token: a, body: `{"password":"brand new horse","currentPassword":"another horse"}`}); r.Status != 200 {
			t.Fatalf("edit: %d %s", r.Status, r.Body)
		}
		if r := as.send(t, req{method: "GET", path: "/v1/user", token: a}); r.Status != 200 {
			t.Fatalf("the session that changed the password: %d", r.Status)
		}
		as.wantError(t, req{method: "GET", path: "/v1/user", token: b}, 401, unauthFa, unauth)
		as.wantError(t, req{method: "GET", path: "/v1/user", token: other.Token}, 401, unauthFa, unauth)
		if r := as.login(t, "09127654321", "another horse", ""); r.Status != 400 {
			t.Fatalf("the old password: got %d, want 400", r.Status)
		}
		if r := as.login(t, "09127654321", "brand new horse", ""); r.Status != 200 {
			t.Fatalf("the new password: %d %s", r.Status, r.Body)
		}
	})
}

func TestEditErrors(t *testing.T) {
	as := newAccountServer(t)
	me := as.mustSignUp(t, "09121234567", "correct horse")
	edit := func(body string) req { return req{method: "PUT", path: "/v1/user/edit", token: me.Token, body: body} }
	t.Run("ErrPasswordTooShort", func(t *testing.T) {
		as.wantError(t, edit(`{"password":"short"}`), 400, "رمز عبور باید دست‌کم ۸ نویسه باشد", "The password must be at least 8 characters")
	})
	t.Run("ErrNameTooLong", func(t *testing.T) {
		as.wantError(t, edit(`{"name":"`+strings.Repeat("ن", 81)+`"}`), 400, "نام حداکثر ۸۰ نویسه", "Name can be at most 80 characters")
	})
	t.Run("ErrImageNotOwned", func(t *testing.T) {
		as.wantError(t, edit(`{"profileImage":"/uploads/ab/abababababababababababababababababababababababababababababababab.jpg"}`),
			400, "تصویر پروفایل را درست وارد کنید", "Enter correct profile image")
	})
	t.Run("ErrBadID", func(t *testing.T) {
		as.wantError(t, edit(`{"id":"me"}`), 400, "شناسه نامعتبر است", "The id is not valid")
	})
	t.Run("ErrBadJSON", func(t *testing.T) {
		as.wantError(t, edit(`{"name":`), 400, "قالب JSON درست نیست", "malformed JSON")
		as.wantError(t, edit(`{"name":["a"]}`), 400, "نام را درست وارد کنید", "Enter correct name")
	})
	t.Run("EmptyPasswordKeepsIt", func(t *testing.T) {
		if a := as.send(t, edit(fmt.Sprintf(`{"id":%d,"password":"","name":"Same","profileImage":""}`, me.ID))); a.Status != 200 {
			t.Fatalf("edit: %d %s", a.Status, a.Body)
		}
		if a := as.login(t, "09121234567", "correct horse", ""); a.Status != 200 {
			t.Fatalf("login with the kept password: %d %s", a.Status, a.Body)
		}
	})
}
