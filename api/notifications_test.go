package api_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

type notificationList struct {
	Notifications []struct {
		ID       int64  `json:"id"`
		Kind     string `json:"kind"`
		Entity   string `json:"entity"`
		EntityID int64  `json:"entity_id"`
		Title    string `json:"title"`
		Status   string `json:"status"`
		Note     string `json:"note"`
		Read     bool   `json:"read"`
	} `json:"notifications"`
	Unread int `json:"unread"`
}

func (w *communityWorld) bell(t *testing.T, token string) notificationList {
	t.Helper()
	return decodePayload[notificationList](t, w.must(t, req{method: "GET", path: "/v1/notification/list", token: token}))
}

// TestNotificationsOverHTTP: a review, a reply and a moderation decision each put an item under
// the right user's bell, in the event's own transaction; reading marks them; only one's own.
func TestNotificationsOverHTTP(t *testing.T) {
	w := newCommunityWorld(t)
	pid := w.profile.ID

	if n := w.bell(t, w.owner); len(n.Notifications) != 0 || n.Unread != 0 {
		t.Fatalf("fresh bell: %+v", n)
	}
	a := w.must(t, req{method: "POST", path: "/v1/comment/add", token: w.commenter,
		body: fmt.Sprintf(`{"category_list":[101],"description":"کار تمیز","score":5,"user_technical_id":%d}`, pid)})
	c := decodePayload[commentAnswer](t, a)
	n := w.bell(t, w.owner)
	if n.Unread != 1 || len(n.Notifications) != 1 || n.Notifications[0].Kind != "new_review" || n.Notifications[0].EntityID != c.ID ||
		n.Notifications[0].Title != w.profile.ProfileName || n.Notifications[0].Read {
		t.Fatalf("owner's bell after a review: %+v", n)
	}
	// A refused review (a second one) writes nothing.
	w.send(t, req{method: "POST", path: "/v1/comment/add", token: w.commenter,
		body: fmt.Sprintf(`{"category_list":[101],"description":"باز","score":5,"user_technical_id":%d}`, pid)})
	if n := w.bell(t, w.owner); n.Unread != 1 {
		t.Fatalf("a refused review notified: %+v", n)
	}

	w.must(t, req{method: "POST", path: "/v1/comment/reply", token: w.owner, body: fmt.Sprintf(`{"id":%d,"description":"ممنون"}`, c.ID)})
	if n := w.bell(t, w.commenter); n.Unread != 1 || n.Notifications[0].Kind != "review_reply" || n.Notifications[0].EntityID != c.ID {
		t.Fatalf("commenter's bell after the reply: %+v", n)
	}

	// Moderation: the pending profile of "other" is rejected with a note; the note reaches its
	// owner under the bell and by SMS (template mode).
	w.must(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", w.pending.ID), token: w.admin,
		body: `{"status":"Rejected","description":"عکس‌ها مال کار شما نیست"}`})
	n = w.bell(t, w.other)
	if n.Unread != 1 || n.Notifications[0].Kind != "moderation" || n.Notifications[0].Status != "Rejected" ||
		n.Notifications[0].Note != "عکس‌ها مال کار شما نیست" {
		t.Fatalf("other's bell after moderation: %+v", n)
	}
	if sms := w.SMS.templated("09120000003"); len(sms) != 1 || !strings.HasPrefix(sms[0], "moderation ") || !strings.HasSuffix(sms[0], " Rejected") {
		t.Fatalf("moderation sms: %q", sms)
	}

	// Someone else's ids are ignored; one's own are marked.
	w.must(t, req{method: "PUT", path: "/v1/notification/read", token: w.other, body: fmt.Sprintf(`{"ids":[%d]}`, c.ID)})
	ownerN := w.bell(t, w.owner)
	w.must(t, req{method: "PUT", path: "/v1/notification/read", token: w.other, body: fmt.Sprintf(`{"ids":[%d]}`, ownerN.Notifications[0].ID)})
	if n := w.bell(t, w.owner); n.Unread != 1 {
		t.Fatalf("another user marked the owner's notification read: %+v", n)
	}
	a = w.must(t, req{method: "PUT", path: "/v1/notification/read", token: w.owner, body: fmt.Sprintf(`{"ids":[%d]}`, ownerN.Notifications[0].ID)})
	if !strings.Contains(a.Body, `"unread":0`) {
		t.Fatalf("read answer: %s", a.Body)
	}
	if n := w.bell(t, w.owner); n.Unread != 0 || !n.Notifications[0].Read {
		t.Fatalf("after read: %+v", n)
	}
	w.must(t, req{method: "PUT", path: "/v1/notification/read", token: w.commenter, body: `{}`})
	if n := w.bell(t, w.commenter); n.Unread != 0 {
		t.Fatalf("read all: %+v", n)
	}

	t.Run("Errors", func(t *testing.T) {
		w.wantError(t, req{method: "GET", path: "/v1/notification/list"}, 401, "وارد", "sign in")
		w.wantError(t, req{method: "PUT", path: "/v1/notification/read", body: `{}`}, 401, "وارد", "sign in")
		w.wantError(t, req{method: "PUT", path: "/v1/notification/read", token: w.owner, body: `{"ids":"x"}`}, 400, "", "")
		w.wantError(t, req{method: "GET", path: "/v1/notification/list?take=1000", token: w.owner}, 400, "", "")
		w.wantError(t, req{method: "PUT", path: "/v1/notification/sms", token: w.owner, body: `{"kind":"spam","enabled":false}`}, 400, "نوع", "kind")
		w.wantError(t, req{method: "PUT", path: "/v1/notification/sms", token: w.owner, body: `{"kind":"new_lead"}`}, 400, "روشن یا خاموش", "on or off")
	})
}

// TestNoticeSMSOptOutAndDailyLimit: a user who turned moderation SMS off gets none (the bell
// still has it); otherwise at most SMSPerDay (3 here) a day,
func TestNoticeSMSOptOutAndDailyLimit(t *testing.T) {
	w := newCommunityWorld(t)
	phone := "09120000003"
	a := w.must(t, req{method: "GET", path: "/v1/notification/sms", token: w.other})
	if !strings.Contains(a.Body, `"moderation":true`) || !strings.Contains(a.Body, `"new_lead":true`) {
		t.Fatalf("defaults: %s", a.Body)
	}
	a = w.must(t, req{method: "PUT", path: "/v1/notification/sms", token: w.other, body: `{"kind":"moderation","enabled":false}`})
	if !strings.Contains(a.Body, `"moderation":false`) {
		t.Fatalf("opt-out: %s", a.Body)
	}
	move := func(status string) {
		w.must(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", w.pending.ID), token: w.admin,
			body: fmt.Sprintf(`{"status":%q}`, status)})
	}
	move("Accepted")
	if sms := w.SMS.templated(phone); len(sms) != 0 {
		t.Fatalf("opted out, yet sent: %q", sms)
	}
	if n := w.bell(t, w.other); n.Unread != 1 {
		t.Fatalf("bell: %+v", n)
	}
	w.must(t, req{method: "PUT", path: "/v1/notification/sms", token: w.other, body: `{"kind":"moderation","enabled":true}`})
	for i := 0; i < 3; i++ {
		move("Blocked")
		move("Accepted")
	}
	if sms := w.SMS.templated(phone); len(sms) != 3 {
		t.Fatalf("daily limit: got %d sms, want 3: %q", len(sms), sms)
	}
	w.Clock.advance(25 * time.Hour)
	move("Blocked")
	if sms := w.SMS.templated(phone); len(sms) != 4 {
		t.Fatalf("next day: got %d sms, want 4", len(sms))
	}
}
