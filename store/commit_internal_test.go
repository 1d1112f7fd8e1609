package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"sync"
	"testing"
)

// A write that panics is answered an error, alone or in a batch, and the writer goroutine lives
// on: the next writes commit. Without runJob the panic would end the whole process.
func TestGroupCommitSurvivesAPanic(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "kardan.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
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
