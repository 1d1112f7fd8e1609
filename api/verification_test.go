package api_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"kardan/store"
)

type verificationView struct {
	Status      string  `json:"status"`
	NumberPhone string  `json:"numberPhone"`
	VerifiedAt  *string `json:"verified_at"`
}

type badgeView struct {
	ID          int64   `json:"id"`
	ProfileName string  `json:"profile_name"`
	Verified    bool    `json:"verified"`
	VerifiedAt  *string `json:"verified_at"`
	Claimable   bool    `json:"claimable"`
	UserID      struct {
		UserID int64 `json:"userId"`
	} `json:"user_id"`
}

// badge reads a profile's badge through its public read form.
func (w *communityWorld) badge(t *testing.T, id int64) badgeView {
	t.Helper()
	return decodePayload[badgeView](t, w.must(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d", id)}))
}

// listMobile makes the owner's profile list mobile (and rename it to name).
func (w *communityWorld) listMobile(t *testing.T, name, mobile string) {
	t.Helper()
	ctx := context.Background()
	owner, err := w.Store.UserByPhone(ctx, "09120000001")
	if err != nil {
		t.Fatal(err)
	}
	in := &store.ProfileInput{ProfileName: name, ProvinceID: 1, CityID: 1, RangeWorker: 1, CategoryList: []int64{101, 102}}
	if mobile != "" {
		in.SocialNetwork = []store.SocialLink{{Type: "phone", Link: "02188776655"}, {Type: "mobile", Link: mobile}}
	}
	if _, err := w.Store.UpdateProfile(ctx, owner, w.profile.ID, in, false); err != nil {
		t.Fatal(err)
	}
}

func auditActions(t *testing.T, st *store.Store, entity string, id int64) string {
	t.Helper()
	log, err := st.AuditLog(context.Background(), entity, id)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range log {
		fmt.Fprintf(&b, "%s(%s);", e.Action, e.Note)
	}
	return b.String()
}

// TestVerificationOverHTTP: an admin sends a code to the business's listed mobile number, the
// owner answers it, the admin marks the profile verified with a note; the badge shows on the
// profile and in search; renaming drops it; revoking works; strangers get 404 everywhere.
func TestVerificationOverHTTP(t *testing.T) {
	w := newCommunityWorld(t)
	id := w.profile.ID
	start := req{method: "POST", path: fmt.Sprintf("/v1/admin/user-technical/%d/verification/start", id), token: w.admin, body: `{}`}
	confirm := func(token, code string) req {
		return req{method: "POST", path: fmt.Sprintf("/v1/user-technical/%d/verification/confirm", id), token: token,
			body: fmt.Sprintf(`{"otpCode":%q}`, code)}
	}
	set := func(verified bool, note string) req {
		return req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/verification", id), token: w.admin,
			body: fmt.Sprintf(`{"verified":%t,"description":%q}`, verified, note)}
	}
	get := func(token string) req {
		return req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d/verification", id), token: token}
	}

	// Only admins start; a business without a mobile number cannot be verified.
	for _, tok := range []string{w.owner, w.other} {
		if a := w.send(t, withToken(start, tok)); a.Status != 403 {
			t.Fatalf("non-admin start: %d %s", a.Status, a.Body)
		}
	}
	w.wantError(t, start, 409, "شماره موبایلی", "lists no mobile number")
	if a := w.send(t, req{method: "POST", path: "/v1/admin/user-technical/999999/verification/start", token: w.admin, body: `{}`}); a.Status != 404 {
		t.Fatalf("missing profile: %d", a.Status)
	}

	w.listMobile(t, w.profile.ProfileName, "۰۹۳۵ ۱۱۱ ۲۲۳۳")
	business := "09351112233"
	w.wantError(t, withBody(start, `{"numberPhone":"09359999999"}`), 400, "در راه‌های ارتباطی", "not among")
	a := w.must(t, start)
	if v := decodePayload[verificationView](t, a); v.NumberPhone != business {
		t.Fatalf("start answered %s", a.Body)
	}
	code := w.SMS.code(business)
	if code == "" {
		t.Fatal("no code reached the business's number")
	}
	// The same limits as every code: a second send within the minute is refused.
	if a := w.send(t, start); a.Status != 429 {
		t.Fatalf("resend at once: %d", a.Status)
	}

	// The admin cannot vouch before the owner answered.
	w.wantError(t, set(true, "called the shop"), 409, "هنوز کد", "not yet entered the code")
	// Strangers see nothing: 404, not 403, and no number.
	for _, tok := range []string{w.other, w.commenter} {
		for _, q := range []req{confirm(tok, code), get(tok)} {
			if a := w.send(t, q); a.Status != 404 || strings.Contains(a.Body, business) {
				t.Fatalf("stranger %s: %d %s", q.path, a.Status, a.Body)
			}
		}
	}
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	w.wantError(t, confirm(w.owner, wrong), 400, "کد", "code")
	w.wantError(t, confirm(w.owner, "12"), 400, "کد", "code")
	if v := decodePayload[verificationView](t, w.must(t, get(w.owner))); v.Status != "sent" || v.NumberPhone != business {
		t.Fatalf("owner's state: %+v", v)
	}
	a = w.must(t, withLang(confirm(w.owner, code), "en"))
	if !strings.Contains(a.Body, "confirmed") {
		t.Fatalf("confirm: %s", a.Body)
	}
	w.wantError(t, confirm(w.owner, code), 409, "کدی برای تأیید", "No verification code")
	if v := decodePayload[verificationView](t, w.must(t, get(w.admin))); v.Status != "confirmed" {
		t.Fatalf("admin's state: %+v", v)
	}
	queue := decodePayload[struct {
		Verifications []verificationView `json:"verifications"`
		Count         int                `json:"count"`
	}](t, w.must(t, req{method: "GET", path: "/v1/admin/verification", token: w.admin}))
	if queue.Count != 1 || queue.Verifications[0].Status != "confirmed" {
		t.Fatalf("queue: %+v", queue)
	}
	if a := w.send(t, req{method: "GET", path: "/v1/admin/verification", token: w.owner}); a.Status != 403 {
		t.Fatalf("owner reads the queue: %d", a.Status)
	}

	if b := w.badge(t, id); b.Verified || b.VerifiedAt != nil {
		t.Fatalf("badge before the admin's decision: %+v", b)
	}
	w.wantError(t, set(true, "  "), 400, "توضیح", "note")
	w.wantError(t, withBody(set(true, ""), `{"description":"x"}`), 400, "تأیید", "verified")
	w.must(t, set(true, "called the listed number; saw the shop's licence"))
	b := w.badge(t, id)
	if !b.Verified || b.VerifiedAt == nil {
		t.Fatalf("badge after: %+v", b)
	}
	if v := decodePayload[verificationView](t, w.must(t, get(w.owner))); v.Status != "verified" || v.VerifiedAt == nil {
		t.Fatalf("owner's state after: %+v", v)
	}
	// The card in search carries it too.
	res := decodePayload[struct {
		Profiles []badgeView `json:"profiles"`
	}](t, w.must(t, req{method: "POST", path: "/v1/user-technical/searchUser", body: `{"take":50}`}))
	found := false
	for _, p := range res.Profiles {
		if p.ID == id {
			found = p.Verified
		}
	}
	if !found {
		t.Fatalf("search card without the badge: %+v", res.Profiles)
	}
	if got := auditActions(t, w.Store, "profile", id); !strings.Contains(got, "verify_start(09351112233)") ||
		!strings.Contains(got, "verify_confirm(") || !strings.Contains(got, "verify(called the listed number; saw the shop's licence)") {
		t.Fatalf("audit log: %s", got)
	}

	// Editing something else keeps the badge; renaming drops it.
	w.listMobile(t, w.profile.ProfileName, business)
	if !w.badge(t, id).Verified {
		t.Fatal("an edit that keeps name and number dropped the badge")
	}
	w.listMobile(t, "لوله‌کشی علی و پسران", business)
	if w.badge(t, id).Verified {
		t.Fatal("renaming kept the badge")
	}
	if got := auditActions(t, w.Store, "profile", id); !strings.Contains(got, "unverify(name changed)") {
		t.Fatalf("audit log after rename: %s", got)
	}

	// Verified again, then the number goes away: dropped again. Then revoking by hand.
	w.Clock.advance(2 * time.Minute)
	w.must(t, start)
	w.must(t, confirm(w.owner, w.SMS.code(business)))
	w.must(t, set(true, "checked again"))
	w.listMobile(t, "لوله‌کشی علی و پسران", "09351119999")
	if w.badge(t, id).Verified {
		t.Fatal("removing the verified number kept the badge")
	}
	w.wantError(t, set(false, "complaints"), 409, "تأییدشده نیست", "not verified")
	w.Clock.advance(2 * time.Minute)
	w.must(t, start)
	w.must(t, confirm(w.owner, w.SMS.code("09351119999")))
	w.must(t, set(true, "checked the new number"))
	if !w.badge(t, id).Verified {
		t.Fatal("not verified again")
	}
	w.must(t, set(false, "the shop closed"))
	if w.badge(t, id).Verified {
		t.Fatal("revoked badge still shows")
	}
	if got := auditActions(t, w.Store, "profile", id); !strings.Contains(got, "unverify(number no longer listed)") ||
		!strings.Contains(got, "unverify(the shop closed)") {
		t.Fatalf("audit log at the end: %s", got)
	}
}

func withToken(q req, token string) req { q.token = token; return q }

func withBody(q req, body string) req { q.body = body; return q }
