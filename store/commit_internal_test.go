package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"testing"
)

// A write that panics is answered an error, alone or in a batch, and the writer goroutine lives
// on: the next writes commit. Without runJob the panic would end the whole process.
func TestGroupCommitSurvivesAPanic(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if _, err := s.write.ExecContext(ctx, `CREATE TABLE panic_probe (n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 40)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.tx(ctx, func(tx *sql.Tx) error {
				if i%4 == 0 {
					var p *Profile
					_ = p.ProfileName // a nil dereference inside the write
				}
				_, err := tx.ExecContext(ctx, `INSERT INTO panic_probe (n) VALUES (?)`, i)
				return err
			})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if (i%4 == 0) != (err != nil) {
			t.Errorf("write %d: err %v", i, err)
		}
	}
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM panic_probe`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 30 {
		t.Fatalf("%d rows committed, want the 30 writes that did not panic", n)
	}
}

// A job rolled back to its savepoint takes its outbox ids with it: OutboxCommitted never names an
// id that was not committed, or writers would wait in SyncTo for a row that never comes.
func TestGroupCommitForgetsRolledBackOutboxIDs(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	refused := errors.New("refused after queueing")
	for round := 0; round < 20 && s.grouped.Load() == 0; round++ {
		var wg sync.WaitGroup
		for i := range 40 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := s.tx(ctx, func(tx *sql.Tx) error {
					if err := queueIndex(ctx, tx, "profile", int64(i+1), 1); err != nil {
						return err
					}
					return refused
				})
				if !errors.Is(err, refused) {
					t.Errorf("write %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
	}
	if s.grouped.Load() == 0 {
		t.Skip("no two writes met in one batch in 20 rounds")
	}
	if got := s.OutboxCommitted(); got != 0 {
		t.Fatalf("OutboxCommitted = %d after only rolled-back writes, want 0", got)
	}
}
