package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"kardan/store"
)

// communityFixture is a seeded store with a clock, the profile fixture's users and more
// commenters, and one accepted (visible) profile per owner.
type communityFixture struct {
	*profileFixture
	users []*store.User
}

func newCommunityFixture(t *testing.T, commenters int) *communityFixture {
	t.Helper()
	f := &communityFixture{profileFixture: newProfileFixture(t)}
	for i := 0; i < commenters; i++ {
		u := &store.User{NumberPhone: fmt.Sprintf("0935000%04d", i), Name: fmt.Sprintf("نظردهنده %d", i), PasswordHash: "x"}
		if err := f.st.CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
		f.users = append(f.users, u)
	}
	return f
}

// acceptedProfile creates a visible profile of owner in category cat (of field 1 or 2).
func (f *communityFixture) acceptedProfile(t *testing.T, owner *store.User, field, cat int64) *store.Profile {
	t.Helper()
	in := validInput()
	in.RangeWorker, in.CategoryList = field, []int64{cat}
	in.ProfileName = fmt.Sprintf("کسب‌وکار %d-%d", owner.ID, cat)
	p, err := f.st.CreateProfile(context.Background(), owner.ID, in, false)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Visible() {
		t.Fatalf("profile %d not visible", p.ID)
	}
	return p
}

func comment(profile int64, score int, text string) *store.CommentInput {
	return &store.CommentInput{ProfileID: profile, Score: score, Description: text}
}

