package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"kardan/store"
)

type reportQueue struct {
	Reports []struct {
		Entity        string         `json:"entity"`
		ID            int64          `json:"id"`
		Count         int            `json:"count"`
		Reasons       map[string]int `json:"reasons"`
		Title         string         `json:"title"`
		ItemStatus    string         `json:"item_status"`
		RegisterAdmin struct {
			Description string `json:"description"`
		} `json:"register_admin"`
		Reports []struct {
			Reason      string `json:"reason"`
			Description string `json:"description"`
		} `json:"reports"`
	} `json:"reports"`
	Count int `json:"count"`
}

func reportReq(entity string, id int64, reason, text, ip string) req {
	return req{method: "POST", path: "/v1/report/add", ip: ip,
		body: fmt.Sprintf(`{"entity":%q,"id":%d,"reason":%q,"description":%q}`, entity, id, reason, text)}
}

func (w *communityWorld) comment(t *testing.T, token string, score int, text string) int64 {
	t.Helper()
	a := w.must(t, req{method: "POST", path: "/v1/comment/add", token: token,
		body: fmt.Sprintf(`{"description":%q,"score":%d,"user_technical_id":%d}`, text, score, w.profile.ID)})
	var c struct {
		ID int64 `json:"id"`
	}
	json.Unmarshal(a.Payload, &c)
	return c.ID
}

func (w *communityWorld) queue(t *testing.T, status string) reportQueue {
	t.Helper()
	return decodePayload[reportQueue](t, w.must(t, req{method: "GET", path: "/v1/admin/report?status=" + status, token: w.admin}))
}

