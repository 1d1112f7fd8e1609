package cmd_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	_ "image/png" // uploads with transparency are stored as PNG
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"kardan/admin"
	"kardan/store"
)

// The crash test's size. KARDAN_CRASH_KILLS and KARDAN_CRASH_WRITES make it a soak test
// (`make soak` runs 100 kills); the defaults keep `make test` near a minute.
var (
	crashKills  = envNumber("KARDAN_CRASH_KILLS", 10)
	crashWrites = envNumber("KARDAN_CRASH_WRITES", 1000)
)

// crashWriters is how many clients write at once: one signs up, the others write.
const crashWriters = 8

func envNumber(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// buildKardan compiles the real binary, once per test binary.
var buildKardan = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "kardan-crash-bin-*")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "kardan")
	out, err := exec.Command("go", "build", "-o", bin, "kardan").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// server is one run of `kardan serve` as a child process.
type server struct {
	cmd     *exec.Cmd
	url     string
	metrics string // the metrics listener's /metrics address
	done    chan error
	log     *os.File
}

// startServer runs kardan serve on a free port and waits until it answers /healthz.
func startServer(t *testing.T, bin, data, smsFile, logPath string) *server {
	t.Helper()
	return startServerWith(t, bin, data, smsFile, logPath)
}

// startServerWith is startServer with more flags (a later flag overrides an earlier one).
func startServerWith(t *testing.T, bin, data, smsFile, logPath string, extra ...string) *server {
	t.Helper()
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command(bin, append([]string{"serve", "--data", data, "--addr", "127.0.0.1:0", "--moderation", "off",
		"--sms", "file:" + smsFile, "--search-rate", "0", "--metrics-addr", "127.0.0.1:0", "--trusted-proxy", "127.0.0.1/32",
		"--log-level", "warn"}, extra...)...)
	c.Stderr = logf
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: c, done: make(chan error, 1), log: logf}
	urlc, metricsc := make(chan string, 1), make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "Kardan is running at "); ok {
				urlc <- u
			}
			if u, ok := strings.CutPrefix(sc.Text(), "Metrics at "); ok {
				metricsc <- u
			}
		}
	}()
	go func() { s.done <- c.Wait() }()
	select {
	case s.url = <-urlc:
		select {
		case s.metrics = <-metricsc:
		case <-time.After(10 * time.Second):
			t.Fatalf("kardan serve printed no metrics address\n%s", tail(logPath))
		}
	case err := <-s.done:
		t.Fatalf("kardan serve exited at start: %v\n%s", err, tail(logPath))
	case <-time.After(60 * time.Second):
		c.Process.Kill()
		t.Fatalf("kardan serve did not start within 60 s\n%s", tail(logPath))
	}
	for i := 0; ; i++ {
		res, err := http.Get(s.url + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return s
			}
		}
		if i > 200 {
			t.Fatalf("/healthz never answered 200: %v\n%s", err, tail(logPath))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// kill ends the server with SIGKILL: no deferred code, no checkpoint, no flush.
func (s *server) kill(t *testing.T) {
	t.Helper()
	s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
	s.log.Close()
}

// stop ends the server with SIGTERM and answers how long it took and how it exited.
func (s *server) stop(t *testing.T) (time.Duration, error) {
	t.Helper()
	start := time.Now()
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.done:
		s.log.Close()
		return time.Since(start), err
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
		s.log.Close()
		return time.Since(start), errors.New("did not stop within 30 s of SIGTERM")
	}
}

