package search_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"kardan/search"
)

// TestTermCountsAsReader checks the term counts the text query's planning reads from the cache
// against a term reader of the same snapshot, through random profiles added, rewritten and
// hidden between the questions, with searches running meanwhile: a count a batch changed is
// never answered from the snapshot before it.
func TestTermCountsAsReader(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	vocabulary := []string{"لوله", "لولهکش", "کاشی", "کاشیکار", "نقاش", "نقاشی", "برق", "برقکار",
		"تعمیر", "ساختمان", "plumber", "tile", "24"}
	rng := rand.New(rand.NewPCG(18, 25))
	words := func(rng *rand.Rand, n int) string {
		var ws []string
		for ; n > 0; n-- {
			ws = append(ws, vocabulary[rng.IntN(len(vocabulary))])
		}
		return strings.Join(ws, " ")
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // searches that fill the cache from whatever snapshot they meet
		defer wg.Done()
		rng := rand.New(rand.NewPCG(25, 18))
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := f.ix.SearchProfiles(ctx, search.ProfileQuery{Text: words(rng, 1+rng.IntN(2))}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	defer func() { close(stop); wg.Wait() }()
	var ids []int64
	checked := 0
	for round := 0; round < 60; round++ {
		switch {
		case len(ids) < 5 || rng.IntN(3) == 0:
			ids = append(ids, f.add(words(rng, 2), words(rng, 6), 1, 1, 1, 101, tehranLat, tehranLong).ID)
		case rng.IntN(2) == 0:
			id := ids[rng.IntN(len(ids))]
			rewrite(t, f, id, `UPDATE profiles SET descriotion = ? WHERE id = ?`, words(rng, 6), id)
		default:
			id := ids[rng.IntN(len(ids))]
			rewrite(t, f, id, `UPDATE profiles SET display = 0 WHERE id = ?`, id)
		}
		f.sync()
		for _, field := range []string{"p_text", "p_name"} {
			for pass := 0; pass < 2; pass++ { // the second pass answers from the cache
				cached, plain, held, ok, err := search.TermCounts(ctx, f.ix, field, vocabulary)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(cached, plain) {
					t.Fatalf("round %d, %s, pass %d: cached %v, term reader %v", round, field, pass, cached, plain)
				}
				if pass == 1 && ok {
					checked++
					if !held {
						t.Errorf("round %d, %s: the cache did not keep the counts", round, field)
					}
				}
			}
		}
	}
	if checked < 30 {
		t.Errorf("the cache was checked in %d rounds of 120: the snapshot kept changing", checked)
	}
}

// rewrite changes profile id in the database behind the store's back and queues it for the index.
func rewrite(t *testing.T, f *fixture, id int64, stmt string, args ...any) {
	t.Helper()
	db := f.raw()
	if _, err := db.Exec(stmt, args...); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO index_outbox (entity, entity_id, create_at) VALUES ('profile', ?, 0)`, id); err != nil {
		t.Fatal(err)
	}
}
