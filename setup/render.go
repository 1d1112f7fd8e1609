package setup

import (
	"bytes"
	"html/template"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
)

// view is what one answer of the page shows: the form (with its values and errors) or a notice.
type view struct {
	Form   bool
	CSRF   string
	Phone  string
	Name   string
	Errors map[string]string // field -> message key
	Notice string            // message key of a notice instead of, or above, the form
}

// pickLang answers "en" or "fa" (the default): ?lang= first, then Accept-Language.
func pickLang(r *http.Request) string {
	switch r.URL.Query().Get("lang") {
	case "en":
		return "en"
	case "fa":
		return "fa"
	}
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag := strings.ToLower(strings.TrimSpace(strings.SplitN(part, ";", 2)[0]))
		switch {
		case strings.HasPrefix(tag, "fa"):
			return "fa"
		case strings.HasPrefix(tag, "en"):
			return "en"
		}
	}
	return "fa"
}

// messages holds every string the page shows, in Persian and English.
var messages = map[string]map[string]string{
	"fa": {
		"title":             "راه‌اندازی کاردان: نخستین مدیر",
		"intro":             "هنوز هیچ مدیری وجود ندارد. حساب نخستین مدیر را بسازید. این پیوند فقط یک بار و تا یک ساعت پس از اجرای سرور کار می‌کند.",
		"phone":             "شماره همراه",
		"name":              "نام",
		"password":          "گذرواژه (دست‌کم ۸ نویسه)",
		"password2":         "تکرار گذرواژه",
		"submit":            "ساختن مدیر",
		"other_lang":        "English",
		"phone_invalid":     "شماره همراه ایران را به شکل ۰۹xxxxxxxxx وارد کنید.",
		"phone_taken":       "این شماره پیش‌تر ثبت شده است. آن حساب را از پوسته سرور مدیر کنید: kardan user promote شماره",
		"name_long":         "نام حداکثر ۱۰۰ نویسه است.",
		"password_short":    "گذرواژه باید دست‌کم ۸ نویسه باشد.",
		"password_long":     "گذرواژه بیش از اندازه بلند است.",
		"password_common":   "این گذرواژه از رایج‌ترین گذرواژه‌هاست و زود حدس زده می‌شود؛ گذرواژهٔ دیگری انتخاب کنید.",
		"password_mismatch": "دو گذرواژه یکسان نیستند.",
		"not_local":         "این صفحه فقط به مرورگری روی خود سرور پاسخ می‌دهد، نه از راه پراکسی یا از رایانه‌ای دیگر. مدیر را از پوسته سرور بسازید:",
		"unknown":           "این پیوند راه‌اندازی معتبر نیست. پیوندی را که kardan serve چاپ کرد باز کنید یا از این فرمان استفاده کنید:",
		"used":              "این پیوند راه‌اندازی پیش‌تر به کار رفته است و دیگر کار نمی‌کند. با حساب مدیر وارد شوید.",
		"expired":           "این پیوند راه‌اندازی منقضی شده است (هر پیوند یک ساعت اعتبار دارد). برای پیوندی تازه kardan serve را دوباره اجرا کنید یا از این فرمان استفاده کنید:",
		"admin_exists":      "مدیری پیش‌تر ساخته شده است و این صفحه بسته است. با حساب مدیر وارد شوید.",
		"csrf":              "این فرم از این صفحه فرستاده نشده است. پیوند راه‌اندازی را دوباره باز کنید و فرم را از همان‌جا بفرستید.",
		"bad_form":          "فرم خوانا نبود. دوباره تلاش کنید.",
		"method":            "این صفحه فقط نمایش فرم و فرستادن آن را می‌پذیرد.",
		"internal":          "خطایی در سرور رخ داد. گزارش سرور (journalctl) را ببینید و دوباره تلاش کنید.",
		"created":           "حساب مدیر با شماره %s ساخته شد. این پیوند دیگر کار نمی‌کند.",
		"login":             "ورود به کاردان",
	},
	"en": {
		"title":             "Kardan setup: the first administrator",
		"intro":             "There is no administrator yet. Create the first administrator's account. This link works once, for an hour after the server printed it.",
		"phone":             "Mobile number",
		"name":              "Name",
		"password":          "Password (8 characters at least)",
		"password2":         "Password again",
		"submit":            "Create the administrator",
		"other_lang":        "فارسی",
		"phone_invalid":     "Enter an Iranian mobile number: 09xxxxxxxxx.",
		"phone_taken":       "This number is already registered. Make that account an administrator from the server's shell: kardan user promote NUMBER",
		"name_long":         "The name can be at most 100 characters.",
		"password_short":    "The password must be at least 8 characters.",
		"password_long":     "The password is too long.",
		"password_common":   "This password is one of the most common ones and is guessed first; choose another.",
		"password_mismatch": "The two passwords differ.",
		"not_local":         "This page answers only a browser on the server itself, not one coming through a proxy or from another machine. Create the administrator from the server's shell:",
		"unknown":           "This setup link is not valid. Open the link kardan serve printed, or use this command:",
		"used":              "This setup link has already been used and no longer works. Sign in with the administrator's account.",
		"expired":           "This setup link has expired (links work for one hour). Restart kardan serve for a new link, or use this command:",
		"admin_exists":      "An administrator already exists, so this page is closed. Sign in with the administrator's account.",
		"csrf":              "This form was not sent from this page. Open the setup link again and send the form from there.",
		"bad_form":          "The form could not be read. Please try again.",
		"method":            "This page only shows its form and accepts it.",
		"internal":          "The server failed. Read its log (journalctl) and try again.",
		"created":           "The administrator with the number %s is created. This link no longer works.",
		"login":             "Sign in to Kardan",
	},
}