func tail(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// ledger remembers every write the server acknowledged with a 2xx, and what was attempted
// without an answer (its outcome is unknown: the kill may have come before or after the commit).
type ledger struct {
	mu        sync.Mutex
	users     []*crashUser
	profiles  map[int64]crashProfile
	comments  []crashComment
	uploads   []crashUpload
	blogs     map[int64]*crashBlog
	attempts  map[string]int
	acks      map[string]int
	statuses  map[int]int // every answer's status (0: no answer), to see what the writers met
	nextPhone int
	seq       int
}

type crashUser struct {
	phone, token string
	id           int64
	mu           sync.Mutex
	cats         map[int64]bool // categories it has (or may have) a profile in
	fields       []int64        // fields of work it has an acknowledged profile in
	uploads      []string
}

type crashProfile struct {
	userID int64
	name   string
}

type crashComment struct {
	profileID, userID int64
	description       string
}

type crashUpload struct {
	userID  int64
	address string
}

type crashBlog struct {
	mu       sync.Mutex
	writer   *crashUser
	field    int64
	acked    string   // the last acknowledged title
	unknown  []string // titles sent after it without an answer
	attempts int
}

func newLedger() *ledger {
	return &ledger{profiles: map[int64]crashProfile{}, blogs: map[int64]*crashBlog{}, attempts: map[string]int{}, acks: map[string]int{}, statuses: map[int]int{}}
}

// next answers a number no other write uses, for unique names.
func (l *ledger) next() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	return l.seq
}

// sent counts a write that reached the server (code -1: the connection was refused, as
// between a kill and the next start, so nothing was sent) and its answer's status.
func (l *ledger) sent(kind string, code int) {
	if code == -1 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.attempts[kind]++
	l.statuses[code]++
}

func (l *ledger) ack(kind string, fn func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.acks[kind]++
	if fn != nil {
		fn()
	}
}

func (l *ledger) totalAttempts() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, v := range l.attempts {
		n += v
	}
	return n
}

func (l *ledger) randomUser(rng *rand.Rand) *crashUser {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.users) == 0 {
		return nil
	}
	return l.users[rng.IntN(len(l.users))]
}

// client sends the writers' requests; a fresh one per server run, so no connection outlives it.
type client struct {
	base string
	http *http.Client
}

// call sends a JSON request and answers the status and the envelope's payload; status 0 means
// no answer (the server died or the connection broke).
func (c *client) call(method, path, token, body string, ip string) (int, json.RawMessage) {
	req, err := http.NewRequest(method, c.base+path, strings.NewReader(body))
	if err != nil {
		return 0, nil
	}
	req.Header.Set("Content-Type", "application/json")
	return c.do(req, token, ip)
}

func (c *client) do(req *http.Request, token, ip string) (int, json.RawMessage) {
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if ip != "" {
		req.Header.Set("X-Forwarded-For", ip)
	}
	res, err := c.http.Do(req)
	if errors.Is(err, syscall.ECONNREFUSED) {
		return -1, nil
	}
	if err != nil {
		return 0, nil
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil // the answer was cut: its outcome is unknown
	}
	var env struct {
		Payload json.RawMessage `json:"payload"`
	}
	json.Unmarshal(raw, &env)
	return res.StatusCode, env.Payload
}

// world is what the writers share.
type world struct {
	t       *testing.T
	l       *ledger
	smsFile string
	pairs   [][2]int64 // (field, category)
}

// signUp registers a new account through the SMS code flow.
func (w *world) signUp(c *client, rng *rand.Rand) {
	w.l.mu.Lock()
	w.l.nextPhone++
	phone := fmt.Sprintf("0935%07d", w.l.nextPhone)
	w.l.mu.Unlock()
	// Each sign-up comes from its own address: the per-address SMS limit is not under test here.
	ip := fmt.Sprintf("10.%d.%d.%d", rng.IntN(250), rng.IntN(250), 1+rng.IntN(250))
	if code, _ := c.call("POST", "/v1/send-sms/sendSmsForSignUp", "", `{"numberPhone":"`+phone+`"}`, ip); code != 200 {
		w.l.sent("signup_code", code)
		return
	}
	otp := w.codeFor(phone)
	if otp == "" {
		return
	}
	body := fmt.Sprintf(`{"numberPhone":%q,"name":"کاربر آزمون","password":"crash-test-password","otpCode":%q}`, phone, otp)
	code, payload := c.call("POST", "/v1/user/create", "", body, ip)
	w.l.sent("signup", code)
	if code != 200 {
		return
	}
	var a struct {
		Token string `json:"token"`
		ID    int64  `json:"id"`
	}
	if json.Unmarshal(payload, &a) != nil || a.Token == "" {
		w.t.Errorf("sign-up answered 200 without a token: %s", payload)
		return
	}
	w.l.ack("signup", func() {
		w.l.users = append(w.l.users, &crashUser{phone: phone, token: a.Token, id: a.ID, cats: map[int64]bool{}})
	})
}

