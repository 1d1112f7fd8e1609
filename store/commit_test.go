package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"sync"
	"testing"

	"kardan/store"
)

// writeOutcome is what one concurrent write was answered and left in the store.
type writeOutcome struct {
	ok, conflict, invalid, tooMany int
	comments                       []string // profile, author, score and text of every stored comment
	blogsPer                       []int    // stored drafts per writer
	scores                         []string // each profile's count_scorer, score_sum and score
}

// concurrentWrites runs the same set of writes from 40 goroutines in a shuffled order: 24
// commenters review every profile twice (the second is a conflict), 6 more send scores out of
// range (refused), and four writers try 25 drafts each against the hourly quota of 20.
func concurrentWrites(t *testing.T, plain bool) writeOutcome {
	t.Helper()
	ctx := context.Background()
	f := newCommunityFixture(t, 30)
	if plain {
		store.PlainWrites(f.st)
	}
	profiles := []*store.Profile{
		f.acceptedProfile(t, f.owner, 1, 101), f.acceptedProfile(t, f.owner, 1, 102), f.acceptedProfile(t, f.owner, 2, 201),
		f.acceptedProfile(t, f.other, 1, 101), f.acceptedProfile(t, f.other, 2, 202), f.acceptedProfile(t, f.other, 2, 201),
	}
	writers := f.users[:4]
	var tasks []func() error
	for ui, u := range f.users {
		for pi, p := range profiles {
			score := 1 + (ui+pi)%5
			text := fmt.Sprintf("نظر %d درباره %d", ui, pi)
			if ui >= 24 { // these only send scores out of range
				tasks = append(tasks, func() error { _, err := f.st.AddComment(ctx, u, comment(p.ID, 9, text)); return err })
				continue
			}
			for range 2 {
				tasks = append(tasks, func() error { _, err := f.st.AddComment(ctx, u, comment(p.ID, score, text)); return err })
			}
		}
	}
	for wi, w := range writers {
		for i := range 25 {
			in := &store.BlogInput{Title: fmt.Sprintf("پیش‌نویس %d-%d", wi, i), Content: "<p>متن</p>", IsDraft: true}
			tasks = append(tasks, func() error { _, err := f.st.CreateBlog(ctx, w, in, store.BlogOptions{}); return err })
		}
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(tasks), func(i, j int) { tasks[i], tasks[j] = tasks[j], tasks[i] })

	var out writeOutcome
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan func() error)
	for range 40 {
		wg.Go(func() {
			for task := range next {
				err := task()
				mu.Lock()
				switch code := store.ErrorCode(err); {
				case err == nil:
					out.ok++
				case code == store.EConflict:
					out.conflict++
				case code == store.EInvalid:
					out.invalid++
				case code == store.ETooMany:
					out.tooMany++
				default:
					t.Errorf("unexpected error: %v", err)
				}
				mu.Unlock()
			}
		})
	}
	for _, task := range tasks {
		next <- task
	}
	close(next)
	wg.Wait()

	db := f.st.DB()
	rows, err := db.Query(`SELECT profile_id, user_id, score, description FROM comments ORDER BY profile_id, user_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p, u, s int64
		var d string
		if err := rows.Scan(&p, &u, &s, &d); err != nil {
			t.Fatal(err)
		}
		out.comments = append(out.comments, fmt.Sprint(p, u, s, d))
	}
	rows.Close()
	for _, w := range writers {
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM blogs WHERE writer_id = ?`, w.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out.blogsPer = append(out.blogsPer, n)
	}
	for _, p := range profiles {
		var n, sum int
		var score float64
		if err := db.QueryRow(`SELECT count_scorer, score_sum, score FROM profiles WHERE id = ?`, p.ID).Scan(&n, &sum, &score); err != nil {
			t.Fatal(err)
		}
		out.scores = append(out.scores, fmt.Sprint(n, sum, score))
	}
	sort.Strings(out.comments)
	if plain && f.st.GroupedWrites() != 0 {
		t.Fatalf("the plain path grouped %d writes", f.st.GroupedWrites())
	}
	if !plain && f.st.GroupedWrites() == 0 {
		t.Fatalf("40 concurrent writers never shared a transaction: the group path was not measured")
	}
	t.Logf("plain=%v: %d writes grouped", plain, f.st.GroupedWrites())
	return out
}

