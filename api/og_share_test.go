package api_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var ogImageMeta = regexp.MustCompile(`<meta property="og:image" content="https://kardan\.example(/og/(profile|blog)/(\d+)-(fa|en)-([0-9a-f]+)\.png)">`)

// shareCard fetches a page, follows its og:image to the card and checks the card is a
// 1200×630 PNG kept in the cards directory; it answers the card's path and its bytes.
func shareCard(t *testing.T, w *profileWorld, page, kind, lang string) (string, []byte) {
	t.Helper()
	a := w.send(t, req{method: "GET", path: page})
	m := ogImageMeta.FindStringSubmatch(a.Body)
	if a.Status != 200 || m == nil || m[2] != kind || m[4] != lang {
		t.Fatalf("%s: %d, og:image %v", page, a.Status, m)
	}
	for _, want := range []string{`<meta property="og:image:width" content="1200">`, `<meta property="og:image:height" content="630">`, `<meta property="og:image:alt" content="`} {
		if !strings.Contains(a.Body, want) {
			t.Errorf("%s lacks %s", page, want)
		}
	}
	c := w.send(t, req{method: "GET", path: m[1]})
	if c.Status != 200 || c.Header.Get("Content-Type") != "image/png" || !strings.Contains(c.Header.Get("Cache-Control"), "immutable") {
		t.Fatalf("%s: %d %v", m[1], c.Status, c.Header)
	}
	img, err := png.Decode(strings.NewReader(c.Body))
	if err != nil || img.Bounds() != image.Rect(0, 0, 1200, 630) {
		t.Fatalf("%s: %v %v", m[1], err, img.Bounds())
	}
	file := filepath.Join(w.Cards, kind, m[3]+"-"+m[4]+"-"+m[5]+".png")
	if b, err := os.ReadFile(file); err != nil || !bytes.Equal(b, []byte(c.Body)) {
		t.Fatalf("the card is not kept as %s: %v", file, err)
	}
	if dir := os.Getenv("KARDAN_CARD_DIR"); dir != "" {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("api-%s-%s-%s.png", kind, m[3], m[5])), []byte(c.Body), 0o644)
	}
	return m[1], []byte(c.Body)
}