func TestReportsOverHTTP(t *testing.T) {
	w := newCommunityWorld(t)
	spam := w.comment(t, w.commenter, 1, "خرید ارزان قرص در تلگرام @pills")
	fair := w.comment(t, w.other, 4, "کار خوبی بود")

	t.Run("OK", func(t *testing.T) {
		a := w.send(t, withLang(reportReq("comment", spam, "spam", "تبلیغ است", "10.20.0.1"), "en"))
		if a.Status != 200 || !strings.Contains(string(a.Message), "administrators will look into your report") {
			t.Fatalf("report: %d %s", a.Status, a.Body)
		}
		// Signed in or not, from other addresses: the same item gathers its reports.
		r := reportReq("comment", spam, "scam", "", "10.20.0.2")
		r.token = w.other
		w.must(t, r)
		w.must(t, reportReq("comment", spam, "offensive", "", "10.20.0.3"))
		w.must(t, reportReq("profile", w.profile.ID, "wrong_info", "شماره تلفن اشتباه است", "10.20.0.4"))
		w.Clock.advance(time.Minute)
		w.must(t, reportReq("comment", fair, "other", "نمی‌دانم", "10.20.0.5"))
	})
	t.Run("Errors", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			q      req
			status int
			fa, en string
		}{
			{"ErrEntity", reportReq("blog", 1, "spam", "", "10.21.0.1"), 400, "نوع مورد را درست وارد کنید", "Enter correct kind of item"},
			{"ErrID", reportReq("profile", 0, "spam", "", "10.21.0.1"), 400, "شناسه را درست وارد کنید", "Enter correct id"},
			{"ErrReasonMissing", reportReq("profile", w.profile.ID, "", "", "10.21.0.1"), 400, "دلیل گزارش را وارد کنید", "Enter reason"},
			{"ErrReasonUnknown", reportReq("profile", w.profile.ID, "boring", "", "10.21.0.1"), 400, "دلیل گزارش را درست وارد کنید", "Enter correct reason"},
			{"ErrOtherNeedsText", reportReq("profile", w.profile.ID, "other", " ", "10.21.0.1"), 400, "توضیح را وارد کنید", "Enter note"},
			{"ErrTextLong", reportReq("profile", w.profile.ID, "spam", strings.Repeat("ب", 1001), "10.21.0.1"), 400, "۱۰۰۰", "1000"},
			{"ErrPendingProfile", reportReq("profile", w.pending.ID, "spam", "", "10.21.0.1"), 404, "موردی یافت نشد", "Item not found"},
			{"ErrMissingComment", reportReq("comment", 99999, "spam", "", "10.21.0.1"), 404, "موردی یافت نشد", "Item not found"},
			{"ErrRepeat", reportReq("comment", spam, "spam", "", "10.20.0.1"), 409, "پیش‌تر گزارش کرده‌اید", "already reported"},
			{"ErrRepeatSignedIn", req{method: "POST", path: "/v1/report/add", ip: "10.21.0.9", token: w.other,
				body: fmt.Sprintf(`{"entity":"comment","id":%d,"reason":"spam"}`, spam)}, 409, "پیش‌تر گزارش کرده‌اید", "already reported"},
			{"ErrBadJSON", req{method: "POST", path: "/v1/report/add", body: `{"entity":`, ip: "10.21.0.1"}, 400, "قالب JSON درست نیست", "malformed JSON"},
			{"ErrIDNotNumber", req{method: "POST", path: "/v1/report/add", body: `{"entity":"profile","id":"x","reason":"spam"}`, ip: "10.21.0.1"}, 400, "شناسه", "id"},
		} {
			t.Run(tc.name, func(t *testing.T) { w.wantError(t, tc.q, tc.status, tc.fa, tc.en) })
		}
		// Refused reports did not count against 10.21.0.1's hour.
		if a := w.send(t, reportReq("profile", w.profile.ID, "spam", "", "10.21.0.1")); a.Status != 200 {
			t.Fatalf("a good report after refused ones: %d %s", a.Status, a.Body)
		}
	})
	t.Run("AdminOnly", func(t *testing.T) {
		w.wantError(t, req{method: "GET", path: "/v1/admin/report"}, 401, "لطفاً ابتدا وارد شوید", "Please sign in first")
		if a := w.send(t, req{method: "GET", path: "/v1/admin/report", token: w.other}); a.Status != 403 {
			t.Fatalf("as a user: %d", a.Status)
		}
		if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/report/comment/%d/status", spam), token: w.other, body: `{"status":"Dismissed"}`}); a.Status != 403 {
			t.Fatalf("resolve as a user: %d", a.Status)
		}
		w.wantError(t, req{method: "GET", path: "/v1/admin/report?status=Maybe", token: w.admin}, 400, "وضعیت", "status")
	})
	t.Run("RepeatedReportsRiseToTheTop", func(t *testing.T) {
		q := w.queue(t, "Open")
		if q.Count != 3 || len(q.Reports) != 3 {
			t.Fatalf("queue: %+v", q)
		}
		top := q.Reports[0]
		if top.Entity != "comment" || top.ID != spam || top.Count != 3 || top.Reasons["spam"] != 1 || top.Reasons["scam"] != 1 ||
			!strings.Contains(top.Title, "pills") || top.ItemStatus != "Visible" || len(top.Reports) != 3 {
			t.Fatalf("top of the queue: %+v", top)
		}
		// The profile (2 reports) comes before the newer comment with one.
		if q.Reports[1].Entity != "profile" || q.Reports[1].Count != 2 || q.Reports[2].ID != fair {
			t.Fatalf("order: %+v", q.Reports)
		}
	})
	t.Run("Dismiss", func(t *testing.T) {
		a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/report/comment/%d/status", fair), token: w.admin, lang: "en",
			body: `{"status":"Dismissed","description":"a fair review"}`})
		if a.Status != 200 || !strings.Contains(string(a.Message), "1 reports closed") {
			t.Fatalf("dismiss: %d %s", a.Status, a.Body)
		}
		if d := w.queue(t, "Dismissed"); d.Count != 1 || d.Reports[0].RegisterAdmin.Description != "a fair review" || d.Reports[0].ItemStatus != "Visible" {
			t.Fatalf("dismissed: %+v", d)
		}
		w.wantError(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/report/comment/%d/status", fair), token: w.admin, body: `{"status":"Dismissed"}`},
			404, "موردی یافت نشد", "Item not found")
		w.wantError(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/report/comment/%d/status", spam), token: w.admin, body: `{"status":"Open"}`},
			400, "وضعیت", "status")
		if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/report/blog/%d/status", spam), token: w.admin, body: `{"status":"Dismissed"}`}); a.Status != 404 {
			t.Fatalf("unknown entity: %d", a.Status)
		}
	})
	t.Run("ActHidesTheComment", func(t *testing.T) {
		w.must(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/report/comment/%d/status", spam), token: w.admin, body: `{"status":"Actioned","description":"spam"}`})
		c, err := w.Store.Comment(t.Context(), spam)
		if err != nil || !c.Hidden {
			t.Fatalf("comment after the action: %+v %v", c, err)
		}
		if a := w.must(t, req{method: "POST", path: "/v1/comment/get", body: fmt.Sprintf(`{"user_technical_id":%d,"skip":0,"take":20}`, w.profile.ID)}); strings.Contains(a.Body, "pills") {
			t.Fatalf("the hidden comment is public: %s", a.Body)
		}
		if q := w.queue(t, "Actioned"); q.Count != 1 || q.Reports[0].ItemStatus != "Hidden" {
			t.Fatalf("actioned: %+v", q)
		}
	})
	t.Run("ActBlocksTheProfile", func(t *testing.T) {
		w.must(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/report/profile/%d/status", w.profile.ID), token: w.admin, body: `{"status":"Actioned"}`})
		if a := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d", w.profile.ID)}); a.Status != 404 {
			t.Fatalf("the blocked profile answered %d", a.Status)
		}
		p, _ := w.Store.Profile(t.Context(), w.profile.ID)
		if p.AccountStatus != store.StatusBlocked {
			t.Fatalf("status: %s", p.AccountStatus)
		}
		if q := w.queue(t, "Open"); q.Count != 0 {
			t.Fatalf("open after all were resolved: %+v", q)
		}
		// A blocked profile can no longer be reported.
		w.wantError(t, reportReq("profile", w.profile.ID, "spam", "", "10.22.0.1"), 404, "موردی یافت نشد", "Item not found")
	})
}

