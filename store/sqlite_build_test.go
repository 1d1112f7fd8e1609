package store_test

import (
	"os"
	"strings"
	"testing"

	"kardan/store"
)

// TestBuiltWithStablePlans: the Makefile's -DSQLITE_ENABLE_QPSG reaches the SQLite library the
// tests link (go's build cache keys its C objects by the flags, so a stale object would show
// here). Run by hand without the flag, the binary is only slower: the test says so and skips.
func TestBuiltWithStablePlans(t *testing.T) {
	if !strings.Contains(os.Getenv("CGO_CFLAGS"), "-DSQLITE_ENABLE_QPSG") {
		if store.StablePlans() {
			return
		}
		t.Skip("CGO_CFLAGS lacks -DSQLITE_ENABLE_QPSG (the Makefile sets it): run through make test")
	}
	if !store.StablePlans() {
		t.Fatal("built with -DSQLITE_ENABLE_QPSG, yet PRAGMA compile_options does not list ENABLE_QPSG")
	}
}
