package api_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestAdminDeletionSticks (audit L6): an owner cannot restore what an admin deleted; an admin can.
func TestAdminDeletionSticks(t *testing.T) {
	w := newProfileWorld(t)
	p := w.create(t, w.owner, profileBody)
	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status":"Accepted"}`}); a.Status != 200 {
		t.Fatalf("accept: %d %s", a.Status, a.Body)
	}
	public := func() int {
		return w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d", p.ID)}).Status
	}
	if a := w.send(t, req{method: "DELETE", path: fmt.Sprintf("/v1/user-technical/%d", p.ID), token: w.admin}); a.Status != 200 {
		t.Fatalf("admin delete: %d %s", a.Status, a.Body)
	}
	for _, path := range []string{"/v1/user-technical/restore%d", "/v1/user-technical/restore/%d"} {
		w.wantError(t, req{method: "PUT", path: fmt.Sprintf(path, p.ID), token: w.owner}, 409,
			"مدیر سایت حذف کرده است", "An administrator deleted this profile")
	}
	if got := public(); got != 404 {
		t.Fatalf("public read after the owner's attempts: got %d, want 404", got)
	}
	// The owner deleting it again does not turn it into the owner's deletion.
	w.send(t, req{method: "DELETE", path: fmt.Sprintf("/v1/user-technical/%d", p.ID), token: w.owner})
	w.wantError(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/restore%d", p.ID), token: w.owner}, 409,
		"مدیر سایت", "administrator")
	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/restore%d", p.ID), token: w.admin}); a.Status != 200 {
		t.Fatalf("admin restore: %d %s", a.Status, a.Body)
	}
	if got := public(); got != 200 {
		t.Fatalf("public read after the admin's restore: got %d, want 200", got)
	}
	// The owner's own deletion stays the owner's to undo.
	if a := w.send(t, req{method: "DELETE", path: fmt.Sprintf("/v1/user-technical/%d", p.ID), token: w.owner}); a.Status != 200 {
		t.Fatalf("owner delete: %d %s", a.Status, a.Body)
	}
	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/restore%d", p.ID), token: w.owner}); a.Status != 200 {
		t.Fatalf("owner restore: %d %s", a.Status, a.Body)
	}
}

// TestDeletedProfilesDoNotLockEachOther (audit I6): two deleted profiles of one field can each be
// restored; a new profile in the field stays locked.
func TestDeletedProfilesDoNotLockEachOther(t *testing.T) {
	w := newProfileWorld(t)
	a := w.create(t, w.owner, profileBody)
	b := w.create(t, w.owner, strings.Replace(strings.Replace(profileBody, `"category_list": [101]`, `"category_list": [102]`, 1), "لوله‌کشی علی", "تأسیسات علی", 1))
	for _, id := range []int64{a.ID, b.ID} {
		if r := w.send(t, req{method: "DELETE", path: fmt.Sprintf("/v1/user-technical/%d", id), token: w.owner}); r.Status != 200 {
			t.Fatalf("delete %d: %d %s", id, r.Status, r.Body)
		}
	}
	// A new profile in the field is still refused while they wait.
	w.wantError(t, req{method: "POST", path: "/v1/user-technical/createProfile", token: w.owner,
		body: strings.Replace(profileBody, `"category_list": [101]`, `"category_list": [103]`, 1)}, 409, "حذف شده است", "was deleted")
	for _, id := range []int64{a.ID, b.ID} {
		if r := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/restore%d", id), token: w.owner}); r.Status != 200 {
			t.Fatalf("restore %d: %d %s", id, r.Status, r.Body)
		}
	}
	// One live profile per category still holds on restore.
	if r := w.send(t, req{method: "DELETE", path: fmt.Sprintf("/v1/user-technical/%d", a.ID), token: w.owner}); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if r := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", b.ID), token: w.owner,
		body: strings.Replace(profileBody, `"category_list": [101]`, `"category_list": [101, 102]`, 1)}); r.Status != 200 {
		t.Fatalf("update: %d %s", r.Status, r.Body)
	}
	w.wantError(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/restore%d", a.ID), token: w.owner}, 409,
		"فقط یک پروفایل", "only one profile per category")
}
