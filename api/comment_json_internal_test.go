package api

import (
	"bytes"
	"math/rand/v2"
	"net/http/httptest"
	"testing"

	"kardan/store"
)

// TestCommentListAsEncodingJSON: comment/get's hand-written answer is, byte for byte, what ok
// writes of the map it replaced, for 3,000 random lists (nil and empty lists, replies with and
// without a time, admin notes, hidden comments, strings with HTML, quotes, control characters,
// line separators and invalid UTF-8) seen by a visitor, a user and an admin.
func TestCommentListAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 4))
	texts := []string{"", "سلام دنیا", "<b>&amp;</b>", `"quoted" \ back`, "tab\tline\nnul\x00", "\u2028\u2029",
		"bad \xff\xfe utf8", "emoji 😀", "https://example.com/uploads/ab/cd.jpg", "خیلی خوب بود، ممنون!"}
	text := func() string { return texts[rng.IntN(len(texts))] + texts[rng.IntN(len(texts))] }
	viewers := []*store.User{nil, {ID: 5, Role: store.RoleUser}, {ID: 1, Role: store.RoleAdmin}}
	for round := 0; round < 3000; round++ {
		var cs []*store.Comment
		if n := rng.IntN(5); n > 0 || rng.IntN(2) == 0 {
			cs = []*store.Comment{}
			for i := 0; i < n; i++ {
				c := &store.Comment{ID: rng.Int64N(1 << 40), ProfileID: rng.Int64N(1 << 30), UserID: rng.Int64N(1 << 30),
					Description: text(), Score: 1 + rng.IntN(5), Hidden: rng.IntN(3) == 0, AdminNote: text(),
					CreateAt: rng.Int64N(4e9), UpdateAt: rng.Int64N(4e9), AuthorName: text(), AuthorImage: text()}
				if rng.IntN(4) > 0 {
					c.CategoryList = []int64{}
					for j := rng.IntN(3); j > 0; j-- {
						c.CategoryList = append(c.CategoryList, rng.Int64N(1000))
					}
				}
				if rng.IntN(4) > 0 {
					c.Images = []string{}
					for j := rng.IntN(3); j > 0; j-- {
						c.Images = append(c.Images, text())
					}
				}
				if rng.IntN(2) == 0 {
					r := text()
					c.Reply = &r
					if rng.IntN(3) > 0 {
						at := rng.Int64N(4e9)
						c.ReplyAt = &at
					}
				}
				if rng.IntN(2) == 0 {
					id := rng.Int64N(100)
					c.AdminID = &id
				}
				cs = append(cs, c)
			}
		}
		counts := store.CommentCounts{WithPhotos: rng.IntN(50)}
		for i := range counts.Scores {
			counts.Scores[i] = rng.IntN(100)
		}
		total := rng.IntN(500)
		viewer := viewers[rng.IntN(len(viewers))]
		got := httptest.NewRecorder()
		writeCommentList(got, cs, viewer, total, counts)
		want := httptest.NewRecorder()
		ok(want, map[string]any{"comments": commentForms(cs, viewer), "count": total, "scores": counts.Scores,
			"with_photos_count": counts.WithPhotos})
		if !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
			t.Fatalf("round %d:\n got %s\nwant %s", round, got.Body.Bytes(), want.Body.Bytes())
		}
		if got.Code != want.Code || got.Header().Get("Content-Type") != want.Header().Get("Content-Type") ||
			got.Header().Get("Cache-Control") != want.Header().Get("Cache-Control") {
			t.Fatalf("round %d: headers %v, want %v", round, got.Header(), want.Header())
		}
	}
}
