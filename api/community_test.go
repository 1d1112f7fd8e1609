package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kardan/api"
	"kardan/auth"
	"kardan/media"
	"kardan/search"
	"kardan/store"
	"kardan/store/storetest"
)

// communityWorld is a real server over a real seeded SQLite file and a real Bleve index, with a
// clock the test moves, loopback trusted as a proxy (so tests speak for client addresses), and
// signed-in users: an owner with an accepted plumber's profile, a commenter, another user and an
// admin.
type communityWorld struct {
	*accountServer
	Index                          *search.Index
	owner, commenter, other, admin string
	ownerID, commenterID, otherID  int64
	profile, pending               *store.Profile
}

func newCommunityWorld(t *testing.T) *communityWorld {
	t.Helper()
	ctx := context.Background()
	st := storetest.Open(t)
	clk := &accountClock{t: time.Date(2026, 3, 21, 8, 0, 0, 0, time.UTC)}
	st.Now = clk.now
	storetest.Seed(t, st)
	ix := storetest.Index(t, st)
	tehran, _ := time.LoadLocation("Asia/Tehran")
	proxies, _ := api.ParseCIDRs([]string{"127.0.0.1", "::1"})
	rec := &smsRecorder{codes: map[string]string{}}
	uploads, err := media.NewLocalDir(filepath.Join(t.TempDir(), "uploads"))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(api.Config{BaseURL: "https://kardan.example", TrustedProxies: proxies, Search: ix, Location: tehran, SMS: rec, SMSPerDay: 3,
		Uploads: uploads}, st)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	w := &communityWorld{
		accountServer: &accountServer{testServer: &testServer{Server: ts, Store: st}, API: srv, Clock: clk, SMS: rec, Uploads: uploads},
		Index:         ix,
	}
	var u *store.User
	w.owner, u = w.user(t, "09120000001", "علی لوله‌کش", store.RoleUser)
	w.ownerID = u.ID
	w.commenter, u = w.user(t, "09120000002", "سارا", store.RoleUser)
	w.commenterID = u.ID
	w.other, u = w.user(t, "09120000003", "رضا", store.RoleUser)
	w.otherID = u.ID
	w.admin, _ = w.user(t, "09120000004", "مدیر", store.RoleAdmin)

	in := &store.ProfileInput{ProfileName: "لوله‌کشی علی", ProvinceID: 1, CityID: 1, RangeWorker: 1, CategoryList: []int64{101, 102}}
	if w.profile, err = st.CreateProfile(ctx, w.ownerID, in, false); err != nil {
		t.Fatal(err)
	}
	in = &store.ProfileInput{ProfileName: "تعمیرات رضا", ProvinceID: 1, CityID: 1, RangeWorker: 2, CategoryList: []int64{201}}
	if w.pending, err = st.CreateProfile(ctx, w.otherID, in, true); err != nil {
		t.Fatal(err)
	}
	return w
}

// user creates an account with a live session and answers its bearer token.
func (w *communityWorld) user(t testing.TB, phone, name string, role store.Role) (string, *store.User) {
	t.Helper()
	ctx := context.Background()
	u := &store.User{NumberPhone: phone, Name: name, PasswordHash: "unused", Role: role, ProfileImage: "/uploads/ab/" + phone + ".jpg"}
	if err := w.Store.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	token, hash, err := auth.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Store.CreateSession(ctx, u.ID, store.NewSession{TokenHash: hash, TTL: auth.SessionTTL}); err != nil {
		t.Fatal(err)
	}
	return token, u
}

// must sends q and fails unless it answers 200.
func (w *communityWorld) must(t testing.TB, q req) answer {
	t.Helper()
	a := w.send(t, q)
	if a.Status != 200 {
		t.Fatalf("%s %s: %d %s", q.method, q.path, a.Status, a.Body)
	}
	return a
}

type commentAnswer struct {
	ID          int64  `json:"id"`
	Description string `json:"description"`
	Score       int    `json:"score"`
	Status      string `json:"status"`
	CreateAt    string `json:"create_at"`
	User        struct {
		ID           int64  `json:"id"`
		Name         string `json:"name"`
		ProfileImage string `json:"profileImage"`
	} `json:"user"`
	Reply *struct {
		Description string `json:"description"`
		CreateAt    string `json:"create_at"`
	} `json:"reply"`
	RegisterAdmin *struct {
		Description string `json:"description"`
	} `json:"register_admin"`
}

type commentList struct {
	Comments []commentAnswer `json:"comments"`
	Count    int             `json:"count"`
	Comment  *commentAnswer  `json:"comment"`
}

