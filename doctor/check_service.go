package doctor

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"kardan/auth"
	"kardan/store"
)

func checkSMS(ctx context.Context, c Config) Result {
	r := Result{Name: "sms"}
	sender := c.Sender
	if sender == nil {
		s, err := auth.NewSender(c.SMS, c.SMSKey, c.SMSTemplate, "")
		if err != nil {
			r.Status, r.Detail, r.Fix = Fail, err.Error(), "set --sms (KARDAN_SMS) to console, file:PATH or kavenegar with KARDAN_SMS_KEY and KARDAN_SMS_TEMPLATE"
			return r
		}
		sender = s
	}
	switch {
	case c.SMS == "" || c.SMS == "console":
		r.Status, r.Detail = Warn, "console: sign-up codes go to the server's log, no SMS is sent"
		r.Fix = "for real users set KARDAN_SMS=kavenegar, KARDAN_SMS_KEY and KARDAN_SMS_TEMPLATE (in /etc/kardan/kardan.env, mode 0600)"
	case strings.HasPrefix(c.SMS, "file:"):
		r.Status, r.Detail = Warn, "file: sign-up codes are appended to "+strings.TrimPrefix(c.SMS, "file:")+", no SMS is sent"
		r.Fix = "for real users set KARDAN_SMS=kavenegar with its key and template"
	default:
		r.Status, r.Detail = OK, c.SMS+" configured"
	}
	if c.SMSTo == "" {
		if r.Status == OK {
			r.Detail += " (not tried: --to 09xxxxxxxxx sends a test SMS)"
		}
		return r
	}
	phone, ok := store.NormalizeMobile(c.SMSTo)
	if !ok {
		r.Status, r.Detail, r.Fix = Fail, fmt.Sprintf("--to %q is not an Iranian mobile number", c.SMSTo), "give --to 09xxxxxxxxx"
		return r
	}
	code := fmt.Sprintf("%06d", c.Now().UnixNano()%1000000)
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := sender.Send(sctx, phone, code); err != nil {
		r.Status, r.Detail = Fail, "test SMS to "+phone+" failed: "+err.Error()
		r.Fix = "check the provider's key, template and balance in its panel; sign-ups fail the same way until this works"
		return r
	}
	r.Detail += fmt.Sprintf("; test SMS with code %s sent to %s: check that it arrived", code, phone)
	return r
}

func checkBaseURL(c Config) Result {
	r := Result{Name: "base url", Status: OK, Detail: c.BaseURL}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		r.Status, r.Fix = Fail, "set --base-url (KARDAN_BASE_URL) to the public address, e.g. https://kardan.example"
		return r
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		r.Status, r.Detail = Fail, c.BaseURL+": a path, query or credentials in it"
		r.Fix = "Kardan serves from the root of its host: give only scheme and host, e.g. https://kardan.example"
		return r
	}
	host := u.Hostname()
	if loopbackName(host) {
		r.Status, r.Detail = Warn, c.BaseURL+": a loopback address, so canonical links, sitemaps and shared links point to this machine"
		r.Fix = "set --base-url (KARDAN_BASE_URL) to the public address, e.g. https://kardan.example"
		return r
	}
	if u.Scheme == "http" {
		r.Status, r.Detail = Warn, c.BaseURL+": plain http, so passwords and session tokens cross the network readable and no HSTS is sent"
		r.Fix = "put a TLS reverse proxy in front (docs/deploy.md) and use an https:// base url"
	}
	return r
}