// wantScores checks a profile's stored scores.
func wantScores(t *testing.T, st *store.Store, id int64, score float64, count int, level float64) {
	t.Helper()
	p, err := st.Profile(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(p.Score-score) > 1e-9 || p.CountScorer != count || math.Abs(p.LevelScore-level) > 1e-9 {
		t.Fatalf("profile %d: got score %v count %d level %.9f, want %v %d %.9f", id, p.Score, p.CountScorer, p.LevelScore,
			score, count, level)
	}
}

// TestScoreArithmetic follows two profiles through adds, an edit, a hide and an unhide, with
// every expectation worked out by hand from DESIGN.md: score = mean (one decimal), level_score =
// (C*m + sum) / (C + n) with C = 5 and m the mean of the scored profiles' means at that moment.
func TestScoreArithmetic(t *testing.T) {
	ctx := context.Background()
	f := newCommunityFixture(t, 3)
	a := f.acceptedProfile(t, f.owner, 1, 101)
	b := f.acceptedProfile(t, f.other, 2, 201)
	u1, u2, u3 := f.users[0], f.users[1], f.users[2]
	wantScores(t, f.st, a.ID, 0, 0, 0)

	// A: one 4. Only A is scored, so m = 4 and level = (5*4 + 4) / 6 = 4.
	head0, _ := f.st.OutboxHead(ctx)
	ca, err := f.st.AddComment(ctx, u1, comment(a.ID, 4, "کار تمیز و به‌موقع"))
	if err != nil {
		t.Fatal(err)
	}
	wantScores(t, f.st, a.ID, 4, 1, 4)
	if head, _ := f.st.OutboxHead(ctx); head != head0+1 {
		t.Errorf("outbox head: got %d, want %d (the profile queued with the comment)", head, head0+1)
	}

	// B: a 5. m = (4 + 5) / 2 = 4.5, level = (5*4.5 + 5) / 6 = 27.5 / 6.
	if _, err := f.st.AddComment(ctx, u1, comment(b.ID, 5, "عالی")); err != nil {
		t.Fatal(err)
	}
	wantScores(t, f.st, b.ID, 5, 1, 27.5/6)
	// Another 5 on B: mean 5, m = 4.5, level = (22.5 + 10) / 7.
	cb2, err := f.st.AddComment(ctx, u2, comment(b.ID, 5, "بسیار خوب"))
	if err != nil {
		t.Fatal(err)
	}
	wantScores(t, f.st, b.ID, 5, 2, 32.5/7)
	// A keeps the level computed with the m of its own last change.
	wantScores(t, f.st, a.ID, 4, 1, 4)

	// Edit A's 4 to a 2: mean 2, m = (2 + 5) / 2 = 3.5, level = (17.5 + 2) / 6 = 3.25.
	if _, err := f.st.EditComment(ctx, u1, &store.CommentInput{ID: ca.ID, Score: 2, Description: "دیر آمد"}); err != nil {
		t.Fatal(err)
	}
	wantScores(t, f.st, a.ID, 2, 1, 3.25)

	// Hide one of B's 5s: count 1, sum 5, m = 3.5, level = (17.5 + 5) / 6 = 3.75.
	if _, err := f.st.SetCommentStatus(ctx, &f.admin.ID, cb2.ID, store.CommentHidden, "توهین‌آمیز"); err != nil {
		t.Fatal(err)
	}
	wantScores(t, f.st, b.ID, 5, 1, 3.75)
	// Show it again: (17.5 + 10) / 7.
	if _, err := f.st.SetCommentStatus(ctx, &f.admin.ID, cb2.ID, store.CommentVisible, ""); err != nil {
		t.Fatal(err)
	}
	wantScores(t, f.st, b.ID, 5, 2, 27.5/7)

	// A: 2, 5, 4 → mean 11/3 = 3.666… shown to one decimal as 3.7. m = (11/3 + 5) / 2 = 13/3,
	// level = (5 * 13/3 + 11) / 8 = (65/3 + 33/3) / 8 = 98/24.
	if _, err := f.st.AddComment(ctx, u2, comment(a.ID, 5, "خوب بود")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.AddComment(ctx, u3, comment(a.ID, 4, "راضی هستم")); err != nil {
		t.Fatal(err)
	}
	wantScores(t, f.st, a.ID, 3.7, 3, 98.0/24)
}

func TestCommentRules(t *testing.T) {
	ctx := context.Background()
	f := newCommunityFixture(t, 2)
	p := f.acceptedProfile(t, f.owner, 1, 101)
	u1, u2 := f.users[0], f.users[1]
	first, err := f.st.AddComment(ctx, u1, &store.CommentInput{ProfileID: p.ID, Score: 4, Description: "  خوب \n\n\n\n بود ",
		CategoryList: store.IDList{101, 1, 101}})
	if err != nil {
		t.Fatal(err)
	}
	if first.Description != "خوب\n\nبود" || len(first.CategoryList) != 2 || first.AuthorName != u1.Name {
		t.Errorf("got %+v", first)
	}

	pending, err := f.st.CreateProfile(ctx, f.other.ID, func() *store.ProfileInput {
		in := validInput()
		in.RangeWorker, in.CategoryList = 3, []int64{301}
		return in
	}(), true)
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name     string
		user     *store.User
		in       *store.CommentInput
		wantCode store.Code
		wantKey  string
	}{
		{"ErrOwnProfile", f.owner, comment(p.ID, 5, "خودم عالی‌ام"), store.EInvalid, "comment_own_profile"},
		{"ErrSecondComment", u1, comment(p.ID, 5, "دوباره"), store.EConflict, "already_commented"},
		{"ErrScoreZero", u2, comment(p.ID, 0, "متن"), store.EInvalid, "out_of_range"},
		{"ErrScoreSix", u2, comment(p.ID, 6, "متن"), store.EInvalid, "out_of_range"},
		{"ErrTextEmpty", u2, comment(p.ID, 3, " \n "), store.EInvalid, "comment_text_required"},
		{"ErrTextOneChar", u2, comment(p.ID, 3, "x"), store.EInvalid, "comment_text_length"},
		{"ErrTextTooLong", u2, comment(p.ID, 3, strings.Repeat("ن", 2001)), store.EInvalid, "comment_text_length"},
		{"ErrForeignCategory", u2, &store.CommentInput{ProfileID: p.ID, Score: 3, Description: "متن", CategoryList: store.IDList{201}},
			store.EInvalid, "enter_correct"},
		{"ErrInvisibleProfile", u2, comment(pending.ID, 3, "متن"), store.ENotFound, "item_not_found"},
		{"ErrMissingProfile", u2, comment(999999, 3, "متن"), store.ENotFound, "item_not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head, _ := f.st.OutboxHead(ctx)
			_, err := f.st.AddComment(ctx, tc.user, tc.in)
			if codeOf(err) != tc.wantCode || errKey(err) != tc.wantKey {
				t.Fatalf("got %v (%s), want %s %s", err, errKey(err), tc.wantCode, tc.wantKey)
			}
			if h, _ := f.st.OutboxHead(ctx); h != head {
				t.Errorf("a refused comment queued the profile")
			}
		})
	}
	t.Run("TwoCharactersIsEnough", func(t *testing.T) {
		if _, err := f.st.AddComment(ctx, u2, comment(p.ID, 1, "بد")); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrEditByOther", func(t *testing.T) {
		_, err := f.st.EditComment(ctx, u2, &store.CommentInput{ID: first.ID, Score: 1, Description: "تغییر"})
		if codeOf(err) != store.EForbidden || errKey(err) != "comment_not_yours" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrEditInvalid", func(t *testing.T) {
		_, err := f.st.EditComment(ctx, u1, &store.CommentInput{ID: first.ID, Score: 9, Description: "تغییر"})
		if codeOf(err) != store.EInvalid {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrEditMissing", func(t *testing.T) {
		_, err := f.st.EditComment(ctx, u1, &store.CommentInput{ID: 424242, Score: 3, Description: "تغییر"})
		if codeOf(err) != store.ENotFound {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ReplyByOwnerOnceAndEditable", func(t *testing.T) {
		c, err := f.st.ReplyComment(ctx, f.owner, first.ID, "ممنون از شما")
		if err != nil {
			t.Fatal(err)
		}
		if c.Reply == nil || *c.Reply != "ممنون از شما" || c.ReplyAt == nil {
			t.Fatalf("got %+v", c)
		}
		f.clock.advance(60)
		c, err = f.st.ReplyComment(ctx, f.owner, first.ID, "ممنون، خوشحالیم")
		if err != nil || *c.Reply != "ممنون، خوشحالیم" {
			t.Fatalf("got %+v %v", c, err)
		}
		// Replying changes no score.
		wantScores(t, f.st, p.ID, 2.5, 2, (5*2.5+5)/7.0)
	})
	t.Run("ErrReplyByOther", func(t *testing.T) {
		for _, u := range []*store.User{u1, u2, f.admin} {
			_, err := f.st.ReplyComment(ctx, u, first.ID, "پاسخ")
			if codeOf(err) != store.EForbidden || errKey(err) != "reply_not_owner" {
				t.Fatalf("user %d: got %v", u.ID, err)
			}
		}
	})
	t.Run("ErrReplyEmpty", func(t *testing.T) {
		_, err := f.st.ReplyComment(ctx, f.owner, first.ID, " ")
		if errKey(err) != "reply_text_required" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("StatusMovesAreAudited", func(t *testing.T) {
		if _, err := f.st.SetCommentStatus(ctx, &f.admin.ID, first.ID, "Deleted", ""); codeOf(err) != store.EInvalid {
			t.Fatalf("bad status: got %v", err)
		}
		if _, err := f.st.SetCommentStatus(ctx, &f.admin.ID, first.ID, store.CommentVisible, ""); errKey(err) != "bad_transition" {
			t.Fatalf("visible to visible: got %v", err)
		}
		c, err := f.st.SetCommentStatus(ctx, &f.admin.ID, first.ID, store.CommentHidden, "spam")
		if err != nil || !c.Hidden || c.AdminNote != "spam" || *c.AdminID != f.admin.ID {
			t.Fatalf("got %+v %v", c, err)
		}
		log, err := f.st.AuditLog(ctx, "comment", first.ID)
		if err != nil || len(log) != 1 || log[0].FromStatus != "Visible" || log[0].ToStatus != "Hidden" || log[0].Note != "spam" {
			t.Fatalf("audit: got %+v %v", log, err)
		}
	})
}

func TestCommentListing(t *testing.T) {
	ctx := context.Background()
	f := newCommunityFixture(t, 25)
	p := f.acceptedProfile(t, f.owner, 1, 101)
	var ids []int64
	for i, u := range f.users {
		f.clock.advance(10)
		in := comment(p.ID, 1+i%5, fmt.Sprintf("نظر شماره %d", i))
		if i%2 == 0 {
			in.CategoryList = store.IDList{101}
		}
		c, err := f.st.AddComment(ctx, u, in)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	if _, err := f.st.SetCommentStatus(ctx, nil, ids[24], store.CommentHidden, ""); err != nil {
		t.Fatal(err)
	}
	visible := false
	page1, total, err := f.st.Comments(ctx, store.CommentFilter{ProfileID: &p.ID, Hidden: &visible, Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	if total != 24 || len(page1) != 20 || page1[0].ID != ids[23] || page1[19].ID != ids[4] {
		t.Fatalf("page 1: got total %d, %d items, first %d last %d", total, len(page1), page1[0].ID, page1[19].ID)
	}
	page2, total, _ := f.st.Comments(ctx, store.CommentFilter{ProfileID: &p.ID, Hidden: &visible, Offset: 20, Limit: 20})
	if total != 24 || len(page2) != 4 || page2[3].ID != ids[0] {
		t.Fatalf("page 2: got total %d, %d items", total, len(page2))
	}
	all, total, _ := f.st.Comments(ctx, store.CommentFilter{ProfileID: &p.ID, Limit: 100})
	if total != 25 || len(all) != 25 {
		t.Fatalf("with hidden: got %d", total)
	}
	_, total, _ = f.st.Comments(ctx, store.CommentFilter{ProfileID: &p.ID, CategoryID: 101, Limit: 100})
	if total != 13 {
		t.Fatalf("category 101: got %d, want 13", total)
	}
	hidden := true
	_, total, _ = f.st.Comments(ctx, store.CommentFilter{Hidden: &hidden})
	if total != 1 {
		t.Fatalf("hidden queue: got %d", total)
	}
	mine, err := f.st.CommentOf(ctx, f.users[24].ID, p.ID)
	if err != nil || mine.ID != ids[24] || !mine.Hidden {
		t.Fatalf("own hidden comment: got %+v %v", mine, err)
	}
	if _, err := f.st.CommentOf(ctx, f.owner.ID, p.ID); codeOf(err) != store.ENotFound {
		t.Fatalf("no comment: got %v", err)
	}
}

// TestCommentsWithPhotos keeps the reviews that carry a photo, with every other filter and order
// still applying, while the counts stay those of the whole list: a review that drops its photos
// leaves the filter and one hidden leaves the public counts.
func TestCommentsWithPhotos(t *testing.T) {
	ctx := context.Background()
	f := newCommunityFixture(t, 5)
	p := f.acceptedProfile(t, f.owner, 1, 101)
	photo := func(u *store.User, n int) string {
		addr := fmt.Sprintf("/uploads/%02x/%064x.jpg", n, n)
		if err := f.st.RecordUpload(ctx, &store.Upload{UserID: u.ID, UploadKey: store.UploadComment, Address: addr,
			Thumb: strings.TrimSuffix(addr, ".jpg") + "-400.jpg", SHA256: fmt.Sprintf("%064x", n), Mime: "image/jpeg",
			Width: 10, Height: 10, Size: 10}); err != nil {
			t.Fatal(err)
		}
		return addr
	}
	// Reviews 0-4 score 5, 3, 1, 4, 5; 0 has one photo, 2 two, 4 one; 1 and 3 none.
	scores := []int{5, 3, 1, 4, 5}
	photos := [][]string{{photo(f.users[0], 1)}, nil, {photo(f.users[2], 2), photo(f.users[2], 3)}, {}, {photo(f.users[4], 4)}}
	ids := make([]int64, len(scores))
	for i, u := range f.users {
		f.clock.advance(10)
		in := comment(p.ID, scores[i], fmt.Sprintf("نظر شماره %d", i))
		in.Images = photos[i]
		c, err := f.st.AddComment(ctx, u, in)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = c.ID
	}
	visible := false
	list := func(filter store.CommentFilter) []int64 {
		t.Helper()
		filter.ProfileID, filter.Hidden, filter.Limit = &p.ID, &visible, 20
		cs, total, err := f.st.Comments(ctx, filter)
		if err != nil {
			t.Fatal(err)
		}
		if total != len(cs) {
			t.Fatalf("%+v: total %d, listed %d", filter, total, len(cs))
		}
		out := []int64{}
		for _, c := range cs {
			if filter.WithPhotos && len(c.Images) == 0 {
				t.Fatalf("%+v kept comment %d without photos", filter, c.ID)
			}
			out = append(out, c.ID)
		}
		return out
	}
	want := func(got []int64, want ...int64) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	counts := func(wantScores [5]int, wantPhotos int) {
		t.Helper()
		c, err := f.st.ScoreCounts(ctx, store.CommentFilter{ProfileID: &p.ID, Hidden: &visible, Score: 5, WithPhotos: true})
		if err != nil {
			t.Fatal(err)
		}
		if c.Scores != wantScores || c.WithPhotos != wantPhotos {
			t.Fatalf("counts: got %+v, want %v and %d with photos", c, wantScores, wantPhotos)
		}
	}

	want(list(store.CommentFilter{}), ids[4], ids[3], ids[2], ids[1], ids[0])
	want(list(store.CommentFilter{WithPhotos: true}), ids[4], ids[2], ids[0])
	want(list(store.CommentFilter{WithPhotos: true, Sort: store.CommentsLowest}), ids[2], ids[4], ids[0])
	want(list(store.CommentFilter{WithPhotos: true, Score: 5}), ids[4], ids[0])
	want(list(store.CommentFilter{WithPhotos: true, Score: 3}))
	// The counts ignore the list's own score and photo filters.
	counts([5]int{1, 0, 1, 1, 2}, 3)

	// An edit that empties the photos leaves the filter; one that sends none keeps them.
	if _, err := f.st.EditComment(ctx, f.users[0], &store.CommentInput{ID: ids[0], Score: 5, Description: "نظر شماره 0", Images: []string{}}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.EditComment(ctx, f.users[4], &store.CommentInput{ID: ids[4], Score: 5, Description: "ویرایش بدون عکس‌ها"}); err != nil {
		t.Fatal(err)
	}
	want(list(store.CommentFilter{WithPhotos: true}), ids[4], ids[2])
	counts([5]int{1, 0, 1, 1, 2}, 2)

	// A hidden review leaves the public list and counts, not the admins'.
	if _, err := f.st.SetCommentStatus(ctx, nil, ids[2], store.CommentHidden, ""); err != nil {
		t.Fatal(err)
	}
	want(list(store.CommentFilter{WithPhotos: true}), ids[4])
	counts([5]int{0, 0, 1, 1, 2}, 1)
	all, total, err := f.st.Comments(ctx, store.CommentFilter{ProfileID: &p.ID, WithPhotos: true})
	if err != nil || total != 2 || len(all) != 2 {
		t.Fatalf("admins' list with photos: got %d (%v)", total, err)
	}
}

// TestProfileCommentsMatchThePlainReads holds comment/get's two-statement read (the profile's
// visibility with the histogram, the total summed from it) to the plain reads it replaces:
// ScoreCounts and Comments, for every filter, order and page, and to Profile's visibility.
func TestProfileCommentsMatchThePlainReads(t *testing.T) {
	ctx := context.Background()
	f := newCommunityFixture(t, 14)
	p := f.acceptedProfile(t, f.owner, 1, 101)
	var ids []int64
	for i, u := range f.users {
		f.clock.advance(10)
		in := comment(p.ID, 1+(i*3)%5, fmt.Sprintf("نظر شماره %d", i))
		if i%2 == 0 {
			in.CategoryList = store.IDList{101}
		}
		if i%3 == 0 {
			addr := fmt.Sprintf("/uploads/%02x/%064x.jpg", i, i)
			if err := f.st.RecordUpload(ctx, &store.Upload{UserID: u.ID, UploadKey: store.UploadComment, Address: addr,
				Thumb: strings.TrimSuffix(addr, ".jpg") + "-400.jpg", SHA256: fmt.Sprintf("%064x", i), Mime: "image/jpeg",
				Width: 10, Height: 10, Size: 10}); err != nil {
				t.Fatal(err)
			}
			in.Images = []string{addr}
		}
		c, err := f.st.AddComment(ctx, u, in)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	for _, id := range ids[:4] {
		if _, err := f.st.SetCommentStatus(ctx, nil, id, store.CommentHidden, ""); err != nil {
			t.Fatal(err)
		}
	}
	bare := f.acceptedProfile(t, f.users[0], 1, 101) // no comments at all
	yes := func(bool, int64) bool { return true }
	checked := 0
	// 32: every list in one statement; 14: as many as p has, still one; 4: p's lists read 5 rows,
	// then take two statements, and the later ones go straight to two.
	defer store.CommentsAtOnce(f.st, 32)
	for _, atOnce := range []int{32, 14, 4} {
		hasMany := store.CommentsAtOnce(f.st, atOnce)
		checked += compareProfileComments(t, f, []int64{p.ID, bare.ID}, yes)
		if hasMany(p.ID) != (atOnce < len(ids)) || hasMany(bare.ID) {
			t.Fatalf("%d at once: p has many %v, bare %v", atOnce, hasMany(p.ID), hasMany(bare.ID))
		}
	}
	t.Logf("%d filters compared", checked)

	// Visibility and owner are the profile's; a refusal and a missing profile are not found.
	var gotVisible bool
	var gotOwner int64
	if _, err := f.st.ProfileComments(ctx, p.ID, store.CommentFilter{}, func(v bool, o int64) bool {
		gotVisible, gotOwner = v, o
		return false
	}); codeOf(err) != store.ENotFound {
		t.Fatalf("refused: got %v", err)
	}
	if !gotVisible || gotOwner != f.owner.ID {
		t.Fatalf("asked with visible %v owner %d, want true %d", gotVisible, gotOwner, f.owner.ID)
	}
	if err := f.st.DeleteProfile(ctx, f.owner, p.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.ProfileComments(ctx, p.ID, store.CommentFilter{}, func(v bool, o int64) bool {
		gotVisible = v
		return true
	}); err != nil || gotVisible {
		t.Fatalf("deleted profile: visible %v, err %v", gotVisible, err)
	}
	if _, err := f.st.ProfileComments(ctx, 1<<40, store.CommentFilter{}, yes); codeOf(err) != store.ENotFound {
		t.Fatalf("missing profile: got %v", err)
	}
	if _, err := f.st.ProfileComments(ctx, p.ID, store.CommentFilter{Sort: "oldest"}, yes); err == nil {
		t.Fatal("unknown order accepted")
	}
}

// compareProfileComments holds ProfileComments of each profile to ScoreCounts and Comments, for
// every filter, order and page, comment by comment, and answers how many filters it compared.
func compareProfileComments(t *testing.T, f *communityFixture, profiles []int64, yes func(bool, int64) bool) int {
	t.Helper()
	ctx := context.Background()
	no, yesNo := false, true
	checked := 0
	for _, profile := range profiles {
		for _, hidden := range []*bool{nil, &no, &yesNo} {
			for _, cat := range []int64{0, 101, 102} {
				for score := 0; score <= 5; score++ {
					for _, photos := range []bool{false, true} {
						for _, sort := range []string{"", store.CommentsNewest, store.CommentsHighest, store.CommentsLowest} {
							for _, page := range [][2]int{{0, 20}, {0, 3}, {2, 3}, {5, 0}, {13, 20}, {40, 20}} {
								flt := store.CommentFilter{ProfileID: &profile, Hidden: hidden, CategoryID: cat, Score: score,
									WithPhotos: photos, Sort: sort, Offset: page[0], Limit: page[1]}
								counts, err := f.st.ScoreCounts(ctx, flt)
								if err != nil {
									t.Fatal(err)
								}
								list, total, err := f.st.Comments(ctx, flt)
								if err != nil {
									t.Fatal(err)
								}
								flt.ProfileID = nil // ProfileComments sets it
								got, err := f.st.ProfileComments(ctx, profile, flt, yes)
								if err != nil {
									t.Fatal(err)
								}
								if got.Counts != counts || got.Total != total || !reflect.DeepEqual(got.Comments, list) {
									t.Fatalf("profile %d %+v: got %+v %d %s, want %+v %d %s", profile, flt, got.Counts, got.Total,
										commentIDs(got.Comments), counts, total, commentIDs(list))
								}
								checked++
							}
						}
					}
				}
			}
		}
	}
	return checked
}

// commentIDs prints the ids of a list, in order.
func commentIDs(cs []*store.Comment) string {
	ids := make([]int64, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	return fmt.Sprint(ids)
}

// AddComment reads only what a review needs of its profile (commentTarget): each of those fields
// must be what the whole row's read answers, for public and hidden profiles alike.
func TestCommentTargetMatchesTheProfile(t *testing.T) {
	ctx := context.Background()
	f := newCommunityFixture(t, 0)
	public := f.acceptedProfile(t, f.owner, 1, 101)
	in := validInput()
	in.RangeWorker, in.CategoryList = 3, []int64{301, 302}
	pending, err := f.st.CreateProfile(ctx, f.other.ID, in, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{public.ID, pending.ID} {
		want, err := f.st.Profile(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		got, err := store.CommentTargetOf(f.st, id)
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != want.ID || got.UserID != want.UserID || got.RangeWorkerID != want.RangeWorkerID || got.ProfileName != want.ProfileName ||
			got.Visible() != want.Visible() || !slices.Equal(got.CategoryIDs, want.CategoryIDs) {
			t.Errorf("profile %d: comment target %+v, the row says %+v", id, got, want)
		}
	}
	if _, err := store.CommentTargetOf(f.st, 999999); !errors.Is(err, sql.ErrNoRows) {
		t.Errorf("a missing profile: got %v, want sql.ErrNoRows", err)
	}
}
