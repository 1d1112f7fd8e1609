package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

const blockOpen = `<script type="application/json" id="first-answer">`

// firstBlock answers the first-answer data block of a page, decoded, and fails the test when the
// block does not end at its own </script> or the page does not go on as it should after it.
func firstBlock(t *testing.T, page string) (block struct {
	Path     string          `json:"path"`
	Body     json.RawMessage `json:"body"`
	Answer   json.RawMessage `json:"answer"`
	Category json.RawMessage `json:"category"`
}, ok bool) {
	t.Helper()
	i := strings.Index(page, blockOpen)
	if i < 0 {
		return block, false
	}
	rest := page[i+len(blockOpen):]
	end := strings.Index(rest, "</script>")
	if end < 0 {
		t.Fatalf("the block is not closed: %s", rest)
	}
	if err := json.Unmarshal([]byte(rest[:end]), &block); err != nil {
		t.Fatalf("the block, up to its first </script>, is not JSON: %v: %s", err, rest[:end])
	}
	if after := rest[end+len("</script>"):]; !strings.HasPrefix(after, "</body>") || !strings.HasSuffix(strings.TrimSpace(after), "</html>") {
		t.Fatalf("the page does not end after the block: %q", after)
	}
	if strings.Count(page, blockOpen) != 1 {
		t.Fatal("more than one block")
	}
	return block, true
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return reflect.DeepEqual(va, vb)
}

