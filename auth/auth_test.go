package auth_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kardan/auth"
)

func TestPassword(t *testing.T) {
	ctx := context.Background()
	h := auth.NewHasher(auth.DefaultParams, 2)
	start := time.Now()
	enc, err := h.Hash(ctx, "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("argon2id m=19MiB t=2 p=1: %v per hash", time.Since(start))
	if !strings.HasPrefix(enc, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("got %q, want the parameters stored with the hash", enc)
	}
	t.Run("OK", func(t *testing.T) {
		ok, err := h.Verify(ctx, enc, "correct horse")
		if err != nil || !ok {
			t.Fatalf("got %v %v, want true", ok, err)
		}
	})
	t.Run("Wrong", func(t *testing.T) {
		ok, err := h.Verify(ctx, enc, "correct horsE")
		if err != nil || ok {
			t.Fatalf("got %v %v, want false", ok, err)
		}
	})
	t.Run("SaltDiffers", func(t *testing.T) {
		enc2, _ := h.Hash(ctx, "correct horse")
		if enc2 == enc {
			t.Fatal("two hashes of one password are equal: no salt")
		}
	})
	t.Run("OldParamsStillVerify", func(t *testing.T) {
		cheap := auth.NewHasher(auth.Params{Memory: 1024, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1)
		old, _ := cheap.Hash(ctx, "secret-password")
		ok, err := h.Verify(ctx, old, "secret-password")
		if err != nil || !ok {
			t.Fatalf("got %v %v, want true", ok, err)
		}
	})
	t.Run("ErrBadHash", func(t *testing.T) {
		for _, bad := range []string{"", "plain", "$argon2i$v=19$m=1,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5",
			"$argon2id$v=19$m=99999999,t=2,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5"} {
			if _, err := h.Verify(ctx, bad, "x"); !errors.Is(err, auth.ErrBadHash) {
				t.Errorf("Verify(%q): got %v, want ErrBadHash", bad, err)
			}
		}
	})
	t.Run("Length", func(t *testing.T) {
		for _, tt := range []struct {
			pw          string
			short, long bool
		}{
			{"1234567", true, false},
			{"12345678", false, false},
			{"رمزعبور۱", false, false}, // 8 Persian characters, 15 bytes
			{"رمزعبو", true, false},
			{strings.Repeat("a", 129), false, true},
		} {
			s, l := auth.ValidPasswordLength(tt.pw)
			if s != tt.short || l != tt.long {
				t.Errorf("ValidPasswordLength(%q): got %v %v, want %v %v", tt.pw, s, l, tt.short, tt.long)
			}
		}
	})
}

func TestHasherGivesUpWithTheRequest(t *testing.T) {
	h := auth.NewHasher(auth.Params{Memory: 8 * 1024, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Hash(ctx, "some-password"); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if _, err := h.Hash(context.Background(), "some-password"); err != nil {
		t.Fatalf("got %v, want nil", err)
	}
}

func TestTokensAndCodes(t *testing.T) {
	tok, hash, err := auth.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if len(tok) != 43 || !auth.SameHash(hash, auth.HashToken(tok)) {
		t.Fatalf("got token %q, want 43 characters whose hash is stored", tok)
	}
	tok2, _, _ := auth.NewToken()
	if tok2 == tok {
		t.Fatal("two tokens are equal")
	}
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		c, err := auth.NewCode()
		if err != nil || len(c) != 6 || strings.Trim(c, "0123456789") != "" {
			t.Fatalf("got code %q (%v), want 6 digits", c, err)
		}
		seen[c] = true
	}
	if len(seen) < 190 {
		t.Fatalf("got %d distinct codes of 200, want them random", len(seen))
	}
	if auth.SameHash(auth.HashCode("09121234567", "123456"), auth.HashCode("09121234568", "123456")) {
		t.Fatal("a code's hash does not depend on the number")
	}
	pw, err := auth.RandomPassword()
	if err != nil || len(pw) != 16 {
		t.Fatalf("got %q %v, want 16 characters", pw, err)
	}
}

func TestNewSender(t *testing.T) {
	for _, tt := range []struct {
		spec, key, tpl string
		ok             bool
	}{
		{"console", "", "", true},
		{"", "", "", true},
		{"file:/tmp/x", "", "", true},
		{"file:", "", "", false},
		{"kavenegar", "k", "t", true},
		{"kavenegar", "", "t", false},
		{"kavenegar", "k", "", false},
		{"carrier-pigeon", "", "", false},
	} {
		_, err := auth.NewSender(tt.spec, tt.key, tt.tpl, "")
		if (err == nil) != tt.ok {
			t.Errorf("NewSender(%q, %q, %q): got %v, want ok=%v", tt.spec, tt.key, tt.tpl, err, tt.ok)
		}
	}
}

func TestFileSender(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sms.txt")
	s, _ := auth.NewSender("file:"+path, "", "", "")
	ctx := context.Background()
	if err := s.Send(ctx, "09121234567", "123456"); err != nil {
		t.Fatal(err)
	}
	if err := s.Send(ctx, "09350001122", "654321"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if want := "09121234567 123456\n09350001122 654321\n"; string(b) != want {
		t.Fatalf("got %q, want %q", b, want)
	}
}

// kavenegarServer speaks Kavenegar's verify-lookup API: it checks the request and answers with
// status, the JSON body or, when body is empty, the provider's usual answer for status.
func kavenegarServer(t *testing.T, status int, body string, got *map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/SECRETKEY/verify/lookup.json" {
			http.Error(w, "wrong endpoint "+r.Method+" "+r.URL.Path, http.StatusNotFound)
			return
		}
		r.ParseForm()
		if got != nil {
			*got = map[string]string{"receptor": r.Form.Get("receptor"), "token": r.Form.Get("token"), "template": r.Form.Get("template"),
				"token2": r.Form.Get("token2")}
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestKavenegar(t *testing.T) {
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		var got map[string]string
		srv := kavenegarServer(t, 200, `{"return":{"status":200,"message":"تایید شد"},"entries":[{"messageid":8792343,"message":"کد شما 123456","status":5,"statustext":"در صف ارسال","sender":"10004346","receptor":"09121234567","date":1356619709,"cost":120}]}`, &got)
		k := auth.NewKavenegar("SECRETKEY", "kardan-verify")
		k.BaseURL = srv.URL
		if err := k.Send(ctx, "09121234567", "123456"); err != nil {
			t.Fatalf("got %v, want nil", err)
		}
		if got["receptor"] != "09121234567" || got["token"] != "123456" || got["template"] != "kardan-verify" {
			t.Fatalf("got %v, want the number, code and template", got)
		}
	})
	for _, tt := range []struct {
		name       string
		status     int
		body       string
		wantStatus int
	}{
		{"ErrInvalidKey", 403, `{"return":{"status":403,"message":"کد شناسائی API-Key معتبر نمی‌باشد"},"entries":null}`, 403},
		{"ErrNoCredit", 418, `{"return":{"status":418,"message":"اعتبار حساب شما کافی نیست"},"entries":null}`, 418},
		{"ErrTemplate", 424, `{"return":{"status":424,"message":"الگوی مورد نظر پیدا نشد"},"entries":null}`, 424},
		{"ErrStatusInBody", 200, `{"return":{"status":411,"message":"دریافت کننده نامعتبر است"},"entries":null}`, 411},
		{"ErrNotJSON", 502, `<html>Bad Gateway</html>`, 502},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := kavenegarServer(t, tt.status, tt.body, nil)
			k := auth.NewKavenegar("SECRETKEY", "kardan-verify")
			k.BaseURL = srv.URL
			err := k.Send(ctx, "09121234567", "123456")
			var pe *auth.ProviderError
			if !errors.As(err, &pe) || pe.Status != tt.wantStatus {
				t.Fatalf("got %v, want a provider error with status %d", err, tt.wantStatus)
			}
		})
	}
	t.Run("ErrTimeout", func(t *testing.T) {
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
		defer srv.Close()
		defer close(release)
		k := auth.NewKavenegar("SECRETKEY", "kardan-verify")
		k.BaseURL = srv.URL
		k.Client.Timeout = 100 * time.Millisecond
		err := k.Send(ctx, "09121234567", "123456")
		var pe *auth.ProviderError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), "timeout") {
			t.Fatalf("got %v, want a timeout provider error", err)
		}
		if strings.Contains(err.Error(), "SECRETKEY") {
			t.Fatalf("got %q: the API key leaked into the error", err)
		}
	})
	t.Run("ErrUnreachable", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		url := srv.URL
		srv.Close()
		k := auth.NewKavenegar("SECRETKEY", "kardan-verify")
		k.BaseURL = url
		err := k.Send(ctx, "09121234567", "123456")
		var pe *auth.ProviderError
		if !errors.As(err, &pe) || strings.Contains(err.Error(), "SECRETKEY") {
			t.Fatalf("got %v, want a provider error without the key", err)
		}
	})
}

