package cmd

import (
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kardan/store"
)

func TestBackupBeforeMigrate(t *testing.T) {
	ctx := context.Background()
	g := &Globals{DataDir: t.TempDir(), Out: io.Discard, Err: io.Discard}
	if err := backupBeforeMigrate(ctx, g); err != nil {
		t.Fatalf("no database yet: %v", err)
	}
	st, err := store.Open(ctx, g.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if err := backupBeforeMigrate(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(g.BackupsDir()); err == nil {
		t.Fatal("a current database was backed up")
	}

	// Pretend the newest migration has not run: the database is then older than the binary.
	db, err := sql.Open("sqlite3", g.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM migrations WHERE version = (SELECT MAX(version) FROM migrations)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := backupBeforeMigrate(ctx, g); err != nil {
		t.Fatal(err)
	}
	es, _ := os.ReadDir(g.BackupsDir())
	if len(es) != 1 || !strings.Contains(es[0].Name(), "-before-schema-") {
		t.Fatalf("backups/: got %v, want one backup taken before the migration", es)
	}
}

func TestScheduledBackupRotates(t *testing.T) {
	ctx := context.Background()
	g := &Globals{DataDir: t.TempDir(), Out: io.Discard, Err: io.Discard}
	st, err := store.Open(ctx, g.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// Three older backups; a scheduled one makes four, and keep 2 leaves the newest two.
	os.MkdirAll(g.BackupsDir(), 0o750)
	for _, n := range []string{"kardan-20200101T000000Z.tar.gz", "kardan-20200102T000000Z.tar.gz", "kardan-20200103T000000Z.tar.gz"} {
		os.WriteFile(filepath.Join(g.BackupsDir(), n), []byte("old"), 0o600)
	}
	if err := scheduledBackup(ctx, g, st, 2); err != nil {
		t.Fatal(err)
	}
	es, _ := os.ReadDir(g.BackupsDir())
	if len(es) != 2 || es[0].Name() != "kardan-20200103T000000Z.tar.gz" {
		t.Fatalf("backups/: got %v", es)
	}
}

func TestNextBackupDelay(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	if d := nextBackupDelay(filepath.Join(dir, "missing"), time.Hour, now); d != 0 {
		t.Errorf("no backups: got %v, want 0", d)
	}
	p := filepath.Join(dir, "kardan-20250101T000000Z.tar.gz")
	os.WriteFile(p, nil, 0o600)
	os.Chtimes(p, now.Add(-20*time.Minute), now.Add(-20*time.Minute))
	if d := nextBackupDelay(dir, time.Hour, now); d < 39*time.Minute || d > 41*time.Minute {
		t.Errorf("newest 20 min old, every hour: got %v, want 40m", d)
	}
	if d := nextBackupDelay(dir, 10*time.Minute, now); d != 0 {
		t.Errorf("overdue: got %v, want 0", d)
	}
}
