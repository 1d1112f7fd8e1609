package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"kardan/auth"
)

// runMixed is `bench mixed`: the operations load test. A fresh Kardan with demo data takes a
// fixed number of concurrent clients for a fixed time on a mix of reads (searches, profiles,
// comments) and writes (comments, blog drafts and their edits). It passes only with no 5xx and
// with every write that was answered 2xx found in the database afterwards.
func runMixed(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("mixed", flag.ContinueOnError)
	kardan := fs.String("kardan", "./kardan", "the kardan binary")
	clients := fs.Int("clients", 200, "concurrent clients")
	duration := fs.Duration("duration", 60*time.Second, "how long the load is held")
	profiles := fs.Int("profiles", 2000, "demo profiles to seed")
	writers := fs.Int("writers", 2000, "accounts that write (each meets the per-account caps of README's Limits)")
	out := fs.String("out", "bench/results", "where the JSON result is written")
	rate := fs.Int("rate", 0, "requests a second offered in all, in the same mix (0: every client asks again as soon as answered)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "kardan-mixed-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	data := filepath.Join(dir, "data")
	logPath := filepath.Join(dir, "kardan.log")
	slog.Info("mixed: seeding", "profiles", *profiles)
	if _, err := run(ctx, logPath, nil, *kardan, "seed", "--data", data, "--demo", strconv.Itoa(*profiles), "--log-level", "warn"); err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	// The writers' accounts and sessions go straight into the database: the per-account caps
	// (20 articles and 30 comments an hour, 50 drafts) are what a real writer meets, so a
	// thousand writes a second for a minute needs a couple of thousand writers, and logging each
	// in through the API would spend the run's first minutes hashing passwords.
	tokens, err := seedWriters(ctx, data, *writers)
	if err != nil {
		return fmt.Errorf("create writers: %w", err)
	}
	probers, err := seedProbers(ctx, data, 8)
	if err != nil {
		return fmt.Errorf("create read-your-writes probers: %w", err)
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	ps := newProcs()
	defer ps.stopAll()
	server, err := ps.start(procSpec{Name: "kardan", Log: logPath, Argv: []string{*kardan, "serve", "--data", data,
		"--addr", "127.0.0.1:" + strconv.Itoa(port), "--moderation", "off", "--search-rate", "0", "--log-level", "warn"}})
	if err != nil {
		return err
	}
	if err := waitHTTP(ctx, base+"/healthz", server, 5*time.Minute); err != nil {
		return err
	}

	client, err := newRawClient(base, *clients)
	if err != nil {
		return err
	}
	// Gzip, as every browser asks: the server compresses as it would for a visitor.
	client.headers = "Accept-Encoding: gzip\r\n"
	var search struct {
		Profiles []struct {
			ID   int64  `json:"id"`
			Slug string `json:"slug"`
		} `json:"profiles"`
	}
	if _, err := postJSON(ctx, client, "/v1/user-technical/searchUser", "", map[string]any{"take": 100, "order": "newest"}, &search); err != nil {
		return err
	}
	if len(search.Profiles) == 0 {
		return fmt.Errorf("mixed: the demo data answers no profiles")
	}

	// Each (writer, profile) pair may comment once: hand the pairs out from one shuffled queue.
	type pair struct{ writer, profile int }
	var pairs []pair
	for w := range tokens {
		for p := range search.Profiles {
			pairs = append(pairs, pair{w, p})
		}
	}
	rand.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	var nextPair atomic.Int64

	type kind struct {
		name string
		hist histogram
		n    int64
		ok   int64
		s5xx int64
		s4xx int64
	}
	kinds := map[string]*kind{}
	for _, k := range []string{"search", "profile", "comments", "comment-add", "blog-add", "blog-edit"} {
		kinds[k] = &kind{name: k}
	}
	var mu sync.Mutex
	var comments, blogs []int64
	blogEdits := map[int64]string{}    // the title the last acknowledged edit of each blog set
	blogAttempts := map[int64]string{} // the title of the last edit sent, answered or not
	record := func(k string, d time.Duration, status int) {
		if status < 0 {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		kd := kinds[k]
		kd.hist.record(d)
		kd.n++
		switch {
		case status >= 500 || status == 0:
			kd.s5xx++
		case status >= 400:
			kd.s4xx++
		default:
			kd.ok++
		}
	}

	texts := []string{"لوله کش", "دندانپزشک", "تعمیر", "آرایشگاه", "مکانیک", "وکیل", "نقاش ساختمان", "کلاس زبان"}
	cities := []string{"tehran", "shiraz", "tabriz", "mashhad", "isfahan", "iran"}
	loadCtx, cancel := context.WithTimeout(ctx, *duration)
	defer cancel()
	slog.Info("mixed: load", "clients", *clients, "duration", *duration)
	cpuBefore := cpuSeconds(server.pid())
	loadBefore := loadAverage()
	var slots chan time.Time
	var unsent atomic.Int64
	if *rate > 0 {
		slots = make(chan time.Time, *clients)
		go offerSlots(loadCtx, slots, *rate, &unsent)
	}
	var wg sync.WaitGroup
	for c := 0; c < *clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 7))
			// Client c writes articles as writers c, c+clients, c+2*clients, … in turn, and
			// edits each article as its writer.
			type blog struct {
				id    int64
				token string
			}
			var myBlogs []blog
			var mine []string
			for w := c % len(tokens); w < len(tokens); w += *clients {
				mine = append(mine, tokens[w])
			}
			if len(mine) == 0 {
				mine = []string{tokens[c%len(tokens)]}
			}
			nextWriter := 0
			for loadCtx.Err() == nil {
				start := time.Now()
				if slots != nil {
					// Open loop: the request was due at its slot, so the wait for a free client
					// counts in its latency (no coordinated omission).
					select {
					case start = <-slots:
					case <-loadCtx.Done():
						return
					}
				}
				x := rng.IntN(100)
				if x >= 75 && x < 88 && nextPair.Load() >= int64(len(pairs)) {
					x = 90 // every pair has commented: write a blog draft instead
				}
				switch {
				case x < 45:
					body := map[string]any{"search_txt": texts[rng.IntN(len(texts))], "city_slag": cities[rng.IntN(len(cities))]}
					status, _ := postJSON(loadCtx, client, "/v1/user-technical/searchUser", "", body, nil)
					record("search", time.Since(start), status)
				case x < 60:
					p := search.Profiles[rng.IntN(len(search.Profiles))]
					status, _ := postJSON(loadCtx, client, "/v1/user-technical/searchUserSlag", "", map[string]any{"slug": p.Slug}, nil)
					record("profile", time.Since(start), status)
				case x < 75:
					p := search.Profiles[rng.IntN(len(search.Profiles))]
					status, _ := postJSON(loadCtx, client, "/v1/comment/get", "", map[string]any{"user_technical_id": p.ID, "take": 20}, nil)
					record("comments", time.Since(start), status)
				case x < 88:
					i := nextPair.Add(1) - 1
					if int(i) >= len(pairs) {
						break
					}
					pr := pairs[i]
					var got struct {
						ID int64 `json:"id"`
					}
					body := map[string]any{"user_technical_id": search.Profiles[pr.profile].ID, "score": 1 + rng.IntN(5),
						"description": "نظر آزمون بار شماره " + strconv.Itoa(int(i))}
					status, _ := postJSON(loadCtx, client, "/v1/comment/add", tokens[pr.writer], body, &got)
					record("comment-add", time.Since(start), status)
					if status == http.StatusOK && got.ID > 0 {
						mu.Lock()
						comments = append(comments, got.ID)
						mu.Unlock()
					}
				case x < 95 || len(myBlogs) == 0:
					var got struct {
						ID int64 `json:"id"`
					}
					token := mine[nextWriter%len(mine)]
					nextWriter++
					body := map[string]any{"title": "پیش‌نویس آزمون " + strconv.Itoa(c), "content": "<p>متن</p>", "isDraft": true}
					status, _ := postJSON(loadCtx, client, "/v1/blog/add", token, body, &got)
					record("blog-add", time.Since(start), status)
					if status == http.StatusOK && got.ID > 0 {
						myBlogs = append(myBlogs, blog{got.ID, token})
						mu.Lock()
						blogs = append(blogs, got.ID)
						mu.Unlock()
					}
				default:
					b := myBlogs[rng.IntN(len(myBlogs))]
					id := b.id
					title := fmt.Sprintf("ویرایش %d-%d", c, rng.IntN(1_000_000))
					mu.Lock()
					blogAttempts[id] = title
					mu.Unlock()
					body := map[string]any{"id": id, "title": title, "content": "<p>متن تازه</p>", "isDraft": true}
					status, _ := postJSONMethod(loadCtx, client, http.MethodPut, "/v1/blog/edit", b.token, body, nil)
					record("blog-edit", time.Since(start), status)
					if status == http.StatusOK {
						mu.Lock()
						blogEdits[id] = title
						mu.Unlock()
					}
				}
			}
		}(c)
	}
	fresh := make(chan probeResult, 1)
	go func() { fresh <- probeFreshness(loadCtx, client, base, probers) }()
	wg.Wait()
	probe := <-fresh
	cpu := cpuSeconds(server.pid()) - cpuBefore
	loadAfter := loadAverage()
	mem, _ := memoryOf(server.pid())
	server.stop(15 * time.Second)

	// Every acknowledged write must be in the database.
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(data, "kardan.db")+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	lost := 0
	for _, id := range comments {
		var n int
		db.QueryRow(`SELECT COUNT(*) FROM comments WHERE id = ?`, id).Scan(&n)
		if n != 1 {
			lost++
		}
	}
	for _, id := range blogs {
		var n int
		db.QueryRow(`SELECT COUNT(*) FROM blogs WHERE id = ?`, id).Scan(&n)
		if n != 1 {
			lost++
		}
	}
	staleEdits := 0
	for id, title := range blogEdits {
		var got string
		db.QueryRow(`SELECT title FROM blogs WHERE id = ?`, id).Scan(&got)
		// One client edits each blog, one edit at a time: the stored title is the last
		// acknowledged one, or a later edit the load's end cut off before its answer.
		if got != title && got != blogAttempts[id] {
			staleEdits++
		}
	}

	type row struct {
		Kind     string  `json:"kind"`
		Requests int64   `json:"requests"`
		PerSec   float64 `json:"per_second"`
		P50      float64 `json:"p50_ms"`
		P95      float64 `json:"p95_ms"`
		P99      float64 `json:"p99_ms"`
		S4xx     int64   `json:"status_4xx"`
		S5xx     int64   `json:"status_5xx"`
	}
	var rows []row
	var all histogram
	var total, total5xx int64
	offered := "each client asking again as soon as answered (closed loop)"
	if *rate > 0 {
		offered = fmt.Sprintf("%d requests a second offered (open loop; %d never found a free client)", *rate, unsent.Load())
	}
	fmt.Printf("\nmixed load: %d clients for %s on %d demo profiles, %s\n\n", *clients, *duration, *profiles, offered)
	fmt.Println("| kind | requests | req/s | p50 ms | p95 ms | p99 ms | 4xx | 5xx |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, k := range []string{"search", "profile", "comments", "comment-add", "blog-add", "blog-edit"} {
		kd := kinds[k]
		if kd.n == 0 {
			continue
		}
		r := row{Kind: k, Requests: kd.n, PerSec: float64(kd.n) / duration.Seconds(), P50: kd.hist.quantile(0.5),
			P95: kd.hist.quantile(0.95), P99: kd.hist.quantile(0.99), S4xx: kd.s4xx, S5xx: kd.s5xx}
		rows = append(rows, r)
		all.merge(&kd.hist)
		total += kd.n
		total5xx += kd.s5xx
		fmt.Printf("| %s | %d | %.0f | %.1f | %.1f | %.1f | %d | %d |\n", r.Kind, r.Requests, r.PerSec, r.P50, r.P95, r.P99, r.S4xx, r.S5xx)
	}
	var writes histogram
	var acked int64
	for _, k := range []string{"comment-add", "blog-add", "blog-edit"} {
		writes.merge(&kinds[k].hist)
		acked += kinds[k].ok
	}
	writesPerSec := float64(acked) / duration.Seconds()
	fmt.Printf("\nwrites: %d acknowledged, %.0f/s, p50 %.1f ms, p99 %.1f ms; server CPU %.2f ms a request (%.1f s over %d); load average (1, 5, 15 min) %s at the start, %s at the end\n",
		acked, writesPerSec, writes.quantile(0.5), writes.quantile(0.99), 1000*cpu/float64(max(total, 1)), cpu, total, loadBefore, loadAfter)
	fmt.Printf("\nread-your-writes: %d articles published during the load, each searched for from its acknowledgement until found: %d found by the first search, slowest %.0f ms (the search's own time under the load), %d not found within %s\n",
		probe.published, probe.firstTry, probe.slowest.Seconds()*1000, probe.missed, probeGiveUp)
	fmt.Printf("\nall: %d requests, p99 %.1f ms, 5xx %d; writes acknowledged %d (comments %d, blogs %d, last edits %d), lost %d, stale edits %d; server memory %.0f MiB (peak %.0f MiB)\n",
		total, all.quantile(0.99), total5xx, len(comments)+len(blogs)+len(blogEdits), len(comments), len(blogs), len(blogEdits),
		lost, staleEdits, mem.RSSMiB, mem.PeakMiB)
	if err := os.MkdirAll(*out, 0o755); err == nil {
		raw, _ := json.MarshalIndent(map[string]any{"clients": *clients, "rate": *rate, "unsent": unsent.Load(), "duration_s": duration.Seconds(), "profiles": *profiles,
			"kinds": rows, "p99_ms": all.quantile(0.99),
			"writes_per_second": writesPerSec, "read_your_writes_max_ms": probe.slowest.Seconds() * 1000,
			"read_your_writes_probes": probe.published, "read_your_writes_missed": probe.missed, "read_your_writes_first_try": probe.firstTry, "write_p50_ms": writes.quantile(0.5), "write_p99_ms": writes.quantile(0.99),
			"server_cpu_ms_per_request": 1000 * cpu / float64(max(total, 1)), "load_average": []string{loadBefore, loadAfter}, "status_5xx": total5xx, "writes_acknowledged": len(comments) + len(blogs) + len(blogEdits),
			"writes_lost": lost, "stale_edits": staleEdits, "date": time.Now().UTC().Format(time.RFC3339)}, "", "  ")
		// An open-loop run files apart: the goals' table reads the newest closed-loop mixed-*.json.
		name := "mixed-"
		if *rate > 0 {
			name = "openloop-"
		}
		os.WriteFile(filepath.Join(*out, name+time.Now().UTC().Format("20060102-150405")+".json"), raw, 0o644)
	}
	if probe.missed > 0 || probe.published == 0 {
		return fmt.Errorf("mixed load failed: %d of %d published articles not found in search within %s", probe.missed, probe.published, probeGiveUp)
	}
	if total5xx > 0 || lost > 0 || staleEdits > 0 {
		return fmt.Errorf("mixed load failed: %d 5xx, %d lost writes, %d stale edits", total5xx, lost, staleEdits)
	}
	return nil
}

