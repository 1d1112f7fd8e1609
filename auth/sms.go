package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// Sender delivers a verification code to a mobile number.
type Sender interface {
	Send(ctx context.Context, phone, code string) error
}

// Notice is a fixed SMS without a code.
type Notice string

// NoticeAccountExists tells the holder of a number that asked for a sign-up code that the
// number already has an account: sign in, or reset the password. Sending it instead of a code,
// with the same answer to the client, is what keeps sign-up from telling strangers who has an
// account.
const NoticeAccountExists Notice = "account_exists"

// noticeText is the text of each notice for senders that write their own (the console and
// the file); Kavenegar's lives in the provider's template.
var noticeText = map[Notice]string{
	NoticeAccountExists: "کاردان: این شماره از قبل حساب دارد؛ وارد شوید یا رمز عبور را بازیابی کنید. / Kardan: you already have an account: sign in or reset your password.",
}

// Noticer is a Sender that can also deliver a notice.
type Noticer interface {
	SendNotice(ctx context.Context, phone string, n Notice) error
}

// SendNotice delivers n through s when s can send notices, and does nothing otherwise (a
// provider configured without a notice template): the caller's answer is the same either way.
func SendNotice(ctx context.Context, s Sender, phone string, n Notice) error {
	if ns, ok := s.(Noticer); ok {
		return ns.SendNotice(ctx, phone, n)
	}
	return nil
}

// Templater is a Sender that can also send a templated message: Kavenegar's template mode,
// where the provider holds the text and the message carries only its tokens.
type Templater interface {
	SendTemplate(ctx context.Context, phone, template string, tokens ...string) error
}

// SendTemplate delivers a templated message through s when s can, and reports false (nothing
// sent) otherwise.
func SendTemplate(ctx context.Context, s Sender, phone, template string, tokens ...string) (bool, error) {
	ts, ok := s.(Templater)
	if !ok {
		return false, nil
	}
	return true, ts.SendTemplate(ctx, phone, template, tokens...)
}

// ProviderError is a send the SMS provider refused or could not take; Status is the provider's
// own code when it gave one. The API answers it as an unavailable outside service.
type ProviderError struct {
	Provider string
	Status   int
	Message  string
}

func (e *ProviderError) Error() string {
	return fmt.Sprintf("sms %s: status %d: %s", e.Provider, e.Status, e.Message)
}

// NewSender builds the sender named by --sms: "console", "file:PATH" or "kavenegar" (which needs
// key and template; noticeTemplate, optional, is the template of notices such as
// NoticeAccountExists).
func NewSender(spec, key, template, noticeTemplate string) (Sender, error) {
	switch {
	case spec == "" || spec == "console":
		return ConsoleSender{}, nil
	case strings.HasPrefix(spec, "file:"):
		path := strings.TrimPrefix(spec, "file:")
		if path == "" {
			return nil, errors.New("--sms file:PATH needs a path")
		}
		return &FileSender{Path: path}, nil
	case spec == "kavenegar":
		if key == "" || template == "" {
			return nil, errors.New("--sms kavenegar needs --sms-key and --sms-template")
		}
		k := NewKavenegar(key, template)
		k.NoticeTemplate = noticeTemplate
		return k, nil
	}
	return nil, fmt.Errorf("--sms %q: use console, file:PATH or kavenegar", spec)
}

// ConsoleSender writes the code to the server log: a first run needs no provider account.
type ConsoleSender struct{}

// Send logs the code.
func (ConsoleSender) Send(ctx context.Context, phone, code string) error {
	slog.Info(fmt.Sprintf("verification code for %s: %s", phone, code))
	return nil
}

// SendNotice logs the notice.
func (ConsoleSender) SendNotice(ctx context.Context, phone string, n Notice) error {
	slog.Info(fmt.Sprintf("notice for %s: %s", phone, noticeText[n]))
	return nil
}

// SendTemplate logs the template's name and tokens.
func (ConsoleSender) SendTemplate(ctx context.Context, phone, template string, tokens ...string) error {
	slog.Info(fmt.Sprintf("message for %s: template:%s %s", phone, template, strings.Join(tokens, " ")))
	return nil
}

// FileSender appends "number code" lines to a file, so browser tests and staging can read codes.
type FileSender struct {
	Path string
	mu   sync.Mutex
}

// Send appends one line.
func (f *FileSender) Send(ctx context.Context, phone, code string) error {
	return f.appendLine(phone + " " + code)
}