// scores reads a profile's scores through its public read form.
func (w *communityWorld) scores(t *testing.T, id int64) (score float64, count int, level float64) {
	t.Helper()
	a := w.must(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d", id)})
	var p struct {
		Score       float64 `json:"score"`
		CountScorer int     `json:"count_scorer"`
		LevelScore  float64 `json:"level_score"`
	}
	json.Unmarshal(a.Payload, &p)
	return p.Score, p.CountScorer, p.LevelScore
}

func TestCommentsOverHTTP(t *testing.T) {
	w := newCommunityWorld(t)
	pid := w.profile.ID
	add := func(score int, text string) string {
		return fmt.Sprintf(`{"category_list":[101],"description":%q,"score":%d,"user_technical_id":%d}`, text, score, pid)
	}

	w.wantError(t, req{method: "POST", path: "/v1/comment/add", body: add(4, "خوب")}, 401,
		"لطفاً برای ثبت نظر ابتدا وارد شوید", "Please log in first to post a comment")

	a := w.must(t, req{method: "POST", path: "/v1/comment/add", body: add(4, "کار تمیز و سریع"), token: w.commenter, lang: "en"})
	first := decodePayload[commentAnswer](t, a)
	if first.Score != 4 || first.User.Name != "سارا" || first.User.ProfileImage == "" || first.Reply != nil ||
		first.Status != "Visible" || first.RegisterAdmin != nil || !strings.Contains(string(a.Message), "Your comment was saved") {
		t.Fatalf("add: got %s", a.Body)
	}
	// C = 5, m = 4 (the only scored profile): level = (5*4 + 4) / 6 = 4.
	if s, n, l := w.scores(t, pid); s != 4 || n != 1 || l != 4 {
		t.Fatalf("after add: got score %v count %d level %v, want 4 1 4", s, n, l)
	}
	// The search index follows at once: a minimum score of 4 finds the profile.
	res := w.must(t, req{method: "POST", path: "/v1/user-technical/searchUser", body: `{"search_txt":"لوله‌کشی","min_score":4}`})
	if !strings.Contains(res.Body, `"count":1`) {
		t.Fatalf("search after scoring: %s", res.Body)
	}

	t.Run("Errors", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			q      req
			status int
			fa, en string
		}{
			{"ErrSecond", req{method: "POST", path: "/v1/comment/add", body: add(5, "دوباره"), token: w.commenter}, 409,
				"شما قبلاً نظر ثبت کرده‌اید", "You have already posted a comment"},
			{"ErrOwnProfile", req{method: "POST", path: "/v1/comment/add", body: add(5, "خودم"), token: w.owner}, 400,
				"نمی‌توانید برای پروفایل خودتان نظر ثبت کنید", "You cannot comment on your own profile"},
			{"ErrScore", req{method: "POST", path: "/v1/comment/add", body: add(7, "خوب"), token: w.other}, 400,
				"امتیاز باید بین ۱ و ۵ باشد", "Score must be between 1 and 5"},
			{"ErrScoreNotInteger", req{method: "POST", path: "/v1/comment/add", token: w.other,
				body: fmt.Sprintf(`{"description":"خوب","score":4.5,"user_technical_id":%d}`, pid)}, 400,
				"امتیاز را درست وارد کنید", "Enter correct score"},
			{"ErrTextShort", req{method: "POST", path: "/v1/comment/add", body: add(3, "x"), token: w.other}, 400,
				"متن نظر باید بین ۲ تا ۲۰۰۰ نویسه باشد", "A comment must be between 2 and 2000 characters"},
			{"ErrTextEmpty", req{method: "POST", path: "/v1/comment/add", body: add(3, "  "), token: w.other}, 400,
				"متن نظر خود را وارد کنید", "Enter the text of your comment"},
			{"ErrNoProfile", req{method: "POST", path: "/v1/comment/add", body: `{"description":"خوب","score":3}`, token: w.other}, 400,
				"پروفایل را وارد کنید", "Enter profile"},
			{"ErrPendingProfile", req{method: "POST", path: "/v1/comment/add", token: w.commenter,
				body: fmt.Sprintf(`{"description":"خوب","score":3,"user_technical_id":%d}`, w.pending.ID)}, 404,
				"موردی یافت نشد", "Item not found"},
			{"ErrForeignCategory", req{method: "POST", path: "/v1/comment/add", token: w.other,
				body: fmt.Sprintf(`{"category_list":[201],"description":"خوب","score":3,"user_technical_id":%d}`, pid)}, 400,
				"دسته‌بندی را درست وارد کنید", "Enter correct category"},
			{"ErrEditByOther", req{method: "PUT", path: "/v1/comment/edit", token: w.other,
				body: fmt.Sprintf(`{"description":"عوض شد","score":1,"id":%d}`, first.ID)}, 403,
				"فقط نویسندهٔ نظر می‌تواند آن را ویرایش کند", "Only the author of a comment can edit it"},
			{"ErrEditByVisitor", req{method: "PUT", path: "/v1/comment/edit",
				body: fmt.Sprintf(`{"description":"عوض شد","score":1,"id":%d}`, first.ID)}, 401,
				"لطفاً برای ثبت نظر ابتدا وارد شوید", "Please log in first to post a comment"},
			{"ErrReplyByCommenter", req{method: "POST", path: "/v1/comment/reply", token: w.commenter,
				body: fmt.Sprintf(`{"id":%d,"description":"پاسخ"}`, first.ID)}, 403,
				"فقط صاحب پروفایل می‌تواند به نظرهای آن پاسخ دهد", "Only the profile's owner can reply to its comments"},
			{"ErrReplyByAdmin", req{method: "POST", path: "/v1/comment/reply", token: w.admin,
				body: fmt.Sprintf(`{"id":%d,"description":"پاسخ"}`, first.ID)}, 403,
				"فقط صاحب پروفایل", "Only the profile's owner"},
			{"ErrReplyEmpty", req{method: "POST", path: "/v1/comment/reply", token: w.owner,
				body: fmt.Sprintf(`{"id":%d,"description":""}`, first.ID)}, 400,
				"متن پاسخ را وارد کنید", "Enter the text of your reply"},
			{"ErrMineVisitor", req{method: "POST", path: "/v1/comment/getCommentRegisterByMe", body: fmt.Sprintf(`{"user_technical_id":%d}`, pid)}, 401,
				"لطفاً ابتدا وارد شوید", "Please sign in first"},
			{"ErrGetPendingProfile", req{method: "POST", path: "/v1/comment/get", body: fmt.Sprintf(`{"user_technical_id":%d}`, w.pending.ID)}, 404,
				"موردی یافت نشد", "Item not found"},
			{"ErrGetTake", req{method: "POST", path: "/v1/comment/get", body: fmt.Sprintf(`{"user_technical_id":%d,"take":500}`, pid)}, 400,
				"اندازهٔ صفحه باید بین ۱ و ۱۰۰ باشد", "Page size must be between 1 and 100"},
			{"ErrHideByUser", req{method: "PUT", path: fmt.Sprintf("/v1/admin/comment/%d/status", first.ID), token: w.owner,
				body: `{"status":"Hidden"}`}, 403, "شما اجازه این کار را ندارید", "You are not allowed to do this"},
			{"ErrHideByVisitor", req{method: "PUT", path: fmt.Sprintf("/v1/admin/comment/%d/status", first.ID),
				body: `{"status":"Hidden"}`}, 401, "لطفاً ابتدا وارد شوید", "Please sign in first"},
			{"ErrHideBadStatus", req{method: "PUT", path: fmt.Sprintf("/v1/admin/comment/%d/status", first.ID), token: w.admin,
				body: `{"status":"Gone"}`}, 400, "وضعیت را درست وارد کنید", "Enter correct status"},
			{"ErrShowVisible", req{method: "PUT", path: fmt.Sprintf("/v1/admin/comment/%d/status", first.ID), token: w.admin,
				body: `{"status":"Visible"}`}, 409, "تغییر وضعیت از «نمایان» به «نمایان» مجاز نیست", `Moving from \"Visible\" to \"Visible\" is not allowed`},
			{"ErrHideMissing", req{method: "PUT", path: "/v1/admin/comment/999999/status", token: w.admin,
				body: `{"status":"Hidden"}`}, 404, "موردی یافت نشد", "Item not found"},
		} {
			t.Run(tc.name, func(t *testing.T) { w.wantError(t, tc.q, tc.status, tc.fa, tc.en) })
		}
		if s, n, _ := w.scores(t, pid); s != 4 || n != 1 {
			t.Fatalf("refused requests changed the scores: %v %d", s, n)
		}
	})

	t.Run("EditScoresFollow", func(t *testing.T) {
		a := w.must(t, req{method: "PUT", path: "/v1/comment/edit", token: w.commenter,
			body: fmt.Sprintf(`{"category_list":[101],"description":"بعد از یک ماه هم عالی","score":5,"id":%d}`, first.ID)})
		if c := decodePayload[commentAnswer](t, a); c.Score != 5 || c.Description != "بعد از یک ماه هم عالی" {
			t.Fatalf("edit: %s", a.Body)
		}
		if s, n, l := w.scores(t, pid); s != 5 || n != 1 || l != 5 {
			t.Fatalf("after edit: got %v %d %v, want 5 1 5", s, n, l)
		}
	})

	t.Run("OwnerReplies", func(t *testing.T) {
		w.must(t, req{method: "POST", path: "/v1/comment/reply", token: w.owner, body: fmt.Sprintf(`{"id":%d,"description":"ممنون"}`, first.ID)})
		a := w.must(t, req{method: "POST", path: "/v1/comment/reply", token: w.owner,
			body: fmt.Sprintf(`{"id":%d,"description":"ممنون از لطف شما"}`, first.ID), lang: "en"})
		if c := decodePayload[commentAnswer](t, a); c.Reply == nil || c.Reply.Description != "ممنون از لطف شما" || c.Reply.CreateAt == "" ||
			!strings.Contains(string(a.Message), "Your reply was saved") {
			t.Fatalf("reply: %s", a.Body)
		}
		l := decodePayload[commentList](t, w.must(t, req{method: "POST", path: "/v1/comment/get",
			body: fmt.Sprintf(`{"category":1,"user_technical_id":%d,"skip":0,"take":20}`, pid)}))
		if l.Count != 1 || l.Comments[0].Reply == nil || l.Comments[0].Reply.Description != "ممنون از لطف شما" {
			t.Fatalf("list: %+v", l)
		}
	})

	t.Run("Mine", func(t *testing.T) {
		l := decodePayload[commentList](t, w.must(t, req{method: "POST", path: "/v1/comment/getCommentRegisterByMe", token: w.commenter,
			body: fmt.Sprintf(`{"user_technical_id":%d,"skip":0,"take":20}`, pid)}))
		if l.Count != 1 || l.Comment == nil || l.Comment.ID != first.ID || len(l.Comments) != 1 {
			t.Fatalf("mine: %+v", l)
		}
		l = decodePayload[commentList](t, w.must(t, req{method: "POST", path: "/v1/comment/getCommentRegisterByMe", token: w.other,
			body: fmt.Sprintf(`{"user_technical_id":%d}`, pid)}))
		if l.Count != 0 || l.Comment != nil || l.Comments == nil {
			t.Fatalf("none: %+v", l)
		}
	})

	t.Run("HideIsModeratedAndAudited", func(t *testing.T) {
		a := w.must(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/comment/%d/status", first.ID), token: w.admin,
			body: `{"status":"Hidden","description":"تبلیغ"}`})
		if c := decodePayload[commentAnswer](t, a); c.Status != "Hidden" || c.RegisterAdmin == nil || c.RegisterAdmin.Description != "تبلیغ" {
			t.Fatalf("hide: %s", a.Body)
		}
		if s, n, _ := w.scores(t, pid); s != 0 || n != 0 {
			t.Fatalf("after hide: got %v %d", s, n)
		}
		public := decodePayload[commentList](t, w.must(t, req{method: "POST", path: "/v1/comment/get", body: fmt.Sprintf(`{"user_technical_id":%d}`, pid)}))
		asAdmin := decodePayload[commentList](t, w.must(t, req{method: "POST", path: "/v1/comment/get", token: w.admin,
			body: fmt.Sprintf(`{"user_technical_id":%d}`, pid)}))
		if public.Count != 0 || asAdmin.Count != 1 {
			t.Fatalf("public %d, admin %d", public.Count, asAdmin.Count)
		}
		queue := w.must(t, req{method: "GET", path: "/v1/admin/comment?status=Hidden", token: w.admin})
		if !strings.Contains(queue.Body, `"count":1`) || !strings.Contains(queue.Body, `"profile_name":"لوله‌کشی علی"`) {
			t.Fatalf("queue: %s", queue.Body)
		}
		log, _ := w.Store.AuditLog(context.Background(), "comment", first.ID)
		if len(log) != 1 || log[0].ToStatus != "Hidden" || log[0].Note != "تبلیغ" {
			t.Fatalf("audit: %+v", log)
		}
		w.must(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/comment/%d/status", first.ID), token: w.admin, body: `{"status":"Visible"}`})
		if s, n, _ := w.scores(t, pid); s != 5 || n != 1 {
			t.Fatalf("after unhide: got %v %d", s, n)
		}
	})
}

