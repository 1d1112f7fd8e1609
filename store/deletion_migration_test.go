package store_test

import (
	"context"
	"testing"

	"kardan/store"
)

// TestDeletedByFilledByMigration: profiles deleted before migration 0010 take their deleter from
// the audit log (an admin's deletion), or their owner otherwise, so an admin's older deletion
// sticks too (audit L6).
func TestDeletedByFilledByMigration(t *testing.T) {
	ctx := context.Background()
	st, path := openSeededFile(t)
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
	// Take the database back to before 0010.
	st = reopenUndoing(t, st, path, `ALTER TABLE profiles DROP COLUMN deleted_by`, `DELETE FROM migrations WHERE version = 10`)
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
