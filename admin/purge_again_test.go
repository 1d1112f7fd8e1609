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

// An old upload forgotten by the purge but uploaded again before its files are deleted keeps
// them: the row that came back names them. One still unused loses its files.
func TestPurgeKeepsFilesUploadedAgainAfterForgetting(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	now := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	st.Now = func() time.Time { return now }
	storage, err := media.NewLocalDir(filepath.Join(storetest.Dir(st), "uploads"))
	if err != nil {
		t.Fatal(err)
	}
	u := &store.User{NumberPhone: "09121111111", Name: "x", PasswordHash: "x"}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	upload := func(name string) *store.Upload {
		rec := &store.Upload{UserID: u.ID, UploadKey: store.UploadUser, Address: "/uploads/ab/" + name + ".jpg",
			Thumb: "/uploads/ab/" + name + "-400.jpg", SHA256: name, Mime: "image/jpeg", Width: 1, Height: 1, Size: 5}
		for _, addr := range []string{rec.Address, rec.Thumb} {
			if err := storage.Put(ctx, strings.TrimPrefix(addr, "/uploads/"), strings.NewReader("image")); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.RecordUpload(ctx, rec); err != nil {
			t.Fatal(err)
		}
		return rec
	}
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
	back, unused := upload("back"), upload("unused")

	now = now.Add(30 * 24 * time.Hour)
	stale, err := st.StaleUploads(ctx, now.Add(-admin.UploadGrace).Unix(), 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) != 2 {
		t.Fatalf("forgot %v, want both uploads", stale)
	}
	// The same user uploads the same image again between the forgetting and the deleting.
	if err := st.RecordUpload(ctx, back); err != nil {
		t.Fatal(err)
	}
	for _, su := range stale {
		if _, err := admin.DeleteStale(ctx, st, storage, su); err != nil {
			t.Fatal(err)
		}
	}
	if !exists(back.Address) || !exists(back.Thumb) {
		t.Error("the image uploaded again lost its files")
	}
	if exists(unused.Address) || exists(unused.Thumb) {
		t.Error("the unused image kept its files")
	}
}