// TestReportLimits: ten reports per client address an hour, and a burst from one address on one
// item stores one report.
func TestReportLimits(t *testing.T) {
	w := newCommunityWorld(t)
	var ids []int64
	for i := 0; i < 11; i++ {
		tok, _ := w.user(t, fmt.Sprintf("0915%07d", i), "کاربر", store.RoleUser)
		ids = append(ids, w.comment(t, tok, 3, fmt.Sprintf("نظر شمارهٔ %d", i)))
	}
	for i := 0; i < 10; i++ {
		if a := w.send(t, reportReq("comment", ids[i], "spam", "", "10.30.0.1")); a.Status != 200 {
			t.Fatalf("report %d: %d %s", i+1, a.Status, a.Body)
		}
	}
	w.wantError(t, reportReq("comment", ids[10], "spam", "", "10.30.0.1"), 429, "ثانیه", "seconds")
	if a := w.send(t, reportReq("comment", ids[10], "spam", "", "10.30.0.2")); a.Status != 200 {
		t.Fatalf("another address: %d %s", a.Status, a.Body)
	}
	w.Clock.advance(time.Hour)
	if a := w.send(t, reportReq("comment", ids[10], "spam", "", "10.30.0.1")); a.Status != 200 {
		t.Fatalf("after the hour: %d %s", a.Status, a.Body)
	}

	// Twenty at once from one address on one item: one report (the rest are repeats, or wait for
	// the hour's reservations that repeats give back).
	var wg sync.WaitGroup
	start := make(chan struct{})
	var mu sync.Mutex
	got := map[int]int{}
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			a := w.send(t, reportReq("profile", w.profile.ID, "spam", "", "10.31.0.1"))
			mu.Lock()
			got[a.Status]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	if got[200] != 1 || got[409]+got[429] != 19 {
		t.Fatalf("burst: got %v, want one stored and 19 refused", got)
	}
	q := w.queue(t, "Open")
	for _, g := range q.Reports {
		if g.Entity == "profile" && g.Count != 1 {
			t.Fatalf("the burst stored %d reports", g.Count)
		}
	}
}
