package cmd_test

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"kardan/cmd"
)

// firstRun is the built binary serving an empty data directory, with what it printed.
type firstRun struct {
	cmd    *exec.Cmd
	url    string
	setup  string
	stdout []string
	done   chan error
}

// startFirstRun runs `kardan serve` with no other flag than the data directory and a free port,
// the way an operator with only the binary would, and collects its first lines.
func startFirstRun(t *testing.T, bin, data string, extra ...string) *firstRun {
	t.Helper()
	args := append([]string{"serve", "--data", data, "--addr", "127.0.0.1:0", "--log-level", "warn"}, extra...)
	c := exec.Command(bin, args...)
	c.Stderr = os.Stderr
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	f := &firstRun{cmd: c, done: make(chan error, 1)}
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	go func() { f.done <- c.Wait() }()
	t.Cleanup(func() {
		c.Process.Signal(syscall.SIGTERM)
		select {
		case <-f.done:
		case <-time.After(20 * time.Second):
			c.Process.Kill()
		}
	})
	deadline := time.After(60 * time.Second)
	// The banner is the URL line and, with no administrator, the advice after it: wait for the
	// URL, then until nothing more arrives for a moment.
	for f.url == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("kardan serve stopped printing: %q", f.stdout)
			}
			f.add(l)
		case <-deadline:
			t.Fatalf("kardan serve printed no address within 60 s: %q", f.stdout)
		}
	}
	for !f.settled(lines) {
	}
	return f
}

func (f *firstRun) add(l string) {
	f.stdout = append(f.stdout, l)
	if u, ok := strings.CutPrefix(l, "Kardan is running at "); ok {
		f.url = u
	}
	if strings.Contains(l, "/setup/") {
		f.setup = strings.TrimSpace(l)
	}
}

// settled reports whether the banner is complete: nothing more arrives for half a second.
func (f *firstRun) settled(lines chan string) bool {
	select {
	case l, ok := <-lines:
		if ok {
			f.add(l)
		}
		return !ok
	case <-time.After(500 * time.Millisecond):
		return true
	}
}

func getPayload(t *testing.T, u string, into any) {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("GET %s: %d %s", u, res.StatusCode, b)
	}
	var env struct{ Payload json.RawMessage }
	if err := json.NewDecoder(res.Body).Decode(&env); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(env.Payload, into); err != nil {
		t.Fatalf("GET %s: %v in %s", u, err, env.Payload)
	}
}

var csrfField = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

