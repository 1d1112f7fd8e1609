package cmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"kardan/auth"
	"kardan/cmd"
	"kardan/store"
)

func openStore(t *testing.T, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(dir, "kardan.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestUserCommands(t *testing.T) {
	dir := t.TempDir()
	user := func(args ...string) (string, error) {
		return run(t, append([]string{"--data", dir, "--log-level", "warn", "user"}, args...)...)
	}
	t.Run("Create", func(t *testing.T) {
		out, err := user("create", "--phone", "+98 912 123 4567", "--name", "Sara", "--password", "a long secret")
		if err != nil || !strings.Contains(out, "created user 1: 09121234567 (user)") {
			t.Fatalf("got %q %v", out, err)
		}
		out, err = user("create", "--phone", "۰۹۳۵۰۰۰۱۱۲۲", "--password", "another secret", "--admin")
		if err != nil || !strings.Contains(out, "09350001122 (admin)") {
			t.Fatalf("got %q %v", out, err)
		}
	})
	t.Run("ErrCreate", func(t *testing.T) {
		for _, tt := range []struct {
			args []string
			want string
		}{
			{[]string{"create", "--phone", "09121234567", "--password", "a long secret"}, "already registered"},
			{[]string{"create", "--phone", "02188776655", "--password", "a long secret"}, "not an Iranian mobile number"},
			{[]string{"create", "--phone", "09121111111", "--password", "short"}, "at least 8 characters"},
			{[]string{"create", "--phone", "09121111111"}, `required flag(s) "password" not set`},
			{[]string{"promote", "09129999999"}, "no account has the mobile number 09129999999"},
			{[]string{"promote"}, "accepts 1 arg"},
			{[]string{"reset-password", "09121234567", "--password", "short"}, "at least 8 characters"},
		} {
			if _, err := user(tt.args...); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%v: got %v, want an error with %q", tt.args, err, tt.want)
			}
		}
	})
	t.Run("PromoteDemote", func(t *testing.T) {
		if out, err := user("promote", "9121234567"); err != nil || !strings.Contains(out, "is now admin") {
			t.Fatalf("promote: %q %v", out, err)
		}
		out, err := user("list", "--admins")
		if err != nil || !strings.Contains(out, "09121234567") || !strings.Contains(out, "2 of 2 accounts") {
			t.Fatalf("list --admins: %q %v", out, err)
		}
		if out, err := user("demote", "09121234567"); err != nil || !strings.Contains(out, "is now user") {
			t.Fatalf("demote: %q %v", out, err)
		}
		out, _ = user("list")
		if !regexp.MustCompile(`1\s+09121234567\s+Sara\s+user`).MatchString(out) ||
			!regexp.MustCompile(`2\s+09350001122\s+admin`).MatchString(out) || !strings.Contains(out, "2 of 2 accounts") ||
			strings.Index(out, "09350001122") > strings.Index(out, "09121234567") {
			t.Fatalf("list: want both accounts, newest first: %q", out)
		}
		for _, limit := range []string{"1", "0"} {
			out, err = user("list", "--limit", limit)
			want := map[string]string{"1": "1 of 2 accounts", "0": "2 of 2 accounts"}[limit]
			if err != nil || !strings.Contains(out, want) || !strings.Contains(out, "09350001122") ||
				strings.Contains(out, "09121234567") != (limit == "0") {
				t.Fatalf("list --limit %s: %q %v, want the newest %s", limit, out, err, want)
			}
		}
		if _, err := user("list", "--limit", "-1"); err == nil || !strings.Contains(err.Error(), "want 0 (all) or more") {
			t.Fatalf("list --limit -1: %v", err)
		}
	})
	t.Run("ResetPassword", func(t *testing.T) {
		ctx := context.Background()
		st := openStore(t, dir)
		u, _ := st.UserByPhone(ctx, "09121234567")
		sess := store.NewSession{TokenHash: auth.HashToken("some-token"), TTL: time.Hour}
		if err := st.CreateSession(ctx, u.ID, sess); err != nil {
			t.Fatal(err)
		}
		out, err := user("reset-password", "09121234567")
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`new password: (\S+)`).FindStringSubmatch(out)
		if m == nil || len(m[1]) != 16 {
			t.Fatalf("got %q, want the new password printed", out)
		}
		u, _ = st.UserByPhone(ctx, "09121234567")
		h := auth.NewHasher(auth.DefaultParams, 1)
		if ok, _ := h.Verify(ctx, u.PasswordHash, m[1]); !ok {
			t.Fatal("the printed password does not sign in")
		}
		if ok, _ := h.Verify(ctx, u.PasswordHash, "a long secret"); ok {
			t.Fatal("the old password still signs in")
		}
		if _, err := st.UserBySession(ctx, sess.TokenHash); store.ErrorCode(err) != store.EUnauthorized {
			t.Fatalf("the old session: got %v, want it signed out", err)
		}
		out, err = user("reset-password", "09121234567", "--password", "chosen by operator")
		if err != nil || strings.Contains(out, "new password:") {
			t.Fatalf("got %q %v, want no password printed", out, err)
		}
		u, _ = st.UserByPhone(ctx, "09121234567")
		if ok, _ := h.Verify(ctx, u.PasswordHash, "chosen by operator"); !ok {
			t.Fatal("--password was not set")
		}
	})
}

