package cmd_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"kardan/store"
	"kardan/store/storetest"
)

// TestClusterOnPostgres runs two replicas of the real binary on one PostgreSQL database, each
// with its own data directory and search index: a profile created on A is found by a search on B
// within 1 s; a comment on B moves the score A shows; SIGKILL of A in the middle of writes loses
// no acknowledged write and B keeps serving; the periodic jobs' leadership moves from A to B.
// (The shared bucket's part is TestReplicasShareTheBucket's.)
func TestClusterOnPostgres(t *testing.T) {
	if _, err := storetest.FindPostgres(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skipf("NO POSTGRESQL: the cluster test did not run: %v", err)
	}
	bin, err := buildKardan()
	if err != nil {
		t.Fatal(err)
	}
	pg, err := storetest.StartCluster()
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Stop()
	name, err := pg.CreateDB("")
	if err != nil {
		t.Fatal(err)
	}
	url := pg.URL(name)
	dir := t.TempDir()
	sms := filepath.Join(dir, "sms.txt")
	logA, logB := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	flags := []string{"--db", url, "--log-level", "info"}
	a := startServerWith(t, bin, filepath.Join(dir, "a"), sms, logA, flags...)
	aAlive := true
	defer func() {
		if aAlive {
			a.stop(t)
		}
	}()
	waitLog(t, logA, "leadership taken", 10*time.Second) // A came first: it leads
	b := startServerWith(t, bin, filepath.Join(dir, "b"), sms, logB, flags...)
	defer b.stop(t)
	ca := &client{base: a.url, http: &http.Client{Timeout: 10 * time.Second}}
	cb := &client{base: b.url, http: &http.Client{Timeout: 10 * time.Second}}

	w := &world{t: t, l: newLedger(), smsFile: sms, pairs: [][2]int64{{1, 101}}}
	rng := rand.New(rand.NewPCG(22, 1))
	w.signUp(ca, rng)
	w.signUp(cb, rng)
	if len(w.l.users) != 2 {
		t.Fatalf("sign-ups: %d of 2 (statuses %v)", len(w.l.users), w.l.statuses)
	}
	owner, critic := w.l.users[0], w.l.users[1]

	// Created (and accepted: --moderation off) on A, found by a search on B within 1 s.
	body := `{"profile_name":"لوله کشی خوشه آزمون","work_history_years":3,"descriotion":"کار تمیز","city_id":1,"province_id":1,
		"range_worker":1,"category_list":[101],"location":{"lat":35.7,"long":51.4},"area_working":["مرکز"],"address":"تهران",
		"services":[],"hours_of_work":{}}`
	code, payload := ca.call("POST", "/v1/user-technical/createProfile", owner.token, body, "")
	if code != 200 {
		t.Fatalf("create profile on A: %d %s", code, payload)
	}
	var p struct {
		ID int64 `json:"id"`
	}
	json.Unmarshal(payload, &p)
	w.l.profiles[p.ID] = crashProfile{userID: owner.id} // the writers below comment on it
	created := time.Now()
	find := func(c *client) (found bool, score float64) {
		code, payload := c.call("POST", "/v1/user-technical/searchUser", "", `{"search_txt":"خوشه آزمون","take":100}`, "")
		if code != 200 {
			t.Fatalf("search on %s: %d %s", c.base, code, payload)
		}
		var res struct {
			Profiles []struct {
				ID    int64   `json:"id"`
				Score float64 `json:"score"`
			} `json:"profiles"`
		}
		json.Unmarshal(payload, &res)
		for _, r := range res.Profiles {
			if r.ID == p.ID {
				return true, r.Score
			}
		}
		return false, 0
	}
	for {
		if ok, _ := find(cb); ok {
			break
		}
		if time.Since(created) > time.Second {
			t.Fatalf("profile %d created on A not found by a search on B within 1 s", p.ID)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("created on A, found on B after %v", time.Since(created).Round(time.Millisecond))

	// A comment on B moves the score A shows.
	code, payload = cb.call("POST", "/v1/comment/add", critic.token,
		fmt.Sprintf(`{"user_technical_id":%d,"description":"کار خیلی خوبی بود، ممنون","score":4,"category_list":[]}`, p.ID), "")
	if code != 200 {
		t.Fatalf("comment on B: %d %s", code, payload)
	}
	commented := time.Now()
	for {
		if _, score := find(ca); score == 4 {
			break
		}
		if time.Since(commented) > 2*time.Second {
			_, score := find(ca)
			t.Fatalf("A shows score %v 2 s after the comment on B, want 4", score)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("commented on B, A's score moved after %v", time.Since(commented).Round(time.Millisecond))

	// SIGKILL of A in the middle of writes: every acknowledged write is in the database, and B
	// keeps answering.
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), 7))
			for {
				select {
				case <-stop:
					return
				default:
				}
				if r.IntN(4) == 0 {
					w.signUp(ca, r)
				} else {
					w.comment(ca, r)
				}
			}
		}(i)
	}
	time.Sleep(1500 * time.Millisecond)
	a.kill(t)
	aAlive = false
	killed := time.Now()
	close(stop)
	wg.Wait()
	if ok, _ := find(cb); !ok {
		t.Fatal("B lost the profile after A died")
	}
	st, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, u := range w.l.users {
		if _, err := st.UserByPhone(context.Background(), u.phone); err != nil {
			t.Errorf("acknowledged sign-up %s lost: %v", u.phone, err)
		}
	}
	for _, c := range w.l.comments {
		var n int
		if err := st.DB().QueryRow(`SELECT COUNT(*) FROM comments WHERE description = ? AND user_id = ?`, c.description, c.userID).Scan(&n); err != nil || n != 1 {
			t.Errorf("acknowledged comment %q lost (%d, %v)", c.description, n, err)
		}
	}
	t.Logf("A killed after %d acknowledged sign-ups and %d comments (statuses %v)", len(w.l.users), len(w.l.comments), w.l.statuses)

	// The periodic jobs move to B.
	waitLog(t, logB, "leadership taken", 10*time.Second)
	t.Logf("B took the leadership %v after A's SIGKILL", time.Since(killed).Round(time.Millisecond))
	if code, _ := cb.call("POST", "/v1/user-technical/searchUser", "", `{}`, ""); code != 200 {
		t.Fatalf("B after A's death: %d", code)
	}

	// kardan export reads PostgreSQL as it reads SQLite; kardan backup refuses and says why.
	out, err := run(t, "export", "--data", filepath.Join(dir, "b"), "--db", url)
	if err != nil || !strings.Contains(out, "لوله کشی خوشه آزمون") || !strings.Contains(out, owner.phone) {
		t.Fatalf("export on PostgreSQL: %v\n%.500s", err, out)
	}
	if _, err := run(t, "backup", "--data", filepath.Join(dir, "b"), "--db", url); err == nil || !strings.Contains(err.Error(), "pg_dump") {
		t.Fatalf("backup on PostgreSQL: got %v, want a refusal pointing to pg_dump", err)
	}
}

// waitLog waits until the log at path contains s.
func waitLog(t *testing.T, path, s string, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); ; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(path); strings.Contains(string(b), s) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q not in %s within %v:\n%s", s, path, within, tail(path))
		}
	}
}
