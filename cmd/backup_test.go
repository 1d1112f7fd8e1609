package cmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"kardan/cmd"
	"kardan/store"
)

func newRoot() *cobra.Command { return cmd.NewRootCmd(nil) }

// searchBodies are searchUser requests covering text, filters, radius and orders.
var searchBodies = []string{
	`{}`,
	`{"search_txt":"لوله کش"}`,
	`{"search_txt":"تعمیر","city_slag":"tehran"}`,
	`{"city_slag":"tehran","order":"best","take":50}`,
	`{"lat":35.6892,"long":51.389,"radius":20000,"order":"nearest"}`,
	`{"min_score":3,"order":"reviews"}`,
	`{"search_txt":"electrician"}`,
	`{"order":"newest","skip":20}`,
}

// searchAnswers posts every search body and answers the raw payloads.
func searchAnswers(t *testing.T, url string) []string {
	t.Helper()
	var out []string
	for _, body := range searchBodies {
		res, err := http.Post(url+"/v1/user-technical/searchUser", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("search %s: %d %s", body, res.StatusCode, raw)
		}
		var env struct {
			Payload json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal(raw, &env); err != nil {
			t.Fatal(err)
		}
		out = append(out, string(env.Payload))
	}
	return out
}

func inspect(t *testing.T, dir string) *store.SnapshotInfo {
	t.Helper()
	info, err := store.InspectFile(context.Background(), filepath.Join(dir, "kardan.db"))
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// waitStatsSettled waits until the statistics rows in dir's database are there and have not
// changed for two flush intervals.
func waitStatsSettled(t *testing.T, dir string) {
	t.Helper()
	last, since := int64(-1), time.Now()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		n := inspect(t, dir).Counts["profile_stats"]
		if n != last {
			last, since = n, time.Now()
			continue
		}
		if n > 0 && time.Since(since) > 2500*time.Millisecond {
			return
		}
	}
	t.Fatalf("the statistics rows did not settle (last count %d)", last)
}

// TestBackupRestoreRoundTrip backs up a data directory with demo data while the server runs,
// restores it elsewhere and checks that the restored server answers every search the same way
// and that every table has the same rows.
func TestBackupRestoreRoundTrip(t *testing.T) {
	src := t.TempDir()
	if _, err := run(t, "seed", "--data", src, "--demo", "300", "--log-level", "warn"); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(src, "uploads", "ab"), 0o750)
	os.WriteFile(filepath.Join(src, "uploads", "ab", "ab12.jpg"), []byte("image bytes"), 0o644)

	app, cancel, done := startApp(t, src, nil)
	before := searchAnswers(t, app.URL())
	if !strings.Contains(before[0], `"count":300`) || !strings.Contains(before[3], `"profiles":[{`) {
		t.Fatalf("the source answers no profiles: %.300s", before[0])
	}
	// The searches were counted as appearances, which the server writes a second later
	// (stats.Counter): wait until those rows have landed and stay put, so the backup holds the
	// same rows the source will hold once the server stops.
	waitStatsSettled(t, src)
	archive := filepath.Join(t.TempDir(), "kardan.tar.gz")
	out, err := run(t, "backup", "--data", src, "--out", archive, "--log-level", "warn")
	if err != nil {
		t.Fatalf("backup while serving: %v\n%s", err, out)
	}
	if !strings.Contains(out, "backup written to "+archive) || !strings.Contains(out, "profiles 300") {
		t.Errorf("backup output: %s", out)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	app.Close()

	dst := filepath.Join(t.TempDir(), "restored")
	out, err = run(t, "restore", archive, "--data", dst, "--log-level", "warn")
	if err != nil {
		t.Fatalf("restore: %v\n%s", err, out)
	}
	// Every upload (the demo's trade pictures and their thumbnails, and the file above) and the
	// database: counted, not assumed, since the demo's pictures follow the categories it draws.
	files := 1
	filepath.WalkDir(filepath.Join(src, "uploads"), func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files++
		}
		return nil
	})
	if !strings.Contains(out, "profiles 300") || !strings.Contains(out, fmt.Sprintf(", %d files", files)) {
		t.Errorf("restore output (want %d files): %s", files, out)
	}
	if a, b := inspect(t, src), inspect(t, dst); !reflect.DeepEqual(a.Counts, b.Counts) {
		t.Errorf("row counts differ:\n source   %v\n restored %v", a.Counts, b.Counts)
	}
	if got, _ := os.ReadFile(filepath.Join(dst, "uploads", "ab", "ab12.jpg")); string(got) != "image bytes" {
		t.Error("the upload was not restored")
	}

	app2, cancel2, done2 := startApp(t, dst, nil)
	after := searchAnswers(t, app2.URL())
	cancel2()
	<-done2
	app2.Close()
	for i := range before {
		if b, a := before[i], after[i]; b != a {
			t.Errorf("search %s answers differently after the restore:\n before %.300s\n after  %.300s", searchBodies[i], b, a)
		}
	}

	// A second restore onto the now-filled directory needs --force.
	if _, err := run(t, "restore", archive, "--data", dst); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("restore onto data without --force: got %v", err)
	}
}

