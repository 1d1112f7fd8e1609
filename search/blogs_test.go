package search_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"kardan/search"
	"kardan/store"
)

// blogClock is the store's clock under the test's control.
type blogClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *blogClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *blogClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// blogFixture is the search fixture with a clock and an admin writer (admins write in any field
// and are not reviewed, so every non-draft blog is Accepted at once).
type blogFixture struct {
	*fixture
	clock  *blogClock
	writer *store.User
}

func newBlogFixture(t *testing.T) *blogFixture {
	f := &blogFixture{fixture: newFixture(t), clock: &blogClock{t: time.Date(2026, 3, 21, 8, 0, 0, 0, time.UTC)}}
	f.st.Now = f.clock.now
	f.writer = &store.User{NumberPhone: "09350000001", Name: "نویسنده", PasswordHash: "x", Role: store.RoleAdmin}
	if err := f.st.CreateUser(context.Background(), f.writer); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *blogFixture) blog(title, content string, cats []int64, tags []string, release time.Time) *store.Blog {
	f.t.Helper()
	in := &store.BlogInput{Title: title, Content: content, CategoryList: cats, Tag: tags}
	if !release.IsZero() {
		in.ReleaseAt = store.FlexTime(release.Format(time.RFC3339))
	}
	b, err := f.st.CreateBlog(context.Background(), f.writer, in, store.BlogOptions{Moderated: true})
	if err != nil {
		f.t.Fatal(err)
	}
	f.clock.advance(time.Minute)
	return b
}

func (f *blogFixture) searchBlogs(q search.BlogQuery) []int64 {
	f.t.Helper()
	if q.Take == 0 {
		q.Take = 100
	}
	h, err := f.ix.SearchBlogs(context.Background(), q)
	if err != nil {
		f.t.Fatal(err)
	}
	ids := []int64{}
	for _, b := range h.Blogs {
		ids = append(ids, b.ID)
	}
	if h.Total < len(ids) {
		f.t.Fatalf("total %d below the %d hits", h.Total, len(ids))
	}
	return ids
}