// codeFor reads the newest code the file sender wrote for phone.
func (w *world) codeFor(phone string) string {
	b, _ := os.ReadFile(w.smsFile)
	code := ""
	for _, line := range strings.Split(string(b), "\n") {
		if p, c, ok := strings.Cut(line, " "); ok && p == phone {
			code = c
		}
	}
	return code
}

func (w *world) createProfile(c *client, rng *rand.Rand) {
	u := w.l.randomUser(rng)
	if u == nil {
		return
	}
	u.mu.Lock()
	var pair [2]int64
	found := false
	for _, i := range rng.Perm(len(w.pairs)) {
		if !u.cats[w.pairs[i][1]] {
			pair, found = w.pairs[i], true
			break
		}
	}
	if found {
		u.cats[pair[1]] = true // taken even if the answer is lost: the profile may exist
	}
	image := ""
	if len(u.uploads) > 0 {
		image = u.uploads[rng.IntN(len(u.uploads))]
	}
	u.mu.Unlock()
	if !found {
		return
	}
	n := w.l.next()
	name := fmt.Sprintf("خدمات آزمون %d", n)
	lat, long := 35.55+rng.Float64()*0.3, 51.2+rng.Float64()*0.4
	body := fmt.Sprintf(`{"profile_name":%q,"work_history_years":%d,"descriotion":"کار تمیز و سریع آزمون","city_id":1,"province_id":1,
		"range_worker":%d,"category_list":[%d],"location":{"lat":%.6f,"long":%.6f},"area_working":["مرکز"],"address":"تهران",
		"services":[{"title":"خدمت آزمون","price":%d,"description":""}],"profile_image":%q,
		"hours_of_work":{"saturday":{"boarding":false,"closed":false,"time":[{"open":28800,"close":61200}]}}}`,
		name, 1+rng.IntN(30), pair[0], pair[1], lat, long, 1000*rng.IntN(500), image)
	code, payload := c.call("POST", "/v1/user-technical/createProfile", u.token, body, "")
	w.l.sent("profile", code)
	if code != 200 {
		return
	}
	var p struct {
		ID int64 `json:"id"`
	}
	json.Unmarshal(payload, &p)
	w.l.ack("profile", func() {
		w.l.profiles[p.ID] = crashProfile{userID: u.id, name: name}
	})
	u.mu.Lock()
	u.fields = append(u.fields, pair[0])
	u.mu.Unlock()
}

func (w *world) comment(c *client, rng *rand.Rand) {
	u := w.l.randomUser(rng)
	if u == nil {
		return
	}
	w.l.mu.Lock()
	var ids []int64
	for id, p := range w.l.profiles {
		if p.userID != u.id {
			ids = append(ids, id)
		}
	}
	w.l.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	slices.Sort(ids)
	pid := ids[rng.IntN(len(ids))]
	n := w.l.next()
	desc := fmt.Sprintf("نظر آزمون شماره %d، کار خوبی بود", n)
	body := fmt.Sprintf(`{"user_technical_id":%d,"description":%q,"score":%d,"category_list":[]}`, pid, desc, 1+rng.IntN(5))
	code, _ := c.call("POST", "/v1/comment/add", u.token, body, "")
	w.l.sent("comment", code)
	if code == 200 {
		w.l.ack("comment", func() {
			w.l.comments = append(w.l.comments, crashComment{profileID: pid, userID: u.id, description: desc})
		})
	}
}

