package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

func sendFor(path, phone, ip string) req {
	return req{method: "POST", path: path, body: `{"numberPhone":"` + phone + `"}`, ip: ip}
}

const (
	resetSMS = "/v1/send-sms/sendSmsForReset"
	loginSMS = "/v1/send-sms/sendSmsForLogin"
)

func resetReq(phone, code, password, ip string) req {
	return req{method: "POST", path: "/v1/user/reset-password", ip: ip,
		body: fmt.Sprintf(`{"numberPhone":%q,"otpCode":%q,"password":%q}`, phone, code, password)}
}

func codeLoginReq(phone, code, ip string) req {
	return req{method: "POST", path: "/v1/user/loginWithCode", ip: ip, body: fmt.Sprintf(`{"numberPhone":%q,"otpCode":%q}`, phone, code)}
}

// wrongCode answers a six-digit code that is not code.
func wrongCode(code string) string {
	if code == "000000" {
		return "111111"
	}
	return "000000"
}

func TestResetPasswordJourney(t *testing.T) {
	as := newAccountServer(t)
	const phone = "09121234567"
	first := as.mustSignUp(t, phone, "correct horse")
	second := decodePayload[loginAnswer](t, as.login(t, phone, "correct horse", ""))

	as.Clock.advance(time.Minute)
	a := as.send(t, sendFor(resetSMS, "+98 912 123 4567", ""))
	if a.Status != 200 || !strings.Contains(a.Body, `"expiresIn":120`) || !strings.Contains(a.Body, `"resendIn":60`) {
		t.Fatalf("send reset code: %d %s", a.Status, a.Body)
	}
	code := as.SMS.code(phone)
	// Typed on a Persian keyboard.
	fa := strings.Map(func(r rune) rune { return '۰' + (r - '0') }, code)
	a = as.send(t, resetReq("۰۹۱۲۱۲۳۴۵۶۷", fa, "brand new horse", ""))
	if a.Status != 200 {
		t.Fatalf("reset: %d %s", a.Status, a.Body)
	}
	var raw map[string]json.RawMessage
	json.Unmarshal(a.Payload, &raw)
	for _, k := range []string{"token", "id", "userTechnical", "isAdmin"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("reset answer lacks %q: %s", k, a.Payload)
		}
	}
	got := decodePayload[loginAnswer](t, a)
	if got.ID != first.ID || len(got.Token) != 43 {
		t.Fatalf("reset answer: got %s, want the account %d signed in", a.Payload, first.ID)
	}
	if r := as.send(t, req{method: "GET", path: "/v1/user", token: got.Token}); r.Status != 200 {
		t.Fatalf("the new session: %d %s", r.Status, r.Body)
	}
	for _, old := range []string{first.Token, second.Token} {
		as.wantError(t, req{method: "GET", path: "/v1/user", token: old}, 401, "لطفاً ابتدا وارد شوید", "Please sign in first")
	}
	if r := as.login(t, phone, "correct horse", ""); r.Status != 400 {
		t.Fatalf("the old password: got %d, want 400", r.Status)
	}
	if r := as.login(t, phone, "brand new horse", ""); r.Status != 200 {
		t.Fatalf("the new password: %d %s", r.Status, r.Body)
	}
	// The code is used up.
	as.wantError(t, resetReq(phone, code, "third new horse", ""), 400, "کد تأیید منقضی شده است", "The verification code has expired")
}

func TestLoginWithCodeJourney(t *testing.T) {
	as := newAccountServer(t)
	const phone = "09121234567"
	me := as.mustSignUp(t, phone, "correct horse")
	as.Clock.advance(time.Minute)
	if a := as.send(t, sendFor(loginSMS, phone, "")); a.Status != 200 {
		t.Fatalf("send login code: %d %s", a.Status, a.Body)
	}
	a := as.send(t, codeLoginReq(phone, as.SMS.code(phone), ""))
	if a.Status != 200 {
		t.Fatalf("login with code: %d %s", a.Status, a.Body)
	}
	got := decodePayload[loginAnswer](t, a)
	if got.ID != me.ID || len(got.Token) != 43 || got.UserTechnical == nil {
		t.Fatalf("answer: got %s, want like login", a.Payload)
	}
	// Other sessions live on: signing in is not a reset.
	if r := as.send(t, req{method: "GET", path: "/v1/user", token: me.Token}); r.Status != 200 {
		t.Fatalf("the earlier session: %d", r.Status)
	}
	if r := as.login(t, phone, "correct horse", ""); r.Status != 200 {
		t.Fatalf("the password still works: %d %s", r.Status, r.Body)
	}
}

