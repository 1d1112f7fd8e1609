package admin_test

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kardan/admin"
	"kardan/media"
	"kardan/store"
	"kardan/store/storetest"
)

func TestPurge(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	dir := storetest.Dir(st)
	now := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	st.Now = func() time.Time { return now }
	storetest.Seed(t, st)
	storage, err := media.NewLocalDir(filepath.Join(dir, "uploads"))
	if err != nil {
		t.Fatal(err)
	}
	u := &store.User{NumberPhone: "09121111111", Name: "x", PasswordHash: "x"}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	reviewer := &store.User{NumberPhone: "09122222222", Name: "y", PasswordHash: "x"}
	if err := st.CreateUser(ctx, reviewer); err != nil {
		t.Fatal(err)
	}
	uploadAs := func(by *store.User, uploadKey, name string) string {
		key := "ab/" + name + ".jpg"
		if err := storage.Put(ctx, key, strings.NewReader("image")); err != nil {
			t.Fatal(err)
		}
		if err := storage.Put(ctx, "ab/"+name+"-t.jpg", strings.NewReader("thumb")); err != nil {
			t.Fatal(err)
		}
		rec := &store.Upload{UserID: by.ID, UploadKey: uploadKey, Address: "/uploads/" + key,
			Thumb: "/uploads/ab/" + name + "-t.jpg", SHA256: name, Mime: "image/jpeg", Width: 1, Height: 1, Size: 5}
		if err := st.RecordUpload(ctx, rec); err != nil {
			t.Fatal(err)
		}
		return rec.Address
	}
	upload := func(name string) string { return uploadAs(u, store.UploadUserTechnical, name) }
	exists := func(addr string) bool {
		f, err := storage.Open(ctx, strings.TrimPrefix(addr, "/uploads/"))
		if errors.Is(err, fs.ErrNotExist) {
			return false
		}
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		return true
	}
	kept := upload("kept")     // the logo of a live profile
	gone := upload("gone")     // the picture of a profile deleted long ago
	unused := upload("unused") // never saved into anything
	live := &store.ProfileInput{ProfileName: "نجاری", ProvinceID: 1, CityID: 1, RangeWorker: 1, CategoryList: []int64{106}, Logo: kept}
	livePro, err := st.CreateProfile(ctx, u.ID, live, false)
	if err != nil {
		t.Fatal(err)
	}
	// A review photo, shown with the review on the live profile, long after its grace week.
	photo := uploadAs(reviewer, store.UploadComment, "review")
	review := &store.CommentInput{ProfileID: livePro.ID, Score: 5, Description: "کار تمیز و به‌موقع", Images: []string{photo}}
	if _, err := st.AddComment(ctx, reviewer, review); err != nil {
		t.Fatal(err)
	}
	old := &store.ProfileInput{ProfileName: "لوله‌کشی", ProvinceID: 1, CityID: 1, RangeWorker: 2, CategoryList: []int64{201}, ProfileImage: gone}
	p, err := st.CreateProfile(ctx, u.ID, old, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteProfile(ctx, u, p.ID); err != nil {
		t.Fatal(err)
	}

	// Within the retention nothing goes, and a new unused upload has its grace week.
	now = now.Add(3 * 24 * time.Hour)
	rep, err := admin.Purge(ctx, st, storage)
	if err != nil || rep.Profiles != 0 || rep.Images != 0 {
		t.Fatalf("early purge: %+v %v", rep, err)
	}

	now = now.Add(31 * 24 * time.Hour)
	fresh := upload("fresh") // uploaded just now: still in its grace week
	rep, err = admin.Purge(ctx, st, storage)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Profiles != 1 || rep.Images != 4 {
		t.Fatalf("got %+v, want 1 profile and 4 files (2 images with thumbnails)", rep)
	}
	for addr, want := range map[string]bool{kept: true, photo: true, gone: false, unused: false, fresh: true} {
		if got := exists(addr); got != want {
			t.Errorf("%s exists: got %v, want %v", addr, got, want)
		}
	}
	if _, err := st.Profile(ctx, p.ID); store.ErrorCode(err) != store.ENotFound {
		t.Errorf("purged profile: %v", err)
	}
	// Purging again finds nothing more.
	if rep, err := admin.Purge(ctx, st, storage); err != nil || rep.Images != 0 || rep.Profiles != 0 {
		t.Fatalf("second purge: %+v %v", rep, err)
	}
}
