package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"kardan/store"
	"kardan/store/storetest"
)

// Every change a profile's read form shows moves the outbox head: caches of read forms (the
// API's form cache) are valid for one head.
func TestChangesMoveTheOutboxHead(t *testing.T) {
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
	last := int64(-1)
	same := func(step string) {
		t.Helper()
		head, err := f.st.OutboxHead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if head <= last {
			t.Fatalf("%s: the outbox head stayed at %d", step, head)
		}
		last = head
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
	pic2 := "/images/newer.webp"
	if _, err := f.st.UpdateUser(ctx, f.owner.ID, store.UserUpdate{ProfileImage: &pic2}, nil); err != nil {
		t.Fatal(err)
	}
	same("owner's picture")
}

// TestOutboxHeadRecent compares the head a form cache reads (OutboxHeadRecent) with the head
// itself: equal after every write of this process, however many run at once, never above it,
// and equal again within its time to live after a write by another process.
func TestOutboxHeadRecent(t *testing.T) {
	ctx := context.Background()
	f := newProfileFixture(t)
	check := func(step string, equal bool) {
		t.Helper()
		recent, err := f.st.OutboxHeadRecent(ctx)
		if err != nil {
			t.Fatal(err)
		}
		head, err := f.st.OutboxHead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if recent > head || (equal && recent != head) {
			t.Fatalf("%s: recent head %d, head %d", step, recent, head)
		}
	}
	check("opened", true)
	p, err := f.st.CreateProfile(ctx, f.owner.ID, validInput(), false)
	if err != nil {
		t.Fatal(err)
	}
	check("created", true)
	// Writers at once share transactions (group commit); each reads its own write as it returns.
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := validInput()
			in.Descriotion = fmt.Sprintf("توضیح %d", i)
			if _, err := f.st.UpdateProfile(ctx, f.owner, p.ID, in, false); err != nil {
				errs <- err
				return
			}
			recent, err := f.st.OutboxHeadRecent(ctx)
			if err == nil && recent < f.st.OutboxCommitted() {
				err = fmt.Errorf("edit %d: recent head %d below this process's commit %d", i, recent, f.st.OutboxCommitted())
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	check("edited at once", true)
	// A rename queues the owner's profiles with one statement of its own (noteQueued).
	name := "نام تازه"
	if _, err := f.st.UpdateUser(ctx, f.owner.ID, store.UserUpdate{Name: &name}, nil); err != nil {
		t.Fatal(err)
	}
	check("owner renamed", true)

	if storetest.Postgres() {
		return // the recent head is the head itself there
	}
	// Another process (the command line beside a server) writes the same database.
	other, err := store.Open(ctx, f.st.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	in := validInput()
	in.Descriotion = "از خط فرمان"
	if _, err := other.UpdateProfile(ctx, f.owner, p.ID, in, false); err != nil {
		t.Fatal(err)
	}
	check("written by another process", false)
	time.Sleep(300 * time.Millisecond) // headTTL is 250 ms
	check("a time to live later", true)
}