// TestCodeLoginDespiteWrongPasswords: someone else's wrong passwords, from many addresses, must
// not keep the phone's holder out.
func TestCodeLoginDespiteWrongPasswords(t *testing.T) {
	as := newAccountServer(t)
	const phone = "09121234567"
	me := as.mustSignUp(t, phone, "correct horse")
	for i := 0; i < 30; i++ {
		as.login(t, phone, fmt.Sprintf("guess-%d-guess", i), fmt.Sprintf("10.9.%d.1", i))
	}
	as.Clock.advance(time.Minute)
	for _, path := range []string{loginSMS, resetSMS} {
		if a := as.send(t, sendFor(path, phone, "10.8.0.1")); a.Status != 200 {
			t.Fatalf("%s: %d %s", path, a.Status, a.Body)
		}
		code := as.SMS.code(phone)
		var a answer
		if path == loginSMS {
			a = as.send(t, codeLoginReq(phone, code, "10.8.0.1"))
		} else {
			a = as.send(t, resetReq(phone, code, "owner's new horse", "10.8.0.1"))
		}
		if a.Status != 200 || decodePayload[loginAnswer](t, a).ID != me.ID {
			t.Fatalf("%s then sign-in: %d %s", path, a.Status, a.Body)
		}
		as.Clock.advance(time.Minute)
	}
}

// TestAccountCodesNoOracle: a registered and an unregistered number get the same answers and
// the same limits from the reset and sign-in code routes.
func TestAccountCodesNoOracle(t *testing.T) {
	as := newAccountServer(t)
	const known, unknown = "09121234567", "09127654321"
	as.mustSignUp(t, known, "correct horse")
	as.Clock.advance(time.Hour)
	norm := func(a answer, phone string) string {
		return fmt.Sprint(a.Status, strings.ReplaceAll(strings.ReplaceAll(a.Body, phone, "N"), persianDigits(phone), "N"))
	}
	for _, path := range []string{resetSMS, loginSMS} {
		for _, lang := range []string{"fa", "en"} {
			q1, q2 := sendFor(path, known, "10.7.0.1"), sendFor(path, unknown, "10.7.0.2")
			q1.lang, q2.lang = lang, lang
			a1, a2 := as.send(t, q1), as.send(t, q2)
			if a1.Status != 200 || norm(a1, known) != norm(a2, unknown) {
				t.Fatalf("%s %s: got %s and %s, want one answer", path, lang, a1.Body, a2.Body)
			}
			// The cooldown answers alike too.
			b1, b2 := as.send(t, q1), as.send(t, q2)
			if b1.Status != 429 || norm(b1, known) != norm(b2, unknown) {
				t.Fatalf("%s %s cooldown: got %d %s and %d %s", path, lang, b1.Status, b1.Body, b2.Status, b2.Body)
			}
			as.Clock.advance(time.Minute)
		}
	}
	// Wrong codes answer alike.
	as.Clock.advance(time.Hour)
	for _, path := range []string{"reset", "login"} {
		var a1, a2 answer
		if path == "reset" {
			as.send(t, sendFor(resetSMS, known, "10.7.1.1"))
			as.send(t, sendFor(resetSMS, unknown, "10.7.1.1"))
			a1 = as.send(t, resetReq(known, wrongCode(as.SMS.code(known)), "new horse 123", ""))
			a2 = as.send(t, resetReq(unknown, wrongCode(as.SMS.code(unknown)), "new horse 123", ""))
		} else {
			as.send(t, sendFor(loginSMS, known, "10.7.1.1"))
			as.send(t, sendFor(loginSMS, unknown, "10.7.1.1"))
			a1 = as.send(t, codeLoginReq(known, wrongCode(as.SMS.code(known)), ""))
			a2 = as.send(t, codeLoginReq(unknown, wrongCode(as.SMS.code(unknown)), ""))
		}
		if a1.Status != 400 || a1.Body != a2.Body {
			t.Fatalf("%s wrong code: got %d %s and %d %s, want one answer", path, a1.Status, a1.Body, a2.Status, a2.Body)
		}
		as.Clock.advance(time.Minute)
	}
	// Only the holder of the unregistered phone, answering its code, learns there is no account.
	as.Clock.advance(time.Hour)
	as.send(t, sendFor(loginSMS, unknown, "10.7.2.1"))
	as.wantErrorOnceEach(t, codeLoginReq(unknown, as.SMS.code(unknown), ""), 400,
		"حسابی با این شماره موبایل نیست", "No account has this mobile number", func() {
			as.Clock.advance(time.Minute)
			as.send(t, sendFor(loginSMS, unknown, "10.7.2.1"))
		})
}

