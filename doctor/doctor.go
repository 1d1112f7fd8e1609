// Package doctor checks what an operator checks before going live, and says how to fix each
// finding: the data directory, the database, the search index, the SMS sender, the public
// address, the trusted proxies, backups and the clock.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"kardan/auth"
	"kardan/search"
	"kardan/store"
)

// Status is a check's verdict.
type Status string

// A check passes (OK), needs attention before going live (Warn), is broken (Fail) or could not
// be made (Skip).
const (
	OK   Status = "ok"
	Warn Status = "WARN"
	Fail Status = "FAIL"
	Skip Status = "skip"
)

// Result is one check's finding.
type Result struct {
	Name   string
	Status Status
	Detail string
	// Fix says what to do about a Warn or Fail.
	Fix string
}

// Config is what the checks look at: the data directory and the flags serve is given.
type Config struct {
	DataDir        string
	Addr           string
	BaseURL        string
	TrustedProxies string
	Timezone       string
	SMS            string
	SMSKey         string
	SMSTemplate    string
	BackupEvery    time.Duration
	// SMSTo, when set, receives a test SMS through the configured sender.
	SMSTo string
	// FullIntegrity runs PRAGMA integrity_check instead of quick_check.
	FullIntegrity bool
	// BuiltAt is the binary's commit time (zero when unknown): a clock before it is wrong.
	BuiltAt time.Time
	// SchemaVersion is the binary's schema version.
	SchemaVersion int
	// Now is the clock (time.Now).
	Now func() time.Time
	// Sender overrides the sender built from SMS (tests: the edge of the world).
	Sender auth.Sender
}

// Free-space thresholds: below failFree the server may stop writing; below warnFree a backup or
// a reindex may not fit.
const (
	failFree = 100 << 20
	warnFree = 1 << 30
)

// Run makes every check in order.
func Run(ctx context.Context, c Config) []Result {
	if c.Now == nil {
		c.Now = time.Now
	}
	var rs []Result
	add := func(r ...Result) { rs = append(rs, r...) }
	add(checkDataDir(c)...)
	add(checkDatabase(ctx, c)...)
	add(checkIndex(ctx, c))
	add(checkSMS(ctx, c))
	add(checkBaseURL(c))
	add(checkProxies(c))
	add(checkBackups(c))
	add(checkClock(ctx, c)...)
	return rs
}

// Failed counts the failures.
func Failed(rs []Result) int {
	n := 0
	for _, r := range rs {
		if r.Status == Fail {
			n++
		}
	}
	return n
}

// Print writes the results, one line each and the fix under it.
func Print(w io.Writer, rs []Result) {
	for _, r := range rs {
		fmt.Fprintf(w, "%-5s %-18s %s\n", r.Status, r.Name, r.Detail)
		if r.Fix != "" && (r.Status == Warn || r.Status == Fail || r.Status == Skip) {
			fmt.Fprintf(w, "      %-18s fix: %s\n", "", r.Fix)
		}
	}
}

