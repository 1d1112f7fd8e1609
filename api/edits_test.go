package api_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

type ownView struct {
	profileAnswer
	ProfileName string `json:"profile_name"`
	Descriotion string `json:"descriotion"`
	PendingEdit *struct {
		Status        string `json:"status"`
		RegisterAdmin struct {
			Description string `json:"description"`
		} `json:"register_admin"`
		Profile struct {
			ProfileName string `json:"profile_name"`
			Descriotion string `json:"descriotion"`
		} `json:"profile"`
	} `json:"pending_edit"`
}

// TestMaterialEditsWaitForReview (audit L5): with --moderation pre, an owner's rewrite of an
// accepted profile stays private until an admin accepts it; the accepted version stays public
// in search, detail, slug, sitemap and the page.
func TestMaterialEditsWaitForReview(t *testing.T) {
	w := newProfileWorld(t)
	p := w.create(t, w.owner, profileBody)
	status := func(st, note string) answer {
		return w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin,
			body: fmt.Sprintf(`{"status":%q,"description":%q}`, st, note)})
	}
	if a := status("Accepted", ""); a.Status != 200 {
		t.Fatalf("accept: %d %s", a.Status, a.Body)
	}
	spam := strings.Replace(strings.Replace(profileBody, "لوله‌کشی علی", "Totally Different Business CHEAP PILLS", 1),
		`"descriotion": "لوله‌کشی آب و گاز"`, `"descriotion": "buy pills now"`, 1)
	a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", p.ID), token: w.owner, body: spam})
	if a.Status != 200 {
		t.Fatalf("update: %d %s", a.Status, a.Body)
	}
	own := decodePayload[ownView](t, a)
	if own.ProfileName != "لوله‌کشی علی" || own.AccountStatus != "Accepted" || own.PendingEdit == nil ||
		own.PendingEdit.Status != "Pending" || own.PendingEdit.Profile.ProfileName != "Totally Different Business CHEAP PILLS" {
		t.Fatalf("owner's answer: got %s, want the public version and the pending edit", a.Payload)
	}
	publicUnchanged := func(step string) {
		t.Helper()
		a := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d", p.ID)})
		if a.Status != 200 || strings.Contains(a.Body, "PILLS") || strings.Contains(a.Body, "pending_edit") || !strings.Contains(a.Body, "لوله‌کشی علی") {
			t.Fatalf("%s: public read: %d %s", step, a.Status, a.Body)
		}
		a = w.send(t, req{method: "POST", path: "/v1/user-technical/searchUserSlag", body: fmt.Sprintf(`{"slug":%q}`, p.Slug)})
		if a.Status != 200 || strings.Contains(a.Body, "PILLS") {
			t.Fatalf("%s: by slug: %d %s", step, a.Status, a.Body)
		}
		if got := w.search(t, `{"search_txt":"pills"}`); got.Count != 0 {
			t.Fatalf("%s: search finds the unreviewed text: %+v", step, got)
		}
		if got := w.search(t, `{"search_txt":"لوله‌کشی علی"}`); got.Count != 1 {
			t.Fatalf("%s: search lost the accepted version: %+v", step, got)
		}
		r := w.send(t, req{method: "GET", path: "/sitemap-profiles-1.xml"})
		if !strings.Contains(r.Body, url.PathEscape(p.Slug)) && !strings.Contains(r.Body, p.Slug) {
			t.Fatalf("%s: sitemap lacks the accepted slug: %s", step, r.Body)
		}
		r = w.send(t, req{method: "GET", path: "/profile/" + url.PathEscape(p.Slug)})
		if r.Status != 200 || strings.Contains(r.Body, "PILLS") {
			t.Fatalf("%s: the page: %d shows the unreviewed text", step, r.Status)
		}
	}
	publicUnchanged("waiting")

	// The owner's and the admin's views show both.
	for _, tok := range []string{w.owner, w.admin} {
		a := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/getAuthProfileById/%d", p.ID), token: tok})
		v := decodePayload[ownView](t, a)
		if v.ProfileName != "لوله‌کشی علی" || v.PendingEdit == nil || v.PendingEdit.Profile.Descriotion != "buy pills now" {
			t.Fatalf("private view: %s", a.Payload)
		}
	}
	// Another user does not.
	if a := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/getAuthProfileById/%d", p.ID), token: w.other}); a.Status != 404 {
		t.Fatalf("another user's private view (answered like a missing id): %d", a.Status)
	}
	// The admin queue of edits.
	a = w.send(t, req{method: "GET", path: "/v1/admin/user-technical?status=Edited", token: w.admin})
	var queue struct {
		Profiles []ownView `json:"profiles"`
		Count    int       `json:"count"`
	}
	if a.Status != 200 || json.Unmarshal(a.Payload, &queue) != nil || queue.Count != 1 || queue.Profiles[0].PendingEdit == nil {
		t.Fatalf("edits queue: %d %s", a.Status, a.Body)
	}
	if a := w.send(t, req{method: "GET", path: "/v1/admin/user-technical?status=Edited", token: w.owner}); a.Status != 403 {
		t.Fatalf("edits queue as a user: %d", a.Status)
	}

	// Reject: the public version stays, the owner reads the note.
	if a := status("Rejected", "spam"); a.Status != 200 {
		t.Fatalf("reject the edit: %d %s", a.Status, a.Body)
	}
	publicUnchanged("rejected")
	a = w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/getAuthProfileById/%d", p.ID), token: w.owner})
	if v := decodePayload[ownView](t, a); v.AccountStatus != "Accepted" || v.PendingEdit == nil || v.PendingEdit.Status != "Rejected" ||
		v.PendingEdit.RegisterAdmin.Description != "spam" {
		t.Fatalf("after reject: %s", a.Payload)
	}
	w.wantError(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status":"Accepted"}`},
		409, "", "")
	if a := w.send(t, req{method: "GET", path: "/v1/admin/user-technical?status=Edited", token: w.admin}); !strings.Contains(a.Body, `"count":0`) {
		t.Fatalf("edits queue after reject: %s", a.Body)
	}

	// Hours alone are not material: they publish at once.
	hours := strings.Replace(profileBody, `"open": 28800, "close": 72000`, `"open": 32400, "close": 72000`, 1)
	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", p.ID), token: w.owner, body: hours}); a.Status != 200 {
		t.Fatalf("hours: %d %s", a.Status, a.Body)
	}
	if a := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d", p.ID)}); !strings.Contains(a.Body, `"open":32400`) {
		t.Fatalf("hours not public: %s", a.Body)
	}

	// Submitted again and accepted: now public, under a new slug.
	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", p.ID), token: w.owner, body: spam}); a.Status != 200 {
		t.Fatalf("update again: %d %s", a.Status, a.Body)
	}
	publicUnchanged("again")
	a = status("Accepted", "")
	if v := decodePayload[ownView](t, a); a.Status != 200 || v.ProfileName != "Totally Different Business CHEAP PILLS" || v.PendingEdit != nil {
		t.Fatalf("accept the edit: %d %s", a.Status, a.Body)
	}
	if got := w.search(t, `{"search_txt":"pills"}`); got.Count != 1 {
		t.Fatalf("the accepted edit is not searchable: %+v", got)
	}
	if a := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d", p.ID)}); !strings.Contains(a.Body, "buy pills now") {
		t.Fatalf("the accepted edit is not public: %s", a.Body)
	}
	// With nothing waiting, Accepted on an accepted profile is no move.
	w.wantError(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status":"Accepted"}`},
		409, "", "")
}

// TestAdminEditsPublishAtOnce: an admin's own edit of someone's accepted profile is not held.
func TestAdminEditsPublishAtOnce(t *testing.T) {
	w := newProfileWorld(t)
	p := w.create(t, w.owner, profileBody)
	w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status":"Accepted"}`})
	edited := strings.Replace(profileBody, "لوله‌کشی علی", "لوله‌کشی علی و پسران", 1)
	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", p.ID), token: w.admin, body: edited}); a.Status != 200 {
		t.Fatalf("update: %d %s", a.Status, a.Body)
	}
	if a := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d", p.ID)}); !strings.Contains(a.Body, "پسران") {
		t.Fatalf("the admin's edit is not public: %s", a.Body)
	}
}