// wantErrorOnceEach sends q once per language, calling again before each send so a request that
// uses something up can be repeated; q's body is rebuilt by the caller through the recorder.
func (as *accountServer) wantErrorOnceEach(t *testing.T, q req, status int, fa, en string, again func()) {
	t.Helper()
	checkError(t, as.send(t, withLang(q, "fa")), status, fa)
	again()
	phone := as.lastPhone(q)
	q.body = strings.Replace(q.body, codeOf(q.body), as.SMS.code(phone), 1)
	checkError(t, as.send(t, withLang(q, "en")), status, en)
}

func withLang(q req, lang string) req { q.lang = lang; return q }

func codeOf(body string) string {
	var v struct {
		OtpCode string `json:"otpCode"`
	}
	json.Unmarshal([]byte(body), &v)
	return v.OtpCode
}

func (as *accountServer) lastPhone(q req) string {
	var v struct {
		NumberPhone string `json:"numberPhone"`
	}
	json.Unmarshal([]byte(q.body), &v)
	return v.NumberPhone
}

func persianDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '۰' + (r - '0')
		}
		return r
	}, s)
}

func TestRecoveryErrors(t *testing.T) {
	as := newAccountServer(t)
	const phone = "09121234567"
	as.mustSignUp(t, phone, "correct horse")
	as.Clock.advance(time.Hour)
	t.Run("ErrSendPhone", func(t *testing.T) {
		for _, path := range []string{resetSMS, loginSMS} {
			as.wantError(t, sendFor(path, "", ""), 400, "شماره موبایل را وارد کنید", "Enter mobile number")
			as.wantError(t, sendFor(path, "021-88776655", ""), 400, "شماره موبایل را درست وارد کنید", "Enter correct mobile number")
			as.wantError(t, req{method: "POST", path: path}, 400, "اطلاعات دریافت نشد", "Information not received")
			as.wantError(t, req{method: "POST", path: path, body: `{"numberPhone":`}, 400, "قالب JSON درست نیست", "malformed JSON")
		}
	})
	t.Run("ErrResetFields", func(t *testing.T) {
		as.wantError(t, resetReq("", "123456", "long enough", ""), 400, "شماره موبایل را وارد کنید", "Enter mobile number")
		as.wantError(t, resetReq(phone, "", "long enough", ""), 400, "کد تأیید را وارد کنید", "Enter verification code")
		as.wantError(t, resetReq(phone, "12345", "long enough", ""), 400, "کد تأیید را درست وارد کنید", "Enter correct verification code")
		as.wantError(t, resetReq(phone, "12a456", "long enough", ""), 400, "کد تأیید را درست وارد کنید", "Enter correct verification code")
		as.wantError(t, resetReq(phone, "123456", "", ""), 400, "رمز عبور را وارد کنید", "Enter password")
		as.wantError(t, resetReq(phone, "123456", "short", ""), 400, "رمز عبور باید دست‌کم ۸ نویسه باشد", "The password must be at least 8 characters")
	})
	t.Run("ErrCodeLoginFields", func(t *testing.T) {
		as.wantError(t, codeLoginReq("0912", "123456", ""), 400, "شماره موبایل را درست وارد کنید", "Enter correct mobile number")
		as.wantError(t, codeLoginReq(phone, "", ""), 400, "کد تأیید را وارد کنید", "Enter verification code")
		as.wantError(t, codeLoginReq(phone, "1234567", ""), 400, "کد تأیید را درست وارد کنید", "Enter correct verification code")
	})
	t.Run("ErrNoCodeSent", func(t *testing.T) {
		as.wantError(t, codeLoginReq("09120000000", "123456", ""), 400, "کد تأیید منقضی شده است", "The verification code has expired")
	})
	t.Run("ErrWrongThenBurnt", func(t *testing.T) {
		as.Clock.advance(time.Hour)
		as.send(t, sendFor(resetSMS, phone, ""))
		code := as.SMS.code(phone)
		bad := wrongCode(code)
		as.wantError(t, resetReq(phone, bad, "long enough", ""), 400, "کد تأیید درست نیست", "The verification code is wrong")
		as.send(t, resetReq(phone, bad, "long enough", ""))
		as.send(t, resetReq(phone, bad, "long enough", ""))
		as.send(t, resetReq(phone, bad, "long enough", ""))
		// The fifth wrong answer burns it; then even the right one is refused.
		as.wantError(t, resetReq(phone, code, "long enough", ""), 400, "بیش از حد اشتباه", "entered wrong too many times")
	})
	t.Run("ErrExpired", func(t *testing.T) {
		as.Clock.advance(time.Hour)
		as.send(t, sendFor(loginSMS, phone, ""))
		as.Clock.advance(121 * time.Second)
		as.wantError(t, codeLoginReq(phone, as.SMS.code(phone), ""), 400, "کد تأیید منقضی شده است", "The verification code has expired")
	})
	t.Run("ErrOtherPurpose", func(t *testing.T) {
		// A sign-in code does not reset the password, a reset code does not sign in, and a
		// sign-up code does neither.
		as.Clock.advance(time.Hour)
		as.send(t, sendFor(loginSMS, phone, ""))
		as.wantError(t, resetReq(phone, as.SMS.code(phone), "long enough", ""), 400, "کد تأیید", "verification code")
		as.Clock.advance(time.Minute)
		as.send(t, sendFor(resetSMS, phone, ""))
		as.wantError(t, codeLoginReq(phone, as.SMS.code(phone), ""), 400, "کد تأیید", "verification code")
		as.Clock.advance(time.Minute)
		as.sendCode(t, "09350000001", "")
		as.wantError(t, codeLoginReq("09350000001", as.SMS.code("09350000001"), ""), 400, "کد تأیید منقضی شده است", "The verification code has expired")
	})
	t.Run("ErrOlderCodeAfterNewerUsed", func(t *testing.T) {
		as.Clock.advance(time.Hour)
		as.send(t, sendFor(loginSMS, phone, ""))
		older := as.SMS.code(phone)
		as.Clock.advance(time.Minute)
		as.send(t, sendFor(loginSMS, phone, ""))
		if a := as.send(t, codeLoginReq(phone, as.SMS.code(phone), "")); a.Status != 200 {
			t.Fatalf("newest code: %d %s", a.Status, a.Body)
		}
		if older != as.SMS.code(phone) {
			as.wantError(t, codeLoginReq(phone, older, ""), 400, "کد تأیید منقضی شده است", "The verification code has expired")
		}
	})
	t.Run("ErrLimitsShared", func(t *testing.T) {
		// Sends of every purpose count together: an SMS costs the same whatever it is for.
		as.Clock.advance(time.Hour)
		as.sendCode(t, "09350000002", "10.6.0.1")
		as.wantError(t, sendFor(resetSMS, "09350000002", "10.6.0.2"), 429, "ثانیه", "seconds")
		for i := 0; i < 4; i++ {
			as.Clock.advance(time.Minute)
			path := []string{resetSMS, loginSMS}[i%2]
			if a := as.send(t, sendFor(path, "09350000002", fmt.Sprintf("10.6.1.%d", i))); a.Status != 200 {
				t.Fatalf("send %d: %d %s", i+2, a.Status, a.Body)
			}
		}
		as.Clock.advance(time.Minute)
		as.wantError(t, sendFor(loginSMS, "09350000002", "10.6.2.1"), 429, "ثانیه", "seconds")
		for i := 0; i < 19; i++ {
			as.send(t, sendFor(resetSMS, fmt.Sprintf("0937%07d", i), "10.6.3.1"))
		}
		as.sendCode(t, "09379999999", "10.6.3.1")
		as.wantError(t, sendFor(loginSMS, "09378888888", "10.6.3.1"), 429, "ثانیه", "seconds")
	})
	t.Run("ErrProviderFails", func(t *testing.T) {
		as.Clock.advance(time.Hour)
		as.SMS.setFail(fmt.Errorf("provider down"))
		as.wantError(t, sendFor(resetSMS, phone, ""), 502, "ارسال پیامک انجام نشد", "The SMS could not be sent")
		as.SMS.setFail(nil)
		if a := as.send(t, sendFor(resetSMS, phone, "")); a.Status != 200 {
			t.Fatalf("after the provider recovered: %d %s", a.Status, a.Body)
		}
	})
}