func TestServeSMSFlag(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--sms", "pigeon"}, "use console, file:PATH or kavenegar"},
		{[]string{"--sms", "kavenegar"}, "needs --sms-key and --sms-template"},
	} {
		_, err := run(t, append([]string{"serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: got %v, want %q", tt.args, err, tt.want)
		}
	}
}

// TestAccountsThroughTheApp runs sign-up, login and an upload against the real app that serve
// builds, with --sms file:PATH, as the browser tests will.
func TestAccountsThroughTheApp(t *testing.T) {
	dir := t.TempDir()
	smsFile := filepath.Join(dir, "sms.txt")
	g := &cmd.Globals{DataDir: dir, Out: io.Discard, Err: io.Discard}
	app, err := cmd.Open(context.Background(), g, cmd.ServeConfig{Addr: "127.0.0.1:0", Moderation: "pre",
		Timezone: "Asia/Tehran", SMS: "file:" + smsFile})
	if err != nil {
		t.Fatal(err)
	}
	if err := app.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- app.Run(ctx) }()
	defer func() {
		cancel()
		<-done
		app.Close()
	}()

	post := func(path, body, token string) map[string]any {
		t.Helper()
		r, _ := http.NewRequest("POST", app.URL()+path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var env map[string]any
		json.NewDecoder(res.Body).Decode(&env)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d %v", path, res.StatusCode, env)
		}
		p, _ := env["payload"].(map[string]any)
		return p
	}
	post("/v1/send-sms/sendSmsForSignUp", `{"numberPhone":"09121234567"}`, "")
	line, _ := os.ReadFile(smsFile)
	phone, code, _ := strings.Cut(strings.TrimSpace(string(line)), " ")
	if phone != "09121234567" || len(code) != 6 {
		t.Fatalf("sms file: got %q, want \"number code\"", line)
	}
	post("/v1/user/create", `{"numberPhone":"09121234567","password":"correct horse","otpCode":"`+code+`"}`, "")
	token := post("/v1/user/login", `{"numberPhone":"09121234567","password":"correct horse"}`, "")["token"].(string)

	var img bytes.Buffer
	png.Encode(&img, image.NewGray(image.Rect(0, 0, 50, 40)))
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("uploadKey", "user")
	fw, _ := mw.CreateFormFile("file", "a.png")
	fw.Write(img.Bytes())
	mw.Close()
	r, _ := http.NewRequest("POST", app.URL()+"/v1/upload-file", &body)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	r.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Payload struct{ Address string } `json:"payload"`
	}
	json.NewDecoder(res.Body).Decode(&env)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.HasPrefix(env.Payload.Address, "/uploads/") {
		t.Fatalf("upload: %d %+v", res.StatusCode, env)
	}
	if _, err := os.Stat(filepath.Join(dir, "uploads", strings.TrimPrefix(env.Payload.Address, "/uploads/"))); err != nil {
		t.Fatalf("the image is not in the data directory's uploads: %v", err)
	}
	res, err = http.Get(app.URL() + env.Payload.Address)
	if err != nil || res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/jpeg" {
		t.Fatalf("served upload: %v %v", res, err)
	}
	res.Body.Close()
}