func TestBlogSearch(t *testing.T) {
	ctx := context.Background()
	f := newBlogFixture(t)
	fridge := f.blog("آموزش تعمير يخچال", "<p>وقتی يخچال برفک می‌زند، اول <b>ترموستات</b> را ببینید.</p>", []int64{201}, []string{"لوازم‌خانگی"}, time.Time{})
	cooler := f.blog("سرويس كولر آبی پیش از تابستان", "<p>پوشال كولر را هر سال عوض کنید.</p>", []int64{103}, []string{"تابستان"}, time.Time{})
	pipes := f.blog("لوله‌کشی ساختمان‌های قدیمی", "<p>Old galvanized pipes rust from the inside.</p>", []int64{101}, []string{"لوله", "زمستان"}, time.Time{})
	future := f.blog("یخچال‌های هوشمند سال آینده", "<p>نگاهی به یخچال‌های تازه.</p>", []int64{201}, nil, f.clock.t.Add(time.Hour))
	f.sync()

	for _, tc := range []struct {
		name string
		q    search.BlogQuery
		want []int64
	}{
		{"PersianYehFindsArabicYeh", search.BlogQuery{Text: "یخچال"}, []int64{fridge.ID}},
		{"ScheduledHiddenFromArabicYehQuery", search.BlogQuery{Text: "يخچال‌های هوشمند"}, []int64{}},
		{"PersianKafFindsArabicKaf", search.BlogQuery{Text: "کولر"}, []int64{cooler.ID}},
		{"ArabicKafQuery", search.BlogQuery{Text: "كولر آبي"}, []int64{cooler.ID}},
		{"ZWNJJoined", search.BlogQuery{Text: "لولهکشی"}, []int64{pipes.ID}},
		{"ZWNJSpaced", search.BlogQuery{Text: "لوله کشی"}, []int64{pipes.ID}},
		{"ContentWord", search.BlogQuery{Text: "ترموستات"}, []int64{fridge.ID}},
		{"EnglishStemmed", search.BlogQuery{Text: "pipe"}, []int64{pipes.ID}},
		{"OneTypo", search.BlogQuery{Text: "ترموستاب"}, []int64{fridge.ID}},
		{"CategoryName", search.BlogQuery{Text: "لوله‌کش"}, []int64{pipes.ID}},
		{"FieldFilter", search.BlogQuery{Text: "کولر", CategoryID: 1}, []int64{cooler.ID}},
		{"OtherFieldFilter", search.BlogQuery{Text: "کولر", CategoryID: 2}, []int64{}},
		{"TagFilter", search.BlogQuery{Text: "لوله", Tag: "#زمستان"}, []int64{pipes.ID}},
		{"WriterFilter", search.BlogQuery{Text: "یخچال", WriterID: f.writer.ID + 1}, []int64{}},
		{"NoTextNewestFirst", search.BlogQuery{}, []int64{pipes.ID, cooler.ID, fridge.ID}},
		{"NoTextCategory", search.BlogQuery{CategoryID: 201}, []int64{fridge.ID}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := f.searchBlogs(tc.q); !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}

	t.Run("ReleaseDateComesByItself", func(t *testing.T) {
		if got := f.searchBlogs(search.BlogQuery{Text: "هوشمند"}); len(got) != 0 {
			t.Fatalf("a scheduled blog was found: %v", got)
		}
		// Only the clock moves: no write, no outbox row, no reindex.
		f.clock.advance(time.Hour)
		if got := f.searchBlogs(search.BlogQuery{Text: "هوشمند"}); !slices.Equal(got, []int64{future.ID}) {
			t.Fatalf("after the release date: got %v", got)
		}
		if got := f.searchBlogs(search.BlogQuery{Text: "یخچال"}); !slices.Equal(got, []int64{future.ID, fridge.ID}) {
			t.Fatalf("newest release first: got %v", got)
		}
	})

	t.Run("BlockedAndDeletedLeave", func(t *testing.T) {
		if _, err := f.st.SetBlogStatus(ctx, nil, cooler.ID, store.StatusBlocked, ""); err != nil {
			t.Fatal(err)
		}
		if err := f.st.DeleteBlog(ctx, f.writer, pipes.ID); err != nil {
			t.Fatal(err)
		}
		f.sync()
		if got := f.searchBlogs(search.BlogQuery{Text: "کولر"}); len(got) != 0 {
			t.Fatalf("blocked blog found: %v", got)
		}
		if got := f.searchBlogs(search.BlogQuery{Text: "لوله"}); len(got) != 0 {
			t.Fatalf("deleted blog found: %v", got)
		}
		if n, _ := f.ix.DocCount(); n != 2 {
			t.Fatalf("documents: got %d, want 2", n)
		}
	})

	t.Run("RebuildHoldsBlogs", func(t *testing.T) {
		dir := filepath.Join(f.dir, "index")
		f.ix.Close()
		if err := search.Rebuild(ctx, dir, f.st); err != nil {
			t.Fatal(err)
		}
		ix, err := search.Open(ctx, dir, f.st)
		if err != nil {
			t.Fatal(err)
		}
		f.ix = ix
		t.Cleanup(func() { ix.Close() })
		if got := f.searchBlogs(search.BlogQuery{Text: "یخچال"}); !slices.Equal(got, []int64{future.ID, fridge.ID}) {
			t.Fatalf("after rebuild: got %v", got)
		}
	})
}

func TestBlogSearchPaging(t *testing.T) {
	f := newBlogFixture(t)
	var ids []int64
	for i := 0; i < 25; i++ {
		ids = append(ids, f.blog(fmt.Sprintf("راهنمای نگهداری شماره %d", i), "<p>نگهداری منظم</p>", []int64{101}, nil, time.Time{}).ID)
	}
	f.sync()
	for _, text := range []string{"نگهداری", ""} {
		h, err := f.ix.SearchBlogs(context.Background(), search.BlogQuery{Text: text, Skip: 20, Take: 20})
		if err != nil {
			t.Fatal(err)
		}
		if h.Total != 25 || len(h.Blogs) != 5 || h.Blogs[0].ID != ids[4] || h.Blogs[4].ID != ids[0] {
			t.Fatalf("text %q page 2: total %d, %d blogs", text, h.Total, len(h.Blogs))
		}
	}
}
