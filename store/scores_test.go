package store_test

import (
	"context"
	"math"
	"testing"

	"kardan/store"
)

func TestRefreshLevelScores(t *testing.T) {
	ctx := context.Background()
	f := newProfileFixture(t)
	a, err := f.st.CreateProfile(ctx, f.owner.ID, validInput(), false)
	if err != nil {
		t.Fatal(err)
	}
	in := validInput()
	in.CategoryList = []int64{102}
	b, err := f.st.CreateProfile(ctx, f.other.ID, in, false)
	if err != nil {
		t.Fatal(err)
	}
	// a gets a 2 from other, then b gets a 5 from owner: b's comment moves the mean, a keeps the
	// level it got with the old mean until a refresh.
	if _, err := f.st.AddComment(ctx, f.other, &store.CommentInput{ProfileID: a.ID, Description: "بد نبود", Score: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.AddComment(ctx, f.owner, &store.CommentInput{ProfileID: b.ID, Description: "عالی بود", Score: 5}); err != nil {
		t.Fatal(err)
	}
	before, _ := f.st.Profile(ctx, a.ID)
	n, err := f.st.RefreshLevelScores(ctx)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := f.st.Profile(ctx, a.ID)
	// The mean of the profiles' means is (2 + 5) / 2 = 3.5; a: (5 * 3.5 + 2) / (5 + 1) = 3.25.
	if math.Abs(after.LevelScore-3.25) > 1e-9 || n == 0 {
		t.Fatalf("level: before %v, after %v (changed %d), want 3.25", before.LevelScore, after.LevelScore, n)
	}
	if n2, err := f.st.RefreshLevelScores(ctx); err != nil || n2 != 0 {
		t.Fatalf("a second refresh changed %d (%v), want 0", n2, err)
	}
}
