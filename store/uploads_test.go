package store_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"kardan/store"
)

// TestStaleUploadsKeepsReferences: an upload older than the grace period goes with the purge
// only when nothing shows it. A review's photos (shown or hidden by a moderator, who may show
// the review again) are kept like a profile's pictures and an account's; an upload without a
// thumbnail is not kept by every empty picture column.
func TestStaleUploadsKeepsReferences(t *testing.T) {
	ctx := context.Background()
	f := newCommunityFixture(t, 2)
	n := 0
	upload := func(u *store.User, key, thumb string) string {
		t.Helper()
		n++
		addr := fmt.Sprintf("/uploads/%02x/%064x.jpg", n, n)
		if thumb == "-" {
			thumb = strings.TrimSuffix(addr, ".jpg") + "-400.jpg"
		}
		if err := f.st.RecordUpload(ctx, &store.Upload{UserID: u.ID, UploadKey: key, Address: addr, Thumb: thumb,
			SHA256: fmt.Sprintf("%064x", n), Mime: "image/jpeg", Width: 10, Height: 10, Size: 10}); err != nil {
			t.Fatal(err)
		}
		return addr
	}
	review := upload(f.users[0], store.UploadComment, "-")
	hidden := upload(f.users[1], store.UploadComment, "-")
	picture := upload(f.owner, store.UploadUser, "-")
	logo := upload(f.owner, store.UploadUser, "-")
	portfolio := upload(f.owner, store.UploadUser, "-")
	avatar := upload(f.other, store.UploadUser, "-")
	unused := upload(f.other, store.UploadUser, "-")
	noThumb := upload(f.other, store.UploadUser, "") // unused, and many columns are ''

	in := validInput()
	in.ProfileImage, in.Logo, in.PortfolioImages = picture, logo, []string{portfolio}
	p, err := f.st.CreateProfile(ctx, f.owner.ID, in, false)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Visible() {
		t.Fatalf("profile %d not visible", p.ID)
	}
	if _, err := f.st.UpdateUser(ctx, f.other.ID, store.UserUpdate{ProfileImage: &avatar}, nil); err != nil {
		t.Fatal(err)
	}
	in2 := validInput()
	in2.ProfileName = "پروفایل بی‌عکس"
	if _, err := f.st.CreateProfile(ctx, f.other.ID, in2, false); err != nil {
		t.Fatal(err)
	}
	for i, photo := range []string{review, hidden} {
		c := comment(p.ID, 4, fmt.Sprintf("نظر با عکس شماره %d", i))
		c.Images = []string{photo}
		got, err := f.st.AddComment(ctx, f.users[i], c)
		if err != nil {
			t.Fatal(err)
		}
		if photo == hidden {
			if _, err := f.st.SetCommentStatus(ctx, &f.admin.ID, got.ID, store.CommentHidden, ""); err != nil {
				t.Fatal(err)
			}
		}
	}

	// Within the grace week nothing goes, used or not.
	if stale, err := f.st.StaleUploads(ctx, f.clock.now().Add(-7*24*time.Hour).Unix(), 100); err != nil || len(stale) != 0 {
		t.Fatalf("within the grace week: %v %v", stale, err)
	}
	f.clock.advance(30 * 24 * time.Hour)
	stale, err := f.st.StaleUploads(ctx, f.clock.now().Add(-7*24*time.Hour).Unix(), 100)
	if err != nil {
		t.Fatal(err)
	}
	var gone []string
	for _, su := range stale {
		gone = append(gone, su.Address)
	}
	sort.Strings(gone)
	want := []string{unused, noThumb}
	sort.Strings(want)
	if strings.Join(gone, " ") != strings.Join(want, " ") {
		t.Fatalf("stale uploads %v, want only the unused %v (review %s, hidden review %s)", gone, want, review, hidden)
	}
	// The kept ones are still there for the next purge to keep, the stale ones forgotten.
	if again, err := f.st.StaleUploads(ctx, f.clock.now().Unix(), 100); err != nil || len(again) != 0 {
		t.Fatalf("second purge: %v %v", again, err)
	}
	for _, addr := range []string{review, hidden} {
		if ok, err := f.st.UploadOwnedBy(ctx, map[string]int64{review: f.users[0].ID, hidden: f.users[1].ID}[addr], addr); err != nil || !ok {
			t.Errorf("review photo %s forgotten: %v %v", addr, ok, err)
		}
	}
}