func (w *world) blog(c *client, rng *rand.Rand) {
	u := w.l.randomUser(rng)
	if u == nil {
		return
	}
	u.mu.Lock()
	var field int64
	if len(u.fields) > 0 {
		field = u.fields[rng.IntN(len(u.fields))]
	}
	u.mu.Unlock()
	if field == 0 {
		return
	}
	// Half the time edit one of the user's blogs, otherwise write a new one.
	w.l.mu.Lock()
	var mine []int64
	for id, b := range w.l.blogs {
		if b.writer == u {
			mine = append(mine, id)
		}
	}
	w.l.mu.Unlock()
	if len(mine) > 0 && rng.IntN(2) == 0 {
		slices.Sort(mine)
		id := mine[rng.IntN(len(mine))]
		w.l.mu.Lock()
		b := w.l.blogs[id]
		w.l.mu.Unlock()
		b.mu.Lock() // one edit of a blog at a time, so "the last acknowledged title" is well defined
		defer b.mu.Unlock()
		n := w.l.next()
		title := fmt.Sprintf("یادداشت آزمون %d ویرایش %d", id, n)
		body := fmt.Sprintf(`{"id":%d,"title":%q,"content":"<p>متن ویرایش %d</p>","summary":"خلاصه","category_list":[%d],"isDraft":false}`,
			id, title, n, b.field)
		code, _ := c.call("PUT", "/v1/blog/edit", u.token, body, "")
		w.l.sent("blog_edit", code)
		switch {
		case code == 200:
			w.l.ack("blog_edit", nil)
			b.acked, b.unknown = title, nil
		case code == 0:
			b.unknown = append(b.unknown, title)
		}
		return
	}
	n := w.l.next()
	title := fmt.Sprintf("یادداشت آزمون نو %d", n)
	body := fmt.Sprintf(`{"title":%q,"content":"<p>متن آزمون %d</p>","summary":"خلاصه","category_list":[%d],"isDraft":false}`, title, n, field)
	code, payload := c.call("POST", "/v1/blog/add", u.token, body, "")
	w.l.sent("blog_add", code)
	if code != 200 {
		return
	}
	var b struct {
		ID int64 `json:"id"`
	}
	json.Unmarshal(payload, &b)
	w.l.ack("blog_add", func() {
		w.l.blogs[b.ID] = &crashBlog{writer: u, field: field, acked: title}
	})
}

// tinyJPEG is a small image of noise, different every time, so each upload is a new file.
func tinyJPEG(rng *rand.Rand) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 48, 32))
	for i := range img.Pix {
		img.Pix[i] = uint8(rng.IntN(256))
	}
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80})
	return buf.Bytes()
}

func (w *world) upload(c *client, rng *rand.Rand) {
	u := w.l.randomUser(rng)
	if u == nil {
		return
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("uploadKey", "userTechnical")
	fw, _ := mw.CreateFormFile("file", "photo.jpg")
	fw.Write(tinyJPEG(rng))
	mw.Close()
	req, _ := http.NewRequest("POST", c.base+"/v1/upload-file", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	code, payload := c.do(req, u.token, "")
	w.l.sent("upload", code)
	if code != 200 {
		return
	}
	var a struct {
		Address string `json:"address"`
	}
	json.Unmarshal(payload, &a)
	w.l.ack("upload", func() {
		w.l.uploads = append(w.l.uploads, crashUpload{userID: u.id, address: a.Address})
	})
	u.mu.Lock()
	u.uploads = append(u.uploads, a.Address)
	u.mu.Unlock()
}

// drive runs writers against base until ctx ends: one signing up, the others writing profiles,
// comments, blogs and uploads.
func (w *world) drive(ctx context.Context, base string, seed uint64, writers int) *sync.WaitGroup {
	var wg sync.WaitGroup
	c := &client{base: base, http: &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: writers}}}
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, uint64(i)))
			for ctx.Err() == nil {
				if i == 0 {
					w.signUp(c, rng)
					continue
				}
				switch x := rng.IntN(10); {
				case x < 3:
					w.createProfile(c, rng)
				case x < 6:
					w.comment(c, rng)
				case x < 8:
					w.blog(c, rng)
				default:
					w.upload(c, rng)
				}
			}
		}(i)
	}
	return &wg
}

