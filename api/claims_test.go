package api_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

type claimView struct {
	ID          int64  `json:"id"`
	ProfileID   int64  `json:"user_technical_id"`
	UserID      int64  `json:"user_id"`
	NumberPhone string `json:"numberPhone"`
	Phone       string `json:"phone"`
	Status      string `json:"status"`
	Register    struct {
		Description string `json:"description"`
	} `json:"register_admin"`
}

type claimList struct {
	Claims []claimView `json:"claims"`
	Count  int         `json:"count"`
}

// listing creates a listing through the admin's route and answers its id.
func (w *communityWorld) listing(t *testing.T, name, mobile string) int64 {
	t.Helper()
	body := fmt.Sprintf(`{"profile_name":%q,"province_id":1,"city_id":1,"range_worker":1,"category_list":[101],
		"social_network":[{"type":"mobile","link":%q}]}`, name, mobile)
	return decodePayload[badgeView](t, w.must(t, req{method: "POST", path: "/v1/admin/user-technical/createListing", token: w.admin, body: body})).ID
}

// TestClaimsOverHTTP: an admin lists a business; two users prove the listed number and claim
// it; two admins approve both claims at once and exactly one wins; ownership moves, the other
// claim is closed, and the audit log keeps the story.
func TestClaimsOverHTTP(t *testing.T) {
	w := newCommunityWorld(t)
	business := "09361234567"
	if a := w.send(t, req{method: "POST", path: "/v1/admin/user-technical/createListing", token: w.owner, body: `{}`}); a.Status != 403 {
		t.Fatalf("non-admin lists: %d", a.Status)
	}
	id := w.listing(t, "لوله‌کشی نمونه", business)
	// Admins list many businesses of one trade: no one-profile-per-category for listings.
	second := w.listing(t, "لوله‌کشی دوم", "09361234500")
	b := w.badge(t, id)
	if !b.Claimable || b.Verified {
		t.Fatalf("listing's public form: %+v", b)
	}
	if w.badge(t, w.profile.ID).Claimable {
		t.Fatal("an owner's own profile is claimable")
	}

	code := func(token string, pid int64) req {
		return req{method: "POST", path: "/v1/send-sms/sendSmsForClaim", token: token, body: fmt.Sprintf(`{"user_technical_id":%d}`, pid)}
	}
	add := func(token string, pid int64, otp string) req {
		return req{method: "POST", path: "/v1/claim/add", token: token,
			body: fmt.Sprintf(`{"user_technical_id":%d,"otpCode":%q,"description":"the shop is mine"}`, pid, otp)}
	}
	if a := w.send(t, withToken(code("", id), "")); a.Status != 401 {
		t.Fatalf("signed-out claim code: %d", a.Status)
	}
	w.wantError(t, code(w.commenter, w.profile.ID), 409, "قابل درخواست مالکیت نیست", "cannot be claimed")
	w.wantError(t, code(w.commenter, w.pending.ID), 404, "یافت نشد", "not found")
	w.wantError(t, code(w.commenter, 0), 400, "پروفایل", "profile")
	w.wantError(t, code(w.admin, id), 400, "مال شماست", "already yours")

	// The claimant learns the number the code went to only masked.
	a := w.must(t, code(w.commenter, id))
	if strings.Contains(a.Body, business) || !strings.Contains(a.Body, "0936***4567") {
		t.Fatalf("claim code answer shows the number: %s", a.Body)
	}
	first := w.SMS.code(business)
	w.wantError(t, add(w.commenter, id, "12"), 400, "کد", "code")
	wrong := "000000"
	if first == wrong {
		wrong = "111111"
	}
	w.wantError(t, add(w.commenter, id, wrong), 400, "کد", "code")
	c1 := decodePayload[claimView](t, w.must(t, add(w.commenter, id, first)))
	if c1.Status != "Pending" || c1.NumberPhone != "" || strings.Contains(c1.Phone, business) {
		t.Fatalf("claim: %+v", c1)
	}
	w.wantError(t, code(w.commenter, id), 409, "در انتظار بررسی", "waiting for review")

	w.Clock.advance(61 * time.Second)
	w.must(t, code(w.other, id))
	c2 := decodePayload[claimView](t, w.must(t, add(w.other, id, w.SMS.code(business))))

	queue := decodePayload[claimList](t, w.must(t, req{method: "GET", path: "/v1/admin/claim", token: w.admin}))
	if queue.Count != 2 || queue.Claims[0].NumberPhone != "09120000002" || queue.Claims[0].Phone != business {
		t.Fatalf("admin queue: %+v", queue)
	}
	for _, tok := range []string{w.commenter, w.other} {
		if a := w.send(t, req{method: "GET", path: "/v1/admin/claim", token: tok}); a.Status != 403 {
			t.Fatalf("claimant reads the queue: %d", a.Status)
		}
	}
	w.wantError(t, req{method: "GET", path: "/v1/admin/claim?status=Maybe", token: w.admin}, 400, "وضعیت", "status")
	decide := func(token string, claim int64, status string) req {
		return req{method: "PUT", path: fmt.Sprintf("/v1/admin/claim/%d/status", claim), token: token,
			body: fmt.Sprintf(`{"status":%q,"description":"called the shop"}`, status)}
	}
	w.wantError(t, decide(w.admin, c1.ID, "Blocked"), 400, "وضعیت", "status")
	if a := w.send(t, decide(w.commenter, c1.ID, "Accepted")); a.Status != 403 {
		t.Fatalf("claimant approves their own claim: %d", a.Status)
	}

	// Two admins approve the two claims at the same moment: one wins.
	admin2, _ := w.user(t, "09120000009", "مدیر دوم", "admin")
	var wg sync.WaitGroup
	answers := make([]answer, 2)
	for i, q := range []req{decide(w.admin, c1.ID, "Accepted"), decide(admin2, c2.ID, "Accepted")} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = w.send(t, q)
		}()
	}
	wg.Wait()
	winner, loser := -1, -1
	for i, a := range answers {
		switch a.Status {
		case 200:
			winner = i
		case 409:
			loser = i
		default:
			t.Fatalf("approval %d: %d %s", i, a.Status, a.Body)
		}
	}
	if winner < 0 || loser < 0 {
		t.Fatalf("both or neither won: %d %d", answers[0].Status, answers[1].Status)
	}
	claims := []claimView{c1, c2}
	winnerClaim, loserClaim := claims[winner], claims[loser]
	b = w.badge(t, id)
	if b.Claimable || b.UserID.UserID != winnerClaim.UserID {
		t.Fatalf("after approval: %+v (winner %d)", b, winnerClaim.UserID)
	}
	tokens := map[int64]string{c1.UserID: w.commenter, c2.UserID: w.other}
	mine := decodePayload[claimList](t, w.must(t, req{method: "GET", path: "/v1/claim/mine", token: tokens[loserClaim.UserID]}))
	if mine.Count != 1 || mine.Claims[0].Status != "Rejected" || mine.Claims[0].Register.Description != "claimed by another" ||
		strings.Contains(fmt.Sprint(mine), business) {
		t.Fatalf("loser's claims: %+v", mine)
	}
	// The claimant whose claim the other's acceptance rejected is told, as a decided one is.
	told := false
	for _, n := range w.bell(t, tokens[loserClaim.UserID]).Notifications {
		told = told || (n.Entity == "claim" && n.EntityID == id && n.Status == "Rejected")
	}
	if !told {
		t.Fatalf("the rejected claimant has no notification: %+v", w.bell(t, tokens[loserClaim.UserID]))
	}
	// The new owner edits it like any of their profiles; the listing is no longer claimable.
	if a := w.must(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/getAuthProfileById/%d", id), token: tokens[winnerClaim.UserID]}); !strings.Contains(a.Body, `"account_status":"Accepted"`) {
		t.Fatalf("new owner's read: %s", a.Body)
	}
	w.Clock.advance(61 * time.Second)
	w.wantError(t, code(w.commenter, id), 409, "قابل درخواست مالکیت نیست", "cannot be claimed")
	w.wantError(t, decide(w.admin, loserClaim.ID, "Accepted"), 409, "", "")
	if got := auditActions(t, w.Store, "profile", id); !strings.Contains(got, "list(") || !strings.Contains(got, "claim(claim ") ||
		!strings.Contains(got, "owner(called the shop)") {
		t.Fatalf("audit log: %s", got)
	}
	log, _ := w.Store.AuditLog(t.Context(), "profile", id)
	last := log[len(log)-1]
	if last.Action != "owner" || last.ToStatus != fmt.Sprintf("user %d", winnerClaim.UserID) {
		t.Fatalf("ownership move not in the audit log: %+v", last)
	}
	if n := w.bell(t, tokens[winnerClaim.UserID]); n.Unread == 0 {
		t.Fatalf("winner not told: %+v", n)
	}

	// Limits: five claim codes a day per claimant (each listing its own number).
	w.Clock.advance(25 * time.Hour)
	tok, _ := w.user(t, "09120000010", "مدعی", "user")
	for i := 0; i < 5; i++ {
		pid := second
		if i > 0 {
			pid = w.listing(t, fmt.Sprintf("لوله‌کشی %d", i+2), fmt.Sprintf("0937000000%d", i))
		}
		w.must(t, code(tok, pid))
	}
	pid := w.listing(t, "لوله‌کشی آخر", "09370000099")
	if a := w.send(t, code(tok, pid)); a.Status != 429 {
		t.Fatalf("sixth claim code in a day: %d %s", a.Status, a.Body)
	}
}
