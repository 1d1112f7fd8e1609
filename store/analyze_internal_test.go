package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Opening a store analyses only the tables whose statistics are missing or a tenfold size off:
// an ANALYZE at every open read every index whole (SQLite counts their rows exactly), which at
// a million profiles made each command and each start wait 0.3 s, and 11 s after a reboot.
func TestOpenAnalyzesOnlyWhereStale(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kardan.db")
	reopen := func() *Store {
		t.Helper()
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	addUsers := func(s *Store, from, n int) {
		t.Helper()
		for i := from; i < from+n; i++ {
			if err := s.CreateUser(ctx, &User{NumberPhone: fmt.Sprintf("0912%07d", i), PasswordHash: "h"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// stat answers the statistics of the users' updated-at index ("" when there are none).
	stat := func(s *Store) string {
		t.Helper()
		var tables int
		if err := s.write.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_stat1'`).Scan(&tables); err != nil || tables == 0 {
			return "" // no table analysed yet
		}
		var st string
		err := s.write.QueryRowContext(ctx, `SELECT coalesce((SELECT stat FROM sqlite_stat1 WHERE idx = 'users_updated'), '')`).Scan(&st)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}

	s := reopen()
	addUsers(s, 0, 50)
	if got := stat(s); got != "" {
		t.Fatalf("statistics of an empty table at the first open: %q", got)
	}
	s.Close()

	// The index had no statistics: the open analyses its table.
	s = reopen()
	if got := stat(s); !strings.HasPrefix(got, "50 ") {
		t.Fatalf("after an open with the index unanalysed: %q, want 50 rows counted", got)
	}
	// Statistics within tenfold of the table stay as they are: a sentinel survives the next open.
	if _, err := s.write.ExecContext(ctx, `UPDATE sqlite_stat1 SET stat = '60 7' WHERE tbl = 'users'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = reopen()
	if got := stat(s); got != "60 7" {
		t.Fatalf("after an open with current statistics: %q, want them left as they were (60 7)", got)
	}

	// A table grown tenfold is analysed again.
	addUsers(s, 50, 1000)
	s.Close()
	s = reopen()
	defer s.Close()
	if got := stat(s); !strings.HasPrefix(got, "1050 ") {
		t.Fatalf("after an open with the table grown tenfold: %q, want 1050 rows counted", got)
	}
	// Analyze, the daily refresh, counts everything again whatever the statistics say.
	if _, err := s.write.ExecContext(ctx, `UPDATE sqlite_stat1 SET stat = '1000 7' WHERE tbl = 'users'`); err != nil {
		t.Fatal(err)
	}
	if err := s.Analyze(ctx); err != nil {
		t.Fatal(err)
	}
	if got := stat(s); !strings.HasPrefix(got, "1050 ") {
		t.Fatalf("after Analyze: %q, want 1050 rows counted", got)
	}
}
