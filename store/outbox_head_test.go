package store_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"kardan/store"
)

// The shared read path answers what a fresh read answers, after every kind of change.
func TestSharedProfilesFollowWrites(t *testing.T) {
	ctx := context.Background()
	f := newProfileFixture(t)
	var ids []int64
	for i, u := range []*store.User{f.owner, f.other, f.admin} { // one plumber's profile each
		in := validInput()
		in.ProfileName = []string{"لوله‌کشی یک", "لوله‌کشی دو", "لوله‌کشی سه"}[i]
		p, err := f.st.CreateProfile(ctx, u.ID, in, false)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	same := func(step string) {
		t.Helper()
		want, err := f.st.ProfilesByIDs(ctx, append(ids, 999999))
		if err != nil {
			t.Fatal(err)
		}
		for round := 0; round < 2; round++ { // a miss, then a hit
			got, err := f.st.SharedProfilesByIDs(ctx, append(slices.Clone(ids), 999999))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%s: %d profiles, want %d", step, len(got), len(want))
			}
			for i := range want {
				if got[i].ID != want[i].ID || got[i].Descriotion != want[i].Descriotion || got[i].Visible() != want[i].Visible() ||
					got[i].LevelScore != want[i].LevelScore || got[i].CountScorer != want[i].CountScorer || got[i].AccountStatus != want[i].AccountStatus {
					t.Fatalf("%s, round %d: got %+v, want %+v", step, round, got[i], want[i])
				}
			}
		}
		owners, err := f.st.SharedProfileOwners(ctx, []int64{f.owner.ID})
		if err != nil {
			t.Fatal(err)
		}
		fresh, _ := f.st.ProfileOwners(ctx, []int64{f.owner.ID})
		if owners[f.owner.ID] != fresh[f.owner.ID] {
			t.Fatalf("%s: owner %+v, want %+v", step, owners[f.owner.ID], fresh[f.owner.ID])
		}
	}
	same("created")

	in := validInput()
	in.Descriotion = "توضیح تازه"
	if _, err := f.st.UpdateProfile(ctx, f.owner, ids[0], in, false); err != nil {
		t.Fatal(err)
	}
	same("edited")

	no := false
	if _, err := f.st.SetProfileFlags(ctx, f.other, ids[1], nil, &no); err != nil {
		t.Fatal(err)
	}
	same("hidden")

	if _, err := f.st.SetProfileStatus(ctx, &f.admin.ID, ids[2], store.StatusBlocked, ""); err != nil {
		t.Fatal(err)
	}
	same("blocked")

	if _, err := f.st.AddComment(ctx, f.other, &store.CommentInput{ProfileID: ids[0], Score: 5, Description: "عالی بود"}); err != nil {
		t.Fatal(err)
	}
	same("commented")

	if err := f.st.DeleteProfile(ctx, f.owner, ids[0]); err != nil {
		t.Fatal(err)
	}
	same("deleted")

	name, pic := "نام تازه", "/images/new.webp"
	if _, err := f.st.UpdateUser(ctx, f.owner.ID, store.UserUpdate{Name: &name, ProfileImage: &pic}, nil); err != nil {
		t.Fatal(err)
	}
	same("owner renamed")
	if got, _ := f.st.SharedProfileOwners(ctx, []int64{f.owner.ID}); got[f.owner.ID].Name != name {
		t.Fatalf("owner: got %+v", got[f.owner.ID])
	}
}

// Readers racing a writer never keep what the writer replaced: once the writes are done, the
// shared read path shows the last one.
func TestSharedProfilesUnderConcurrentWrites(t *testing.T) {
	ctx := context.Background()
	f := newProfileFixture(t)
	p, err := f.st.CreateProfile(ctx, f.owner.ID, validInput(), false)
	if err != nil {
		t.Fatal(err)
	}
	const writes = 40
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := f.st.SharedProfilesByIDs(ctx, []int64{p.ID}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	in := validInput()
	for i := 0; i < writes; i++ {
		in.WorkHistoryYears = i
		if _, err := f.st.UpdateProfile(ctx, f.owner, p.ID, in, false); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	got, err := f.st.SharedProfilesByIDs(ctx, []int64{p.ID})
	if err != nil || len(got) != 1 || got[0].WorkHistoryYears != writes-1 {
		t.Fatalf("got %+v %v, want the last write (%d years)", got, err, writes-1)
	}
}
