package cmd_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The real binary writes its request lines in batches (logbuffer.go): each still reaches the log
// within a moment while it serves, a warning at once, and every one before a graceful stop ends.
func TestRequestLogReachesTheFileBatchedAndWhole(t *testing.T) {
	bin, err := buildKardan()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data, logPath := filepath.Join(dir, "data"), filepath.Join(dir, "kardan.log")
	smsFile := filepath.Join(dir, "sms.log")
	s := startServerWith(t, bin, data, smsFile, logPath, "--log-level", "info")

	get := func(path string) string {
		res, err := http.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.Header.Get("X-Request-Id")
	}
	logged := func(id string) bool {
		b, _ := os.ReadFile(logPath)
		return strings.Contains(string(b), "id="+id+" ")
	}

	// While it serves: a line arrives within the flush interval, not a request later.
	id := get("/healthz")
	deadline := time.Now().Add(5 * time.Second)
	for !logged(id) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !logged(id) {
		t.Fatalf("request %s not in the log 5 s later\n%s", id, tail(logPath))
	}

	// Many at once, then SIGTERM at once: every line is in the log, whole, once.
	var mu sync.Mutex
	var ids []string
	var wg sync.WaitGroup
	for c := 0; c < 8; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				id := get("/v1/work_category/getFavourite")
				mu.Lock()
				ids = append(ids, id)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if _, err := s.stop(t); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	for _, id := range ids {
		if n := strings.Count(log, "id="+id+" "); n != 1 {
			t.Fatalf("request %s logged %d times, want once\n%s", id, n, tail(logPath))
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		if strings.Contains(l, "msg=request") && !strings.HasPrefix(l, "time=") {
			t.Fatalf("a request line cut or mixed with another: %q", l)
		}
	}
}