func checkProxies(c Config) Result {
	r := Result{Name: "trusted proxies", Status: OK}
	var nets []*net.IPNet
	for _, s := range strings.Split(c.TrustedProxies, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if !strings.Contains(s, "/") {
			if strings.Contains(s, ":") {
				s += "/128"
			} else {
				s += "/32"
			}
		}
		_, n, err := net.ParseCIDR(s)
		if err != nil {
			r.Status, r.Detail, r.Fix = Fail, fmt.Sprintf("%q is not an address or network", s), "give --trusted-proxy as comma-separated CIDRs, e.g. 127.0.0.1/32,::1/128"
			return r
		}
		nets = append(nets, n)
	}
	behindProxy := strings.HasPrefix(c.BaseURL, "https://") && addrIsLoopback(c.Addr)
	if len(nets) == 0 {
		r.Detail = "none: every client is its own connection's address"
		if behindProxy {
			r.Status = Warn
			r.Detail = "none, yet serve listens on loopback behind an https address: a proxy is in front, and every visitor shares its address (and its rate limits)"
			r.Fix = "--trusted-proxy 127.0.0.1/32,::1/128 (KARDAN_TRUSTED_PROXY) when the proxy runs on this machine"
		}
		return r
	}
	var names []string
	for _, n := range nets {
		names = append(names, n.String())
		if ones, bits := n.Mask.Size(); (bits == 32 && ones < 8) || (bits == 128 && ones < 16) {
			r.Status = Fail
			r.Fix = "trust only your proxies' addresses: anyone inside " + n.String() + " can choose the client address rate limits count"
		}
	}
	sort.Strings(names)
	r.Detail = strings.Join(names, ", ")
	if r.Status == OK && !addrIsLoopback(c.Addr) {
		r.Status = Warn
		r.Detail += fmt.Sprintf("; serve listens on %s, reachable without the proxy", c.Addr)
		r.Fix = "listen on loopback (--addr 127.0.0.1:8080) behind a proxy on this machine, or firewall the port to the proxies"
	}
	return r
}

func checkClock(ctx context.Context, c Config) []Result {
	now := c.Now()
	tz := Result{Name: "time zone"}
	loc, err := time.LoadLocation(c.Timezone)
	if err != nil {
		tz.Status, tz.Detail = Fail, fmt.Sprintf("--timezone %q: %v", c.Timezone, err)
		tz.Fix = "give an IANA zone such as Asia/Tehran (the binary carries the zone database)"
	} else {
		tz.Status = OK
		tz.Detail = fmt.Sprintf("%s: %s (opening hours and release dates use it); the machine's zone is %s",
			c.Timezone, now.In(loc).Format("2006-01-02 15:04 MST"), now.Local().Format("MST (-07:00)"))
	}
	clock := Result{Name: "clock", Status: OK, Detail: "UTC " + now.UTC().Format(time.RFC3339)}
	var problems []string
	if !c.BuiltAt.IsZero() && now.Before(c.BuiltAt) {
		clock.Status = Fail
		problems = append(problems, "before this binary's commit ("+c.BuiltAt.UTC().Format(time.RFC3339)+")")
	}
	if in, err := store.OpenInspector(filepath.Join(c.DataDir, "kardan.db")); err == nil {
		if newest, err := in.Newest(ctx); err == nil && newest > now.Add(5*time.Minute).Unix() {
			clock.Status = Fail
			problems = append(problems, "before the newest write in the database ("+time.Unix(newest, 0).UTC().Format(time.RFC3339)+")")
		}
		in.Close()
	}
	if unsynced, known := clockUnsynchronised(); known && unsynced && clock.Status == OK {
		clock.Status = Warn
		problems = append(problems, "the kernel reports it is not synchronised")
	}
	if len(problems) > 0 {
		clock.Detail += ": " + strings.Join(problems, "; ")
		clock.Fix = "synchronise the clock (timedatectl set-ntp true): codes expire in 2 minutes and sessions and backups go by it"
	}
	return []Result{tz, clock}
}

// clockUnsynchronised asks the kernel (adjtimex, read only) whether the clock is synchronised.
func clockUnsynchronised() (unsynced, known bool) {
	var tx syscall.Timex
	state, err := syscall.Adjtimex(&tx)
	if err != nil {
		return false, false
	}
	const timeError = 5 // TIME_ERROR: the clock is not synchronised
	return state == timeError, true
}

func loopbackName(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func addrIsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	return loopbackName(host)
}