// postJSON posts body as JSON (with a bearer token when one is given), decodes the envelope's
// payload into out when out is not nil, and answers the status (0 when no answer came, -1 when
// the load's end cut the request off). An answer it does not decode is not decompressed when
// the client's headers asked for gzip: only the visitor's phone would do that.
func postJSON(ctx context.Context, c *rawClient, path, token string, body, out any) (int, error) {
	return postJSONMethod(ctx, c, http.MethodPost, path, token, body, out)
}

func postJSONMethod(ctx context.Context, c *rawClient, method, path, token string, body, out any) (int, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return 0, err
	}
	headers := c.headers
	if token != "" {
		headers += "Authorization: Bearer " + token + "\r\n"
	}
	res, err := c.do(ctx, method, path, headers, raw, out != nil)
	if err != nil {
		if ctx.Err() != nil {
			return -1, nil // the load ended mid-request: no answer to count
		}
		return 0, err
	}
	if res.status != http.StatusOK {
		if out != nil {
			return res.status, fmt.Errorf("%s %s: %d %s", method, path, res.status, res.body)
		}
		return res.status, nil
	}
	if out != nil {
		var env struct {
			Payload json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal(res.body, &env); err != nil {
			return res.status, err
		}
		if err := json.Unmarshal(env.Payload, out); err != nil {
			return res.status, err
		}
	}
	return res.status, nil
}

