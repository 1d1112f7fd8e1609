package doctor_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kardan/admin"
	"kardan/doctor"
	"kardan/search"
	"kardan/store"
)

// liveDir makes a data directory as a running installation has it: reference data, demo
// profiles, an administrator, the index, a backup.
func liveDir(t *testing.T, profiles int) string {
	t.Helper()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(dir, "kardan.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.SeedReference(ctx, st); err != nil {
		t.Fatal(err)
	}
	if profiles > 0 {
		if _, err := admin.SeedDemo(ctx, st, admin.DemoOptions{Profiles: profiles, PasswordHash: "x", Seed: 1, Now: time.Now().Add(-time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.CreateUser(ctx, &store.User{NumberPhone: "09120000000", PasswordHash: "x", Role: store.RoleAdmin}); err != nil {
		t.Fatal(err)
	}
	if err := search.Rebuild(ctx, filepath.Join(dir, "index"), st); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if err := os.MkdirAll(filepath.Join(dir, "backups"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "backups", "kardan-20260101T000000Z.tar.gz"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	hourAgo := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "backups", "kardan-20260101T000000Z.tar.gz"), hourAgo, hourAgo)
	return dir
}

func liveConfig(dir string) doctor.Config {
	return doctor.Config{
		DataDir: dir, Addr: "127.0.0.1:8080", BaseURL: "https://kardan.example", TrustedProxies: "127.0.0.1/32,::1/128",
		Timezone: "Asia/Tehran", SMS: "kavenegar", SMSKey: "k", SMSTemplate: "t", SchemaVersion: store.SchemaVersion(),
		Sender: okSender{},
	}
}

// okSender and failSender stand in for the SMS provider.
type okSender struct{}

func (okSender) Send(ctx context.Context, phone, code string) error { return nil }

type failSender struct{}

func (failSender) Send(ctx context.Context, phone, code string) error {
	return errors.New("sms kavenegar: status 418: key is wrong")
}

func find(t *testing.T, rs []doctor.Result, name string) doctor.Result {
	t.Helper()
	for _, r := range rs {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no %q check in %+v", name, rs)
	return doctor.Result{}
}

func TestDoctorPassesALiveInstallation(t *testing.T) {
	dir := liveDir(t, 20)
	rs := doctor.Run(context.Background(), liveConfig(dir))
	for _, r := range rs {
		if r.Status == doctor.Fail || (r.Status == doctor.Warn && r.Name != "clock" && r.Name != "free space") {
			t.Errorf("%s: %s %s (fix: %s)", r.Name, r.Status, r.Detail, r.Fix)
		}
	}
	if r := find(t, rs, "search index"); r.Status != doctor.OK || !strings.Contains(r.Detail, "20 visible profiles") {
		t.Errorf("index: %+v", r)
	}
	if doctor.Failed(rs) != 0 {
		t.Fatalf("%d failures", doctor.Failed(rs))
	}
}

func TestDoctorFindsADamagedDatabase(t *testing.T) {
	dir := liveDir(t, 50)
	db := filepath.Join(dir, "kardan.db")
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	// Scribble over the pages after the schema: the header still reads, the b-trees do not.
	for i := 8192; i < len(b) && i < 8192*6; i++ {
		b[i] = 0xA5
	}
	if err := os.WriteFile(db, b, 0o600); err != nil {
		t.Fatal(err)
	}
	rs := doctor.Run(context.Background(), liveConfig(dir))
	if r := find(t, rs, "database"); r.Status != doctor.Fail || !strings.Contains(r.Fix, "kardan restore") {
		t.Fatalf("database: %+v", r)
	}
}

func TestDoctorComparesTheIndexWithTheDatabase(t *testing.T) {
	ctx := context.Background()
	full := liveDir(t, 30)
	empty := liveDir(t, 0)
	// An index of another database's 30 profiles beside a database with none.
	if err := os.RemoveAll(filepath.Join(empty, "index")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(full, "index"), filepath.Join(empty, "index")); err != nil {
		t.Fatal(err)
	}
	r := find(t, doctor.Run(ctx, liveConfig(empty)), "search index")
	if r.Status != doctor.Fail || !strings.Contains(r.Fix, "kardan reindex") {
		t.Fatalf("mismatched index: %+v", r)
	}

	// A running server holds the index: the comparison is skipped, said so, and not a failure.
	dir := liveDir(t, 5)
	st, err := store.Open(ctx, filepath.Join(dir, "kardan.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ix, err := search.Open(ctx, filepath.Join(dir, "index"), st)
	if err != nil {
		t.Fatal(err)
	}
	rs := doctor.Run(ctx, liveConfig(dir))
	ix.Close()
	if r := find(t, rs, "search index"); r.Status != doctor.Skip || !strings.Contains(r.Detail, "running") {
		t.Fatalf("held index: %+v", r)
	}
	if r := find(t, rs, "database"); r.Status != doctor.OK {
		t.Fatalf("database beside a running server: %+v", r)
	}
}

func TestDoctorSMS(t *testing.T) {
	dir := liveDir(t, 0)
	c := liveConfig(dir)
	c.SMSTo = "09121234567"
	if r := find(t, doctor.Run(context.Background(), c), "sms"); r.Status != doctor.OK || !strings.Contains(r.Detail, "sent to 09121234567") {
		t.Errorf("test SMS: %+v", r)
	}
	c.Sender = failSender{}
	if r := find(t, doctor.Run(context.Background(), c), "sms"); r.Status != doctor.Fail || !strings.Contains(r.Detail, "key is wrong") {
		t.Errorf("failing provider: %+v", r)
	}
	c.Sender = nil
	c.SMSTo = "12"
	if r := find(t, doctor.Run(context.Background(), c), "sms"); r.Status != doctor.Fail {
		t.Errorf("bad --to: %+v", r)
	}
	// The real file sender: the code lands in the file.
	out := filepath.Join(t.TempDir(), "sms.txt")
	c.SMS, c.SMSTo = "file:"+out, "09121234567"
	if r := find(t, doctor.Run(context.Background(), c), "sms"); r.Status != doctor.Warn {
		t.Errorf("file sender: %+v", r)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "09121234567") {
		t.Errorf("file sender wrote %q %v", b, err)
	}
	c.SMS, c.SMSKey = "kavenegar", ""
	if r := find(t, doctor.Run(context.Background(), c), "sms"); r.Status != doctor.Fail {
		t.Errorf("kavenegar without a key: %+v", r)
	}
}

func TestDoctorFlagsAndClock(t *testing.T) {
	dir := liveDir(t, 0)
	cases := []struct {
		name  string
		edit  func(*doctor.Config)
		check string
		want  doctor.Status
	}{
		{"base url with a path", func(c *doctor.Config) { c.BaseURL = "https://kardan.example/app" }, "base url", doctor.Fail},
		{"base url not a url", func(c *doctor.Config) { c.BaseURL = "kardan.example" }, "base url", doctor.Fail},
		{"base url on loopback", func(c *doctor.Config) { c.BaseURL = "http://127.0.0.1:8080" }, "base url", doctor.Warn},
		{"plain http", func(c *doctor.Config) { c.BaseURL = "http://kardan.example" }, "base url", doctor.Warn},
		{"every address trusted", func(c *doctor.Config) { c.TrustedProxies = "0.0.0.0/0" }, "trusted proxies", doctor.Fail},
		{"unreadable proxy", func(c *doctor.Config) { c.TrustedProxies = "nginx" }, "trusted proxies", doctor.Fail},
		{"proxy in front, none trusted", func(c *doctor.Config) { c.TrustedProxies = "" }, "trusted proxies", doctor.Warn},
		{"trusted proxy but open port", func(c *doctor.Config) { c.Addr = "0.0.0.0:8080" }, "trusted proxies", doctor.Warn},
		{"bad zone", func(c *doctor.Config) { c.Timezone = "Mars/Olympus" }, "time zone", doctor.Fail},
		{"clock before the build", func(c *doctor.Config) { c.BuiltAt = time.Now().Add(24 * time.Hour) }, "clock", doctor.Fail},
		{"clock before the data", func(c *doctor.Config) { c.Now = func() time.Time { return time.Now().Add(-48 * time.Hour) } }, "clock", doctor.Fail},
		{"old backup", func(c *doctor.Config) { c.BackupEvery = 10 * time.Minute }, "backups", doctor.Warn},
		{"sqlite without stable plans", func(c *doctor.Config) { c.UnstablePlans = true }, "sqlite build", doctor.Warn},
	}
	for _, tc := range cases {
		c := liveConfig(dir)
		tc.edit(&c)
		r := find(t, doctor.Run(context.Background(), c), tc.check)
		if r.Status != tc.want || r.Fix == "" {
			t.Errorf("%s: %+v, want %s with a fix", tc.name, r, tc.want)
		}
	}
	// A fresh backup passes.
	c := liveConfig(dir)
	now := time.Now()
	os.Chtimes(filepath.Join(dir, "backups", "kardan-20260101T000000Z.tar.gz"), now, now)
	c.BackupEvery = time.Hour
	if r := find(t, doctor.Run(context.Background(), c), "backups"); r.Status != doctor.OK {
		t.Errorf("fresh backup: %+v", r)
	}
}

func TestDoctorDataDirectory(t *testing.T) {
	dir := liveDir(t, 0)
	if err := os.Chmod(dir, 0o757); err != nil {
		t.Fatal(err)
	}
	if r := find(t, doctor.Run(context.Background(), liveConfig(dir)), "data directory"); r.Status != doctor.Warn || !strings.Contains(r.Fix, "chmod 0750") {
		t.Errorf("open directory: %+v", r)
	}
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o600)
	if r := find(t, doctor.Run(context.Background(), liveConfig(file)), "data directory"); r.Status != doctor.Fail {
		t.Errorf("a file as the data directory: %+v", r)
	}
	if os.Getuid() != 0 {
		os.Chmod(dir, 0o550)
		defer os.Chmod(dir, 0o750)
		if r := find(t, doctor.Run(context.Background(), liveConfig(dir)), "data directory"); r.Status != doctor.Fail {
			t.Errorf("read-only directory: %+v", r)
		}
	}
}
