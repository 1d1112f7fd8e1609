// Package storetest opens the real things a test needs: a store on a SQLite file in a temporary
// directory (or, with KARDAN_TEST_DB=postgres, a fresh database on a private PostgreSQL cluster
// the package starts), the reference data seeded into it, and a Bleve index beside it.
// Everything it opens is closed when the test ends.
package storetest

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"kardan/admin"
	"kardan/search"
	"kardan/store"
)

// dirs maps a store on PostgreSQL to the temporary directory that stands for its data
// directory (index, uploads); a SQLite store's is its file's directory.
var dirs sync.Map

// Open opens a store with every migration applied, on kardan.db in a new temporary directory.
func Open(tb testing.TB) *store.Store {
	tb.Helper()
	if Postgres() {
		return openPostgres(tb, "kardan_empty")
	}
	return OpenSQLite(tb)
}

// OpenSQLite opens a store on SQLite whatever the engine of the run, for tests of SQLite's own
// matters (its file, backups, migrations of an old file).
func OpenSQLite(tb testing.TB) *store.Store {
	tb.Helper()
	st, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), "kardan.db"))
	if err != nil {
		tb.Fatalf("open store: %v", err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

// Dir is the directory st's database file is in, where a test keeps the index and uploads.
func Dir(st *store.Store) string {
	if d, ok := dirs.Load(st); ok {
		return d.(string)
	}
	return filepath.Dir(st.Path())
}

// Seed writes the shipped reference data (provinces, cities, categories) into st.
func Seed(tb testing.TB, st *store.Store) {
	tb.Helper()
	if _, err := admin.SeedReference(context.Background(), st); err != nil {
		tb.Fatalf("seed reference data: %v", err)
	}
}

// Seeded is Open followed by Seed.
func Seeded(tb testing.TB) *store.Store {
	tb.Helper()
	if Postgres() {
		return openPostgres(tb, "kardan_seeded")
	}
	st := Open(tb)
	Seed(tb, st)
	return st
}

// Demo writes n demo profiles (with their owners) into a seeded st: the same ones for a seed.
func Demo(tb testing.TB, st *store.Store, n int, seed uint64) {
	tb.Helper()
	if _, err := admin.SeedDemo(context.Background(), st, admin.DemoOptions{Profiles: n, PasswordHash: "x", Seed: seed}); err != nil {
		tb.Fatalf("seed demo profiles: %v", err)
	}
}

// Index opens the search index in Dir(st)/index, caught up with st's outbox.
func Index(tb testing.TB, st *store.Store) *search.Index {
	tb.Helper()
	ix, err := search.Open(context.Background(), filepath.Join(Dir(st), "index"), st)
	if err != nil {
		tb.Fatalf("open index: %v", err)
	}
	tb.Cleanup(func() { ix.Close() })
	return ix
}

// Indexed is Seeded followed by Index.
func Indexed(tb testing.TB) (*store.Store, *search.Index) {
	tb.Helper()
	st := Seeded(tb)
	return st, Index(tb, st)
}
