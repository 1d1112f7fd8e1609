package search_test

import (
	"context"
	"testing"

	"kardan/search"
	"kardan/store"
	"kardan/store/storetest"
)

// A facts table read in parts, each a range of ids on its own goroutine, holds what the one pass
// that grows the table holds: every row's facts, its prices and its schedule, and the best
// profiles. Some profiles are hidden, among them the last ones, so parts meet gaps and the
// table ends at the last visible profile.
func TestFactsLoadInPartsAsInOne(t *testing.T) {
	ctx := context.Background()
	st := storetest.Seeded(t)
	storetest.Demo(t, st, 3000, 5)
	for id := int64(1); id <= 3000; id++ {
		if id%7 == 0 || id > 2990 {
			if _, err := st.SetProfileStatus(ctx, nil, id, store.StatusBlocked, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	one, err := search.FactsLoaded(ctx, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(one) != 2992 { // rows 0 to 2990, then the best profiles
		t.Fatalf("one pass made %d rows, want 2,991 and the best", len(one)-1)
	}
	for _, parts := range []int{1, 2, 3, 7} {
		got, err := search.FactsLoaded(ctx, st, parts)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(one) {
			t.Fatalf("%d parts: %d rows, one pass %d", parts, len(got), len(one))
		}
		for i := range one {
			if got[i] != one[i] {
				t.Fatalf("%d parts:\n%s\none pass:\n%s", parts, got[i], one[i])
			}
		}
	}
}