// CreateCommand is the shell command that does what the page does.
const CreateCommand = "kardan user create --phone 09xxxxxxxxx --name 'Admin' --password '…' --admin"

// noticeWithCommand lists the notices after which the shell command is shown.
var noticeWithCommand = map[string]bool{"not_local": true, "unknown": true, "expired": true}

// noticeWithLogin lists the notices after which a link to sign in is shown.
var noticeWithLogin = map[string]bool{"used": true, "admin_exists": true, "created": true}

var page = template.Must(template.New("setup").Parse(`<!doctype html>
<html lang="{{.Lang}}" dir="{{.Dir}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{.T.title}}</title>
<style>
:root { color-scheme: light dark; --fg: #1b1b1f; --bg: #fafafa; --muted: #5f5f6b; --err: #b3261e; --accent: #0b6e4f; }
@media (prefers-color-scheme: dark) { :root { --fg: #ececf1; --bg: #16161a; --muted: #a6a6b3; --err: #ffb4ab; --accent: #6fdcb0; } }
body { font-family: Vazirmatn, Tahoma, system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0; }
main { max-inline-size: 32rem; margin-inline: auto; padding: 1.5rem; }
label { display: block; margin-block-start: 1rem; }
input { display: block; inline-size: 100%; box-sizing: border-box; padding: .5rem; margin-block-start: .25rem; font: inherit; }
button { margin-block-start: 1.5rem; padding: .6rem 1.2rem; font: inherit; background: var(--accent); color: var(--bg); border: 0; border-radius: .3rem; }
.err { color: var(--err); margin-block: .25rem 0; }
.notice { padding: .75rem; border-inline-start: .3rem solid var(--accent); }
code { display: block; direction: ltr; text-align: start; overflow-wrap: anywhere; padding: .5rem; margin-block-start: .5rem; }
nav { text-align: end; color: var(--muted); }
</style>
</head>
<body>
<main>
<nav><a href="?lang={{.OtherLang}}" hreflang="{{.OtherLang}}">{{.T.other_lang}}</a></nav>
<h1>{{.T.title}}</h1>
{{if .Notice}}<p class="notice" role="status">{{.Notice}}</p>{{end}}
{{if .Command}}<code>{{.Command}}</code>{{end}}
{{if .Login}}<p><a href="/login">{{.T.login}}</a></p>{{end}}
{{if .V.Form}}
<p>{{.T.intro}}</p>
<form method="post" autocomplete="off" novalidate>
<input type="hidden" name="csrf" value="{{.V.CSRF}}">
<label>{{.T.phone}}<input name="phone" inputmode="tel" dir="ltr" required value="{{.V.Phone}}"{{if .E.phone}} aria-invalid="true"{{end}}></label>
{{with .E.phone}}<p class="err">{{.}}</p>{{end}}
<label>{{.T.name}}<input name="name" maxlength="100" value="{{.V.Name}}"></label>
{{with .E.name}}<p class="err">{{.}}</p>{{end}}
<label>{{.T.password}}<input name="password" type="password" autocomplete="new-password" required></label>
{{with .E.password}}<p class="err">{{.}}</p>{{end}}
<label>{{.T.password2}}<input name="password2" type="password" autocomplete="new-password" required></label>
{{with .E.password2}}<p class="err">{{.}}</p>{{end}}
<button type="submit">{{.T.submit}}</button>
</form>
{{end}}
</main>
</body>
</html>
`))

// render writes the page in lang with status.
func (p *Page) render(w http.ResponseWriter, status int, lang string, v view) {
	t := messages[lang]
	data := struct {
		Lang, Dir, OtherLang string
		T                    map[string]string
		V                    view
		E                    map[string]string
		Notice, Command      string
		Login                bool
	}{Lang: lang, Dir: "rtl", OtherLang: "en", T: t, V: v, E: map[string]string{}, Login: noticeWithLogin[v.Notice]}
	if lang == "en" {
		data.Dir, data.OtherLang = "ltr", "fa"
	}
	for field, key := range v.Errors {
		data.E[field] = t[key]
	}
	if v.Notice != "" {
		data.Notice = t[v.Notice]
		if v.Notice == "created" {
			data.Notice = strings.Replace(data.Notice, "%s", v.Phone, 1)
		}
	}
	if noticeWithCommand[v.Notice] {
		data.Command = CreateCommand
	}
	var b bytes.Buffer
	if err := page.Execute(&b, data); err != nil {
		slog.Error("setup page template", "err", err)
		http.Error(w, "setup page failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Language", lang)
	w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(status)
	w.Write(b.Bytes())
}