// noRedirect answers a GET without following a redirect.
func noRedirect(t *testing.T, w *profileWorld, path string) *http.Response {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(w.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

// TestProfileShareCard: a profile's page shares its own card, drawn once into the data
// directory, read back from there, and drawn again under a new address when what it shows
// changes (a new review changes the rating); the old address leads to the new card.
func TestProfileShareCard(t *testing.T) {
	w := newProfileWorld(t)
	up := decodePayload[uploadAnswer](t, w.upload(t, w.owner, "fa", "userTechnical", sideways(t, 600, 400, 1)))
	body := strings.Replace(profileBody, `"profile_name": "لوله‌کشی علی"`, `"profile_name": "لوله‌کشی علی 24 ساعته", "profile_image": "`+up.Address+`"`, 1)
	p := w.create(t, w.owner, body)
	plain := w.create(t, w.other, strings.Replace(profileBody, "لوله‌کشی علی", "تأسیسات رضا", 1))
	for _, id := range []int64{p.ID, plain.ID} {
		w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", id), token: w.admin, body: `{"status": "Accepted"}`})
	}

	path, first := shareCard(t, w, "/profile/"+p.Slug, "profile", "fa")
	// Read back from its file: a second request answers what the file holds.
	file := filepath.Join(w.Cards, strings.TrimPrefix(path, "/og/"))
	marker := append(append([]byte{}, first...), 0)
	if err := os.WriteFile(file, marker, 0o644); err != nil {
		t.Fatal(err)
	}
	if c := w.send(t, req{method: "GET", path: path}); c.Body != string(marker) {
		t.Fatalf("the card was drawn again instead of read from %s", file)
	}
	os.WriteFile(file, first, 0o644)

	// Without a picture: the placeholder; in English: its own card.
	_, placeholder := shareCard(t, w, "/profile/"+plain.Slug, "profile", "fa")
	if bytes.Equal(placeholder, first) {
		t.Fatal("two profiles share a card")
	}
	enPath, _ := shareCard(t, w, "/en/profile/"+p.Slug, "profile", "en")

	// A review changes the rating the card shows: a new address, a new file, the old one gone.
	if a := w.send(t, req{method: "POST", path: "/v1/comment/add", token: w.other,
		body: fmt.Sprintf(`{"category_list":[101],"description":"کار تمیز و سریع","score":4,"user_technical_id":%d}`, p.ID)}); a.Status != 200 {
		t.Fatalf("review: %d %s", a.Status, a.Body)
	}
	path2, second := shareCard(t, w, "/profile/"+p.Slug, "profile", "fa")
	if path2 == path || bytes.Equal(first, second) {
		t.Fatalf("the card did not change after the review: %s", path2)
	}
	if _, err := os.Stat(file); err == nil {
		t.Errorf("the old version %s is still kept", file)
	}
	if _, err := os.Stat(filepath.Join(w.Cards, strings.TrimPrefix(enPath, "/og/"))); err != nil {
		t.Errorf("the English card went with the Persian one's old version: %v", err)
	}
	old := noRedirect(t, w, path)
	if old.StatusCode != 302 || old.Header.Get("Location") != path2 {
		t.Errorf("old address: %d → %q, want 302 → %s", old.StatusCode, old.Header.Get("Location"), path2)
	}

	for bad, want := range map[string]int{
		"/og/profile/999999-fa-0123456789abcdef.png":                404,
		fmt.Sprintf("/og/profile/%d-de-0123456789abcdef.png", p.ID): 404,
		fmt.Sprintf("/og/profile/%d-fa-NOTHEX.png", p.ID):           404,
	} {
		if a := noRedirect(t, w, bad); a.StatusCode != want {
			t.Errorf("%s: %d, want %d", bad, a.StatusCode, want)
		}
	}
	// A hidden profile has no card.
	w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", plain.ID), token: w.admin, body: `{"status": "Blocked"}`})
	if a := noRedirect(t, w, fmt.Sprintf("/og/profile/%d-fa-0123456789abcdef.png", plain.ID)); a.StatusCode != 404 {
		t.Errorf("hidden profile's card: %d", a.StatusCode)
	}
}

// TestBlogShareCard: a published article shares its own card, and an accepted edit of its title
// draws a new one under a new address: the old file goes and the old address leads to the new
// card. A rewrite still waiting for review leaves the card alone (its title is not public yet).
func TestBlogShareCard(t *testing.T) {
	w := newProfileWorld(t)
	// A writer writes in the fields of their accepted profiles.
	p := w.create(t, w.owner, profileBody)
	w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status": "Accepted"}`})
	a := w.send(t, req{method: "POST", path: "/v1/blog/add", token: w.owner,
		body: `{"title": "راهنمای انتخاب لوله‌کش برای خانه‌های قدیمی در ۱۴۰۵", "summary": "چند نکته", "content": "<p>چند نکته</p>", "category_list": [101], "isDraft": false}`})
	blog := decodePayload[struct {
		ID     int64  `json:"id"`
		Slug   string `json:"slug"`
		Status string `json:"status"`
	}](t, a)
	if blog.Status == "Pending" {
		w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/blog/%d/status", blog.ID), token: w.admin, body: `{"status": "Accepted"}`})
	}
	path, first := shareCard(t, w, "/blog/"+blog.Slug, "blog", "fa")
	enPath, _ := shareCard(t, w, "/en/blog/"+blog.Slug, "blog", "en")
	file := filepath.Join(w.Cards, strings.TrimPrefix(path, "/og/"))

	const edit = `{"title": "لوله‌کشی خانه‌های قدیمی: پنج نکته پیش از شروع کار", "summary": "چند نکته", "content": "<p>چند نکته</p>", "category_list": [101]}`
	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/blog/edit/%d", blog.ID), token: w.owner, body: edit}); a.Status != 200 {
		t.Fatalf("edit: %d %s", a.Status, a.Body)
	}
	if waiting, _ := shareCard(t, w, "/blog/"+blog.Slug, "blog", "fa"); waiting != path {
		t.Fatalf("the card shows a title still waiting for review: %s", waiting)
	}
	if a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/blog/%d/status", blog.ID), token: w.admin, body: `{"status": "Accepted"}`}); a.Status != 200 {
		t.Fatalf("accept the edit: %d %s", a.Status, a.Body)
	}

	path2, second := shareCard(t, w, "/blog/"+blog.Slug, "blog", "fa")
	if path2 == path || bytes.Equal(first, second) {
		t.Fatalf("the card did not change with the title: %s", path2)
	}
	if _, err := os.Stat(file); err == nil {
		t.Errorf("the old version %s is still kept", file)
	}
	if old := noRedirect(t, w, path); old.StatusCode != 302 || old.Header.Get("Location") != path2 {
		t.Errorf("old address: %d → %q, want 302 → %s", old.StatusCode, old.Header.Get("Location"), path2)
	}
	enPath2, _ := shareCard(t, w, "/en/blog/"+blog.Slug, "blog", "en")
	if old := noRedirect(t, w, enPath); enPath2 == enPath || old.StatusCode != 302 || old.Header.Get("Location") != enPath2 {
		t.Errorf("old English address: %d → %q, want 302 → %s", old.StatusCode, old.Header.Get("Location"), enPath2)
	}
}
