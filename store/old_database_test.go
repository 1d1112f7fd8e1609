package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"kardan/admin"
	"kardan/store"
)

// The migration tests make a database, take it back to before a migration and open it again,
// which applies the migration to the rows already there.

// openSeededFile opens a store on a new SQLite file holding the reference data, and answers its
// path.
func openSeededFile(t *testing.T) (*store.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kardan.db")
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.SeedReference(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	return st, path
}

// reopenUndoing closes st, runs undo on its file (what takes it back to before a migration) and
// opens the store again; it is closed when the test ends.
func reopenUndoing(t *testing.T, st *store.Store, path string, undo ...string) *store.Store {
	t.Helper()
	st.Close()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range undo {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	if st, err = store.Open(context.Background(), path); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
