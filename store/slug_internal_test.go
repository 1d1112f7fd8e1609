package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// plainUniqueSlug is uniqueSlug asking one candidate at a time, as it did before it asked in
// groups.
func plainUniqueSlug(ctx context.Context, tx *sql.Tx, table, name, city string, selfID int64) (string, error) {
	candidates := newSlugCandidates(table, name, city)
	for i := 0; i < candidates.n; i++ {
		c := candidates.at(i)
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table+` WHERE slug = ? AND id != ?`, c, selfID).Scan(&n); err != nil {
			return "", err
		}
		if n == 0 {
			return c, nil
		}
	}
	return "", nil // the numbered fallback differs each time: compared by its prefix below
}

// uniqueSlug answers what asking one candidate at a time answers, over random tables of taken
// slugs: runs of numbers with and without gaps (across the groups' edges), the city's form
// taken or not, the row's own slug (which does not count), an empty name, and every candidate
// taken.
func TestUniqueSlugAsPlain(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	rng := rand.New(rand.NewPCG(4, 10))
	names := []string{"تعمیر کولر", "Best Plumber", "", "!!!", "آرایشگاه"}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TEMP TABLE things (id INTEGER PRIMARY KEY, slug TEXT NOT NULL UNIQUE)`); err != nil {
			return err
		}
		for round := 0; round < 300; round++ {
			if _, err := tx.ExecContext(ctx, `DELETE FROM things`); err != nil {
				return err
			}
			name, city := names[rng.IntN(len(names))], ""
			if rng.IntN(2) == 0 {
				city = "tehran"
			}
			candidates := newSlugCandidates("things", name, city)
			run := []int{0, 1, 2, 3, 4, 5, 19, 20, 21, 84, 85, 86, 400, candidates.n}[rng.IntN(14)]
			var ids []int64
			for i := 0; i < candidates.n; i++ {
				c := candidates.at(i)
				if i >= run && rng.IntN(8) != 0 { // past the run, a few scattered slugs are taken
					continue
				}
				res, err := tx.ExecContext(ctx, `INSERT INTO things (slug) VALUES (?)`, c)
				if err != nil {
					return err
				}
				id, _ := res.LastInsertId()
				ids = append(ids, id)
			}
			self := int64(0)
			if len(ids) > 0 && rng.IntN(3) == 0 {
				self = ids[rng.IntN(len(ids))]
			}
			got, err := uniqueSlug(ctx, tx, "things", name, city, self)
			if err != nil {
				return err
			}
			want, err := plainUniqueSlug(ctx, tx, "things", name, city, self)
			if err != nil {
				return err
			}
			if want == "" { // every candidate taken: a numbered slug of the base, not taken either
				base := candidates.base
				var n int
				if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM things WHERE slug = ?`, got).Scan(&n); err != nil {
					return err
				}
				if !strings.HasPrefix(got, base+"-") || n != 0 || len(got) < len(base)+10 {
					t.Errorf("round %d: every candidate taken, got %q", round, got)
				}
				continue
			}
			if got != want {
				t.Errorf("round %d (%q, %q, run %d, self %d): got %q, want %q", round, name, city, run, self, got, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkUniqueSlug: the slug of a name whose first n candidates are taken, asked in groups
// and one at a time.
func BenchmarkUniqueSlug(b *testing.B) {
	ctx := context.Background()
	s := openTemp(b)
	for _, taken := range []int{0, 1, 60, 500} {
		for _, way := range []struct {
			name string
			fn   func(context.Context, *sql.Tx, string, string, string, int64) (string, error)
		}{{"groups", uniqueSlug}, {"plain", plainUniqueSlug}} {
			b.Run(fmt.Sprintf("taken=%d/%s", taken, way.name), func(b *testing.B) {
				err := s.tx(ctx, func(tx *sql.Tx) error {
					if _, err := tx.ExecContext(ctx, `CREATE TEMP TABLE IF NOT EXISTS things (id INTEGER PRIMARY KEY, slug TEXT NOT NULL UNIQUE)`); err != nil {
						return err
					}
					if _, err := tx.ExecContext(ctx, `DELETE FROM things`); err != nil {
						return err
					}
					candidates := newSlugCandidates("things", "تعمیر کولر", "")
					for i := 0; i < taken; i++ {
						if _, err := tx.ExecContext(ctx, `INSERT INTO things (slug) VALUES (?)`, candidates.at(i)); err != nil {
							return err
						}
					}
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if _, err := way.fn(ctx, tx, "things", "تعمیر کولر", "", 0); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}
