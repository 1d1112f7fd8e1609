package search_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"kardan/search"
	"kardan/store"
)

// probeWord is a word no other text holds, unique to write i and three letters away from every
// other probe word (typo tolerance finds words one letter away).
func probeWord(i int) string {
	a, b := string(rune('a'+i/26)), string(rune('a'+i%26))
	return "zp" + a + a + a + b + b + b
}

// TestSyncToReadsYourWrites: 40 writers create profiles at once, each waiting with SyncTo for
// the outbox id the store says it has committed. Each finds its own profile in search as soon
// as SyncTo returns (read-your-writes), fewer index batches than writes were applied (the
// writers shared them), and the index so built answers exactly what an index rebuilt from
// scratch answers (the batched path against the plain one).
func TestSyncToReadsYourWrites(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	before := search.SyncBatches(f.ix)
	const writers = 40
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	var slowest time.Duration
	var mu sync.Mutex
	for i := range writers {
		wg.Go(func() {
			u := &store.User{NumberPhone: fmt.Sprintf("0936%07d", i), Name: "owner", PasswordHash: "x"}
			if err := f.st.CreateUser(ctx, u); err != nil {
				errs <- err
				return
			}
			start := time.Now()
			p, err := f.st.CreateProfile(ctx, u.ID, &store.ProfileInput{
				ProfileName: "نجاری " + probeWord(i), Descriotion: "ساخت کابینت", ProvinceID: 1, CityID: 1, RangeWorker: 1,
				CategoryList: []int64{101}, Location: &store.Location{Lat: tehranLat, Long: tehranLong},
			}, false)
			if err != nil {
				errs <- err
				return
			}
			if err := f.ix.SyncTo(ctx, f.st.OutboxCommitted()); err != nil {
				errs <- err
				return
			}
			took := time.Since(start)
			h, err := f.ix.SearchProfiles(ctx, search.ProfileQuery{Text: probeWord(i), Take: 10})
			if err != nil {
				errs <- err
				return
			}
			if !slices.Equal(h.IDs, []int64{p.ID}) {
				errs <- fmt.Errorf("writer %d: search for its own word answers %v right after SyncTo, want [%d]", i, h.IDs, p.ID)
			}
			mu.Lock()
			slowest = max(slowest, took)
			mu.Unlock()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	batches := search.SyncBatches(f.ix) - before
	t.Logf("%d writes applied in %d index batches; slowest write and wait %v", writers, batches, slowest)
	if batches == 0 || batches >= writers {
		t.Errorf("%d index batches for %d concurrent writes: the writers did not share them", batches, writers)
	}

	queries := []search.ProfileQuery{{Text: "نجاری"}, {Text: "کابینت", Order: search.OrderNewest}, {City: "tehran"}}
	for i := range writers {
		queries = append(queries, search.ProfileQuery{Text: probeWord(i)})
	}
	var live []*search.ProfileHits
	for _, q := range queries {
		live = append(live, f.search(q))
	}
	f.ix.Close()
	if err := search.Rebuild(ctx, filepath.Join(f.dir, "index"), f.st); err != nil {
		t.Fatal(err)
	}
	f.open()
	for i, q := range queries {
		if b := f.search(q); !slices.Equal(sorted(live[i].IDs), sorted(b.IDs)) || live[i].Total != b.Total {
			t.Errorf("%+v: batched index %v (%d), rebuilt %v (%d)", q, live[i].IDs, live[i].Total, b.IDs, b.Total)
		}
	}
}

// TestCloseLeavesAppliedBatchesOnDisk: batches answer before they reach the disk, so Close
// waits for them: a clean stop leaves the index at the outbox head, with nothing to catch up.
func TestCloseLeavesAppliedBatchesOnDisk(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	for i := range 5 {
		f.add("نجاری "+probeWord(i), "", 1, 1, 1, 101, tehranLat, tehranLong)
		if err := f.ix.SyncTo(ctx, f.st.OutboxCommitted()); err != nil {
			t.Fatal(err)
		}
	}
	head, err := f.st.OutboxHead(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.ix.Close(); err != nil {
		t.Fatal(err)
	}
	on, err := search.OnDiskPosition(filepath.Join(f.dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	if on != head {
		t.Fatalf("after Close the index on disk is at outbox %d, the head is %d", on, head)
	}
}

// TestPersisterNaps: the live index's persister naps between its rounds (openExisting), so it
// writes the batches that came meanwhile as one segment file; each write is still searchable as
// soon as SyncTo returns. How many batches a nap gathers depends on the machine's pace, so the
// test waits for naps to be counted (without the option Bleve never naps) and logs the rounds.
func TestPersisterNaps(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	batches := search.SyncBatches(f.ix)
	rounds, _ := search.PersisterStats(f.ix)
	const writes = 30
	for i := range writes {
		f.add("نجاری "+probeWord(i), "", 1, 1, 1, 101, tehranLat, tehranLong)
		if err := f.ix.SyncTo(ctx, f.st.OutboxCommitted()); err != nil {
			t.Fatal(err)
		}
		if h := f.search(search.ProfileQuery{Text: probeWord(i), Take: 10}); h.Total != 1 {
			t.Fatalf("write %d: its word finds %d profiles right after SyncTo", i, h.Total)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, naps := search.PersisterStats(f.ix)
		if naps > 0 {
			t.Logf("%d writes, %d index batches, %d rounds of the persister so far, %d naps",
				writes, search.SyncBatches(f.ix)-batches, r-rounds, naps)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the persister did not nap in 10 s (%d rounds for %d batches)", r-rounds, search.SyncBatches(f.ix)-batches)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