// seedWriters creates n writer accounts in the data directory's database (no server may hold
// it) with a session each, and answers the sessions' bearer tokens. Plain SQL over the two
// tables rather than the store package, so the load test can measure an older binary whose
// schema is older than this program's.
func seedWriters(ctx context.Context, data string, n int) ([]string, error) {
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(data, "kardan.db")+"?_busy_timeout=5000")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	now := time.Now().Unix()
	tokens := make([]string, n)
	for i := range tokens {
		var id int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO users (number_phone, name, password_hash, profile_image, role, create_at, update_at)
			VALUES (?, ?, 'x', '', 'user', ?, ?) RETURNING id`, fmt.Sprintf("0938%07d", i+1), "نویسنده "+strconv.Itoa(i+1), now, now).Scan(&id); err != nil {
			return nil, err
		}
		token, hash, err := auth.NewToken()
		if err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (user_id, token_hash, create_at, expire_at, client_ip, user_agent)
			VALUES (?, ?, ?, ?, '127.0.0.1', 'kardan-bench')`, id, hash, now, now+24*3600); err != nil {
			return nil, err
		}
		tokens[i] = token
	}
	return tokens, tx.Commit()
}

// cpuSeconds answers the CPU time (user and system) process pid has used so far.
func cpuSeconds(pid int) float64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name, in parentheses, may hold spaces: the fields follow its last ')'.
	i := bytes.LastIndexByte(raw, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(raw[i+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / 100 // USER_HZ is 100 on Linux
}

// offerSlots sends the due time of one request every 1/rate seconds until ctx ends. A slot that
// finds every client busy and the queue full is counted in unsent rather than held back, so the
// schedule never slows down to what the server manages.
func offerSlots(ctx context.Context, slots chan<- time.Time, rate int, unsent *atomic.Int64) {
	interval := time.Second / time.Duration(rate)
	next := time.Now()
	for ctx.Err() == nil {
		for !next.After(time.Now()) {
			select {
			case slots <- next:
			default:
				unsent.Add(1)
			}
			next = next.Add(interval)
		}
		time.Sleep(time.Until(next))
	}
}

// prober is a demo profile's owner with a session, who may publish articles in one category of
// their field.
type prober struct {
	token    string
	category int64
}

// seedProbers gives n owners of accepted demo profiles a session each.
func seedProbers(ctx context.Context, data string, n int) ([]prober, error) {
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(data, "kardan.db")+"?_busy_timeout=5000")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT p.user_id, MIN(c.id) FROM profiles p JOIN work_categories c ON c.parent_id = p.range_worker_id
		WHERE p.account_status = 'Accepted' AND p.delete_at IS NULL GROUP BY p.user_id ORDER BY p.user_id LIMIT ?`, n)
	if err != nil {
		return nil, err
	}
	type owner struct{ id, category int64 }
	var owners []owner
	for rows.Next() {
		var o owner
		if err := rows.Scan(&o.id, &o.category); err != nil {
			rows.Close()
			return nil, err
		}
		owners = append(owners, o)
	}
	rows.Close()
	if len(owners) == 0 {
		return nil, fmt.Errorf("no accepted demo profile")
	}
	now := time.Now().Unix()
	var out []prober
	for _, o := range owners {
		token, hash, err := auth.NewToken()
		if err != nil {
			return nil, err
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO sessions (user_id, token_hash, create_at, expire_at, client_ip, user_agent)
			VALUES (?, ?, ?, ?, '127.0.0.1', 'kardan-bench')`, o.id, hash, now, now+24*3600); err != nil {
			return nil, err
		}
		out = append(out, prober{token: token, category: o.category})
	}
	return out, nil
}