func checkDataDir(c Config) []Result {
	dir := c.DataDir
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return []Result{{Name: "data directory", Status: Warn, Detail: dir + " does not exist yet",
			Fix: "kardan serve creates it; to choose its owner and mode first: install -d -o kardan -g kardan -m 0750 " + dir}}
	}
	if err != nil {
		return []Result{{Name: "data directory", Status: Fail, Detail: err.Error(), Fix: "check the path and its parents' permissions"}}
	}
	if !fi.IsDir() {
		return []Result{{Name: "data directory", Status: Fail, Detail: dir + " is not a directory", Fix: "point --data (KARDAN_DATA) at a directory"}}
	}
	var rs []Result
	r := Result{Name: "data directory", Status: OK}
	probe, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		r.Status, r.Detail = Fail, dir+" is not writable: "+err.Error()
		r.Fix = "run doctor (and serve) as the account that owns it, e.g. sudo -u kardan kardan doctor; or chown -R kardan:kardan " + dir
		return append(rs, r)
	}
	probe.Close()
	os.Remove(probe.Name())
	mode := fi.Mode().Perm()
	r.Detail = fmt.Sprintf("%s: writable, mode %04o", dir, mode)
	if owner, ok := ownerOf(fi); ok && owner != os.Getuid() {
		r.Status = Warn
		r.Detail += fmt.Sprintf(", owned by uid %d while doctor runs as uid %d", owner, os.Getuid())
		r.Fix = "run doctor as the service's account (sudo -u kardan kardan doctor), or files it creates may not be readable by serve"
	}
	if mode&0o007 != 0 {
		r.Status = Warn
		r.Detail += "; other accounts can enter it (it holds password hashes and backups)"
		r.Fix = "chmod 0750 " + dir
	}
	rs = append(rs, r)
	if db, err := os.Stat(filepath.Join(dir, "kardan.db")); err == nil && db.Mode().Perm()&0o004 != 0 && mode&0o005 != 0 {
		rs = append(rs, Result{Name: "database file", Status: Warn,
			Detail: fmt.Sprintf("kardan.db is mode %04o: readable by every account", db.Mode().Perm()),
			Fix:    "chmod 0640 " + filepath.Join(dir, "kardan.db") + " (serve's unit sets UMask=0027)"})
	}

	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return append(rs, Result{Name: "free space", Status: Skip, Detail: err.Error()})
	}
	free := uint64(st.Bavail) * uint64(st.Bsize)
	total := uint64(st.Blocks) * uint64(st.Bsize)
	sr := Result{Name: "free space", Status: OK, Detail: fmt.Sprintf("%s free of %s", bytesText(free), bytesText(total))}
	var dbSize uint64
	if fi, err := os.Stat(filepath.Join(dir, "kardan.db")); err == nil {
		dbSize = uint64(fi.Size())
	}
	switch {
	case free < failFree:
		sr.Status, sr.Fix = Fail, "free disk space: SQLite needs room to write, and a full disk stops every write"
	case free < warnFree || free < 2*dbSize:
		sr.Status, sr.Fix = Warn, fmt.Sprintf("keep at least 1 GiB and twice the database (%s) free: a backup and a reindex each need about the database's size", bytesText(dbSize))
	}
	return append(rs, sr)
}

func checkDatabase(ctx context.Context, c Config) []Result {
	path := filepath.Join(c.DataDir, "kardan.db")
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return []Result{{Name: "database", Status: Warn, Detail: "no kardan.db yet",
			Fix: "kardan serve creates it on its first start (with the reference data)"}}
	}
	in, err := store.OpenInspector(path)
	if err != nil {
		return []Result{{Name: "database", Status: Fail, Detail: err.Error(), Fix: "check the file's owner and mode"}}
	}
	defer in.Close()
	var rs []Result
	check := "quick_check"
	if c.FullIntegrity {
		check = "integrity_check"
	}
	problems, err := in.Integrity(ctx, c.FullIntegrity)
	switch {
	case err != nil:
		rs = append(rs, Result{Name: "database", Status: Fail, Detail: check + ": " + err.Error(),
			Fix: "the file is unreadable: stop serve and restore the newest backup (kardan restore FILE --force)"})
		return rs
	case len(problems) > 0:
		if len(problems) > 3 {
			problems = append(problems[:3], fmt.Sprintf("… %d more", len(problems)-3))
		}
		rs = append(rs, Result{Name: "database", Status: Fail, Detail: check + ": " + strings.Join(problems, "; "),
			Fix: "stop serve and restore the newest backup (kardan restore FILE --force); restore checks the backup's integrity first"})
		return rs
	}
	v, err := in.SchemaVersion(ctx)
	if err != nil {
		return append(rs, Result{Name: "database", Status: Fail, Detail: err.Error()})
	}
	r := Result{Name: "database", Status: OK, Detail: fmt.Sprintf("%s ok, schema %d", check, v)}
	switch {
	case v > c.SchemaVersion:
		r.Status = Fail
		r.Detail += fmt.Sprintf(", newer than this binary's %d", c.SchemaVersion)
		r.Fix = "use the newer kardan that wrote it (this one refuses to serve it)"
	case v < c.SchemaVersion:
		r.Status = Warn
		r.Detail += fmt.Sprintf(", older than this binary's %d", c.SchemaVersion)
		r.Fix = "serve migrates it at start, after writing a backup of the untouched database"
	}
	rs = append(rs, r)
	if v == 0 {
		return rs
	}

	ref := Result{Name: "reference data", Status: OK}
	p, err1 := in.Count(ctx, "provinces")
	ci, err2 := in.Count(ctx, "cities")
	ca, err3 := in.Count(ctx, "categories")
	if err := errors.Join(err1, err2, err3); err != nil {
		ref.Status, ref.Detail = Fail, err.Error()
	} else {
		ref.Detail = fmt.Sprintf("%d provinces, %d cities, %d categories", p, ci, ca)
		if p < 31 || ci == 0 || ca == 0 {
			ref.Status, ref.Fix = Warn, "kardan serve loads it at start; or run kardan seed"
		}
	}
	rs = append(rs, ref)

	adm := Result{Name: "administrator", Status: OK}
	if n, err := in.Count(ctx, "admins"); err != nil {
		adm.Status, adm.Detail = Fail, err.Error()
	} else if n == 0 {
		adm.Status, adm.Detail = Warn, "no administrator: nobody can moderate"
		adm.Fix = "kardan user create --data " + c.DataDir + " --phone 09xxxxxxxxx --name 'Admin' --password '…' --admin"
	} else {
		adm.Detail = fmt.Sprintf("%d administrator(s)", n)
	}
	return append(rs, adm)
}