func TestFirstAnswer(t *testing.T) {
	w := newProfileWorld(t)
	// Text that would end a script element early, were it written as it is.
	hostile := strings.Replace(profileBody, `"descriotion": "لوله‌کشی آب و گاز"`,
		`"descriotion": "لوله‌کشی </script><script>alert(1)</script> & <!-- آب"`, 1)
	p := w.create(t, w.owner, hostile)
	page := "/profile/" + url.PathEscape(p.Slug)

	t.Run("NothingForAHiddenProfile", func(t *testing.T) {
		a := w.send(t, req{method: "GET", path: page})
		if _, ok := firstBlock(t, a.Body); a.Status != 404 || ok {
			t.Fatalf("got %d, block %v", a.Status, ok)
		}
	})

	w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status": "Accepted"}`})

	t.Run("ProfilePage", func(t *testing.T) {
		a := w.send(t, req{method: "GET", path: page})
		b, ok := firstBlock(t, a.Body)
		if a.Status != 200 || !ok {
			t.Fatalf("got %d, block %v: %s", a.Status, ok, a.Body)
		}
		if b.Path != "/v1/user-technical/searchUserSlag" || !sameJSON(t, b.Body, []byte(`{"slug": "`+p.Slug+`"}`)) {
			t.Fatalf("request %s %s", b.Path, b.Body)
		}
		api := w.send(t, req{method: "POST", path: b.Path, body: string(b.Body)})
		if !sameJSON(t, b.Answer, []byte(api.Body)) {
			t.Errorf("the page's answer differs from the API's:\n%s\n%s", b.Answer, api.Body)
		}
		if !strings.Contains(string(b.Answer), `\u003c/script\u003e`) || strings.Contains(a.Body, "<script>alert(1)") {
			t.Error("the description is not escaped in the page")
		}
		if strings.Contains(a.Body, "09120000001") {
			t.Error("the owner's number is in the page")
		}
	})

	t.Run("ProfilePageEscapedSlug", func(t *testing.T) {
		// A browser sends the Persian slug percent-encoded; the app asks with it decoded.
		a := w.send(t, req{method: "GET", path: "/profile/" + url.PathEscape(p.Slug) + "/"})
		if b, ok := firstBlock(t, a.Body); !ok || !sameJSON(t, b.Body, []byte(`{"slug": "`+p.Slug+`"}`)) {
			t.Fatalf("block %v %s", ok, b.Body)
		}
	})

	t.Run("NothingForUnknownProfile", func(t *testing.T) {
		a := w.send(t, req{method: "GET", path: "/profile/no-such-one"})
		if _, ok := firstBlock(t, a.Body); a.Status != 404 || ok {
			t.Fatalf("got %d, block %v", a.Status, ok)
		}
	})

	t.Run("NothingWhenSignedIn", func(t *testing.T) {
		r, err := http.NewRequest("GET", w.URL+page, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.AddCookie(&http.Cookie{Name: "token", Value: w.owner})
		r.AddCookie(&http.Cookie{Name: "id", Value: "1"})
		a := w.roundTrip(t, r)
		if _, ok := firstBlock(t, a.Body); a.Status != 200 || ok {
			t.Fatalf("got %d, block %v", a.Status, ok)
		}
	})

	t.Run("SearchPage", func(t *testing.T) {
		a := w.send(t, req{method: "GET", path: "/search/tehran?q=" + url.QueryEscape(" لوله ") + "&page=1&min_score=0&order=best&province=x"})
		b, ok := firstBlock(t, a.Body)
		if a.Status != 200 || !ok {
			t.Fatalf("got %d, block %v: %s", a.Status, ok, a.Body)
		}
		// As webui/src/lib/searchUrl.ts reads the address: a zero score and a bad province are no filter.
		want := `{"take": 20, "skip": 0, "city_slag": "tehran", "search_txt": "لوله", "order": "best"}`
		if b.Path != "/v1/user-technical/searchUser" || !sameJSON(t, b.Body, []byte(want)) {
			t.Fatalf("request %s %s", b.Path, b.Body)
		}
		api := w.send(t, req{method: "POST", path: b.Path, body: string(b.Body)})
		if !sameJSON(t, b.Answer, []byte(api.Body)) {
			t.Errorf("the page's answer differs from the API's:\n%s\n%s", b.Answer, api.Body)
		}
		var env struct {
			Payload struct {
				Count int `json:"count"`
			} `json:"payload"`
		}
		if err := json.Unmarshal(b.Answer, &env); err != nil || env.Payload.Count != 1 {
			t.Errorf("count %d (%v): %s", env.Payload.Count, err, b.Answer)
		}
		if b.Category != nil {
			t.Errorf("a search without a category carries one: %s", b.Category)
		}
	})

	t.Run("SearchPageCarriesItsCategory", func(t *testing.T) {
		// The node the heading and the price-request bar need, as the tree has it (without its
		// children), so the app draws them with the results and not when its tree arrives.
		tree := w.send(t, req{method: "GET", path: "/v1/work_category/getTreeById"})
		var env struct {
			Payload []map[string]any `json:"payload"`
		}
		if err := json.Unmarshal([]byte(tree.Body), &env); err != nil {
			t.Fatal(err)
		}
		var node map[string]any
		for _, field := range env.Payload {
			children, _ := field["children"].([]any)
			for _, c := range children {
				if c := c.(map[string]any); c["slag"] == "plumber" {
					node = c
				}
			}
		}
		if node == nil {
			t.Fatalf("no plumber in the tree: %s", tree.Body)
		}
		node["children"] = []any{}
		want, _ := json.Marshal(node)
		// The address's slug as a person may type it: the API reads it trimmed and in lower case.
		for _, path := range []string{"/search/tehran/plumber", "/search/iran/Plumber?page=2"} {
			a := w.send(t, req{method: "GET", path: path})
			b, ok := firstBlock(t, a.Body)
			if a.Status != 200 || !ok {
				t.Fatalf("%s: got %d, block %v", path, a.Status, ok)
			}
			if b.Category == nil || !sameJSON(t, b.Category, want) {
				t.Errorf("%s: category %s, want %s", path, b.Category, want)
			}
		}
		// A field of work is a category too.
		field := env.Payload[0]
		field["children"] = []any{}
		want, _ = json.Marshal(field)
		a := w.send(t, req{method: "GET", path: "/search/iran/" + url.PathEscape(field["slag"].(string))})
		if b, ok := firstBlock(t, a.Body); !ok || !sameJSON(t, b.Category, want) {
			t.Errorf("field %s: block %v, category %s, want %s", field["slag"], ok, b.Category, want)
		}
	})

	t.Run("SearchPageCategoryAndPage", func(t *testing.T) {
		a := w.send(t, req{method: "GET", path: "/search/iran/" + url.PathEscape("plumber") + "?page=3&min_score=4.5"})
		b, ok := firstBlock(t, a.Body)
		if !ok {
			t.Skipf("no category %q in the seed: %d", "plumber", a.Status)
		}
		if want := `{"take": 20, "skip": 40, "category_slag": "plumber", "min_score": 4.5}`; !sameJSON(t, b.Body, []byte(want)) {
			t.Fatalf("request %s", b.Body)
		}
	})

	t.Run("NothingForAFailingSearch", func(t *testing.T) {
		// An unknown city is a 404 page (no soft 404s) and a 400 from the API: nothing to embed.
		a := w.send(t, req{method: "GET", path: "/search/no-such-city"})
		if _, ok := firstBlock(t, a.Body); a.Status != 404 || ok {
			t.Fatalf("got %d, block %v", a.Status, ok)
		}
	})

	t.Run("NothingElsewhere", func(t *testing.T) {
		for _, path := range []string{"/", "/search", "/blog", "/index.html"} {
			if a := w.send(t, req{method: "GET", path: path}); strings.Contains(a.Body, blockOpen) {
				t.Errorf("%s has a block", path)
			}
		}
	})
}
