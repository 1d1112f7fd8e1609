package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"kardan/store"
)

type savedList struct {
	Count    int     `json:"count"`
	IDs      []int64 `json:"ids"`
	Profiles []struct {
		ID          int64  `json:"id"`
		ProfileName string `json:"profile_name"`
		Slug        string `json:"slug"`
	} `json:"profiles"`
}

func (w *communityWorld) saved(t *testing.T, token string) savedList {
	t.Helper()
	return decodePayload[savedList](t, w.must(t, req{method: "GET", path: "/v1/saved", token: token}))
}

// secondProfile makes another public profile, the commenter's, to save beside the first.
func (w *communityWorld) secondProfile(t *testing.T) *store.Profile {
	t.Helper()
	in := &store.ProfileInput{ProfileName: "برق‌کاری علی", ProvinceID: 1, CityID: 1, RangeWorker: 1, CategoryList: []int64{101}}
	p, err := w.Store.CreateProfile(context.Background(), w.commenterID, in, false)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSavedOverHTTP(t *testing.T) {
	w := newCommunityWorld(t)
	second := w.secondProfile(t)
	put := func(token string, id any) req {
		return req{method: "PUT", path: fmt.Sprintf("/v1/saved/%v", id), token: token}
	}

	t.Run("OK", func(t *testing.T) {
		a := w.must(t, withLang(put(w.commenter, w.profile.ID), "en"))
		if !strings.Contains(string(a.Message), "Added to your saved businesses") {
			t.Fatalf("message: %s", a.Message)
		}
		// The same heart twice is not an error and keeps one row.
		w.must(t, put(w.commenter, w.profile.ID))
		w.Clock.advance(1e9)
		w.must(t, put(w.commenter, second.ID))
		got := w.saved(t, w.commenter)
		if got.Count != 2 || len(got.Profiles) != 2 || got.IDs[0] != second.ID || got.IDs[1] != w.profile.ID {
			t.Fatalf("saved: %+v", got)
		}
		if got.Profiles[0].Slug == "" || got.Profiles[0].ID != second.ID {
			t.Fatalf("saved profiles carry their read form: %+v", got.Profiles)
		}
		// Another account's list is its own.
		if other := w.saved(t, w.other); other.Count != 0 || len(other.IDs) != 0 {
			t.Fatalf("other's list: %+v", other)
		}
		a = w.must(t, withLang(req{method: "DELETE", path: fmt.Sprintf("/v1/saved/%d", second.ID), token: w.commenter}, "fa"))
		if !strings.Contains(string(a.Message), "برداشته شد") {
			t.Fatalf("message: %s", a.Message)
		}
		// Taking back one that is not saved (another device did it) is not an error either.
		w.must(t, req{method: "DELETE", path: fmt.Sprintf("/v1/saved/%d", second.ID), token: w.commenter})
		// Nor does one account's delete touch another's list.
		w.must(t, put(w.other, w.profile.ID))
		w.must(t, req{method: "DELETE", path: fmt.Sprintf("/v1/saved/%d", w.profile.ID), token: w.commenter})
		if got := w.saved(t, w.other); got.Count != 1 || got.IDs[0] != w.profile.ID {
			t.Fatalf("other's list after commenter's delete: %+v", got)
		}
	})

	t.Run("Merge", func(t *testing.T) {
		w.must(t, put(w.admin, second.ID))
		w.Clock.advance(1e9)
		// A device's list, newest first, with an unknown id, a pending profile and a duplicate:
		// the public ones are merged in the device's order, the rest skipped.
		body := fmt.Sprintf(`{"ids":[%d,%d,999999,%d,%d]}`, w.profile.ID, second.ID, w.pending.ID, w.profile.ID)
		got := decodePayload[savedList](t, w.must(t, req{method: "POST", path: "/v1/saved", token: w.admin, body: body}))
		if got.Count != 2 || got.IDs[0] != w.profile.ID || got.IDs[1] != second.ID {
			t.Fatalf("merged: %+v", got)
		}
	})

	t.Run("HiddenLater", func(t *testing.T) {
		w.must(t, put(w.commenter, second.ID))
		if err := w.Store.DeleteProfile(context.Background(), &store.User{ID: w.commenterID}, second.ID); err != nil {
			t.Fatal(err)
		}
		if got := w.saved(t, w.commenter); got.Count != 0 {
			t.Fatalf("a deleted profile is not listed: %+v", got)
		}
	})

	t.Run("Errors", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			q      req
			status int
			fa, en string
		}{
			{"ErrSignedOutGet", req{method: "GET", path: "/v1/saved"}, 401, "", ""},
			{"ErrSignedOutPut", put("", w.profile.ID), 401, "", ""},
			{"ErrSignedOutDelete", req{method: "DELETE", path: "/v1/saved/1"}, 401, "", ""},
			{"ErrSignedOutMerge", req{method: "POST", path: "/v1/saved", body: `{"ids":[1]}`}, 401, "", ""},
			{"ErrBadID", put(w.commenter, "abc"), 400, "شناسه", "id"},
			{"ErrZeroID", put(w.commenter, 0), 400, "شناسه", "id"},
			{"ErrNegativeID", req{method: "DELETE", path: "/v1/saved/-3", token: w.commenter}, 400, "شناسه", "id"},
			{"ErrMissing", put(w.commenter, 999999), 404, "", ""},
			{"ErrPending", put(w.commenter, w.pending.ID), 404, "", ""},
			{"ErrMergeNoIDs", req{method: "POST", path: "/v1/saved", token: w.commenter, body: `{}`}, 400, "شناسه‌ها", "ids"},
			{"ErrMergeBadID", req{method: "POST", path: "/v1/saved", token: w.commenter, body: `{"ids":[1,-2]}`}, 400, "شناسه‌ها", "ids"},
			{"ErrMergeNotJSON", req{method: "POST", path: "/v1/saved", token: w.commenter, body: `{"ids":"x"}`}, 400, "", ""},
			{"ErrMergeTooMany", req{method: "POST", path: "/v1/saved", token: w.commenter,
				body: `{"ids":[` + strings.Repeat("1,", store.DefaultQuotas.Saved) + `1]}`}, 400, "حداکثر ۵۰۰", "at most 500"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				fa := w.send(t, withLang(tc.q, "fa"))
				en := w.send(t, withLang(tc.q, "en"))
				if fa.Status != tc.status || en.Status != tc.status {
					t.Fatalf("status: %d %d, want %d: %s", fa.Status, en.Status, tc.status, en.Body)
				}
				if !strings.Contains(string(fa.Message), tc.fa) || !strings.Contains(string(en.Message), tc.en) || len(en.Message) < 5 {
					t.Fatalf("messages: %s | %s", fa.Message, en.Message)
				}
			})
		}
	})

	t.Run("Full", func(t *testing.T) {
		// A full list refuses the next save with a 409 that says why, and keeps the list as it was.
		token, u := w.user(t, "09120000009", "پر", store.RoleUser)
		in := &store.ProfileInput{ProfileName: "نقاشی رضا", ProvinceID: 1, CityID: 1, RangeWorker: 1, CategoryList: []int64{101}}
		third, err := w.Store.CreateProfile(context.Background(), w.otherID, in, false)
		if err != nil {
			t.Fatal(err)
		}
		w.Store.Quotas.Saved = 1
		defer func() { w.Store.Quotas.Saved = store.DefaultQuotas.Saved }()
		if err := w.Store.SaveProfiles(context.Background(), u.ID, []int64{third.ID}, true); err != nil {
			t.Fatal(err)
		}
		q := put(token, w.profile.ID)
		checkError(t, w.send(t, withLang(q, "fa")), 409, "حداکثر ۱ کسب‌وکار")
		checkError(t, w.send(t, withLang(q, "en")), 409, "You can save at most 1 businesses")
		if got := w.saved(t, token); got.Count != 1 || got.IDs[0] != third.ID {
			t.Fatalf("list after refusal: %+v", got)
		}
	})

	t.Run("Concurrent", func(t *testing.T) {
		// Two devices tapping the same hearts at once: every answer is 200 and the list holds
		// each profile once.
		token, _ := w.user(t, "09120000010", "همزمان", store.RoleUser)
		var wg sync.WaitGroup
		statuses := make(chan int, 20)
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id := w.profile.ID
				if i%2 == 1 {
					id = w.pending.ID // a pending profile: 404, never stored
				}
				statuses <- w.send(t, put(token, id)).Status
			}()
		}
		wg.Wait()
		close(statuses)
		for s := range statuses {
			if s != 200 && s != 404 {
				t.Fatalf("status %d", s)
			}
		}
		if got := w.saved(t, token); got.Count != 1 || got.IDs[0] != w.profile.ID {
			t.Fatalf("after the burst: %+v", got)
		}
	})
}

