package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"kardan/admin"
	"kardan/store"
)

// TestDeletedByFilledByMigration: profiles deleted before migration 0010 take their deleter from
// the audit log (an admin's deletion), or their owner otherwise, so an admin's older deletion
// sticks too (audit L6).
func TestDeletedByFilledByMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kardan.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.SeedReference(ctx, st); err != nil {
		t.Fatal(err)
	}
	owner := &store.User{NumberPhone: "09125550010", Name: "مالک", PasswordHash: "x"}
	adm := &store.User{NumberPhone: "09125550011", Name: "مدیر", PasswordHash: "x", Role: store.RoleAdmin}
	for _, u := range []*store.User{owner, adm} {
		if err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	in := validInput()
	byAdmin, err := st.CreateProfile(ctx, owner.ID, in, false)
	if err != nil {
		t.Fatal(err)
	}
	in2 := validInput()
	in2.CategoryList = []int64{102}
	in2.ProfileName = "دومی"
	byOwner, err := st.CreateProfile(ctx, owner.ID, in2, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteProfile(ctx, adm, byAdmin.ID); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteProfile(ctx, owner, byOwner.ID); err != nil {
		t.Fatal(err)
	}
	st.Close()
	// Take the database back to before 0010.
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`ALTER TABLE profiles DROP COLUMN deleted_by`, `DELETE FROM migrations WHERE version = 10`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	if st, err = store.Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.RestoreProfile(ctx, owner, byAdmin.ID); store.ErrorCode(err) != store.EConflict {
		t.Fatalf("owner restores the admin's deletion: got %v, want a conflict", err)
	}
	if _, err := st.RestoreProfile(ctx, owner, byOwner.ID); err != nil {
		t.Fatalf("owner restores their own deletion: %v", err)
	}
	if _, err := st.RestoreProfile(ctx, adm, byAdmin.ID); err != nil {
		t.Fatalf("admin restores: %v", err)
	}
}