// TestFirstStartWithOnlyTheBinary is the operator's first ten minutes: the built binary on an
// empty directory, no seed, no shell command, a first administrator from the browser.
func TestFirstStartWithOnlyTheBinary(t *testing.T) {
	bin, err := buildKardan()
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(t.TempDir(), "data")
	s := startFirstRun(t, bin, data)
	out := strings.Join(s.stdout, "\n")
	if !strings.Contains(out, "kardan user create --data "+data+" --phone") || s.setup == "" {
		t.Fatalf("no first-run advice:\n%s", out)
	}

	// The reference data is there without `kardan seed`.
	var provinces []struct {
		ID   int64  `json:"id"`
		Slug string `json:"slug"`
	}
	getPayload(t, s.url+"/v1/locations/province/list", &provinces)
	if len(provinces) != 31 {
		t.Fatalf("%d provinces, want 31", len(provinces))
	}
	var cities []json.RawMessage
	getPayload(t, s.url+"/v1/locations/cities/list/"+itoa(provinces[0].ID), &cities)
	if len(cities) == 0 {
		t.Fatalf("province %d has no cities", provinces[0].ID)
	}
	var tree []struct {
		ID       int64             `json:"id"`
		Children []json.RawMessage `json:"children"`
	}
	getPayload(t, s.url+"/v1/work_category/getTreeById", &tree)
	children := 0
	for _, f := range tree {
		children += len(f.Children)
	}
	if len(tree) < 20 || children < 100 {
		t.Fatalf("category tree: %d fields, %d categories", len(tree), children)
	}

	// Through a proxy on this very machine, the page refuses: a proxied request is not local.
	req, _ := http.NewRequest("GET", s.setup+"?lang=en", nil)
	req.Header.Set("X-Forwarded-For", "203.0.113.9")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden || !strings.Contains(string(body), "only a browser on the server itself") {
		t.Fatalf("proxied request: %d %s", res.StatusCode, body)
	}

	// The local browser gets the form, and creates the administrator with it.
	res, err = http.Get(s.setup)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	m := csrfField.FindSubmatch(body)
	if res.StatusCode != 200 || m == nil || !strings.Contains(string(body), `lang="fa" dir="rtl"`) {
		t.Fatalf("setup form: %d %s", res.StatusCode, body)
	}
	form := url.Values{"csrf": {string(m[1])}, "phone": {"09121112233"}, "name": {"Admin"},
		"password": {"first admin secret"}, "password2": {"first admin secret"}}
	res, err = http.PostForm(s.setup+"?lang=en", form)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("create the administrator: %d %s", res.StatusCode, body)
	}
	// Used: the same link, even with a valid form, makes nothing more.
	res, err = http.PostForm(s.setup+"?lang=en", form)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusGone || !strings.Contains(string(body), "already been used") {
		t.Fatalf("second use: %d %s", res.StatusCode, body)
	}

	// The administrator signs in through the API.
	res, err = http.Post(s.url+"/v1/user/login", "application/json",
		strings.NewReader(`{"numberPhone":"09121112233","password":"first admin secret"}`))
	if err != nil {
		t.Fatal(err)
	}
	var login struct {
		Payload struct {
			IsAdmin bool `json:"isAdmin"`
		}
	}
	json.NewDecoder(res.Body).Decode(&login)
	res.Body.Close()
	if res.StatusCode != 200 || !login.Payload.IsAdmin {
		t.Fatalf("admin login: %d %+v", res.StatusCode, login)
	}

	// A restart has an administrator: no advice, no page.
	s.cmd.Process.Signal(syscall.SIGTERM)
	if err := <-s.done; err != nil {
		t.Fatalf("stop: %v", err)
	}
	// doctor on what the first start left: warnings (loopback base url, console SMS) but no
	// failure, so exit 0; a base url with a path is a failure, so exit 1.
	if out, err := exec.Command(bin, "doctor", "--data", data).CombinedOutput(); err != nil ||
		!strings.Contains(string(out), "31 provinces") || !strings.Contains(string(out), "1 administrator") {
		t.Fatalf("doctor: %v\n%s", err, out)
	}
	out2, err := exec.Command(bin, "doctor", "--data", data, "--base-url", "https://kardan.example/app").CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out2), "FAIL  base url") {
		t.Fatalf("doctor with a failure: %v\n%s", err, out2)
	}
	s2 := startFirstRun(t, bin, data)
	if out := strings.Join(s2.stdout, "\n"); strings.Contains(out, "no administrator") || s2.setup != "" {
		t.Fatalf("advice printed with an administrator present:\n%s", out)
	}
	res, err = http.Get(s2.url + strings.TrimPrefix(s.setup, s.url))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode == http.StatusOK || res.StatusCode == http.StatusCreated {
		t.Fatalf("the old setup link answers %d after a restart", res.StatusCode)
	}
}

// TestFirstStartBehindLocalProxyOffersNoPage: when loopback is a trusted proxy, no request can
// prove it is local, so only the command is printed.
func TestFirstStartBehindLocalProxyOffersNoPage(t *testing.T) {
	bin, err := buildKardan()
	if err != nil {
		t.Fatal(err)
	}
	s := startFirstRun(t, bin, t.TempDir(), "--trusted-proxy", "127.0.0.1/32,::1/128")
	out := strings.Join(s.stdout, "\n")
	if s.setup != "" || !strings.Contains(out, "kardan user create") || !strings.Contains(out, "--trusted-proxy covers a loopback address") {
		t.Fatalf("banner:\n%s", out)
	}
}

