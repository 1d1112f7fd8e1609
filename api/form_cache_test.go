package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"kardan/api"
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

// Searches racing two owners' edits never keep what an edit replaced: the cache follows each
// edit by dropping that profile's form while it keeps the other's, and once the edits are done
// the answer shows the last edit of each, as the forms read afresh do.
func TestSearchFormsUnderConcurrentEdits(t *testing.T) {
	w := newProfileWorld(t)
	owners := []string{w.owner, w.other}
	var ids []int64
	for i, tok := range owners {
		p := w.create(t, tok, strings.Replace(profileBody, "لوله‌کشی علی", fmt.Sprintf("لوله‌کشی %d", i), 1))
		w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status": "Accepted"}`})
		ids = append(ids, p.ID)
	}
	stop := make(chan struct{})
	var readers, writers sync.WaitGroup
	for r := 0; r < 4; r++ {
		readers.Add(1)
		go func() {
			defer readers.Done()
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
	for i, tok := range owners {
		writers.Add(1)
		go func() {
			defer writers.Done()
			for e := 1; e <= edits; e++ {
				body := strings.Replace(profileBody, "لوله‌کشی علی", fmt.Sprintf("لوله‌کشی %d", i), 1)
				body = strings.Replace(body, `"work_history_years": 12`, fmt.Sprintf(`"work_history_years": %d`, 20*i+e), 1)
				if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", ids[i]), token: tok, body: body}); a.Status != 200 {
					t.Errorf("update: %d %s", a.Status, a.Body)
					return
				}
			}
		}()
	}
	writers.Wait()
	close(stop)
	readers.Wait()
	a := w.send(t, req{method: "POST", path: "/v1/user-technical/searchUser", body: `{"city_slag": "tehran"}`})
	for i, id := range ids {
		if want := fmt.Sprintf(`"work_history_years":%d,`, 20*i+edits); !strings.Contains(a.Body, want) {
			t.Fatalf("the last edit of %d is missing (%s): %s", id, want, a.Body)
		}
		f := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d", id)})
		if !strings.Contains(a.Body, string(f.Payload)) {
			t.Fatalf("the answer does not hold the fresh form of %d:\n%s\n%s", id, f.Payload, a.Body)
		}
	}
}

// A change drops from the form cache only the forms of the profiles it changed: the others are
// still answered from the cache, and every answer equals the forms read afresh. A renamed
// profile's old slug is not served from the cache under its new form.
func TestSearchFormsKeepWhatDidNotChange(t *testing.T) {
	w := newProfileWorld(t)
	a := w.create(t, w.owner, profileBody)
	b := w.create(t, w.other, strings.Replace(profileBody, "لوله‌کشی علی", "لوله‌کشی رضا", 1))
	for _, p := range []profileAnswer{a, b} {
		w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status": "Accepted"}`})
	}
	fresh := func(id int64) string {
		t.Helper()
		r := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d", id)})
		if r.Status != 200 {
			t.Fatalf("by id: %d %s", r.Status, r.Body)
		}
		return string(r.Payload)
	}
	// search answers the forms of a browse of Tehran, after checking each against its fresh form,
	// and how many were found in the cache and read, and whether the cache started again empty.
	search := func(step string) (hits, misses, emptied uint64) {
		t.Helper()
		h0, m0, e0 := api.FormCacheCounts(w.API)
		r := w.send(t, req{method: "POST", path: "/v1/user-technical/searchUser", body: `{"city_slag": "tehran"}`})
		var page struct {
			Profiles []json.RawMessage `json:"profiles"`
		}
		if r.Status != 200 || json.Unmarshal(r.Payload, &page) != nil || len(page.Profiles) != 2 {
			t.Fatalf("%s: search: %d %s", step, r.Status, r.Body)
		}
		h1, m1, e1 := api.FormCacheCounts(w.API)
		for _, f := range page.Profiles {
			var id struct {
				ID int64 `json:"id"`
			}
			json.Unmarshal(f, &id)
			if got, want := string(f), fresh(id.ID); got != want {
				t.Fatalf("%s: the answer's form of %d is not the fresh one:\n%s\n%s", step, id.ID, got, want)
			}
		}
		return h1 - h0, m1 - m0, e1 - e0
	}
	search("first")
	if h, m, _ := search("again"); h != 2 || m != 0 {
		t.Fatalf("unchanged: %d forms found, %d read; want 2, 0", h, m)
	}
	edited := strings.Replace(profileBody, `"work_history_years": 12`, `"work_history_years": 13`, 1)
	if r := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", a.ID), token: w.owner, body: edited}); r.Status != 200 {
		t.Fatalf("update: %d %s", r.Status, r.Body)
	}
	if h, m, e := search("a edited"); h != 1 || m != 1 || e != 0 {
		t.Fatalf("after an edit of one: %d found, %d read, emptied %d times; want 1, 1, 0", h, m, e)
	}
	if r := w.send(t, req{method: "PUT", path: "/v1/user/edit", token: w.other, body: `{"name": "رضا نو"}`}); r.Status != 200 {
		t.Fatalf("rename: %d %s", r.Status, r.Body)
	}
	if h, m, e := search("b's owner renamed"); h != 1 || m != 1 || e != 0 {
		t.Fatalf("after the owner of one was renamed: %d found, %d read, emptied %d times; want 1, 1, 0", h, m, e)
	}

	// The page of b by its slug is cached; renaming b gives it a new slug.
	page := func(slug string) int {
		t.Helper()
		return w.send(t, req{method: "POST", path: "/v1/user-technical/searchUserSlag", body: fmt.Sprintf(`{"slug": %q}`, slug)}).Status
	}
	if page(b.Slug) != 200 || page(b.Slug) != 200 {
		t.Fatal("b's page does not answer")
	}
	renamed := strings.Replace(profileBody, "لوله‌کشی علی", "تاسیسات رضا", 1)
	r := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", b.ID), token: w.other, body: renamed})
	if r.Status != 200 {
		t.Fatalf("rename b: %d %s", r.Status, r.Body)
	}
	// With --moderation pre the edit waits for review; the admin's accept publishes it.
	if r := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", b.ID), token: w.admin, body: `{"status":"Accepted"}`}); r.Status != 200 {
		t.Fatalf("accept the edit: %d %s", r.Status, r.Body)
	}
	var nb profileAnswer
	if err := json.Unmarshal([]byte(fresh(b.ID)), &nb); err != nil || nb.Slug == b.Slug {
		t.Fatalf("renaming b kept its slug %s (%v)", b.Slug, err)
	}
	search("b renamed") // puts b's new form in the cache
	if got := page(b.Slug); got != 404 {
		t.Fatalf("b's old slug answers %d", got)
	}
	if got := page(nb.Slug); got != 200 {
		t.Fatalf("b's new slug answers %d", got)
	}

	// Two changes, and the first one's outbox row pruned before the cache read them: it cannot
	// know what the missing row changed, and starts again empty.
	search("before the pruned change")
	for i, p := range []profileAnswer{a, b} {
		tok := []string{w.owner, w.other}[i]
		body := strings.Replace(profileBody, `"work_history_years": 12`, `"work_history_years": 30`, 1)
		if i == 1 {
			body = renamed
		}
		if r := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/user-technical/update/%d", p.ID), token: tok, body: body}); r.Status != 200 {
			t.Fatalf("update: %d %s", r.Status, r.Body)
		}
	}
	w.Clock.advance(time.Minute)
	head, err := w.Store.OutboxHead(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if n, err := w.Store.PruneOutbox(t.Context(), head, 1); err != nil || n == 0 {
		t.Fatalf("pruned %d rows: %v", n, err)
	}
	if h, m, e := search("after the pruned change"); h != 0 || m != 2 || e != 1 {
		t.Fatalf("after a pruned change: %d found, %d read, emptied %d times; want 0, 2, 1", h, m, e)
	}
}
