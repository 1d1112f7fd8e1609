package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// Search answers come from the form cache after the first: each must equal the profile's form
// read afresh (its page by slug), and every change must show in the next answer.
func TestSearchFormsFollowChanges(t *testing.T) {
	w := newProfileWorld(t)
	p := w.create(t, w.owner, profileBody)
	w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status": "Accepted"}`})
	const browse = `{"city_slag": "tehran"}`
	search := func(token string) (string, []json.RawMessage) {
		t.Helper()
		a := w.send(t, req{method: "POST", path: "/v1/user-technical/searchUser", body: browse, token: token})
		var page struct {
			Profiles []json.RawMessage `json:"profiles"`
		}
		if a.Status != 200 || json.Unmarshal(a.Payload, &page) != nil {
			t.Fatalf("search: %d %s", a.Status, a.Body)
		}
		return a.Body, page.Profiles
	}
	fresh := func() string { // the form by id is read afresh
		t.Helper()
		a := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d", p.ID)})
		if a.Status != 200 {
			t.Fatalf("by id: %d %s", a.Status, a.Body)
		}
		return string(a.Payload)
	}
	page := func(token string) string { // the profile page, by slug, from the cache after the first
		t.Helper()
		a := w.send(t, req{method: "POST", path: "/v1/user-technical/searchUserSlag", body: fmt.Sprintf(`{"slug": %q}`, p.Slug), token: token})
		if a.Status != 200 {
			t.Fatalf("by slug: %d %s", a.Status, a.Body)
		}
		return string(a.Payload)
	}
	same := func(step string, want ...string) {
		t.Helper()
		first, forms := search("")
		again, _ := search(w.other) // a signed-in visitor gets the same public forms
		if first != again {
			t.Fatalf("%s: a second answer differs:\n%s\n%s", step, first, again)
		}
		if len(forms) != 1 || string(forms[0]) != fresh() {
			t.Fatalf("%s: the answer's form is not the fresh one:\n%s\n%s", step, forms, fresh())
		}
		for _, token := range []string{"", "", w.other} {
			if got := page(token); got != fresh() {
				t.Fatalf("%s: the profile page is not the fresh form:\n%s\n%s", step, got, fresh())
			}
		}
		for _, s := range want {
			if !strings.Contains(first, s) {
				t.Errorf("%s: %s not in %s", step, s, first)
			}
		}
		// The key of SPEC.md §3 is there, empty: the number itself stays private.
		if strings.Contains(first, "09120000001") || !strings.Contains(first, `"numberPhone":""`) {
			t.Errorf("%s: the owner's number is public, or its key is missing: %s", step, first)
		}
	}
	same("accepted")

	edited := strings.Replace(profileBody, `"descriotion": "لوله‌کشی آب و گاز"`, `"descriotion": "توضیح تازه"`, 1)
	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", p.ID), token: w.owner, body: edited}); a.Status != 200 {
		t.Fatalf("update: %d %s", a.Status, a.Body)
	}
	// With --moderation pre the edit waits for review; the admin's accept publishes it.
	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status":"Accepted"}`}); a.Status != 200 {
		t.Fatalf("accept the edit: %d %s", a.Status, a.Body)
	}
	same("edited", "توضیح تازه")

	if a := w.send(t, req{method: "PUT", path: "/v1/user/edit", token: w.owner, body: `{"name": "علی نو"}`}); a.Status != 200 {
		t.Fatalf("rename: %d %s", a.Status, a.Body)
	}
	same("owner renamed", `"name":"علی نو"`)

	add := fmt.Sprintf(`{"category_list":[101],"description":"کار تمیز","score":2,"user_technical_id":%d}`, p.ID)
	if a := w.send(t, req{method: "POST", path: "/v1/comment/add", body: add, token: w.other}); a.Status != 200 {
		t.Fatalf("comment: %d %s", a.Status, a.Body)
	}
	same("commented", `"count_scorer":1`)

	// Owners and admins see their forms in private, as before the cache.
	for _, tok := range []string{w.owner, w.admin} {
		if body, _ := search(tok); !strings.Contains(body, `"numberPhone":"09120000001"`) {
			t.Errorf("the owner's number is missing for the owner or an admin: %s", body)
		}
		if got := page(tok); !strings.Contains(got, `"numberPhone":"09120000001"`) {
			t.Errorf("the owner's number is missing from the page for the owner or an admin: %s", got)
		}
	}

	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/%d/flags", p.ID), token: w.owner, body: `{"display": false}`}); a.Status != 200 {
		t.Fatalf("hide: %d %s", a.Status, a.Body)
	}
	if _, forms := search(""); len(forms) != 0 {
		t.Fatalf("a hidden profile is still listed: %s", forms)
	}
	if a := w.send(t, req{method: "POST", path: "/v1/user-technical/searchUserSlag", body: fmt.Sprintf(`{"slug": %q}`, p.Slug)}); a.Status != 404 {
		t.Fatalf("a hidden profile's page: %d %s", a.Status, a.Body)
	}
	if got := page(w.owner); !strings.Contains(got, `"display":false`) {
		t.Fatalf("the owner does not see their hidden profile: %s", got)
	}
}

// Searches racing an owner's edits never keep what an edit replaced: once the edits are done,
// the answer shows the last one.
func TestSearchFormsUnderConcurrentEdits(t *testing.T) {
	w := newProfileWorld(t)
	p := w.create(t, w.owner, profileBody)
	w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status": "Accepted"}`})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				w.search(t, `{"city_slag": "tehran"}`)
			}
		}()
	}
	const edits = 15
	for i := 1; i <= edits; i++ {
		body := strings.Replace(profileBody, `"work_history_years": 12`, fmt.Sprintf(`"work_history_years": %d`, i), 1)
		if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", p.ID), token: w.owner, body: body}); a.Status != 200 {
			t.Fatalf("update: %d %s", a.Status, a.Body)
		}
	}
	close(stop)
	wg.Wait()
	a := w.send(t, req{method: "POST", path: "/v1/user-technical/searchUser", body: `{"city_slag": "tehran"}`})
	if want := fmt.Sprintf(`"work_history_years":%d,`, edits); !strings.Contains(a.Body, want) {
		t.Fatalf("the last edit is missing (%s): %s", want, a.Body)
	}
}