// TestRecoveryRaces: many requests racing with one code: exactly one wins.
func TestRecoveryRaces(t *testing.T) {
	as := newAccountServer(t)
	const phone = "09121234567"
	as.mustSignUp(t, phone, "correct horse")
	race := func(t *testing.T, n int, q func(i int) req) (wins int, statuses map[int]int) {
		var wg sync.WaitGroup
		start := make(chan struct{})
		res := make([]answer, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				res[i] = as.send(t, q(i))
			}(i)
		}
		close(start)
		wg.Wait()
		statuses = map[int]int{}
		for _, a := range res {
			statuses[a.Status]++
			if a.Status == 200 {
				wins++
			} else if a.Status != 400 {
				t.Errorf("got %d %s, want 200 or 400", a.Status, a.Body)
			}
		}
		return wins, statuses
	}
	t.Run("TwoResetsOneCode", func(t *testing.T) {
		as.Clock.advance(time.Hour)
		as.send(t, sendFor(resetSMS, phone, ""))
		code := as.SMS.code(phone)
		wins, st := race(t, 2, func(i int) req { return resetReq(phone, code, fmt.Sprintf("racing horse %d", i), "") })
		if wins != 1 {
			t.Fatalf("got %v, want one reset", st)
		}
		ok := 0
		for i := 0; i < 2; i++ {
			if as.login(t, phone, fmt.Sprintf("racing horse %d", i), "").Status == 200 {
				ok++
			}
		}
		if ok != 1 {
			t.Fatalf("%d of the racing passwords work, want 1", ok)
		}
	})
	t.Run("TenCodeLoginsOneCode", func(t *testing.T) {
		as.Clock.advance(time.Hour)
		as.send(t, sendFor(loginSMS, phone, ""))
		code := as.SMS.code(phone)
		if wins, st := race(t, 10, func(int) req { return codeLoginReq(phone, code, "") }); wins != 1 {
			t.Fatalf("got %v, want one sign-in", st)
		}
	})
	t.Run("SendBurstOneCode", func(t *testing.T) {
		as.Clock.advance(time.Hour)
		var wg sync.WaitGroup
		start := make(chan struct{})
		var mu sync.Mutex
		sent := 0
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				if a := as.send(t, sendFor(resetSMS, "09355555555", "")); a.Status == 200 {
					mu.Lock()
					sent++
					mu.Unlock()
				}
			}()
		}
		close(start)
		wg.Wait()
		if sent != 1 {
			t.Fatalf("%d of 20 simultaneous sends went out, want 1 (the cooldown)", sent)
		}
	})
}