// indexAnswers asks the running server's index questions whose answers cover every indexed
// profile and blog: all profiles by distance (unique, so the order is exact), the well-scored
// ones (scores move with comments), text searches, and the blog search.
func indexAnswers(t *testing.T, base string) map[string]string {
	t.Helper()
	c := &client{base: base, http: http.DefaultClient}
	out := map[string]string{}
	ask := func(name, path, body string, sorted bool) {
		var all []string
		for skip := 0; ; skip += 100 {
			b := strings.Replace(body, "SKIP", strconv.Itoa(skip), 1)
			code, payload := c.call("POST", path, "", b, "")
			if code != 200 {
				t.Fatalf("%s %s: %d %s", path, b, code, payload)
			}
			var page struct {
				Count    int `json:"count"`
				Profiles []struct {
					ID int64 `json:"id"`
				} `json:"profiles"`
				Blogs []struct {
					ID    int64  `json:"id"`
					Title string `json:"title"`
				} `json:"blogs"`
			}
			json.Unmarshal(payload, &page)
			for _, p := range page.Profiles {
				all = append(all, strconv.FormatInt(p.ID, 10))
			}
			for _, b := range page.Blogs {
				all = append(all, strconv.FormatInt(b.ID, 10)+":"+b.Title)
			}
			if skip+100 >= page.Count {
				if len(all) != page.Count {
					t.Fatalf("%s %s: %d answers for a count of %d", path, b, len(all), page.Count)
				}
				break
			}
		}
		if sorted {
			sort.Strings(all)
		}
		out[name] = strings.Join(all, ",")
	}
	point := `"lat":35.7,"long":51.4,"radius":200000,"take":100,"skip":SKIP`
	ask("nearest", "/v1/user-technical/searchUser", `{`+point+`,"order":"nearest"}`, false)
	ask("scored", "/v1/user-technical/searchUser", `{`+point+`,"min_score":4}`, true)
	ask("text", "/v1/user-technical/searchUser", `{"search_txt":"خدمات آزمون","take":100,"skip":SKIP}`, true)
	ask("blogs", "/v1/blog/search", `{"search_txt":"یادداشت آزمون","take":100,"skip":SKIP}`, true)
	return out
}

