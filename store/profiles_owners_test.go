package store_test

import (
	"context"
	"encoding/json"
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
	if len(owners) != 2 || owners[f.owner.ID] != fresh[f.owner.ID] || owners[f.other.ID] != fresh[f.other.ID] {
		t.Fatalf("owners: got %+v, want %+v", owners, fresh)
	}
	if ps, os, err := f.st.ProfilesWithOwners(ctx, nil); err != nil || len(ps) != 0 || len(os) != 0 {
		t.Fatalf("no ids: %v %v %v", ps, os, err)
	}
}
