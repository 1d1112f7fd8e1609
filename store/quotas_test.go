package store_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"kardan/store"
)

// TestBlogQuotas is audit M4: one account stored 150 drafts of 99 KB in 2.4 s. Articles are
// now capped per hour, in total, as drafts and in bytes, and a burst gets exactly the
// hourly allowance.
func TestBlogQuotas(t *testing.T) {
	ctx := context.Background()
	f := newBlogFixture(t)
	f.st.Quotas = store.Quotas{BlogsPerHour: 3, Blogs: 5, Drafts: 4, BlogBytes: 4000, ProfilesPerHour: 10, Profiles: 10, CommentsPerHour: 10, Comments: 10}
	start := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	made, refused := 0, 0
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			_, err := f.st.CreateBlog(ctx, f.owner, blogIn(fmt.Sprintf("پیش‌نویس %d", i), true), f.opt)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				made++
			case codeOf(err) == store.ETooMany && errKey(err) == "quota_hour_blog" && waitOf(err) == 3600:
				refused++
			default:
				t.Errorf("got %v", err)
			}
		}(i)
	}
	close(start)
	wg.Wait()
	if made != 3 || refused != 7 {
		t.Fatalf("a burst of 10: %d made, %d refused; want 3 and 7", made, refused)
	}
	f.clock.advance(time.Hour)
	if _, err := f.st.CreateBlog(ctx, f.owner, blogIn("پیش‌نویس ۴", true), f.opt); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.CreateBlog(ctx, f.owner, blogIn("پیش‌نویس ۵", true), f.opt); errKey(err) != "quota_drafts" {
		t.Fatalf("fifth draft: got %v, want quota_drafts", err)
	}
	// Refused creations roll back their count against the hour.
	big := blogIn("مقالهٔ بلند", false)
	big.Content = "<p>" + strings.Repeat("لوله ", 500) + "</p>"
	if _, err := f.st.CreateBlog(ctx, f.owner, big, f.opt); errKey(err) != "quota_blog_bytes" {
		t.Fatalf("an article over the byte budget: got %v, want quota_blog_bytes", err)
	}
	b, err := f.st.CreateBlog(ctx, f.owner, blogIn("مقاله", false), f.opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.CreateBlog(ctx, f.owner, blogIn("مقالهٔ ششم", false), f.opt); errKey(err) != "quota_blogs" {
		t.Fatalf("sixth article: got %v, want quota_blogs", err)
	}
	// An edit cannot grow the account's text past its budget either.
	edit := blogIn("مقاله", false)
	edit.ID, edit.Content = b.ID, big.Content
	if _, err := f.st.UpdateBlog(ctx, f.owner, edit, f.opt); errKey(err) != "quota_blog_bytes" {
		t.Fatalf("growing edit: got %v, want quota_blog_bytes", err)
	}
	// Deleting frees room.
	if err := f.st.DeleteBlog(ctx, f.owner, b.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.CreateBlog(ctx, f.owner, blogIn("مقالهٔ تازه", false), f.opt); err != nil {
		t.Fatalf("after a delete: %v", err)
	}
}

// TestProfileAndCommentQuotas is audit L7: one account created 219 profiles in 2.3 s and 298
// one-star comments in 8.7 s.
func TestProfileAndCommentQuotas(t *testing.T) {
	ctx := context.Background()
	f := newCommunityFixture(t, 4)
	f.st.Quotas = store.Quotas{BlogsPerHour: 10, Blogs: 10, Drafts: 10, BlogBytes: 1 << 20, ProfilesPerHour: 2, Profiles: 3, CommentsPerHour: 2, Comments: 3}
	create := func(cat int64) error {
		in := validInput()
		in.CategoryList = []int64{cat}
		in.ProfileName = fmt.Sprintf("کسب‌وکار %d", cat)
		_, err := f.st.CreateProfile(ctx, f.owner.ID, in, false)
		return err
	}
	for _, c := range []int64{101, 102} {
		if err := create(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := create(103); codeOf(err) != store.ETooMany || errKey(err) != "quota_hour_profile" {
		t.Fatalf("third profile in an hour: got %v", err)
	}
	f.clock.advance(time.Hour)
	if err := create(103); err != nil {
		t.Fatal(err)
	}
	if err := create(104); errKey(err) != "quota_profiles" {
		t.Fatalf("fourth profile: got %v, want quota_profiles", err)
	}

	var targets []*store.Profile
	for i, u := range f.users {
		targets = append(targets, f.acceptedProfile(t, u, 1, 101+int64(i)))
	}
	for _, p := range targets[:2] {
		if _, err := f.st.AddComment(ctx, f.other, comment(p.ID, 1, "کار بد و دیر")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.st.AddComment(ctx, f.other, comment(targets[2].ID, 1, "کار بد و دیر")); errKey(err) != "quota_hour_comment" {
		t.Fatalf("third comment in an hour: got %v", err)
	}
	f.clock.advance(time.Hour)
	if _, err := f.st.AddComment(ctx, f.other, comment(targets[2].ID, 1, "کار بد و دیر")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.AddComment(ctx, f.other, comment(targets[3].ID, 1, "کار بد و دیر")); errKey(err) != "quota_comments" {
		t.Fatalf("fourth comment: got %v, want quota_comments", err)
	}
}
