package store_test

import (
	"context"
	"testing"

	"kardan/store"
)

// Browse counts are cached until the outbox head moves (countCache): each write that changes
// what a browse shows must change its count at once, however often the same filter was counted,
// whether the store reads the head or the caller gives the one it read (BrowseFilter.Head).
func TestBrowseCountsFollowWrites(t *testing.T) {
	ctx := context.Background()
	f := newProfileFixture(t)
	var heads []int64 // every head seen, to ask with old ones too
	count := func(step string, want int) {
		t.Helper()
		head, err := f.st.OutboxHead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		heads = append(heads, head)
		// The head read here (0), then given by the caller as the API gives it, then every
		// older one: a slow request's head must neither be answered from nor empty the cache.
		asked := append([]int64{0, head}, heads...)
		for _, h := range asked {
			for range 2 { // the second answer comes from the cache
				ids, total, err := f.st.BrowseProfiles(ctx, store.BrowseFilter{Order: "best", Limit: 10, Head: h})
				if err != nil {
					t.Fatal(err)
				}
				if total != want || len(ids) != want {
					t.Fatalf("%s, head %d of %d: %d profiles of %d, want %d", step, h, head, len(ids), total, want)
				}
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
