package cmd_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"kardan/admin"
	"kardan/stats"
	"kardan/store"
)

// TestStatisticsSurviveSIGKILL sends statistics beacons to the real binary from many visitors,
// kills it with SIGKILL, restarts it and checks that only the last second's counts were lost:
// every tap acknowledged more than FlushEvery (and a little slack for the flush itself) before
// the kill is in the database. Then a graceful stop loses nothing.
func TestStatisticsSurviveSIGKILL(t *testing.T) {
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
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(data, "kardan.db"))
	if err != nil {
		t.Fatal(err)
	}
	st.Quotas.ProfilesPerHour = 100
	owner := &store.User{NumberPhone: "09121110000", Name: "Owner", PasswordHash: "x"}
	if err := st.CreateUser(ctx, owner); err != nil {
		t.Fatal(err)
	}
	var pairs [][2]int64 // one profile per category and owner
	for _, f := range ref.Fields {
		for _, c := range f.Children {
			pairs = append(pairs, [2]int64{f.ID, c.ID})
		}
	}
	var ids []int64
	for i := range min(20, len(pairs)) {
		p, err := st.CreateProfile(ctx, owner.ID, &store.ProfileInput{ProfileName: fmt.Sprintf("Stats %d", i), ProvinceID: 1, CityID: 1,
			RangeWorker: pairs[i][0], CategoryList: []int64{pairs[i][1]}}, false)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	st.Close()

	// send fires beacons from distinct visitors until stop, and answers the moments each
	// counted tap was acknowledged.
	send := func(url string, stop <-chan struct{}, first int) []time.Time {
		var mu sync.Mutex
		var acks []time.Time
		var wg sync.WaitGroup
		client := &http.Client{Timeout: 5 * time.Second}
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := first + g; ; n += 4 {
					select {
					case <-stop:
						return
					default:
					}
					body := fmt.Sprintf(`{"profile_id":%d,"kind":"call"}`, ids[n%len(ids)])
					r, _ := http.NewRequest("POST", url+"/v1/stats/event", strings.NewReader(body))
					r.Header.Set("Content-Type", "application/json")
					r.Header.Set("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0")
					r.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255))
					res, err := client.Do(r)
					if err != nil {
						continue // the kill came first
					}
					b, _ := io.ReadAll(res.Body)
					res.Body.Close()
					if res.StatusCode == 200 && strings.Contains(string(b), `"counted":true`) {
						mu.Lock()
						acks = append(acks, time.Now())
						mu.Unlock()
					} else if res.StatusCode != 200 {
						t.Errorf("beacon: %d %s", res.StatusCode, b)
						return
					}
				}
			}()
		}
		time.Sleep(2500 * time.Millisecond)
		<-stop
		wg.Wait()
		sort.Slice(acks, func(i, j int) bool { return acks[i].Before(acks[j]) })
		return acks
	}
	stored := func() int64 {
		db, err := sql.Open("sqlite3", "file:"+filepath.Join(data, "kardan.db")+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var n int64
		if err := db.QueryRow(`SELECT COALESCE(SUM(count), 0) FROM profile_stats WHERE kind = 'call'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	// Kill in the middle of a stream of taps.
	s := startServer(t, bin, data, filepath.Join(dir, "sms.txt"), logPath)
	stop := make(chan struct{})
	var acks []time.Time
	done := make(chan struct{})
	go func() { acks = send(s.url, stop, 0); close(done) }()
	time.Sleep(3200 * time.Millisecond)
	killedAt := time.Now()
	s.kill(t)
	close(stop)
	<-done

	s = startServer(t, bin, data, filepath.Join(dir, "sms.txt"), logPath)
	got := stored()
	slack := 500 * time.Millisecond // a flush's own transaction, and a late tick, on a busy machine
	var old int64
	for _, a := range acks {
		if a.Before(killedAt.Add(-stats.FlushEvery - slack)) {
			old++
		}
	}
	lost := int64(len(acks)) - got
	lostSpan := time.Duration(0)
	if lost > 0 {
		lostSpan = killedAt.Sub(acks[len(acks)-int(lost)])
	}
	t.Logf("SIGKILL: %d taps acknowledged, %d stored, %d lost (the last %v before the kill)", len(acks), got, lost, lostSpan.Round(time.Millisecond))
	if len(acks) < 100 {
		t.Fatalf("only %d taps acknowledged", len(acks))
	}
	if got < old || got > int64(len(acks)) {
		t.Fatalf("stored %d taps; %d were acknowledged more than %v before the kill, %d in all", got, old, stats.FlushEvery+slack, len(acks))
	}

	// A graceful stop writes everything.
	stop = make(chan struct{})
	done = make(chan struct{})
	go func() { acks = send(s.url, stop, 1<<20); close(done) }()
	time.Sleep(1500 * time.Millisecond)
	close(stop)
	<-done
	if _, err := s.stop(t); err != nil {
		t.Fatal(err)
	}
	if after := stored(); after != got+int64(len(acks)) {
		t.Fatalf("after a graceful stop: %d stored, want %d + %d", after, got, len(acks))
	}
}