// checkIndex compares the search index with the database. Bleve locks its index exclusively, so
// while serve runs the comparison is skipped: the server keeps the index in step by itself.
func checkIndex(ctx context.Context, c Config) Result {
	r := Result{Name: "search index"}
	info, err := search.Inspect(filepath.Join(c.DataDir, "index"))
	switch {
	case errors.Is(err, search.ErrNoIndex):
		r.Status, r.Detail, r.Fix = Warn, "no index yet", "kardan serve builds it at start (or kardan reindex)"
		return r
	case errors.Is(err, search.ErrLocked):
		r.Status, r.Detail = Skip, "kardan serve is running and holds the index (Bleve's lock): counts not compared"
		r.Fix = "the server keeps it in step by itself (kardan_outbox_backlog in /metrics should stay near 0); stop serve and run doctor again to compare counts"
		return r
	case err != nil:
		r.Status, r.Detail, r.Fix = Fail, "unreadable: "+err.Error(), "kardan serve rebuilds an unreadable index at start; or stop serve and run kardan reindex"
		return r
	}
	if !info.Current {
		r.Status, r.Detail, r.Fix = Warn, fmt.Sprintf("mapping version %q is not this binary's", info.Version), "kardan serve rebuilds it at start (or kardan reindex)"
		return r
	}
	path := filepath.Join(c.DataDir, "kardan.db")
	in, err := store.OpenInspector(path)
	if err != nil {
		r.Status, r.Detail = Skip, "no database to compare with"
		return r
	}
	defer in.Close()
	profiles, err1 := in.Count(ctx, "indexed profiles")
	blogs, err2 := in.Count(ctx, "indexed blogs")
	head, err3 := in.Count(ctx, "outbox head")
	if err := errors.Join(err1, err2, err3); err != nil {
		r.Status, r.Detail = Fail, err.Error()
		return r
	}
	want := uint64(profiles + blogs)
	r.Detail = fmt.Sprintf("%d documents for %d visible profiles and %d published articles", info.Docs, profiles, blogs)
	switch {
	case info.Applied < head:
		r.Status = Warn
		r.Detail += fmt.Sprintf("; %d changes not applied yet", head-info.Applied)
		r.Fix = "kardan serve applies them at start"
	case info.Docs != want:
		r.Status = Fail
		r.Fix = "stop serve and run kardan reindex (the index is derived from the database; nothing is lost)"
	default:
		r.Status = OK
	}
	return r
}

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

func checkBackups(c Config) Result {
	r := Result{Name: "backups"}
	files, _ := filepath.Glob(filepath.Join(c.DataDir, "backups", "*.tar.gz"))
	var newest time.Time
	var name string
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.ModTime().After(newest) {
			newest, name = fi.ModTime(), filepath.Base(f)
		}
	}
	if name == "" {
		r.Status, r.Detail = Warn, "no backup in "+filepath.Join(c.DataDir, "backups")
		r.Fix = "serve --backup-every 24h (KARDAN_BACKUP_EVERY), or kardan backup from cron; and copy them to another machine (docs/deploy.md)"
		return r
	}
	age := c.Now().Sub(newest)
	limit := 48 * time.Hour
	if c.BackupEvery > 0 {
		limit = 2 * c.BackupEvery
	}
	r.Status, r.Detail = OK, fmt.Sprintf("newest %s, %s old (%d in all)", name, ageText(age), len(files))
	if age > limit {
		r.Status = Warn
		r.Fix = fmt.Sprintf("the newest backup is older than %s: check that serve --backup-every runs, or run kardan backup", ageText(limit))
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

func ownerOf(fi os.FileInfo) (int, bool) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid), true
	}
	return 0, false
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

func bytesText(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

func ageText(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%.0f days", d.Hours()/24)
	case d >= time.Hour:
		return fmt.Sprintf("%.0f h", d.Hours())
	}
	return fmt.Sprintf("%.0f min", d.Minutes())
}