func TestShortLink(t *testing.T) {
	w := newCommunityWorld(t)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string) *http.Response {
		t.Helper()
		res, err := client.Get(w.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	res := get(fmt.Sprintf("/p/%d", w.profile.ID))
	if res.StatusCode != http.StatusMovedPermanently {
		t.Fatalf("status %d", res.StatusCode)
	}
	if want := "/profile/" + url.PathEscape(w.profile.Slug); res.Header.Get("Location") != want {
		t.Fatalf("location %q, want %q", res.Header.Get("Location"), want)
	}
	for _, path := range []string{fmt.Sprintf("/p/%d", w.pending.ID), "/p/999999", "/p/0", "/p/abc", "/p/-1"} {
		if res := get(path); res.StatusCode != http.StatusNotFound {
			t.Fatalf("%s: status %d, want 404", path, res.StatusCode)
		}
	}
}

type photoComment struct {
	ID     int64    `json:"id"`
	Images []string `json:"images"`
	Status string   `json:"status"`
}

func TestReviewPhotosOverHTTP(t *testing.T) {
	w := newCommunityWorld(t)
	ctx := context.Background()
	// Uploads recorded as the upload route records them (its pipeline has its own tests).
	photo := func(userID int64, n int) string {
		addr := fmt.Sprintf("/uploads/%02x/%064x.jpg", n, n)
		if err := w.Store.RecordUpload(ctx, &store.Upload{UserID: userID, UploadKey: store.UploadComment, Address: addr,
			Thumb: strings.TrimSuffix(addr, ".jpg") + "-400.jpg", SHA256: fmt.Sprintf("%064x", n), Mime: "image/jpeg", Width: 10, Height: 10, Size: 10}); err != nil {
			t.Fatal(err)
		}
		return addr
	}
	mine := []string{photo(w.commenterID, 1), photo(w.commenterID, 2), photo(w.commenterID, 3), photo(w.commenterID, 4)}
	theirs := photo(w.otherID, 5)
	add := func(images string) req {
		return req{method: "POST", path: "/v1/comment/add", token: w.commenter,
			body: fmt.Sprintf(`{"description":"کار تمیزی بود","score":5,"user_technical_id":%d,"images":%s}`, w.profile.ID, images)}
	}
	list := func(token string) commentListWithImages {
		return decodePayload[commentListWithImages](t, w.must(t, req{method: "POST", path: "/v1/comment/get", token: token,
			body: fmt.Sprintf(`{"user_technical_id":%d}`, w.profile.ID)}))
	}

	t.Run("Errors", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			images string
			fa, en string
		}{
			{"ErrTooMany", fmt.Sprintf(`[%q,%q,%q,%q]`, mine[0], mine[1], mine[2], mine[3]), "حداکثر ۳ عکس", "at most 3 photos"},
			{"ErrNotYours", fmt.Sprintf(`[%q,%q]`, mine[0], theirs), "بارگذاری‌های خود شما", "your own uploads"},
			{"ErrNotAnUpload", `["https://elsewhere.example/a.jpg"]`, "عکس‌ها", "photos"},
			{"ErrNotStrings", `[1,2]`, "", ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				checkError(t, w.send(t, withLang(add(tc.images), "fa")), 400, tc.fa)
				checkError(t, w.send(t, withLang(add(tc.images), "en")), 400, tc.en)
			})
		}
		// A refused review stored nothing.
		if got := list(""); got.Count != 0 {
			t.Fatalf("after refusals: %+v", got)
		}
	})

	var id int64
	t.Run("OK", func(t *testing.T) {
		// A full URL to one's own upload, and the same photo twice, are stored once as its path.
		c := decodePayload[photoComment](t, w.must(t, add(fmt.Sprintf(`[%q,%q,%q]`, w.URL+mine[0], mine[1], mine[0]))))
		id = c.ID
		if len(c.Images) != 2 || c.Images[0] != mine[0] || c.Images[1] != mine[1] {
			t.Fatalf("images: %+v", c.Images)
		}
		if got := list(""); got.Count != 1 || len(got.Comments[0].Images) != 2 {
			t.Fatalf("public list: %+v", got)
		}
		// An edit that names no images (the spec's client) keeps them; an empty list drops them.
		edit := func(images string) photoComment {
			body := fmt.Sprintf(`{"id":%d,"description":"کار تمیزی بود، سریع","score":4%s}`, id, images)
			return decodePayload[photoComment](t, w.must(t, req{method: "PUT", path: "/v1/comment/edit", token: w.commenter, body: body}))
		}
		if c := edit(""); len(c.Images) != 2 {
			t.Fatalf("edit without images: %+v", c.Images)
		}
		if c := edit(fmt.Sprintf(`,"images":[%q]`, mine[2])); len(c.Images) != 1 || c.Images[0] != mine[2] {
			t.Fatalf("edit with one image: %+v", c.Images)
		}
		// Another user cannot slip someone else's photo in through an edit of their own review.
		checkError(t, w.send(t, withLang(req{method: "PUT", path: "/v1/comment/edit", token: w.commenter,
			body: fmt.Sprintf(`{"id":%d,"description":"کار تمیزی بود","score":4,"images":[%q]}`, id, theirs)}, "en")), 400, "your own uploads")
	})

	t.Run("Moderated", func(t *testing.T) {
		// The admins' queue shows the photos; hiding the review hides them from the public.
		queue := decodePayload[commentListWithImages](t, w.must(t, req{method: "GET", path: "/v1/admin/comment", token: w.admin}))
		if len(queue.Comments) == 0 || queue.Comments[0].ID != id || len(queue.Comments[0].Images) != 1 {
			t.Fatalf("queue: %+v", queue)
		}
		w.must(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/comment/%d/status", id), token: w.admin,
			body: `{"status":"Hidden","description":"عکس نامناسب"}`})
		for _, c := range list("").Comments {
			if c.ID == id {
				t.Fatalf("a hidden review and its photos are still public: %+v", c)
			}
		}
	})
}

type commentListWithImages struct {
	Comments []photoComment `json:"comments"`
	Count    int            `json:"count"`
}

func TestSavedAndPosterPages(t *testing.T) {
	w := newCommunityWorld(t)
	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/saved", 200},
		{fmt.Sprintf("/poster/%d", w.profile.ID), 200},
		{fmt.Sprintf("/poster/%d", w.pending.ID), 404},
		{"/poster/999999", 404},
		{"/poster/abc", 404},
	} {
		res, err := http.Get(w.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Fatalf("%s: %d, want %d", tc.path, res.StatusCode, tc.status)
		}
	}
}