func metricsValue(t *testing.T, metricsURL, name string) float64 {
	t.Helper()
	res, err := http.Get(metricsURL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	t.Fatalf("metric %s not served", name)
	return 0
}

// TestCrashSafety runs the real binary under concurrent writes (sign-ups, profiles, comments,
// blog edits, uploads), kills it with SIGKILL at random moments, damages or removes the search
// index between some runs, restarts it each time, then stops it gracefully under load and checks
// that SQLite's integrity check passes, every acknowledged write is there, every stored upload is
// whole, and the index built through all the crashes answers exactly like a fresh reindex.
func TestCrashSafety(t *testing.T) {
	bin, err := buildKardan()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	logPath := filepath.Join(dir, "serve.log")
	if out, err := exec.Command(bin, "seed", "--data", data, "--log-level", "warn").CombinedOutput(); err != nil {
		t.Fatalf("seed: %v\n%s", err, out)
	}
	ref, err := admin.LoadReferenceData()
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, l: newLedger(), smsFile: filepath.Join(dir, "sms.txt")}
	for _, f := range ref.Fields {
		for _, c := range f.Children {
			w.pairs = append(w.pairs, [2]int64{f.ID, c.ID})
		}
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	start := time.Now()

	kills := 0
	var broken []string
	for round := 0; kills < crashKills || w.l.totalAttempts() < crashWrites; round++ {
		if round > 4*crashKills {
			break
		}
		switch round {
		case 3: // the index directory is gone: serve must rebuild it, not refuse to start
			os.RemoveAll(filepath.Join(data, "index"))
			broken = append(broken, "index removed")
		case 6: // the index is damaged
			os.WriteFile(filepath.Join(data, "index", "index_meta.json"), []byte("{garbage"), 0o600)
			broken = append(broken, "index_meta.json damaged")
		}
		s := startServer(t, bin, data, w.smsFile, logPath)
		ctx, cancel := context.WithCancel(context.Background())
		wg := w.drive(ctx, s.url, seed+uint64(round), crashWriters)
		// The first run waits for a few accounts so that the later ones have writers.
		deadline := time.Now().Add(time.Duration(300+rng.IntN(2200)) * time.Millisecond)
		for time.Now().Before(deadline) || (round == 0 && w.l.userCount() < 4 && time.Since(start) < 30*time.Second) {
			time.Sleep(20 * time.Millisecond)
		}
		cancel() // no new writes; those in flight meet the kill
		s.kill(t)
		kills++
		wg.Wait()
	}

	// A graceful stop under load: requests in flight finish, the process exits by itself within
	// 10 s and leaves no WAL to recover.
	s := startServer(t, bin, data, w.smsFile, logPath)
	ctx, cancel := context.WithCancel(context.Background())
	wg := w.drive(ctx, s.url, seed+1000, crashWriters)
	// An online backup under this write load restores to a sound database.
	archive := filepath.Join(dir, "online.tar.gz")
	backupStart := time.Now()
	if out, err := exec.Command(bin, "backup", "--data", data, "--out", archive, "--log-level", "warn").CombinedOutput(); err != nil {
		t.Fatalf("backup under load: %v\n%s", err, out)
	}
	backupTook := time.Since(backupStart)
	time.Sleep(300 * time.Millisecond)
	took, err := s.stop(t)
	cancel()
	wg.Wait()
	if err != nil || took > 10*time.Second {
		t.Fatalf("graceful stop under load: %v after %v\n%s", err, took, tail(logPath))
	}
	if fi, err := os.Stat(filepath.Join(data, "kardan.db-wal")); err == nil && fi.Size() > 0 {
		t.Errorf("a clean stop left %d bytes of WAL", fi.Size())
	}

	// The index that lived through the crashes, fully caught up.
	s = startServer(t, bin, data, w.smsFile, logPath)
	if n := metricsValue(t, s.metrics, "kardan_search_outbox_backlog"); n != 0 {
		t.Errorf("outbox backlog after start-up: %v, want 0", n)
	}
	live := indexAnswers(t, s.url)
	if _, err := s.stop(t); err != nil {
		t.Fatal(err)
	}

	checkDatabase(t, data, w.l)
	restored := filepath.Join(dir, "restored")
	if out, err := exec.Command(bin, "restore", archive, "--data", restored, "--log-level", "warn").CombinedOutput(); err != nil {
		t.Fatalf("restore of the backup taken under load: %v\n%s", err, out)
	}
	if info, err := store.InspectFile(context.Background(), filepath.Join(restored, "kardan.db")); err != nil || info.Integrity != "ok" || info.Counts["profiles"] == 0 {
		t.Fatalf("the backup taken under load: %+v %v", info, err)
	}

	// A fresh index from the database answers the same.
	if out, err := exec.Command(bin, "reindex", "--data", data, "--log-level", "warn").CombinedOutput(); err != nil {
		t.Fatalf("reindex: %v\n%s", err, out)
	}
	s = startServer(t, bin, data, w.smsFile, logPath)
	fresh := indexAnswers(t, s.url)
	s.stop(t)
	for name := range live {
		if live[name] != fresh[name] {
			t.Errorf("index answer %q differs from a fresh reindex:\n live  %.400s\n fresh %.400s", name, live[name], fresh[name])
		}
	}
	if live["nearest"] == "" || live["blogs"] == "" {
		t.Errorf("the index answered nothing: %v", live)
	}

	w.l.mu.Lock()
	defer w.l.mu.Unlock()
	t.Logf("crash test: %d SIGKILLs survived (%s), %d write attempts, acknowledged %v of %v, answers by status %v, %d accounts, %d profiles, %d comments, %d blogs, %d uploads verified; %d profiles indexed; online backup under load in %v (restored whole); graceful stop under load in %v; %.0f s",
		kills, strings.Join(broken, ", "), w.l.totalAttemptsLocked(), w.l.acks, w.l.attempts, w.l.statuses, len(w.l.users), len(w.l.profiles),
		len(w.l.comments), len(w.l.blogs), len(w.l.uploads), strings.Count(live["nearest"], ",")+1, backupTook.Round(time.Millisecond), took.Round(time.Millisecond),
		time.Since(start).Seconds())
	if kills < crashKills {
		t.Errorf("only %d kills", kills)
	}
}

func (l *ledger) userCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.users)
}

