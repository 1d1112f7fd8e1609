package cmd_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kardan/cmd"
	"kardan/store/storetest"
)

// run executes kardan with args and answers what it printed.
func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := cmd.NewRootCmd(nil)
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func TestHelpListsCommands(t *testing.T) {
	out, err := run(t, "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"serve", "seed", "version"} {
		if !strings.Contains(out, c) {
			t.Errorf("help lacks %s:\n%s", c, out)
		}
	}
}

func TestSeedIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	out, err := run(t, "seed", "--data", dir, "--log-level", "warn")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "31 provinces") {
		t.Fatalf("first seed: %s", out)
	}
	out, err = run(t, "seed", "--data", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "0 provinces, 0 counties, 0 cities, 0 categories") {
		t.Fatalf("second seed changed something: %s", out)
	}
}

func TestVersion(t *testing.T) {
	out, err := run(t, "version")
	if err != nil || !strings.Contains(out, "kardan") || !strings.Contains(out, "schema") {
		t.Fatalf("got %q %v", out, err)
	}
}

func TestBadFlags(t *testing.T) {
	if _, err := run(t, "--log-level", "loud", "version"); err == nil {
		t.Error("a bad log level was accepted")
	}
	dir := t.TempDir()
	if _, err := run(t, "serve", "--data", dir, "--moderation", "sometimes"); err == nil || !strings.Contains(err.Error(), "moderation") {
		t.Errorf("bad moderation: got %v", err)
	}
	if _, err := run(t, "serve", "--data", dir, "--timezone", "Mars/Olympus"); err == nil {
		t.Error("a bad time zone was accepted")
	}
}

func TestEnvFallback(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("KARDAN_DATA", dir)
	if _, err := run(t, "seed"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "kardan.db")); err != nil {
		t.Fatalf("KARDAN_DATA was not used: %v", err)
	}
}

// A KARDAN_* value that does not parse stops serve with a message naming it, instead of serving
// on the default. The time zone is bad too, so serve fails fast without the check rather than
// starting; the message then lacks the variable and the test fails.
func TestBadEnvStops(t *testing.T) {
	dir := t.TempDir()
	for name, value := range map[string]string{
		"KARDAN_SEARCH_RATE":      "fast",
		"KARDAN_SEARCH_BURST":     "1.5",
		"KARDAN_BACKUP_EVERY":     "daily",
		"KARDAN_SHUTDOWN_TIMEOUT": "10",
		"KARDAN_METRICS":          "maybe",
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, value)
			_, err := run(t, "serve", "--data", dir, "--timezone", "Mars/Olympus")
			if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), value) {
				t.Fatalf("%s=%s: got %v, want an error naming it", name, value, err)
			}
		})
	}
	t.Run("AllNamed", func(t *testing.T) {
		t.Setenv("KARDAN_SEARCH_RATE", "fast")
		t.Setenv("KARDAN_BACKUP_KEEP", "seven")
		_, err := run(t, "serve", "--data", dir, "--timezone", "Mars/Olympus")
		if err == nil || !strings.Contains(err.Error(), "KARDAN_SEARCH_RATE") || !strings.Contains(err.Error(), "KARDAN_BACKUP_KEEP") {
			t.Fatalf("got %v, want both variables named", err)
		}
	})
	t.Run("GoodValuesPass", func(t *testing.T) {
		t.Setenv("KARDAN_SEARCH_RATE", "2.5")
		t.Setenv("KARDAN_METRICS", "on")
		t.Setenv("KARDAN_BACKUP_EVERY", "24h")
		_, err := run(t, "serve", "--data", dir, "--timezone", "Mars/Olympus")
		if err == nil || strings.Contains(err.Error(), "KARDAN_") {
			t.Fatalf("got %v, want only the time zone refused", err)
		}
	})
	t.Run("DoctorToo", func(t *testing.T) { // doctor reads serve's flags and variables
		t.Setenv("KARDAN_BACKUP_EVERY", "daily")
		if _, err := run(t, "doctor", "--data", dir); err == nil || !strings.Contains(err.Error(), "KARDAN_BACKUP_EVERY") {
			t.Fatalf("got %v, want an error naming KARDAN_BACKUP_EVERY", err)
		}
	})
	t.Run("OtherCommandsUnaffected", func(t *testing.T) {
		t.Setenv("KARDAN_SEARCH_RATE", "fast")
		if out, err := run(t, "version"); err != nil {
			t.Fatalf("version refused a serve-only variable: %v %s", err, out)
		}
	})
}

// postgresDB starts a PostgreSQL server for the test and answers the URL of a new database on
// it; without PostgreSQL the test is skipped (why says what did not run), or fails under CI.
func postgresDB(t *testing.T, why string) string {
	t.Helper()
	if _, err := storetest.FindPostgres(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skipf("NO POSTGRESQL: %s: %v", why, err)
	}
	c, err := storetest.StartCluster()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Stop)
	name, err := c.CreateDB("")
	if err != nil {
		t.Fatal(err)
	}
	return c.URL(name)
}

// startApp opens and starts a real app on a free loopback port.
func startApp(t *testing.T, dir string, wrap func(http.Handler) http.Handler) (*cmd.App, context.CancelFunc, chan error) {
	t.Helper()
	g := &cmd.Globals{DataDir: dir, Out: io.Discard, Err: io.Discard}
	app, err := cmd.Open(context.Background(), g, cmd.ServeConfig{Addr: "127.0.0.1:0", Moderation: "pre", Timezone: "Asia/Tehran"})
	if err != nil {
		t.Fatal(err)
	}
	if err := app.Listen(); err != nil {
		t.Fatal(err)
	}
	if wrap != nil {
		app.Handler = wrap(app.Handler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- app.Run(ctx) }()
	return app, cancel, done
}

func TestGracefulShutdown(t *testing.T) {
	dir := t.TempDir()
	if _, err := run(t, "seed", "--data", dir); err != nil {
		t.Fatal(err)
	}
	// Slow requests down so that some are surely in flight when the stop comes.
	started := make(chan struct{}, 100)
	app, cancel, done := startApp(t, dir, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("slow") != "" {
				started <- struct{}{}
				time.Sleep(300 * time.Millisecond)
			}
			next.ServeHTTP(w, r)
		})
	})

	res, err := http.Get(app.URL() + "/v1/locations/province/list")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("before shutdown: %v %v", res, err)
	}
	res.Body.Close()

	// Requests being answered when the stop comes must finish.
	const inFlight = 5
	results := make(chan int, inFlight)
	for i := 0; i < inFlight; i++ {
		go func() {
			res, err := http.Get(app.URL() + "/v1/locations/province/list?slow=1")
			if err != nil {
				results <- 0
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			results <- res.StatusCode
		}()
	}
	for len(started) < inFlight {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	for i := 0; i < inFlight; i++ {
		if code := <-results; code != 200 {
			t.Fatalf("in-flight request %d: got %d, want 200", i, code)
		}
	}
	if _, err := http.Get(app.URL() + "/healthz"); err == nil {
		t.Error("a new request was accepted after the stop")
	}

	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop within 10 s")
	}
	if err := app.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	// A clean close leaves no write-ahead log needing recovery.
	if fi, err := os.Stat(filepath.Join(dir, "kardan.db-wal")); err == nil && fi.Size() > 0 {
		t.Fatalf("WAL left behind: %d bytes", fi.Size())
	}
	if _, err := net.DialTimeout("tcp", app.Addr(), time.Second); err == nil {
		t.Fatal("still listening after shutdown")
	}
}
