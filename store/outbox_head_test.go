package store_test

import (
	"context"
	"testing"

	"kardan/store"
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