func TestPasswordChangeNeedsProof(t *testing.T) {
	as := newAccountServer(t)
	const phone = "09121234567"
	me := as.mustSignUp(t, phone, "correct horse")
	edit := func(body string) req { return req{method: "PUT", path: "/v1/user/edit", token: me.Token, body: body} }
	t.Run("ErrNoProof", func(t *testing.T) {
		as.wantError(t, edit(`{"password":"brand new horse"}`), 400, "رمز فعلی یا کد تأیید", "enter the current password or the code")
	})
	t.Run("ErrWrongCurrent", func(t *testing.T) {
		as.wantError(t, edit(`{"password":"brand new horse","currentPassword":"wrong horse"}`), 400, "رمز عبور فعلی درست نیست", "The current password is wrong")
	})
	t.Run("ErrWrongCode", func(t *testing.T) {
		as.Clock.advance(time.Minute)
		as.send(t, sendFor(resetSMS, phone, ""))
		as.wantError(t, edit(`{"password":"brand new horse","otpCode":"`+wrongCode(as.SMS.code(phone))+`"}`), 400, "کد تأیید درست نیست", "The verification code is wrong")
		as.wantError(t, edit(`{"password":"brand new horse","otpCode":"12"}`), 400, "کد تأیید را درست وارد کنید", "Enter correct verification code")
	})
	t.Run("ErrWrongCurrentLimited", func(t *testing.T) {
		for i := 0; i < 8; i++ {
			as.send(t, edit(`{"password":"brand new horse","currentPassword":"wrong horse"}`))
		}
		as.wantError(t, edit(`{"password":"brand new horse","currentPassword":"correct horse"}`), 429, "ثانیه", "seconds")
		as.Clock.advance(16 * time.Minute)
	})
	t.Run("BurstOfWrongCurrent", func(t *testing.T) {
		// Twenty wrong passwords at once: the reservation lets only ten be checked.
		as.Clock.advance(time.Hour)
		var wg sync.WaitGroup
		start := make(chan struct{})
		var mu sync.Mutex
		got := map[int]int{}
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				a := as.send(t, edit(`{"password":"brand new horse","currentPassword":"wrong horse"}`))
				mu.Lock()
				got[a.Status]++
				mu.Unlock()
			}()
		}
		close(start)
		wg.Wait()
		if got[400] != 10 || got[429] != 10 {
			t.Fatalf("got %v, want 10 checked (400) and 10 refused (429)", got)
		}
		as.Clock.advance(16 * time.Minute)
	})
	t.Run("WithCurrent", func(t *testing.T) {
		if a := as.send(t, edit(`{"password":"brand new horse","currentPassword":"correct horse"}`)); a.Status != 200 {
			t.Fatalf("edit: %d %s", a.Status, a.Body)
		}
		if a := as.login(t, phone, "brand new horse", ""); a.Status != 200 {
			t.Fatalf("login: %d %s", a.Status, a.Body)
		}
	})
	t.Run("WithCode", func(t *testing.T) {
		as.Clock.advance(time.Minute)
		as.send(t, sendFor(resetSMS, phone, ""))
		code := as.SMS.code(phone)
		if a := as.send(t, edit(`{"password":"third new horse","otpCode":"`+code+`"}`)); a.Status != 200 {
			t.Fatalf("edit: %d %s", a.Status, a.Body)
		}
		if a := as.login(t, phone, "third new horse", ""); a.Status != 200 {
			t.Fatalf("login: %d %s", a.Status, a.Body)
		}
		// The code was used with the change.
		as.wantError(t, edit(`{"password":"fourth new horse","otpCode":"`+code+`"}`), 400, "منقضی", "expired")
	})
	t.Run("NameNeedsNoProof", func(t *testing.T) {
		if a := as.send(t, edit(`{"name":"Sara"}`)); a.Status != 200 {
			t.Fatalf("edit: %d %s", a.Status, a.Body)
		}
	})
}