// SendNotice appends "number notice:NAME".
func (f *FileSender) SendNotice(ctx context.Context, phone string, n Notice) error {
	return f.appendLine(phone + " notice:" + string(n))
}

// SendTemplate appends "number template:NAME token...", tokens with their spaces made
// underscores so a line stays one field per token.
func (f *FileSender) SendTemplate(ctx context.Context, phone, template string, tokens ...string) error {
	line := phone + " template:" + template
	for _, t := range tokens {
		line += " " + strings.Join(strings.Fields(t), "_")
	}
	return f.appendLine(line)
}

func (f *FileSender) appendLine(line string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	fh, err := os.OpenFile(f.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("sms file: %w", err)
	}
	if _, err := fmt.Fprintln(fh, line); err != nil {
		fh.Close()
		return fmt.Errorf("sms file: %w", err)
	}
	if err := fh.Close(); err != nil {
		return fmt.Errorf("sms file: %w", err)
	}
	return nil
}

// KavenegarURL is Kavenegar's API address.
const KavenegarURL = "https://api.kavenegar.com"

// Kavenegar sends codes through Kavenegar's verify-lookup API, whose template holds the text
// and %token% the code.
type Kavenegar struct {
	Key      string
	Template string
	// NoticeTemplate is the template of notices (its %token% is the notice's name); empty sends
	// no notices.
	NoticeTemplate string
	// BaseURL is the API's address; tests point it at their own server.
	BaseURL string
	Client  *http.Client
}

// NewKavenegar builds a Kavenegar sender with a 10-second timeout: a slow provider must not
// hold a sign-up request for long.
func NewKavenegar(key, template string) *Kavenegar {
	return &Kavenegar{Key: key, Template: template, BaseURL: KavenegarURL, Client: &http.Client{Timeout: 10 * time.Second}}
}

// kavenegarAnswer is the part of Kavenegar's answer that says whether the send was taken.
type kavenegarAnswer struct {
	Return struct {
		Status  int    `json:"status"`
		Message string `json:"message"`
	} `json:"return"`
}

// Send calls POST {BaseURL}/v1/{key}/verify/lookup.json with receptor, token and template.
func (k *Kavenegar) Send(ctx context.Context, phone, code string) error {
	return k.lookup(ctx, phone, code, k.Template)
}

// SendNotice sends the notice through NoticeTemplate, when one is configured.
func (k *Kavenegar) SendNotice(ctx context.Context, phone string, n Notice) error {
	if k.NoticeTemplate == "" {
		return nil
	}
	return k.lookup(ctx, phone, string(n), k.NoticeTemplate)
}

// SendTemplate sends through the named verify-lookup template with up to three tokens
// (token, token2, token3). Kavenegar refuses spaces inside a token, so they become underscores.
func (k *Kavenegar) SendTemplate(ctx context.Context, phone, template string, tokens ...string) error {
	return k.lookup(ctx, phone, "", template, tokens...)
}

func (k *Kavenegar) lookup(ctx context.Context, phone, token, template string, more ...string) error {
	endpoint := strings.TrimSuffix(k.BaseURL, "/") + "/v1/" + url.PathEscape(k.Key) + "/verify/lookup.json"
	form := url.Values{"receptor": {phone}, "template": {template}}
	if token != "" {
		form.Set("token", token)
	}
	names := []string{"token", "token2", "token3"}
	for i, t := range more {
		if i < len(names) {
			form.Set(names[i], strings.Join(strings.Fields(t), "_"))
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return &ProviderError{Provider: "kavenegar", Message: "bad request"}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	client := k.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		// The URL holds the API key: report only the kind of failure, never the URL.
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		msg := "unreachable"
		if uerr != nil && uerr.Timeout() {
			msg = "timeout"
		}
		return &ProviderError{Provider: "kavenegar", Message: msg + ": " + strings.ReplaceAll(err.Error(), k.Key, "***")}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var ans kavenegarAnswer
	if err := json.Unmarshal(body, &ans); err != nil {
		return &ProviderError{Provider: "kavenegar", Status: resp.StatusCode, Message: "unreadable answer"}
	}
	if resp.StatusCode != http.StatusOK || ans.Return.Status != 200 {
		status := ans.Return.Status
		if status == 0 {
			status = resp.StatusCode
		}
		return &ProviderError{Provider: "kavenegar", Status: status, Message: ans.Return.Message}
	}
	return nil
}
