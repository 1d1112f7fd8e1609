package store_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"kardan/store"
	"kardan/store/storetest"
)

// mustOpenStore opens a real SQLite file in a temporary directory with every migration applied.
// It stays beside storetest.Open because tests written on other branches still call it.
func mustOpenStore(t testing.TB) *store.Store { return storetest.Open(t) }

func TestOpen(t *testing.T) {
	t.Run("MigratesFromEmpty", func(t *testing.T) {
		st := storetest.Open(t)
		v, err := st.Version(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if v != store.SchemaVersion() || v < 1 {
			t.Fatalf("got version %d, want %d", v, store.SchemaVersion())
		}
		for _, table := range []string{"users", "sessions", "otp_codes", "provinces", "cities", "work_categories",
			"profiles", "profile_categories", "comments", "blogs", "blog_categories", "critics", "uploads",
			"index_outbox", "audit_log", "rate_events"} {
			var n int
			if err := st.DB().QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
				t.Errorf("table %s: %v", table, err)
			}
		}
	})

	t.Run("ReopenIsNoop", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "kardan.db")
		rows := -1
		for i := 0; i < 2; i++ {
			st, err := store.Open(context.Background(), path)
			if err != nil {
				t.Fatalf("open %d: %v", i, err)
			}
			var n int
			st.DB().QueryRow(`SELECT COUNT(*) FROM migrations`).Scan(&n)
			if rows >= 0 && n != rows {
				t.Fatalf("open %d: got %d migration rows, want %d", i, n, rows)
			}
			rows = n
			if err := st.Close(); err != nil {
				t.Fatalf("close: %v", err)
			}
		}
	})

	t.Run("ErrNewerSchema", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "kardan.db")
		st, err := store.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		db, err := sql.Open("sqlite3", path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO migrations (version, name, applied_at) VALUES (9999, 'future', 0)`); err != nil {
			t.Fatal(err)
		}
		db.Close()
		_, err = store.Open(context.Background(), path)
		if err == nil || !strings.Contains(err.Error(), "newer kardan") {
			t.Fatalf("got %v, want a refusal naming a newer kardan", err)
		}
	})

	t.Run("WALAndForeignKeys", func(t *testing.T) {
		st := storetest.OpenSQLite(t)
		var mode string
		st.DB().QueryRow(`PRAGMA journal_mode`).Scan(&mode)
		if mode != "wal" {
			t.Errorf("journal_mode: got %q, want wal", mode)
		}
		var fk int
		st.DB().QueryRow(`PRAGMA foreign_keys`).Scan(&fk)
		if fk != 1 {
			t.Errorf("foreign_keys: got %d, want 1", fk)
		}
		if v, err := st.IntegrityCheck(context.Background()); err != nil || v != "ok" {
			t.Errorf("integrity: got %q %v", v, err)
		}
	})

	t.Run("ReadPoolCannotWrite", func(t *testing.T) {
		st := storetest.Open(t)
		_, err := st.DB().Exec(`INSERT INTO rate_events (kind, key, at) VALUES ('x', 'y', 1)`)
		if err == nil {
			t.Fatal("a write through the read pool succeeded")
		}
	})
}

func TestErrorCode(t *testing.T) {
	if got := store.ErrorCode(store.NotFound()); got != store.ENotFound {
		t.Errorf("got %v, want not_found", got)
	}
	wrapped := errors.Join(errors.New("context"), store.Forbidden())
	if got := store.ErrorCode(wrapped); got != store.EForbidden {
		t.Errorf("wrapped: got %v, want forbidden", got)
	}
	if got := store.ErrorCode(errors.New("boom")); got != store.EInternal {
		t.Errorf("plain: got %v, want internal", got)
	}
	v := &store.Validation{}
	if v.Err() != nil {
		t.Error("empty validation is an error")
	}
	v.Enter("name")
	v.Correct("name")
	if !v.Has("name") || store.ErrorCode(v.Err()) != store.EInvalid {
		t.Errorf("got %v, want invalid with name", v.Err())
	}
}
