package store

import (
	"context"
	"path/filepath"
	"testing"
)

// openTemp opens a new store in a file of tb's temporary directory, closed when tb ends.
func openTemp(tb testing.TB) *Store {
	tb.Helper()
	s, err := Open(context.Background(), filepath.Join(tb.TempDir(), "kardan.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}
