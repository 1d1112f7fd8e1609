package store_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"kardan/store"
)

// TestRateReserveBurst: 100 reservations released at once against a limit of 10: exactly 10
// get through, because counting and recording are one transaction.
func TestRateReserveBurst(t *testing.T) {
	ctx := context.Background()
	st := mustOpenStore(t)
	l := store.Limit{Kind: "test", Key: "k", Max: 10, Window: time.Hour}
	start := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	got, refused := 0, 0
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := st.RateReserve(ctx, l)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				got++
			case codeOf(err) == store.ETooMany:
				refused++
			default:
				t.Error(err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if got != 10 || refused != 90 {
		t.Fatalf("got %d reserved and %d refused, want 10 and 90", got, refused)
	}
}

func TestRateReserveReleaseAndBackoff(t *testing.T) {
	ctx := context.Background()
	st := mustOpenStore(t)
	clk := withClock(st)
	l := store.Limit{Kind: "test", Key: "k", Max: 2, Window: time.Hour}
	a, err := st.RateReserve(ctx, l)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.RateReserve(ctx, l); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RateReserve(ctx, l); codeOf(err) != store.ETooMany || waitOf(err) != 3600 {
		t.Fatalf("third: got %v, want too many for 3600 s", err)
	}
	if err := a.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Release(ctx); err != nil { // twice does nothing
		t.Fatal(err)
	}
	if _, err := st.RateReserve(ctx, l); err != nil {
		t.Fatalf("after release: %v", err)
	}
	// Two limits reserve together or not at all.
	other := store.Limit{Kind: "test", Key: "other", Max: 5, Window: time.Hour}
	if _, err := st.RateReserve(ctx, other, l); codeOf(err) != store.ETooMany {
		t.Fatalf("got %v, want too many", err)
	}
	if err := st.RateCheck(ctx, store.Limit{Kind: "test", Key: "other", Max: 1, Window: time.Hour}); err != nil {
		t.Fatalf("a refused reservation recorded something: %v", err)
	}

	// Backoff: past Max the wait doubles from the newest event, up to BackoffMax.
	slow := store.Limit{Kind: "slow", Key: "k", Max: 2, Window: time.Hour, Backoff: time.Second, BackoffMax: 4 * time.Second}
	for _, want := range []int64{0, 0, 1, 2, 4, 4} {
		_, err := st.RateReserve(ctx, slow)
		if want == 0 {
			if err != nil {
				t.Fatal(err)
			}
			continue
		}
		if codeOf(err) != store.ETooMany || waitOf(err) != want {
			t.Fatalf("got %v (wait %d), want a wait of %d s", err, waitOf(err), want)
		}
		clk.advance(time.Duration(want) * time.Second)
		if _, err := st.RateReserve(ctx, slow); err != nil {
			t.Fatalf("after %d s: %v", want, err)
		}
	}
}

// TestDatabaseFilesAreOwnerOnly is audit I2: under the usual 022 umask the database and its
// shared-memory file were created 0644; they hold password and session hashes.
func TestDatabaseFilesAreOwnerOnly(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "kardan.db")
	os.WriteFile(filepath.Join(dir, "old.db"), nil, 0o644)
	for _, p := range []string{path, filepath.Join(dir, "old.db")} {
		st, err := store.Open(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.RateHit(context.Background(), store.Limit{Kind: "k", Key: "k"}); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{p, p + "-wal", p + "-shm"} {
			fi, err := os.Stat(f)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("%s: mode %o, want 600", filepath.Base(f), fi.Mode().Perm())
			}
		}
		st.Close()
	}
}