func TestCommentPaging(t *testing.T) {
	w := newCommunityWorld(t)
	ctx := context.Background()
	var ids []int64
	for i := 0; i < 43; i++ {
		_, u := w.user(t, fmt.Sprintf("0935100%04d", i), fmt.Sprintf("کاربر %d", i), store.RoleUser)
		w.Clock.advance(time.Minute)
		c, err := w.Store.AddComment(ctx, u, &store.CommentInput{ProfileID: w.profile.ID, Score: 1 + i%5, Description: fmt.Sprintf("نظر %d", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	// SPEC.md §9: page n starts at (n-1)*20.
	for page, want := range [][2]int64{{ids[42], ids[23]}, {ids[22], ids[3]}, {ids[2], ids[0]}} {
		l := decodePayload[commentList](t, w.must(t, req{method: "POST", path: "/v1/comment/get",
			body: fmt.Sprintf(`{"user_technical_id":%d,"skip":%d,"take":20}`, w.profile.ID, page*20)}))
		if l.Count != 43 || l.Comments[0].ID != want[0] || l.Comments[len(l.Comments)-1].ID != want[1] {
			t.Fatalf("page %d: count %d, first %d last %d, want %v", page+1, l.Count, l.Comments[0].ID, l.Comments[len(l.Comments)-1].ID, want)
		}
	}
	// Scores 1..5 repeated: 43 comments sum to 8*15 + (1+2+3) = 126, mean 2.93 → 2.9.
	if s, n, _ := w.scores(t, w.profile.ID); s != 2.9 || n != 43 {
		t.Fatalf("scores: got %v %d", s, n)
	}

	// The histogram, one score kept and the orders: comment i scored 1 + i%5, so 9 each of 1-3
	// and 8 each of 4-5; the newest 2★ is comment 41.
	get := func(extra string) (commentList, [5]int) {
		t.Helper()
		a := w.must(t, req{method: "POST", path: "/v1/comment/get",
			body: fmt.Sprintf(`{"user_technical_id":%d,"skip":0,"take":20%s}`, w.profile.ID, extra)})
		var p struct {
			Scores [5]int `json:"scores"`
		}
		json.Unmarshal(a.Payload, &p)
		return decodePayload[commentList](t, a), p.Scores
	}
	want := [5]int{9, 9, 9, 8, 8}
	if l, h := get(`,"score":2`); l.Count != 9 || l.Comments[0].ID != ids[41] || h != want {
		t.Fatalf("score 2: count %d first %d scores %v", l.Count, l.Comments[0].ID, h)
	}
	for _, s := range l0(get(`,"score":2`)).Comments {
		if s.Score != 2 {
			t.Fatalf("score 2 kept a %d", s.Score)
		}
	}
	if l, _ := get(`,"sort":"highest"`); l.Count != 43 || l.Comments[0].Score != 5 || l.Comments[0].ID != ids[39] || l.Comments[7].Score != 5 || l.Comments[8].Score != 4 {
		t.Fatalf("highest: %+v", l.Comments[0])
	}
	if l, _ := get(`,"sort":"lowest","score":0`); l.Comments[0].Score != 1 || l.Comments[0].ID != ids[40] || l.Comments[9].Score != 2 {
		t.Fatalf("lowest: %+v", l.Comments[0])
	}
	w.wantError(t, req{method: "POST", path: "/v1/comment/get", body: fmt.Sprintf(`{"user_technical_id":%d,"sort":"random"}`, w.profile.ID)}, 400,
		"ترتیب نظرها", "order of the comments")
	w.wantError(t, req{method: "POST", path: "/v1/comment/get", body: fmt.Sprintf(`{"user_technical_id":%d,"score":6}`, w.profile.ID)}, 400,
		"امتیاز باید بین", "Score must be between")
}

// TestCommentsWithPhotosOverHTTP: comment/get's optional with_photos keeps the reviews that carry
// a photo, with score and sort still applying, answers how many have photos beside the whole
// histogram, and refuses a value that is not a boolean on its field in both languages.
func TestCommentsWithPhotosOverHTTP(t *testing.T) {
	w := newCommunityWorld(t)
	ctx := context.Background()
	type row struct {
		score  int
		photos int
	}
	// Newest last: 5★ with a photo, 3★ without, 1★ with two, 5★ without.
	rows := []row{{5, 1}, {3, 0}, {1, 2}, {5, 0}}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		_, u := w.user(t, fmt.Sprintf("0935200%04d", i), fmt.Sprintf("عکاس %d", i), store.RoleUser)
		var images []string
		for j := 0; j < r.photos; j++ {
			n := 10*i + j + 1
			addr := fmt.Sprintf("/uploads/%02x/%064x.jpg", n, n)
			if err := w.Store.RecordUpload(ctx, &store.Upload{UserID: u.ID, UploadKey: store.UploadComment, Address: addr,
				Thumb: strings.TrimSuffix(addr, ".jpg") + "-400.jpg", SHA256: fmt.Sprintf("%064x", n), Mime: "image/jpeg",
				Width: 10, Height: 10, Size: 10}); err != nil {
				t.Fatal(err)
			}
			images = append(images, addr)
		}
		w.Clock.advance(time.Minute)
		c, err := w.Store.AddComment(ctx, u, &store.CommentInput{ProfileID: w.profile.ID, Score: r.score,
			Description: fmt.Sprintf("نظر %d", i), Images: images})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = c.ID
	}
	type answer struct {
		Comments []photoComment `json:"comments"`
		Count    int            `json:"count"`
		Scores   [5]int         `json:"scores"`
		Photos   *int           `json:"with_photos_count"`
	}
	get := func(extra string) (answer, []int64) {
		t.Helper()
		a := decodePayload[answer](t, w.must(t, req{method: "POST", path: "/v1/comment/get",
			body: fmt.Sprintf(`{"user_technical_id":%d,"category":"","skip":0,"take":20%s}`, w.profile.ID, extra)}))
		got := []int64{}
		for _, c := range a.Comments {
			got = append(got, c.ID)
		}
		if a.Scores != [5]int{1, 0, 1, 0, 2} || a.Photos == nil || *a.Photos != 2 {
			t.Fatalf("%s: the counts follow the list: scores %v, with photos %v", extra, a.Scores, a.Photos)
		}
		return a, got
	}
	for _, tc := range []struct {
		extra string
		want  []int64
	}{
		{``, []int64{ids[3], ids[2], ids[1], ids[0]}},
		{`,"with_photos":false`, []int64{ids[3], ids[2], ids[1], ids[0]}},
		{`,"with_photos":null`, []int64{ids[3], ids[2], ids[1], ids[0]}},
		{`,"with_photos":true`, []int64{ids[2], ids[0]}},
		{`,"with_photos":true,"sort":"highest"`, []int64{ids[0], ids[2]}},
		{`,"with_photos":true,"score":5`, []int64{ids[0]}},
		{`,"with_photos":true,"score":3`, []int64{}},
	} {
		a, got := get(tc.extra)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) || a.Count != len(tc.want) {
			t.Fatalf("%s: got %v (count %d), want %v", tc.extra, got, a.Count, tc.want)
		}
		for _, c := range a.Comments {
			if strings.Contains(tc.extra, `"with_photos":true`) && len(c.Images) == 0 {
				t.Fatalf("%s kept %d without photos", tc.extra, c.ID)
			}
		}
	}
	for _, bad := range []string{`"yes"`, `"true"`, `1`, `[]`, `{}`} {
		w.wantError(t, req{method: "POST", path: "/v1/comment/get",
			body: fmt.Sprintf(`{"user_technical_id":%d,"with_photos":%s}`, w.profile.ID, bad)}, 400,
			"فیلتر نظرهای عکس‌دار را درست وارد کنید", "Enter correct with-photos filter of the comments")
	}
}

// l0 keeps the list of a get answer.
func l0(l commentList, _ [5]int) commentList { return l }

type blogAnswer struct {
	ID           int64    `json:"id"`
	WriterID     int64    `json:"writer_id"`
	Title        string   `json:"title"`
	Slug         string   `json:"slug"`
	Content      string   `json:"content"`
	Summary      string   `json:"summary"`
	Tag          []string `json:"tag"`
	Status       string   `json:"status"`
	IsDraft      bool     `json:"isDraft"`
	ReleaseAt    string   `json:"release_at"`
	CategoryList []struct {
		ID   int64  `json:"id"`
		Slag string `json:"slag"`
	} `json:"category_list"`
	Writer struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"writer"`
	RegisterAdmin *struct {
		Description string `json:"description"`
	} `json:"register_admin"`
}

type blogList struct {
	Blogs []blogAnswer `json:"blogs"`
	Count int          `json:"count"`
}

// noScript fails when an answer carries a script element in any encoding.
func noScript(t *testing.T, a answer) {
	t.Helper()
	low := strings.ToLower(a.Body)
	for _, s := range []string{"<script", `\u003cscript`, "onerror", "javascript:"} {
		if strings.Contains(low, s) {
			t.Fatalf("answer holds %q: %s", s, a.Body)
		}
	}
}

func TestBlogsOverHTTP(t *testing.T) {
	w := newCommunityWorld(t)
	const content = `<h2>زمستان</h2><p>پیش از یخبندان لوله‌ها را عایق کنید.</p><script>alert("x")</script>` +
		`<img src=x onerror=alert(1)><a href="javascript:alert(1)">بد</a><a href="https://example.com">منبع</a>`
	draftBody := fmt.Sprintf(`{"title":"یخ‌زدگی لوله‌ها","content":%q,"tag":"زمستان، لوله","category_list":[101],"isDraft":true}`, content)

	w.wantError(t, req{method: "POST", path: "/v1/blog/add", body: draftBody}, 401, "لطفاً ابتدا وارد شوید", "Please sign in first")
	a := w.must(t, req{method: "POST", path: "/v1/blog/add", body: draftBody, token: w.owner})
	noScript(t, a)
	b := decodePayload[blogAnswer](t, a)
	if b.Status != "Draft" || !b.IsDraft || b.Slug != "یخ-زدگی-لوله-ها" || b.WriterID != w.ownerID || b.Writer.Name != "علی لوله‌کش" ||
		len(b.Tag) != 2 || len(b.CategoryList) != 1 || b.CategoryList[0].Slag != "plumber" || b.RegisterAdmin == nil ||
		!strings.Contains(b.Content, `rel="nofollow ugc noopener noreferrer"`) || b.Summary != "زمستان پیش از یخبندان لوله‌ها را عایق کنید. بد منبع" {
		t.Fatalf("draft: %s", a.Body)
	}
	get := fmt.Sprintf("/v1/blog/get/%d", b.ID)
	bySlug := "/v1/blog/get/" + b.Slug
	invisible := func(t *testing.T, stage string) {
		t.Helper()
		for _, p := range []string{get, bySlug} {
			for _, token := range []string{"", w.other} {
				if a := w.send(t, req{method: "GET", path: p, token: token}); a.Status != 404 {
					t.Fatalf("%s: %s answered %d", stage, p, a.Status)
				}
			}
		}
		for _, body := range []string{`{"skip":0,"take":20}`, `{"search_txt":"لوله"}`, `{"tag":"زمستان"}`} {
			l := decodePayload[blogList](t, w.must(t, req{method: "POST", path: "/v1/blog/search", body: body}))
			if l.Count != 0 || len(l.Blogs) != 0 {
				t.Fatalf("%s: search %s found %d", stage, body, l.Count)
			}
		}
		if page := w.send(t, req{method: "GET", path: "/blog/" + b.Slug}); page.Status != 404 {
			t.Fatalf("%s: the blog page answered %d", stage, page.Status)
		}
	}
	invisible(t, "draft")
	if a := w.must(t, req{method: "GET", path: get, token: w.owner}); !strings.Contains(a.Body, `"status":"Draft"`) {
		t.Fatalf("writer reads the draft: %s", a.Body)
	}

	t.Run("Permissions", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			q      req
			status int
			fa, en string
		}{
			{"ErrGetAuthOtherLikeMissing", req{method: "GET", path: fmt.Sprintf("/v1/blog/getAuth/%d", b.ID), token: w.other}, 404,
				"موردی یافت نشد", "Item not found"},
			{"ErrGetAuthVisitor", req{method: "GET", path: fmt.Sprintf("/v1/blog/getAuth/%d", b.ID)}, 401,
				"لطفاً ابتدا وارد شوید", "Please sign in first"},
			{"ErrEditOther", req{method: "PUT", path: "/v1/blog/edit", token: w.other,
				body: fmt.Sprintf(`{"id":%d,"title":"ربودن مقاله","isDraft":true}`, b.ID)}, 403,
				"فقط نویسندهٔ این مقاله", "Only the writer of this article"},
			{"ErrDeleteOther", req{method: "DELETE", path: fmt.Sprintf("/v1/blog/delete/%d", b.ID), token: w.other}, 403,
				"فقط نویسندهٔ این مقاله", "Only the writer of this article"},
			{"ErrNotAnExpert", req{method: "POST", path: "/v1/blog/add", token: w.other,
				body: `{"title":"مقاله من","content":"<p>متن</p>","category_list":[201]}`}, 400,
				"فقط در حوزه‌های کاری پروفایل‌های تأییدشدهٔ خود می‌توانید مقاله بنویسید؛ «تعمیر یخچال", "You can write only in the fields of work of your accepted profiles"},
			{"ErrOutsideOwnField", req{method: "POST", path: "/v1/blog/add", token: w.owner,
				body: `{"title":"مقاله من","content":"<p>متن</p>","category_list":[101, 401]}`}, 400,
				"فقط در حوزه‌های کاری", "is not one of them"},
			{"ErrTitleShort", req{method: "POST", path: "/v1/blog/add", token: w.owner, body: `{"title":"ab","content":"<p>متن</p>","category_list":[101]}`}, 400,
				"عنوان باید دست‌کم ۳ نویسه باشد", "Title must be at least 3 characters"},
			{"ErrNoCategoryOnSubmit", req{method: "POST", path: "/v1/blog/add", token: w.owner, body: `{"title":"عنوان خوب","content":"<p>متن</p>"}`}, 400,
				"دسته‌بندی را وارد کنید", "Enter category"},
			{"ErrOnlyScriptContent", req{method: "POST", path: "/v1/blog/add", token: w.owner,
				body: `{"title":"عنوان خوب","content":"<script>alert(1)</script>","category_list":[101]}`}, 400,
				"متن مقاله را وارد کنید", "Enter article text"},
			{"ErrReleaseAt", req{method: "POST", path: "/v1/blog/add", token: w.owner,
				body: `{"title":"عنوان خوب","content":"<p>متن</p>","category_list":[101],"release_at":"فردا"}`}, 400,
				"تاریخ انتشار را درست وارد کنید", "Enter correct release date"},
			{"ErrImageNotUpload", req{method: "POST", path: "/v1/blog/add", token: w.owner,
				body: `{"title":"عنوان خوب","content":"<p>متن</p>","category_list":[101],"image_url":"https://evil.example/a.jpg"}`}, 400,
				"تصویر مقاله را درست وارد کنید", "Enter correct article image"},
			{"ErrTagNumber", req{method: "POST", path: "/v1/blog/add", token: w.owner,
				body: `{"title":"عنوان خوب","content":"<p>متن</p>","category_list":[101],"tag":7}`}, 400,
				"برچسب‌ها را درست وارد کنید", "Enter correct tags"},
			{"ErrEditNoID", req{method: "PUT", path: "/v1/blog/edit", token: w.owner, body: `{"title":"عنوان"}`}, 400,
				"شناسه را وارد کنید", "Enter id"},
			{"ErrStatusByUser", req{method: "PUT", path: fmt.Sprintf("/v1/admin/blog/%d/status", b.ID), token: w.owner, body: `{"status":"Accepted"}`}, 403,
				"شما اجازه این کار را ندارید", "You are not allowed to do this"},
			{"ErrAcceptDraft", req{method: "PUT", path: fmt.Sprintf("/v1/admin/blog/%d/status", b.ID), token: w.admin, body: `{"status":"Accepted"}`}, 409,
				"تغییر وضعیت از «پیش‌نویس» به «تأییدشده» مجاز نیست", `Moving from \"Draft\" to \"Accepted\" is not allowed`},
			{"ErrStatusPublished", req{method: "PUT", path: fmt.Sprintf("/v1/admin/blog/%d/status", b.ID), token: w.admin, body: `{"status":"Published"}`}, 400,
				"وضعیت را درست وارد کنید", "Enter correct status"},
			{"ErrAdminListBadStatus", req{method: "GET", path: "/v1/admin/blog?status=Nope", token: w.admin}, 400,
				"وضعیت را درست وارد کنید", "Enter correct status"},
			{"ErrSearchCategory", req{method: "POST", path: "/v1/blog/search", body: `{"category_id":999999}`}, 400,
				"دسته‌بندی را درست وارد کنید", "Enter correct category"},
			{"ErrGetMissing", req{method: "GET", path: "/v1/blog/get/no-such-blog"}, 404, "موردی یافت نشد", "Item not found"},
		} {
			t.Run(tc.name, func(t *testing.T) { w.wantError(t, tc.q, tc.status, tc.fa, tc.en) })
		}
		if a := w.must(t, req{method: "GET", path: fmt.Sprintf("/v1/blog/getAuth/%d", b.ID), token: w.admin}); !strings.Contains(a.Body, `"register_admin"`) {
			t.Fatalf("admin getAuth: %s", a.Body)
		}
	})

	// Submitted with a release date a minute ahead (a plain RFC 3339 time): Pending.
	release := w.Clock.now().Add(time.Minute)
	submit := fmt.Sprintf(`{"id":%d,"title":"یخ‌زدگی لوله‌ها","content":%q,"tag":["زمستان","لوله"],"category_list":[{"id":101}],"isDraft":false,"release_at":%q}`,
		b.ID, content, release.Format(time.RFC3339))
	a = w.must(t, req{method: "PUT", path: "/v1/blog/edit", token: w.owner, body: submit})
	noScript(t, a)
	if s := decodePayload[blogAnswer](t, a); s.Status != "Pending" || s.IsDraft || s.ReleaseAt != release.UTC().Format(time.RFC3339) {
		t.Fatalf("submit: %s", a.Body)
	}
	invisible(t, "pending")
	queue := decodePayload[blogList](t, w.must(t, req{method: "GET", path: "/v1/admin/blog?status=Pending", token: w.admin}))
	if queue.Count != 1 || queue.Blogs[0].ID != b.ID || queue.Blogs[0].Content == "" {
		t.Fatalf("admin queue: %+v", queue)
	}

	a = w.must(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/blog/%d/status", b.ID), token: w.admin, body: `{"status":"Accepted","description":"منتشر شود"}`})
	if s := decodePayload[blogAnswer](t, a); s.Status != "Accepted" || s.RegisterAdmin == nil || s.RegisterAdmin.Description != "منتشر شود" {
		t.Fatalf("accept: %s", a.Body)
	}
	invisible(t, "accepted before its release date")

	// The release date passes: nothing is written, yet the blog is public everywhere.
	w.Clock.advance(time.Minute)
	for _, p := range []string{get, bySlug} {
		a := w.must(t, req{method: "GET", path: p})
		noScript(t, a)
		// register_admin is there, as on profiles (SPEC.md §3), but the admin's note is not public.
		if s := decodePayload[blogAnswer](t, a); s.Status != "Published" || s.RegisterAdmin == nil || s.RegisterAdmin.Description != "" ||
			!strings.Contains(a.Body, `"register_admin":{"adminRegisterId":null,"description":""}`) || !strings.Contains(s.Content, "<h2>زمستان</h2>") {
			t.Fatalf("published %s: %s", p, a.Body)
		}
		// The writer's business card: their accepted page (REVIEW #10).
		var card struct {
			WriterProfile *struct {
				ID          int64  `json:"id"`
				Slug        string `json:"slug"`
				ProfileName string `json:"profile_name"`
			} `json:"writer_profile"`
		}
		json.Unmarshal(a.Payload, &card)
		if c := card.WriterProfile; c == nil || c.ID != w.profile.ID || c.Slug != w.profile.Slug || c.ProfileName != "لوله‌کشی علی" {
			t.Fatalf("writer's card %s: %s", p, a.Body)
		}
	}
	for _, body := range []string{`{"skip":0,"take":20}`, `{"search_txt":"لوله"}`, `{"search_txt":"يخبندان"}`, `{"tag":"#زمستان"}`,
		`{"category_id":1}`, fmt.Sprintf(`{"writer_id":%d}`, w.ownerID)} {
		a := w.must(t, req{method: "POST", path: "/v1/blog/search", body: body})
		noScript(t, a)
		l := decodePayload[blogList](t, a)
		if l.Count != 1 || len(l.Blogs) != 1 || l.Blogs[0].ID != b.ID || l.Blogs[0].Content != "" || l.Blogs[0].Summary == "" {
			t.Fatalf("search %s: %s", body, a.Body)
		}
	}
	page := w.must(t, req{method: "GET", path: "/blog/" + b.Slug, lang: "en"})
	for _, want := range []string{"<title>یخ‌زدگی لوله‌ها | Kardan</title>", `<meta property="og:type" content="article">`,
		`"@type":"BlogPosting"`, `"headline":"یخ‌زدگی لوله‌ها"`, `"datePublished":"` + release.UTC().Format(time.RFC3339) + `"`,
		`"author":{"@type":"Person","name":"علی لوله‌کش","url":"https://kardan.example/profile/`, `<link rel="canonical" href="https://kardan.example/blog/یخ-زدگی-لوله-ها">`} {
		if !strings.Contains(page.Body, want) {
			t.Errorf("blog page lacks %s", want)
		}
	}
	if strings.Contains(strings.ToLower(page.Body), "alert(") {
		t.Errorf("the page carries the script: %s", page.Body)
	}

	t.Run("WriterEditKeepsItPublished", func(t *testing.T) {
		a := w.must(t, req{method: "PUT", path: "/v1/blog/edit/" + fmt.Sprint(b.ID), token: w.owner,
			body: `{"title":"یخ‌زدگی لوله‌ها (ویرایش)","content":"<p>متن تازه</p>","category_list":[101],"summary":"<b>خلاصه</b> دستی"}`})
		// With --moderation pre the rewrite waits (audit L5): the published version stays public.
		if s := decodePayload[blogAnswer](t, a); s.Status != "Published" || s.Slug != b.Slug || s.Title != "یخ‌زدگی لوله‌ها" ||
			!strings.Contains(a.Body, `"pending_edit":{"status":"Pending"`) || !strings.Contains(a.Body, "متن تازه") {
			t.Fatalf("edit published: %s", a.Body)
		}
		if pub := w.must(t, req{method: "GET", path: get}); strings.Contains(pub.Body, "متن تازه") || strings.Contains(pub.Body, "pending_edit") {
			t.Fatalf("the public reads the unreviewed rewrite: %s", pub.Body)
		}
		if l := decodePayload[blogList](t, w.must(t, req{method: "POST", path: "/v1/blog/search", body: `{"search_txt":"ویرایش"}`})); l.Count != 0 {
			t.Fatalf("search finds the unreviewed title: %+v", l)
		}
		if l := decodePayload[blogList](t, w.must(t, req{method: "GET", path: "/v1/admin/blog?status=Edited", token: w.admin})); l.Count != 1 {
			t.Fatalf("edits queue: %+v", l)
		}
		a = w.must(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/blog/%d/status", b.ID), token: w.admin, body: `{"status":"Accepted"}`})
		if s := decodePayload[blogAnswer](t, a); s.Status != "Published" || s.Slug != b.Slug || s.Summary != "خلاصه دستی" || strings.Contains(a.Body, "pending_edit") {
			t.Fatalf("accepted rewrite: %s", a.Body)
		}
		if pub := w.must(t, req{method: "GET", path: get}); !strings.Contains(pub.Body, "متن تازه") {
			t.Fatalf("the accepted rewrite is not public: %s", pub.Body)
		}
		// A rejected rewrite leaves the published article and the note.
		w.must(t, req{method: "PUT", path: "/v1/blog/edit/" + fmt.Sprint(b.ID), token: w.owner,
			body: `{"title":"تبلیغ","content":"<p>تبلیغ</p>","category_list":[101]}`})
		a = w.must(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/blog/%d/status", b.ID), token: w.admin, body: `{"status":"Rejected","description":"تبلیغ است"}`})
		if !strings.Contains(a.Body, `"pending_edit":{"status":"Rejected","register_admin":{"adminRegisterId"`) || !strings.Contains(a.Body, "تبلیغ است") {
			t.Fatalf("rejected rewrite: %s", a.Body)
		}
		if pub := w.must(t, req{method: "GET", path: get}); strings.Contains(pub.Body, "تبلیغ") {
			t.Fatalf("the public reads the rejected rewrite: %s", pub.Body)
		}
		w.wantError(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/blog/%d/status", b.ID), token: w.admin, body: `{"status":"Rejected"}`}, 409, "", "")
	})
	t.Run("BlockHidesIt", func(t *testing.T) {
		w.must(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/blog/%d/status", b.ID), token: w.admin, body: `{"status":"Blocked"}`})
		invisible(t, "blocked")
		w.must(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/blog/%d/status", b.ID), token: w.admin, body: `{"status":"Accepted"}`})
		w.must(t, req{method: "GET", path: get})
	})
	t.Run("AuthAllAndDelete", func(t *testing.T) {
		w.must(t, req{method: "POST", path: "/v1/blog/add", token: w.owner, body: `{"title":"پیش‌نویس دوم","isDraft":true}`})
		l := decodePayload[blogList](t, w.must(t, req{method: "POST", path: "/v1/blog/getAuthAll", token: w.owner, body: `{"skip":0,"take":20}`}))
		if l.Count != 2 || l.Blogs[0].Status != "Draft" || l.Blogs[1].Status != "Published" {
			t.Fatalf("getAuthAll: %+v", l)
		}
		if l := decodePayload[blogList](t, w.must(t, req{method: "POST", path: "/v1/blog/getAuthAll", token: w.other, body: `{}`})); l.Count != 0 {
			t.Fatalf("other's getAuthAll: %+v", l)
		}
		a := w.must(t, req{method: "DELETE", path: fmt.Sprintf("/v1/blog/delete/%d", b.ID), token: w.owner, lang: "en"})
		if !strings.Contains(string(a.Message), "The article was deleted") {
			t.Fatalf("delete: %s", a.Body)
		}
		invisible(t, "deleted")
		w.wantError(t, req{method: "GET", path: fmt.Sprintf("/v1/blog/getAuth/%d", b.ID), token: w.owner}, 404, "موردی یافت نشد", "Item not found")
	})
}

func TestBlogModerationOffAndPaging(t *testing.T) {
	w := newCommunityWorld(t)
	// An admin's own articles need no review; they may write in any field.
	for i := 0; i < 23; i++ {
		w.Clock.advance(time.Minute)
		w.must(t, req{method: "POST", path: "/v1/blog/add", token: w.admin,
			body: fmt.Sprintf(`{"title":"راهنمای شماره %d","content":"<p>نگهداری منظم</p>","category_list":[%d],"release_at":"2026-03-21"}`, i, 101+i%2)})
	}
	for _, body := range []string{`{"skip":20,"take":20}`, `{"skip":20,"take":20,"search_txt":"نگهداری"}`} {
		l := decodePayload[blogList](t, w.must(t, req{method: "POST", path: "/v1/blog/search", body: body}))
		if l.Count != 23 || len(l.Blogs) != 3 {
			t.Fatalf("%s: count %d, %d blogs", body, l.Count, len(l.Blogs))
		}
	}
	l := decodePayload[blogList](t, w.must(t, req{method: "POST", path: "/v1/blog/search", body: `{"category_id":102,"search_txt":"راهنما"}`}))
	if l.Count != 11 {
		t.Fatalf("category 102: got %d, want 11", l.Count)
	}
	admin := decodePayload[blogList](t, w.must(t, req{method: "GET", path: "/v1/admin/blog?status=Published&take=5", token: w.admin}))
	if admin.Count != 23 || len(admin.Blogs) != 5 {
		t.Fatalf("admin list: %d %d", admin.Count, len(admin.Blogs))
	}
}

type criticList struct {
	Critics []struct {
		ID          int64  `json:"id"`
		Name        string `json:"name"`
		NumberPhone string `json:"number_phone"`
		Read        bool   `json:"read"`
	} `json:"critics"`
	Count int `json:"count"`
}

func TestCriticsOverHTTP(t *testing.T) {
	w := newCommunityWorld(t)
	const body = `{"name":"مریم","email":"maryam@example.ir","number_phone":"+98 912 111 2233","subject":"پیشنهاد","message":"جستجو بر اساس محله"}`
	a := w.must(t, req{method: "POST", path: "/v1/critics-and-suggestions/add", body: body, ip: "203.0.113.5", lang: "en"})
	if !strings.Contains(string(a.Message), "Your message was received") || !strings.Contains(a.Body, `"number_phone":"09121112233"`) {
		t.Fatalf("add: %s", a.Body)
	}

	for _, tc := range []struct {
		name   string
		q      req
		status int
		fa, en string
	}{
		{"ErrMessageShort", req{method: "POST", path: "/v1/critics-and-suggestions/add", ip: "203.0.113.5", body: `{"message":"بد"}`}, 400,
			"متن پیام باید دست‌کم ۵ نویسه باشد", "Message must be at least 5 characters"},
		{"ErrMessageMissing", req{method: "POST", path: "/v1/critics-and-suggestions/add", ip: "203.0.113.5", body: `{"name":"x"}`}, 400,
			"متن پیام را وارد کنید", "Enter message"},
		{"ErrEmail", req{method: "POST", path: "/v1/critics-and-suggestions/add", ip: "203.0.113.5", body: `{"email":"a@","message":"پیام کامل"}`}, 400,
			"ایمیل را درست وارد کنید", "Enter correct e-mail"},
		{"ErrPhone", req{method: "POST", path: "/v1/critics-and-suggestions/add", ip: "203.0.113.5", body: `{"number_phone":"abc","message":"پیام کامل"}`}, 400,
			"شماره تماس را درست وارد کنید", "Enter correct phone number"},
		{"ErrSubjectLong", req{method: "POST", path: "/v1/critics-and-suggestions/add", ip: "203.0.113.5",
			body: fmt.Sprintf(`{"subject":%q,"message":"پیام کامل"}`, strings.Repeat("م", 151))}, 400,
			"موضوع حداکثر ۱۵۰ نویسه می‌تواند باشد", "Subject can be at most 150 characters"},
		{"ErrWithAuthVisitor", req{method: "POST", path: "/v1/critics-and-suggestions/addWithAuth", body: body}, 401,
			"لطفاً ابتدا وارد شوید", "Please sign in first"},
		{"ErrListVisitor", req{method: "GET", path: "/v1/critics-and-suggestions"}, 401, "لطفاً ابتدا وارد شوید", "Please sign in first"},
		{"ErrListUser", req{method: "GET", path: "/v1/critics-and-suggestions", token: w.owner}, 403,
			"شما اجازه این کار را ندارید", "You are not allowed to do this"},
		{"ErrReadMissingFlag", req{method: "PUT", path: "/v1/admin/critics/1/read", token: w.admin, body: `{}`}, 400,
			"وضعیت خوانده‌شدن را وارد کنید", "Enter read flag"},
		{"ErrReadMissing", req{method: "PUT", path: "/v1/admin/critics/9999/read", token: w.admin, body: `{"read":true}`}, 404,
			"موردی یافت نشد", "Item not found"},
		{"ErrReadByUser", req{method: "PUT", path: "/v1/admin/critics/1/read", token: w.owner, body: `{"read":true}`}, 403,
			"شما اجازه این کار را ندارید", "You are not allowed to do this"},
	} {
		t.Run(tc.name, func(t *testing.T) { w.wantError(t, tc.q, tc.status, tc.fa, tc.en) })
	}

	t.Run("FiveAnonymousSendsPerAddressPerHour", func(t *testing.T) {
		for i := 0; i < 4; i++ {
			w.must(t, req{method: "POST", path: "/v1/critics-and-suggestions/add", body: body, ip: "203.0.113.5"})
		}
		a := w.send(t, req{method: "POST", path: "/v1/critics-and-suggestions/add", body: body, ip: "203.0.113.5", lang: "en"})
		if a.Status != 429 || a.Header.Get("Retry-After") != "3600" || !strings.Contains(string(a.Message), "try again in 3600 seconds") {
			t.Fatalf("sixth send: %d %s %s", a.Status, a.Header.Get("Retry-After"), a.Body)
		}
		w.must(t, req{method: "POST", path: "/v1/critics-and-suggestions/add", body: body, ip: "198.51.100.7"})
		w.Clock.advance(time.Hour)
		w.must(t, req{method: "POST", path: "/v1/critics-and-suggestions/add", body: body, ip: "203.0.113.5"})
	})

	t.Run("WithAuthFillsNameAndNumber", func(t *testing.T) {
		a := w.must(t, req{method: "POST", path: "/v1/critics-and-suggestions/addWithAuth", token: w.commenter,
			body: `{"name":"","email":"","number_phone":"","subject":"","message":"پیامی از کاربر"}`})
		if !strings.Contains(a.Body, `"name":"سارا"`) || !strings.Contains(a.Body, `"number_phone":"09120000002"`) {
			t.Fatalf("addWithAuth: %s", a.Body)
		}
	})

	t.Run("AdminReadsNewestFirst", func(t *testing.T) {
		l := decodePayload[criticList](t, w.must(t, req{method: "GET", path: "/v1/critics-and-suggestions?skip=0&take=3", token: w.admin}))
		if l.Count != 8 || len(l.Critics) != 3 || l.Critics[0].Name != "سارا" || l.Critics[0].Read {
			t.Fatalf("list: %+v", l)
		}
		w.must(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/critics/%d/read", l.Critics[0].ID), token: w.admin, body: `{"read":true}`})
		unread := decodePayload[criticList](t, w.must(t, req{method: "GET", path: "/v1/critics-and-suggestions?read=false", token: w.admin}))
		if unread.Count != 7 {
			t.Fatalf("unread: got %d", unread.Count)
		}
	})
}