func TestBackupDefaultsIntoDataDir(t *testing.T) {
	dir := t.TempDir()
	if _, err := run(t, "backup", "--data", dir); err == nil || !strings.Contains(err.Error(), "no database") {
		t.Fatalf("backup of an empty directory: got %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "kardan.db")); err == nil {
		t.Fatal("backup created a database")
	}
	if _, err := run(t, "seed", "--data", dir); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, "backup", "--data", dir); err != nil {
		t.Fatal(err)
	}
	es, _ := os.ReadDir(filepath.Join(dir, "backups"))
	if len(es) != 1 || !strings.HasPrefix(es[0].Name(), "kardan-") || !strings.HasSuffix(es[0].Name(), "Z.tar.gz") {
		t.Fatalf("backups/: got %v", es)
	}

	// --out - streams the archive to standard output.
	root := newRoot()
	var stdout, stderr bytes.Buffer
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	root.SetArgs([]string{"backup", "--data", dir, "--out", "-"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if b := stdout.Bytes(); len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatal("standard output does not hold a gzip archive")
	}
	if !strings.Contains(stderr.String(), "standard output") {
		t.Errorf("summary: %s", stderr.String())
	}
	dst := filepath.Join(t.TempDir(), "d")
	root = newRoot()
	root.SetIn(&stdout)
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	root.SetArgs([]string{"restore", "-", "--data", dst})
	if err := root.Execute(); err != nil {
		t.Fatalf("restore from standard input: %v", err)
	}
}

func TestServeBackupFlags(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--backup-every", "5s"},
		{"--backup-every", "-1h"},
		{"--backup-every", "24h", "--backup-keep", "0"},
	} {
		_, err := run(t, append([]string{"serve", "--data", dir, "--addr", "127.0.0.1:0"}, args...)...)
		if err == nil || !strings.Contains(err.Error(), "--backup-") {
			t.Errorf("serve %v: got %v, want a flag error", args, err)
		}
	}
}

func TestExport(t *testing.T) {
	dir := t.TempDir()
	if _, err := run(t, "seed", "--data", dir, "--demo", "20", "--log-level", "warn"); err != nil {
		t.Fatal(err)
	}
	type export struct {
		Format   int               `json:"format"`
		Owner    string            `json:"owner"`
		Users    []json.RawMessage `json:"users"`
		Profiles []struct {
			ID          int64     `json:"id"`
			UserID      int64     `json:"user_id"`
			ProfileName string    `json:"profile_name"`
			Location    []float64 `json:"location"`
		} `json:"profiles"`
		Blogs    []json.RawMessage `json:"blogs"`
		Comments []struct {
			UserID int64 `json:"user_id"`
		} `json:"comments"`
	}
	read := func(args ...string) export {
		t.Helper()
		out := filepath.Join(t.TempDir(), "export.json")
		if _, err := run(t, append([]string{"export", "--data", dir, "--out", out}, args...)...); err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(out)
		var e export
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatalf("the export is not JSON: %v\n%.500s", err, raw)
		}
		if strings.Contains(string(raw), "argon2") || strings.Contains(string(raw), "password") {
			t.Fatal("the export holds password hashes")
		}
		return e
	}
	all := read("--format", "json")
	if all.Format != 1 || len(all.Profiles) != 20 || len(all.Users) < 20 || all.Blogs == nil {
		t.Fatalf("export of everything: %d profiles, %d users, blogs %v", len(all.Profiles), len(all.Users), all.Blogs)
	}
	if p := all.Profiles[0]; p.ProfileName == "" || len(p.Location) != 2 {
		t.Errorf("profile: got %+v", p)
	}

	one := read("--owner", "۰۹۹۰۰۰۰۰۰۰۱") // Persian digits are normalised like everywhere else
	if one.Owner != "09900000001" || len(one.Users) != 1 || len(one.Profiles) != 1 || one.Profiles[0].UserID != all.Profiles[0].UserID {
		t.Fatalf("owner export: owner %q, %d users, %d profiles", one.Owner, len(one.Users), len(one.Profiles))
	}
	for _, c := range one.Comments {
		if c.UserID != one.Profiles[0].UserID {
			t.Errorf("owner export holds another user's comment: %+v", c)
		}
	}

	if _, err := run(t, "export", "--data", dir, "--owner", "09121234567"); err == nil || !strings.Contains(err.Error(), "no account") {
		t.Errorf("unknown owner: got %v", err)
	}
	if _, err := run(t, "export", "--data", dir, "--format", "csv"); err == nil {
		t.Error("--format csv was accepted")
	}
}