// TestCommonPasswords is audit L8: "12345678" and "aaaaaaaa" were accepted as passwords.
func TestCommonPasswords(t *testing.T) {
	for _, pw := range []string{"12345678", "aaaaaaaa", "PASSWORD", "Password1", "qwertyuiop", "iloveyou", "ۀۀۀۀۀۀۀۀ"} {
		if !auth.CommonPassword(pw) {
			t.Errorf("%q passed as uncommon", pw)
		}
	}
	for _, pw := range []string{"correct horse", "لوله‌کشی تهران ۱۴۰۵", "kd8#Lq2!vZ"} {
		if auth.CommonPassword(pw) {
			t.Errorf("%q refused as common", pw)
		}
	}
}

func TestTemplateSenders(t *testing.T) {
	ctx := context.Background()
	t.Run("Kavenegar", func(t *testing.T) {
		var got map[string]string
		srv := kavenegarServer(t, 200, `{"return":{"status":200,"message":"ok"},"entries":[]}`, &got)
		k := auth.NewKavenegar("SECRETKEY", "kardan-verify")
		k.BaseURL = srv.URL
		sent, err := auth.SendTemplate(ctx, k, "09121234567", "kardan-lead", "لوله کشی علی", "12")
		if err != nil || !sent {
			t.Fatalf("got %v %v, want a send", sent, err)
		}
		if got["template"] != "kardan-lead" || got["token"] != "لوله_کشی_علی" || got["token2"] != "12" || got["receptor"] != "09121234567" {
			t.Fatalf("got %v, want the template and its tokens, spaces as underscores", got)
		}
	})
	t.Run("File", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "sms.txt")
		f := &auth.FileSender{Path: path}
		if _, err := auth.SendTemplate(ctx, f, "09121234567", "new_lead", "a b"); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		if string(b) != "09121234567 template:new_lead a_b\n" {
			t.Fatalf("file: %q", b)
		}
	})
	t.Run("Console", func(t *testing.T) {
		if sent, err := auth.SendTemplate(ctx, auth.ConsoleSender{}, "09121234567", "new_lead"); !sent || err != nil {
			t.Fatalf("got %v %v", sent, err)
		}
	})
}
