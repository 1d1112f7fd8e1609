package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"kardan/store"
)

// ProfilesWithOwners answers ProfilesByIDs' profiles, in the asked order, with their owners.
func TestProfilesWithOwners(t *testing.T) {
	ctx := context.Background()
	f := newProfileFixture(t)
	var ids []int64
	for _, u := range []int64{f.owner.ID, f.other.ID} {
		p, err := f.st.CreateProfile(ctx, u, validInput(), false)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	ask := []int64{ids[1], 999999, ids[0]}
	want, err := f.st.ProfilesByIDs(ctx, ask)
	if err != nil {
		t.Fatal(err)
	}
	got, owners, err := f.st.ProfilesWithOwners(ctx, ask)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != ids[1] || got[1].ID != ids[0] {
		t.Fatalf("got %d profiles %v, want %v", len(got), got, ids)
	}
	for i := range want {
		if got[i].Descriotion != want[i].Descriotion || !slices.Equal(got[i].CategoryIDs, want[i].CategoryIDs) || got[i].UserID != want[i].UserID {
			t.Errorf("profile %d: got %+v, want %+v", i, got[i], want[i])
		}
		// The lists are kept as their stored text, which holds what the long way decodes.
		s := got[i].Stored
		if s == nil {
			t.Fatalf("profile %d: lists not kept as stored", i)
		}
		var services []store.Service
		var social []store.SocialLink
		var areas []string
		if json.Unmarshal([]byte(s.Services), &services) != nil || json.Unmarshal([]byte(s.SocialNetwork), &social) != nil ||
			json.Unmarshal([]byte(s.AreaWorking), &areas) != nil || !reflect.DeepEqual(services, want[i].Services) ||
			!reflect.DeepEqual(social, want[i].SocialNetwork) || !slices.Equal(areas, want[i].AreaWorking) ||
			!reflect.DeepEqual(got[i].HoursOfWork, want[i].HoursOfWork) {
			t.Errorf("profile %d: stored lists %+v, hours %v; want %+v", i, s, got[i].HoursOfWork, want[i])
		}
	}
	fresh, err := f.st.ProfileOwners(ctx, []int64{f.owner.ID, f.other.ID})
	if err != nil {
		t.Fatal(err)
	}
	public := func(a store.ProfileAuthor) store.ProfileAuthor { a.NumberPhone = ""; return a }
	if len(owners) != 2 || owners[f.owner.ID] != public(fresh[f.owner.ID]) || owners[f.other.ID] != public(fresh[f.other.ID]) {
		t.Fatalf("owners: got %+v, want %+v without their numbers", owners, fresh)
	}
	// The owner's name and picture are copies in the profile row, kept current by triggers.
	img := "/uploads/ab/abcdef.webp"
	name := "نام تازه"
	if _, err := f.st.UpdateUser(ctx, f.owner.ID, store.UserUpdate{Name: &name, ProfileImage: &img}, nil); err != nil {
		t.Fatal(err)
	}
	if _, owners, err = f.st.ProfilesWithOwners(ctx, ask); err != nil {
		t.Fatal(err)
	}
	if got := owners[f.owner.ID]; got.Name != name || got.ProfileImage != img || owners[f.other.ID] != public(fresh[f.other.ID]) {
		t.Fatalf("after the owner's change: got %+v", owners)
	}
	if ps, os, err := f.st.ProfilesWithOwners(ctx, nil); err != nil || len(ps) != 0 || len(os) != 0 {
		t.Fatalf("no ids: %v %v %v", ps, os, err)
	}
}

// Profiles loaded in bulk carry their owners' names and pictures too (the insert trigger).
func TestBulkProfilesCarryOwners(t *testing.T) {
	ctx := context.Background()
	f := newProfileFixture(t)
	users := []*store.User{{NumberPhone: "09125550001", Name: "مریم", PasswordHash: "x", ProfileImage: "/uploads/a.webp", CreateAt: 1, UpdateAt: 1},
		{NumberPhone: "09125550002", Name: "رضا", PasswordHash: "x", CreateAt: 1, UpdateAt: 1}}
	var ps []*store.Profile
	for i, name := range []string{"کارگاه یک", "کارگاه دو", "کارگاه سه"} {
		ps = append(ps, &store.Profile{RangeWorkerID: 1, ProvinceID: 1, CityID: 1, ProfileName: name, Slug: fmt.Sprintf("bulk-%d", i),
			AccountStatus: store.StatusAccepted, Active: true, Display: true, CategoryIDs: []int64{101}, CreateAt: 1, UpdateAt: 1})
	}
	if err := f.st.BulkLoad(ctx, users, ps, []int{0, 1, 0}, nil); err != nil {
		t.Fatal(err)
	}
	got, owners, err := f.st.ProfilesWithOwners(ctx, []int64{ps[0].ID, ps[1].ID, ps[2].ID})
	if err != nil || len(got) != 3 {
		t.Fatalf("%d profiles, %v", len(got), err)
	}
	for i, p := range ps {
		want := users[[]int{0, 1, 0}[i]]
		if a := owners[p.UserID]; p.UserID != want.ID || a.Name != want.Name || a.ProfileImage != want.ProfileImage {
			t.Errorf("profile %d: owner %+v, want %s %q", i, a, want.Name, want.ProfileImage)
		}
	}
}

// Migration 0005 fills the owner copies of profiles that existed before it.
func TestOwnerCopiesFilledByMigration(t *testing.T) {
	ctx := context.Background()
	st, path := openSeededFile(t)
	u := &store.User{NumberPhone: "09125550003", Name: "سارا", PasswordHash: "x", ProfileImage: "/uploads/s.webp"}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	p, err := st.CreateProfile(ctx, u.ID, validInput(), false)
	if err != nil {
		t.Fatal(err)
	}
	// Take the database back to before 0005: no copies, no triggers.
	st = reopenUndoing(t, st, path, `DROP TRIGGER profiles_owner_insert`, `DROP TRIGGER users_owner_copies`,
		`ALTER TABLE profiles DROP COLUMN owner_name`, `ALTER TABLE profiles DROP COLUMN owner_image`,
		`DELETE FROM migrations WHERE version = 5`)
	_, owners, err := st.ProfilesWithOwners(ctx, []int64{p.ID})
	if err != nil {
		t.Fatal(err)
	}
	if a := owners[u.ID]; a.Name != u.Name || a.ProfileImage != u.ProfileImage {
		t.Fatalf("after the migration: owner %+v, want %s %q", a, u.Name, u.ProfileImage)
	}
}

// TestCategoryIDsFilledByMigration: a database from before 0070 has every profile's category ids
// copied into its row by the migration.
func TestCategoryIDsFilledByMigration(t *testing.T) {
	ctx := context.Background()
	st, path := openSeededFile(t)
	u := &store.User{NumberPhone: "09125550004", Name: "سارا", PasswordHash: "x"}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	in := validInput()
	in.CategoryList = []int64{103, 101}
	p, err := st.CreateProfile(ctx, u.ID, in, false)
	if err != nil {
		t.Fatal(err)
	}
	// Take the database back to before 0070: no copies, no triggers.
	st = reopenUndoing(t, st, path, `DROP TRIGGER profile_categories_insert`, `DROP TRIGGER profile_categories_delete`,
		`DROP TRIGGER profile_categories_update`, `ALTER TABLE profiles DROP COLUMN category_ids`,
		`DELETE FROM migrations WHERE version = 70`)
	got, err := st.Profile(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.CategoryIDs, []int64{101, 103}) {
		t.Fatalf("after the migration: categories %v, want [101 103]", got.CategoryIDs)
	}
}