// TestServeAppliesNewerReferenceData: a database holding older reference data gets the binary's
// at start, while a category an operator added stays.
func TestServeAppliesNewerReferenceData(t *testing.T) {
	dir := t.TempDir()
	app, cancel, done := startApp(t, dir, nil)
	cancel()
	<-done
	app.Close()

	db, err := sql.Open("sqlite3", filepath.Join(dir, "kardan.db"))
	if err != nil {
		t.Fatal(err)
	}
	var cityID, catID, parentID int64
	var cityName string
	if err := db.QueryRow(`SELECT id, english_name FROM cities ORDER BY id LIMIT 1`).Scan(&cityID, &cityName); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT id, parent_id FROM work_categories WHERE parent_id IS NOT NULL ORDER BY id DESC LIMIT 1`).Scan(&catID, &parentID); err != nil {
		t.Fatal(err)
	}
	// What an older binary left: a city named differently, a category it did not have; and
	// what an operator added by hand.
	for _, q := range []string{
		`UPDATE cities SET english_name = 'Old Name' WHERE id = ` + itoa(cityID),
		`DELETE FROM work_categories WHERE id = ` + itoa(catID),
		`INSERT INTO work_categories (id, parent_id, farsi_name, english_name, slag) VALUES (9000001, ` + itoa(parentID) + `, 'نعل‌بند', 'Farrier', 'operator-farrier')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	app, cancel, done = startApp(t, dir, nil)
	defer func() { cancel(); <-done; app.Close() }()
	ctx := context.Background()
	var name string
	var n int
	rdb := app.Store.DB()
	if err := rdb.QueryRowContext(ctx, `SELECT english_name FROM cities WHERE id = ?`, cityID).Scan(&name); err != nil || name != cityName {
		t.Fatalf("city %d: %q %v, want %q", cityID, name, err, cityName)
	}
	if err := rdb.QueryRowContext(ctx, `SELECT count(*) FROM work_categories WHERE id = ?`, catID).Scan(&n); err != nil || n != 1 {
		t.Fatalf("category %d back: %d %v", catID, n, err)
	}
	if err := rdb.QueryRowContext(ctx, `SELECT english_name FROM work_categories WHERE id = 9000001`).Scan(&name); err != nil || name != "Farrier" {
		t.Fatalf("the operator's category: %q %v", name, err)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// outsideAddress answers one of this machine's non-loopback IPv4 addresses ("" when it has none).
func outsideAddress() string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return n.IP.String()
		}
	}
	return ""
}

// TestFirstStartRefusesAnotherMachine: with serve listening on every address, the setup link
// works through loopback and is refused through the machine's outside address.
func TestFirstStartRefusesAnotherMachine(t *testing.T) {
	outside := outsideAddress()
	if outside == "" {
		t.Skip("this machine has no non-loopback IPv4 address to come from")
	}
	bin, err := buildKardan()
	if err != nil {
		t.Fatal(err)
	}
	s := startFirstRun(t, bin, t.TempDir(), "--addr", "0.0.0.0:0")
	u, err := url.Parse(s.setup)
	if err != nil || u.Hostname() != "127.0.0.1" {
		t.Fatalf("setup link %q: %v", s.setup, err)
	}
	// The peer address of a connection to the outside address is that address, not loopback.
	u.Host = net.JoinHostPort(outside, u.Port())
	res, err := http.Get(u.String() + "?lang=en")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden || !strings.Contains(string(body), "only a browser on the server itself") {
		t.Fatalf("through %s: %d %s", outside, res.StatusCode, body)
	}
	res, err = http.Get(s.setup)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("through loopback: %d", res.StatusCode)
	}
}

// TestSetupLinkExpiresInTheServer runs the real serve App with a clock moved past the link's
// hour: the same link that showed the form now answers that it expired.
func TestSetupLinkExpiresInTheServer(t *testing.T) {
	var offset atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	g := &cmd.Globals{DataDir: t.TempDir(), Out: io.Discard, Err: io.Discard}
	app, err := cmd.Open(context.Background(), g, cmd.ServeConfig{Addr: "127.0.0.1:0", Moderation: "pre", Timezone: "Asia/Tehran", Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	if err := app.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- app.Run(ctx) }()
	defer func() { cancel(); <-done; app.Close() }()

	link := app.SetupURL()
	if link == "" {
		t.Fatal("no setup link on an empty database")
	}
	get := func() (int, string) {
		res, err := http.Get(link + "?lang=en")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get(); code != http.StatusOK || !strings.Contains(body, `name="csrf"`) {
		t.Fatalf("fresh link: %d %s", code, body)
	}
	offset.Store(int64(59 * time.Minute))
	if code, _ := get(); code != http.StatusOK {
		t.Fatalf("after 59 minutes: %d", code)
	}
	offset.Store(int64(time.Hour))
	if code, body := get(); code != http.StatusGone || !strings.Contains(body, "expired") || !strings.Contains(body, "kardan user create") {
		t.Fatalf("after the hour: %d %s", code, body)
	}
}
