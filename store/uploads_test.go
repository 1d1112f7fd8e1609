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

// TestStaleUploadsKeepsReferencesWrittenDuringPurge: the purge scans from the read pool, then
// forgets in short write transactions. An unused upload that a row written between the two comes
// to use (an account's picture, a profile's logo, a review's photo, a blog's content) or that
// someone uploads again (another user, or the same one: the row's date is renewed) is kept; the
// one still unused goes.
func TestStaleUploadsKeepsReferencesWrittenDuringPurge(t *testing.T) {
	ctx := context.Background()
	f := newCommunityFixture(t, 1)
	n := 0
	upload := func(u *store.User, key string) string {
		t.Helper()
		n++
		addr := fmt.Sprintf("/uploads/%02x/%064x.jpg", n, n)
		if err := f.st.RecordUpload(ctx, &store.Upload{UserID: u.ID, UploadKey: key, Address: addr,
			Thumb: strings.TrimSuffix(addr, ".jpg") + "-400.jpg", SHA256: fmt.Sprintf("%064x", n), Mime: "image/jpeg",
			Width: 10, Height: 10, Size: 10}); err != nil {
			t.Fatal(err)
		}
		return addr
	}
	avatar := upload(f.other, store.UploadUser)
	logo := upload(f.owner, store.UploadUser)
	photo := upload(f.users[0], store.UploadComment)
	inBlog := upload(f.owner, store.UploadUser)
	again := upload(f.other, store.UploadUser)
	sameAgain := upload(f.other, store.UploadUser) // uploaded again by the same user
	unused := upload(f.other, store.UploadUser)
	p, err := f.st.CreateProfile(ctx, f.owner.ID, validInput(), false)
	if err != nil {
		t.Fatal(err)
	}

	f.clock.advance(30 * 24 * time.Hour)
	sc, err := f.st.ScanStaleUploads(ctx, f.clock.now().Add(-7*24*time.Hour).Unix())
	if err != nil {
		t.Fatal(err)
	}
	if sc.Remaining() != 7 {
		t.Fatalf("scan found %d unused uploads, want all 7", sc.Remaining())
	}

	// Between the scan and the forgetting, each comes to be used but one.
	f.clock.advance(time.Minute)
	if _, err := f.st.UpdateUser(ctx, f.other.ID, store.UserUpdate{ProfileImage: &avatar}, nil); err != nil {
		t.Fatal(err)
	}
	in := validInput()
	in.Logo = logo
	if _, err := f.st.UpdateProfile(ctx, f.owner, p.ID, in, false); err != nil {
		t.Fatal(err)
	}
	c := comment(p.ID, 5, "کار تمیز و به‌موقع، با عکس")
	c.Images = []string{photo}
	if _, err := f.st.AddComment(ctx, f.users[0], c); err != nil {
		t.Fatal(err)
	}
	bi := &store.BlogInput{Title: "نگهداری لوله‌ها", Content: `<p>پیش از زمستان</p><img src="` + inBlog + `">`,
		CategoryList: store.IDList{101}}
	if _, err := f.st.CreateBlog(ctx, f.owner, bi, store.BlogOptions{Location: time.UTC}); err != nil {
		t.Fatal(err)
	}
	if err := f.st.RecordUpload(ctx, &store.Upload{UserID: f.users[0].ID, UploadKey: store.UploadUser, Address: again,
		Thumb: strings.TrimSuffix(again, ".jpg") + "-400.jpg", SHA256: "x", Mime: "image/jpeg", Width: 10, Height: 10, Size: 10}); err != nil {
		t.Fatal(err)
	}

	if err := f.st.RecordUpload(ctx, &store.Upload{UserID: f.other.ID, UploadKey: store.UploadUser, Address: sameAgain,
		Thumb: strings.TrimSuffix(sameAgain, ".jpg") + "-400.jpg", SHA256: "x", Mime: "image/jpeg", Width: 10, Height: 10, Size: 10}); err != nil {
		t.Fatal(err)
	}

	gone, err := f.st.ForgetStaleUploads(ctx, sc, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(gone) != 1 || gone[0].Address != unused || sc.Remaining() != 0 {
		t.Fatalf("forgot %v (remaining %d), want only %s", gone, sc.Remaining(), unused)
	}
	for addr, by := range map[string]*store.User{avatar: f.other, logo: f.owner, photo: f.users[0], inBlog: f.owner, again: f.other, sameAgain: f.other} {
		if ok, err := f.st.UploadOwnedBy(ctx, by.ID, addr); err != nil || !ok {
			t.Errorf("%s forgotten though used since the scan: %v %v", addr, ok, err)
		}
	}
}

// TestImageAddressesStoredCanonical: a profile's pictures (saved by its owner or by an admin)
// and a blog's cover are stored as the upload's public path whatever form of it was sent (a
// full URL on this site, data.location without its leading slash), as the purge of unused
// uploads only recognises that path; an address that is no upload is refused.
func TestImageAddressesStoredCanonical(t *testing.T) {
	ctx := context.Background()
	f := newCommunityFixture(t, 1)
	mine := func(u *store.User, n int) string {
		t.Helper()
		addr := fmt.Sprintf("/uploads/%02x/%064x.jpg", n, n)
		if err := f.st.RecordUpload(ctx, &store.Upload{UserID: u.ID, UploadKey: store.UploadUser, Address: addr,
			SHA256: fmt.Sprintf("%064x", n), Mime: "image/jpeg", Width: 10, Height: 10, Size: 10}); err != nil {
			t.Fatal(err)
		}
		return addr
	}
	picture, logo, portfolio, cover := mine(f.owner, 1), mine(f.owner, 2), mine(f.owner, 3), mine(f.owner, 4)
	in := validInput()
	in.ProfileImage = "https://kardan.example" + picture + "?v=2"
	in.Logo = strings.TrimPrefix(logo, "/") // the upload answer's data.location
	in.PortfolioImages = []string{" " + portfolio + " ", ""}
	p, err := f.st.CreateProfile(ctx, f.owner.ID, in, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.ProfileImage != picture || p.Logo != logo || strings.Join(p.PortfolioImages, " ") != portfolio {
		t.Fatalf("owner's save stored %q %q %q", p.ProfileImage, p.Logo, p.PortfolioImages)
	}

	// An admin editing the owner's profile: no ownership check, the same stored form.
	in.ProfileImage, in.Logo = strings.TrimPrefix(logo, "/"), "http://kardan.example"+picture
	in.PortfolioImages = []string{"https://kardan.example" + portfolio + "#x"}
	p, err = f.st.UpdateProfile(ctx, f.admin, p.ID, in, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.ProfileImage != logo || p.Logo != picture || strings.Join(p.PortfolioImages, " ") != portfolio {
		t.Fatalf("admin's save stored %q %q %q", p.ProfileImage, p.Logo, p.PortfolioImages)
	}
	for _, actor := range []*store.User{f.owner, f.admin} {
		for field, set := range map[string]func(in *store.ProfileInput){
			"profile_image":    func(in *store.ProfileInput) { in.ProfileImage = "javascript:alert(1)" },
			"logo":             func(in *store.ProfileInput) { in.Logo = "/etc/passwd" },
			"portfolio_images": func(in *store.ProfileInput) { in.PortfolioImages = []string{"/uploads/../kardan.db"} },
		} {
			bad := validInput()
			set(bad)
			_, err := f.st.UpdateProfile(ctx, actor, p.ID, bad, false)
			if got, key := fieldOf(err); got != field || key != "enter_correct" {
				t.Errorf("%s saving a bad %s: %v (%s %s)", actor.Name, field, err, got, key)
			}
		}
	}
	// Another's upload, in any form, is still not the owner's.
	theirs := mine(f.other, 5)
	bad := validInput()
	bad.Logo = "https://kardan.example" + theirs
	if _, err := f.st.UpdateProfile(ctx, f.owner, p.ID, bad, false); func() string { _, k := fieldOf(err); return k }() != "image_not_yours" {
		t.Errorf("another's upload as logo: %v", err)
	}

	// A review's photos (the reviewer's uploads).
	reviewer := f.other
	photo := mine(reviewer, 6)
	c := comment(p.ID, 5, "کار تمیز و به‌موقع، با عکس")
	c.Images = []string{"https://kardan.example" + photo + "?w=400"}
	got, err := f.st.AddComment(ctx, reviewer, c)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Images, " ") != photo {
		t.Fatalf("review photos stored %q, want %q", got.Images, photo)
	}
	c.Images = []string{"javascript:alert(1)"}
	if _, err := f.st.AddComment(ctx, f.users[0], c); func() string { f, _ := fieldOf(err); return f }() != "images" {
		t.Errorf("bad review photo: %v", err)
	}

	// A blog's cover.
	opt := store.BlogOptions{Location: time.UTC}
	b, err := f.st.CreateBlog(ctx, f.owner, &store.BlogInput{Title: "نگهداری لوله‌ها", Content: "<p>پیش از زمستان</p>",
		ImageURL: "https://kardan.example" + cover, CategoryList: store.IDList{101}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if b.ImageURL != cover {
		t.Fatalf("blog cover stored %q, want %q", b.ImageURL, cover)
	}
	_, err = f.st.CreateBlog(ctx, f.owner, &store.BlogInput{Title: "نگهداری لوله‌ها ۲", Content: "<p>پیش از زمستان</p>",
		ImageURL: "javascript:alert(1)", CategoryList: store.IDList{101}}, opt)
	if field, key := fieldOf(err); field != "image_url" || key != "enter_correct" {
		t.Errorf("bad blog cover: %v (%s %s)", err, field, key)
	}
}