func (l *ledger) totalAttemptsLocked() int {
	n := 0
	for _, v := range l.attempts {
		n += v
	}
	return n
}

// checkDatabase opens the stopped server's database and checks it against the ledger.
func checkDatabase(t *testing.T, data string, l *ledger) {
	t.Helper()
	dbPath := filepath.Join(data, "kardan.db")
	info, err := store.InspectFile(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if info.Integrity != "ok" {
		t.Fatalf("PRAGMA integrity_check: %s", info.Integrity)
	}
	db, err := sql.Open("sqlite3", "file:"+dbPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	l.mu.Lock()
	defer l.mu.Unlock()

	for _, u := range l.users {
		var id int64
		if err := db.QueryRow(`SELECT id FROM users WHERE number_phone = ?`, u.phone).Scan(&id); err != nil || id != u.id {
			t.Errorf("acknowledged account %s: got id %d (%v), want %d", u.phone, id, err, u.id)
		}
	}
	for id, p := range l.profiles {
		var name string
		var owner int64
		var visible bool
		if err := db.QueryRow(`SELECT profile_name, user_id, visible FROM profiles WHERE id = ?`, id).Scan(&name, &owner, &visible); err != nil ||
			name != p.name || owner != p.userID || !visible {
			t.Errorf("acknowledged profile %d: got %q owner %d visible %v (%v), want %q owner %d", id, name, owner, visible, err, p.name, p.userID)
		}
	}
	for _, c := range l.comments {
		var desc string
		if err := db.QueryRow(`SELECT description FROM comments WHERE profile_id = ? AND user_id = ?`, c.profileID, c.userID).Scan(&desc); err != nil || desc != c.description {
			t.Errorf("acknowledged comment on %d by %d: got %q (%v)", c.profileID, c.userID, desc, err)
		}
	}
	for id, b := range l.blogs {
		var title string
		if err := db.QueryRow(`SELECT title FROM blogs WHERE id = ?`, id).Scan(&title); err != nil {
			t.Errorf("acknowledged blog %d: %v", id, err)
			continue
		}
		if title != b.acked && !slices.Contains(b.unknown, title) {
			t.Errorf("blog %d: title %q, want the last acknowledged %q or one sent after it %q", id, title, b.acked, b.unknown)
		}
	}
	for _, u := range l.uploads {
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM uploads WHERE user_id = ? AND address = ?`, u.userID, u.address).Scan(&n); err != nil || n != 1 {
			t.Errorf("acknowledged upload %s: %d rows (%v)", u.address, n, err)
		}
	}

	// Every image the database refers to is a whole file: the pipeline writes a temporary file
	// and renames it, so a kill can leave an unreferenced temporary, never a torn image.
	rows, err := db.Query(`SELECT address FROM uploads UNION SELECT thumb FROM uploads WHERE thumb != ''
		UNION SELECT profile_image FROM profiles WHERE profile_image != ''`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var addr string
		rows.Scan(&addr)
		rel, ok := strings.CutPrefix(addr, "/uploads/")
		if !ok {
			t.Errorf("stored image address %q", addr)
			continue
		}
		f, err := os.Open(filepath.Join(data, "uploads", filepath.FromSlash(rel)))
		if err != nil {
			t.Errorf("referenced image %s: %v", addr, err)
			continue
		}
		_, _, err = image.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("referenced image %s does not decode whole: %v", addr, err)
		}
		n++
	}
	if len(l.uploads) > 0 && n == 0 {
		t.Error("no stored image was checked")
	}
}