// TestGroupCommitMatchesPlain: concurrent writes through the group commit leave the same rows,
// scores and answers as the same writes run one transaction each; every acknowledged write is
// stored and no refused one is.
func TestGroupCommitMatchesPlain(t *testing.T) {
	group := concurrentWrites(t, false)
	plain := concurrentWrites(t, true)
	want := writeOutcome{ok: 24*6 + 4*20, conflict: 24 * 6, invalid: 6 * 6, tooMany: 4 * 5}
	for name, got := range map[string]writeOutcome{"group": group, "plain": plain} {
		if got.ok != want.ok || got.conflict != want.conflict || got.invalid != want.invalid || got.tooMany != want.tooMany {
			t.Errorf("%s: answers ok %d conflict %d invalid %d too many %d, want %d %d %d %d", name,
				got.ok, got.conflict, got.invalid, got.tooMany, want.ok, want.conflict, want.invalid, want.tooMany)
		}
		if len(got.comments) != 24*6 || !reflect.DeepEqual(got.blogsPer, []int{20, 20, 20, 20}) {
			t.Errorf("%s: %d comments stored (want 144), drafts per writer %v (want 20 each)", name, len(got.comments), got.blogsPer)
		}
	}
	if !reflect.DeepEqual(group.comments, plain.comments) {
		t.Errorf("stored comments differ between the group and the plain path")
	}
	if !reflect.DeepEqual(group.scores, plain.scores) {
		t.Errorf("profile scores differ: group %v, plain %v", group.scores, plain.scores)
	}
}

// TestGroupCommitBreakdown: a job that ends the shared transaction (here by a bare ROLLBACK, as
// SQLite does by itself after an interrupt or an I/O error) costs the others nothing: each job
// of the batch runs again alone, the good ones are stored exactly once, and a job whose context
// ended before it ran is answered its context's error and stores nothing.
func TestGroupCommitBreakdown(t *testing.T) {
	f := newProfileFixture(t)
	if err := store.Exec(f.st, `CREATE TABLE group_probe (name TEXT NOT NULL UNIQUE)`); err != nil {
		t.Fatal(err)
	}
	insert := func(name string) func(tx *sql.Tx) error {
		return func(tx *sql.Tx) error {
			_, err := tx.Exec(`INSERT INTO group_probe (name) VALUES (?)`, name)
			return err
		}
	}
	breaker := func(tx *sql.Tx) error {
		if _, err := tx.Exec(`INSERT INTO group_probe (name) VALUES ('breaker')`); err != nil {
			return err
		}
		if _, err := tx.Exec(`ROLLBACK`); err != nil {
			return err
		}
		return errors.New("the breaker's own failure")
	}
	errs := store.RunGroup(f.st, insert("a"), breaker, insert("b"), insert("a"))
	if errs[0] != nil || errs[2] != nil || errs[1] == nil || errs[3] == nil {
		t.Fatalf("answers %v: want a and b stored, the breaker and the second a refused", errs)
	}
	var names []string
	rows, err := f.st.DB().Query(`SELECT name FROM group_probe ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		names = append(names, n)
	}
	rows.Close()
	if !reflect.DeepEqual(names, []string{"a", "b"}) {
		t.Fatalf("stored %v, want [a b]", names)
	}

	// A job that fails after writing is rolled back to its savepoint; the others of the batch
	// commit together.
	failsAfterWriting := func(tx *sql.Tx) error {
		if err := insert("d")(tx); err != nil {
			return err
		}
		return errors.New("refused after writing")
	}
	errs = store.RunGroup(f.st, insert("c"), failsAfterWriting, insert("e"))
	if errs[0] != nil || errs[1] == nil || errs[2] != nil {
		t.Fatalf("answers %v", errs)
	}
	names = nil
	rows, err = f.st.DB().Query(`SELECT name FROM group_probe ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		names = append(names, n)
	}
	rows.Close()
	if !reflect.DeepEqual(names, []string{"a", "b", "c", "e"}) {
		t.Fatalf("stored %v, want [a b c e]: the failed job's write must not survive", names)
	}
	// A caller gone before its write ran gets its context's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.st.AddComment(ctx, f.other, comment(1, 5, "بسیار خوب")); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled write: %v", err)
	}
}
