package store_test

import (
	"context"
	"testing"

	"kardan/store"
)

// Browse counts are cached until the outbox head moves (countCache): each write that changes
// what a browse shows must change its count at once, however often the same filter was counted.
func TestBrowseCountsFollowWrites(t *testing.T) {
	ctx := context.Background()
	f := newProfileFixture(t)
	count := func(step string, want int) {
		t.Helper()
		for range 2 { // the second answer comes from the cache
			ids, total, err := f.st.BrowseProfiles(ctx, store.BrowseFilter{Order: "best", Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			if total != want || len(ids) != want {
				t.Fatalf("%s: %d profiles of %d, want %d", step, len(ids), total, want)
			}
		}
	}
	count("empty", 0)
	var ids []int64
	for i, u := range []*store.User{f.owner, f.other} {
		in := validInput()
		in.ProfileName = []string{"لوله‌کشی یک", "لوله‌کشی دو"}[i]
		p, err := f.st.CreateProfile(ctx, u.ID, in, false)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
		count("created", i+1)
	}
	no := false
	if _, err := f.st.SetProfileFlags(ctx, f.other, ids[1], nil, &no); err != nil {
		t.Fatal(err)
	}
	count("hidden", 1)
	if _, err := f.st.SetProfileStatus(ctx, &f.admin.ID, ids[0], store.StatusBlocked, ""); err != nil {
		t.Fatal(err)
	}
	count("blocked", 0)
}