// probeResult is what the read-your-writes probe saw.
type probeResult struct {
	published, missed int
	firstTry          int // found by the first search after the acknowledgement
	slowest           time.Duration
}

// probeGiveUp is how long the probe searches for an article before counting it not found.
const probeGiveUp = 5 * time.Second

// probeFreshness publishes an article every probeEvery during the load, each with a word of its
// own, and searches for that word from the moment the publication is acknowledged until an
// answer holds it: the API waits for the index before acknowledging, so the first search should
// find it. It answers the slowest delay from acknowledgement to found.
func probeFreshness(ctx context.Context, client *rawClient, base string, probers []prober) probeResult {
	const probeEvery = time.Second
	var res probeResult
	t := time.NewTicker(probeEvery)
	defer t.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return res
		case <-t.C:
		}
		p := probers[i%len(probers)]
		// A word of its own, three letters away from every other probe's (typo tolerance).
		a, b := string(rune('a'+i/26%26)), string(rune('a'+i%26))
		word := "zfresh" + a + a + a + b + b + b
		body := map[string]any{"title": "آزمون تازگی " + word, "content": "<p>متن آزمون تازگی " + word + "</p>",
			"isDraft": false, "category_list": []int64{p.category}}
		var got struct {
			ID int64 `json:"id"`
		}
		status, err := postJSON(ctx, client, "/v1/blog/add", p.token, body, &got)
		if status < 0 || ctx.Err() != nil {
			return res
		}
		if status != http.StatusOK || got.ID == 0 {
			slog.Warn("read-your-writes probe: publish refused", "status", status, "err", err)
			continue
		}
		acked := time.Now()
		res.published++
		found := false
		for try := 0; time.Since(acked) < probeGiveUp; try++ {
			var hits struct {
				Blogs []struct {
					ID int64 `json:"id"`
				} `json:"blogs"`
			}
			// The search may outlive the load's end: it uses the parent context.
			if _, err := postJSON(context.WithoutCancel(ctx), client, "/v1/blog/search", "", map[string]any{"search_txt": word, "take": 5}, &hits); err == nil {
				for _, h := range hits.Blogs {
					found = found || h.ID == got.ID
				}
			}
			if found {
				if try == 0 {
					res.firstTry++
				}
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if !found {
			res.missed++
			continue
		}
		res.slowest = max(res.slowest, time.Since(acked))
	}
}
