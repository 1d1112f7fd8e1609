package store

import (
	"strings"
	"testing"
)

// Every SQLite migration needs its PostgreSQL twin with the same number (and the same name, so
// a reader finds one from the other), and no twin may stand alone.
func TestMigrationsHaveTwins(t *testing.T) {
	lite, err := migrationsOf(engineSQLite)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := migrationsOf(enginePostgres)
	if err != nil {
		t.Fatal(err)
	}
	twins := map[int]migration{}
	for _, m := range pg {
		twins[m.version] = m
	}
	for _, m := range lite {
		twin, ok := twins[m.version]
		if !ok {
			t.Errorf("store/migrations/%s.sql has no PostgreSQL twin: write store/migrations/postgres/%s.sql (see the store's package comment)", m.name, m.name)
			continue
		}
		if twin.name != m.name {
			t.Errorf("migration %d is %q on SQLite but %q on PostgreSQL: give both the same name", m.version, m.name, twin.name)
		}
		if strings.TrimSpace(twin.sql) == "" {
			t.Errorf("store/migrations/postgres/%s.sql is empty: say in a comment why PostgreSQL needs nothing", m.name)
		}
		delete(twins, m.version)
	}
	for _, m := range twins {
		t.Errorf("store/migrations/postgres/%s.sql has no SQLite migration of the same number", m.name)
	}
}

func TestRebind(t *testing.T) {
	for in, want := range map[string]string{
		`SELECT 1`: `SELECT 1`,
		`SELECT a FROM t WHERE b = ? AND c IN (?, ?)`:                  `SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)`,
		`SELECT '?', "a?b" FROM t WHERE x = ?`:                         `SELECT '?', "a?b" FROM t WHERE x = $1`,
		`SELECT 'it''s ?' WHERE x = ? -- why?` + "\n?":                 `SELECT 'it''s ?' WHERE x = $1 -- why?` + "\n$2",
		`/* ? */ UPDATE t SET a = ?1 WHERE b = ?2 OR c = ?1 AND d = ?`: `/* ? */ UPDATE t SET a = $1 WHERE b = $2 OR c = $1 AND d = $3`,
	} {
		if got := rebind(in); got != want {
			t.Errorf("rebind(%q)\n got %q\nwant %q", in, got, want)
		}
		if got := rebind(in); got != want { // the cached answer
			t.Errorf("rebind(%q) cached: got %q", in, got)
		}
	}
}
