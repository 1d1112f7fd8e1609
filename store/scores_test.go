package store_test

import (
	"context"
	"database/sql"
	"math"
	"testing"
	"time"

	"kardan/store"
	"kardan/store/storetest"
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

// TestScoreMeanFollowsWrites: the prior of level_score, kept as two sums by triggers (migration
// 0060), equals the AVG over the profiles table after every kind of write that moves a score:
// demo loading, comments added, edited, hidden and shown, a profile deleted and purged, and a
// tool's raw UPDATE; RefreshLevelScores recounts it exactly.
func TestScoreMeanFollowsWrites(t *testing.T) {
	ctx := context.Background()
	f := newCommunityFixture(t, 4)
	check := func(step string) {
		t.Helper()
		var kept, avg sql.NullFloat64
		var scored, count int64
		db := f.st.DB()
		if err := db.QueryRow(`SELECT CASE WHEN scored > 0 THEN sum_means / scored END, scored FROM score_mean`).Scan(&kept, &scored); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(`SELECT AVG(CAST(score_sum AS REAL) / count_scorer), COUNT(*) FROM profiles WHERE count_scorer > 0`).Scan(&avg, &count); err != nil {
			t.Fatal(err)
		}
		if scored != count || kept.Valid != avg.Valid || math.Abs(kept.Float64-avg.Float64) > 1e-9 {
			t.Fatalf("%s: kept mean %v over %d profiles, the table's AVG %v over %d", step, kept, scored, avg, count)
		}
	}
	check("empty")
	storetest.Demo(t, f.st, 60, 3)
	check("demo profiles loaded")
	a := f.acceptedProfile(t, f.owner, 1, 101)
	b := f.acceptedProfile(t, f.other, 2, 201)
	c1, err := f.st.AddComment(ctx, f.users[0], comment(a.ID, 5, "عالی بود و به‌موقع"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.AddComment(ctx, f.users[1], comment(a.ID, 2, "دیر آمد ولی کار کرد")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.AddComment(ctx, f.users[0], comment(b.ID, 4, "خوب و تمیز کار کرد")); err != nil {
		t.Fatal(err)
	}
	check("comments added")
	if _, err := f.st.EditComment(ctx, f.users[0], &store.CommentInput{ID: c1.ID, Score: 1, Description: "بعدا خراب شد دوباره"}); err != nil {
		t.Fatal(err)
	}
	check("comment edited")
	if _, err := f.st.SetCommentStatus(ctx, nil, c1.ID, store.CommentHidden, ""); err != nil {
		t.Fatal(err)
	}
	check("comment hidden")
	if _, err := f.st.SetCommentStatus(ctx, nil, c1.ID, store.CommentVisible, ""); err != nil {
		t.Fatal(err)
	}
	check("comment shown")
	if err := f.st.DeleteProfile(ctx, f.other, b.ID); err != nil {
		t.Fatal(err)
	}
	check("profile deleted")
	f.clock.advance(400 * 24 * time.Hour)
	if _, _, err := f.st.PurgeDeletedProfiles(ctx); err != nil {
		t.Fatal(err)
	}
	check("deleted profiles purged")
	if err := store.Exec(f.st, `UPDATE profiles SET score_sum = score_sum + 3, count_scorer = count_scorer + 1 WHERE id = ?`, a.ID); err != nil {
		t.Fatal(err)
	}
	check("a tool's raw update")
	if err := store.Exec(f.st, `UPDATE score_mean SET sum_means = sum_means + 0.5`); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.RefreshLevelScores(ctx); err != nil {
		t.Fatal(err)
	}
	check("drift cleared by the daily refresh")
}
