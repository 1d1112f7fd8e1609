package store_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"kardan/store"
)

// xssPayloads are attacks on a blog's HTML; none may survive sanitisation in any form.
var xssPayloads = []string{
	`<script>alert(1)</script>`,
	`<SCRIPT SRC=//evil.example/x.js></SCRIPT>`,
	`<img src=x onerror=alert(1)>`,
	`<img src="/uploads/ab/abc.jpg" onerror="alert(1)">`,
	`<a href="javascript:alert(1)">click</a>`,
	`<a href="JaVaScRiPt:alert(1)">click</a>`,
	`<a href="jav&#x09;ascript:alert(1)">tab</a>`,
	`<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">entities</a>`,
	`<a href=" javascript:alert(1)">space</a>`,
	`<svg onload=alert(1)><circle r="1"/></svg>`,
	`<svg><script>alert(1)</script></svg>`,
	`<p style="background:url(javascript:alert(1))">styled</p>`,
	`<div style="width: expression(alert(1))">ie</div>`,
	`<iframe src="https://evil.example"></iframe>`,
	`<iframe srcdoc="<script>alert(1)</script>"></iframe>`,
	`<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">`,
	`<a href="data:text/html,<script>alert(1)</script>">data</a>`,
	`<object data="evil.swf"></object><embed src="evil.swf">`,
	`<scr<script>ipt>alert(1)</scr</script>ipt>`,
	`<<script>script>alert(1)<</script>/script>`,
	`<body onload=alert(1)>`,
	`<form action="https://evil.example"><input type="submit" formaction="javascript:alert(1)"></form>`,
	`<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>`,
	`<a href="vbscript:msgbox(1)">vb</a>`,
	`<meta http-equiv="refresh" content="0;url=javascript:alert(1)">`,
	`<link rel="stylesheet" href="https://evil.example/x.css">`,
	`<base href="https://evil.example/">`,
	`<p onclick="alert(1)" onmouseover="alert(1)">hover</p>`,
	`<img src="/uploads/../../etc/passwd.jpg">`,
	`<img src="https://evil.example/track.gif">`,
	`<a href="https://example.com" target="_self" rel="opener">opener</a>`,
	`<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>`,
	`<style>@import 'https://evil.example/x.css';</style>`,
	`<template><script>alert(1)</script></template>`,
}

// forbidden are the pieces an attack needs; sanitised HTML holds none of them.
var forbidden = []string{"<script", "</script", "onerror", "onload", "onclick", "onmouseover", "javascript:", "vbscript:",
	"<iframe", "srcdoc", "<svg", "style=", "<style", "expression(", "data:", "<object", "<embed", "<form", "formaction",
	"<meta", "<link", "<base", "evil.example/x", "track.gif", "passwd", "opener\"", "<math", "<template", "<body", "<input"}

func TestSanitizeBlogHTML(t *testing.T) {
	for _, p := range xssPayloads {
		out := strings.ToLower(store.SanitizeBlogHTML("<p>متن</p>" + p))
		for _, f := range forbidden {
			if strings.Contains(out, f) {
				t.Errorf("payload %q: output %q still holds %q", p, out, f)
			}
		}
		if !strings.Contains(out, "<p>متن</p>") {
			t.Errorf("payload %q: the harmless paragraph was lost: %q", p, out)
		}
	}

	t.Run("KeepsWhatArticlesNeed", func(t *testing.T) {
		in := `<h2 dir="rtl">عنوان</h2><p>متن <strong>پررنگ</strong> و <em>کج</em></p><ul><li>یک</li></ul><ol><li>دو</li></ol>` +
			`<blockquote>نقل</blockquote><img src="/uploads/ab/abcdef-400.jpg" alt="عکس">` +
			`<a href="https://example.com/page">بیرون</a><a href="/profile/x">درون</a><a href="mailto:a@b.ir">ایمیل</a>`
		out := store.SanitizeBlogHTML(in)
		for _, want := range []string{`<h2 dir="rtl">عنوان</h2>`, `<strong>پررنگ</strong>`, `<em>کج</em>`, `<ul><li>یک</li></ul>`,
			`<ol><li>دو</li></ol>`, `<blockquote>نقل</blockquote>`, `<img src="/uploads/ab/abcdef-400.jpg" alt="عکس"/>`,
			`<a href="https://example.com/page" target="_blank" rel="nofollow ugc noopener noreferrer">بیرون</a>`,
			`<a href="/profile/x" rel="nofollow ugc">درون</a>`, `<a href="mailto:a@b.ir" rel="nofollow ugc">`} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q: %s", want, out)
			}
		}
	})
	t.Run("PlainTextAndExcerpt", func(t *testing.T) {
		if got := store.PlainText(`<p>سلام&nbsp;<b>دنیا</b></p><script>alert(1)</script><p>دوم &amp; سوم</p>`); got != "سلام دنیا دوم & سوم" {
			t.Errorf("plain text: got %q", got)
		}
		if got := store.Excerpt("یک دو سه چهار پنج", 10); got != "یک دو سه…" {
			t.Errorf("excerpt: got %q", got)
		}
	})
}

// blogFixture is a community fixture whose owner is an expert of field 1 (an accepted plumber).
type blogFixture struct {
	*communityFixture
	opt store.BlogOptions
}

func newBlogFixture(t *testing.T) *blogFixture {
	f := &blogFixture{communityFixture: newCommunityFixture(t, 0), opt: store.BlogOptions{Moderated: true, Location: time.UTC}}
	f.acceptedProfile(t, f.owner, 1, 101)
	return f
}

func blogIn(title string, draft bool) *store.BlogInput {
	return &store.BlogInput{Title: title, Content: "<p>راهنمای <b>نگهداری</b> لوله‌ها در زمستان</p>",
		CategoryList: store.IDList{101}, IsDraft: draft}
}

func TestBlogLifecycle(t *testing.T) {
	ctx := context.Background()
	f := newBlogFixture(t)
	now := f.clock.t.Unix()

	in := blogIn("یخ‌زدگی لوله‌ها", true)
	in.CategoryList = nil
	in.Content = ""
	b, err := f.st.CreateBlog(ctx, f.owner, in, f.opt)
	if err != nil {
		t.Fatal(err)
	}
	if b.Status != store.BlogDraft || b.Published(now) || b.Slug != "یخ-زدگی-لوله-ها" || b.ReleaseAt != now {
		t.Fatalf("draft: got %+v", b)
	}

	// Submitting with a release date a day ahead: Pending, then Accepted but not yet Published.
	in = blogIn("یخ‌زدگی لوله‌ها در زمستان", false)
	in.ID = b.ID
	in.ReleaseAt = store.FlexTime(f.clock.t.Add(24 * time.Hour).Format(time.RFC3339))
	b, err = f.st.UpdateBlog(ctx, f.owner, in, f.opt)
	if err != nil {
		t.Fatal(err)
	}
	if b.Status != store.StatusPending || b.Slug != "یخ-زدگی-لوله-ها-در-زمستان" {
		t.Fatalf("submitted: got %s %s", b.Status, b.Slug)
	}
	if b.Summary != "راهنمای نگهداری لوله‌ها در زمستان" {
		t.Errorf("summary from content: got %q", b.Summary)
	}
	b, err = f.st.SetBlogStatus(ctx, &f.admin.ID, b.ID, store.StatusAccepted, "خوب است")
	if err != nil {
		t.Fatal(err)
	}
	if b.ShownStatus(f.clock.t.Unix()) != store.StatusAccepted {
		t.Fatalf("scheduled: got %s", b.ShownStatus(f.clock.t.Unix()))
	}
	list, total, _ := f.st.Blogs(ctx, store.BlogFilter{PublishedOnly: true})
	if total != 0 || len(list) != 0 {
		t.Fatalf("a scheduled blog is listed")
	}
	f.clock.advance(24*time.Hour + time.Second)
	list, total, _ = f.st.Blogs(ctx, store.BlogFilter{PublishedOnly: true})
	if total != 1 || list[0].ShownStatus(f.clock.t.Unix()) != store.BlogPublished {
		t.Fatalf("released: got %d", total)
	}

	// The writer's edit of an Accepted blog keeps it Accepted, and its address.
	in.Title = "عنوان تازه برای مقاله"
	b, err = f.st.UpdateBlog(ctx, f.owner, in, f.opt)
	if err != nil || b.Status != store.StatusAccepted || b.Slug != "یخ-زدگی-لوله-ها-در-زمستان" {
		t.Fatalf("edit accepted: got %+v %v", b, err)
	}
	// Blocked stays Blocked whatever the writer does; an admin unblocks.
	if b, err = f.st.SetBlogStatus(ctx, nil, b.ID, store.StatusBlocked, ""); err != nil {
		t.Fatal(err)
	}
	if b, err = f.st.UpdateBlog(ctx, f.owner, in, f.opt); err != nil || b.Status != store.StatusBlocked {
		t.Fatalf("edit blocked: got %s %v", b.Status, err)
	}
	if _, err := f.st.SetBlogStatus(ctx, nil, b.ID, store.StatusRejected, ""); errKey(err) != "bad_transition" {
		t.Fatalf("blocked to rejected: got %v", err)
	}
	if b, err = f.st.SetBlogStatus(ctx, nil, b.ID, store.StatusAccepted, ""); err != nil || b.Status != store.StatusAccepted {
		t.Fatalf("unblock: got %v", err)
	}
	log, _ := f.st.AuditLog(ctx, "blog", b.ID)
	if len(log) != 3 || log[0].Note != "خوب است" || *log[0].ActorID != f.admin.ID || log[1].ActorID != nil {
		t.Fatalf("audit: got %+v", log)
	}

	// Rejected goes back to Pending when the writer resubmits.
	r, err := f.st.CreateBlog(ctx, f.owner, blogIn("مقاله ردشدنی", false), f.opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.SetBlogStatus(ctx, &f.admin.ID, r.ID, store.StatusRejected, "منبع ندارد"); err != nil {
		t.Fatal(err)
	}
	resub := blogIn("مقاله ردشدنی", false)
	resub.ID = r.ID
	if r, err = f.st.UpdateBlog(ctx, f.owner, resub, f.opt); err != nil || r.Status != store.StatusPending {
		t.Fatalf("resubmit: got %s %v", r.Status, err)
	}
	// An admin's edit of another's blog keeps its status.
	resub.Title = "مقاله ویرایش‌شده به دست مدیر"
	if r, err = f.st.UpdateBlog(ctx, f.admin, resub, f.opt); err != nil || r.Status != store.StatusPending {
		t.Fatalf("admin edit: got %s %v", r.Status, err)
	}
	if _, err := f.st.UpdateBlog(ctx, f.other, resub, f.opt); errKey(err) != "blog_not_yours" {
		t.Fatalf("other's edit: got %v", err)
	}

	// Moderation off: a submission is Accepted at once.
	off, err := f.st.CreateBlog(ctx, f.owner, blogIn("بدون بازبینی", false), store.BlogOptions{})
	if err != nil || off.Status != store.StatusAccepted || !off.Published(f.clock.t.Unix()) {
		t.Fatalf("moderation off: got %+v %v", off, err)
	}
}

func TestBlogValidation(t *testing.T) {
	ctx := context.Background()
	f := newBlogFixture(t)
	for _, tc := range []struct {
		name      string
		mod       func(in *store.BlogInput)
		wantField string
		wantKey   string
	}{
		{"ErrTitleEmpty", func(in *store.BlogInput) { in.Title = "  " }, "title", "enter"},
		{"ErrTitleShort", func(in *store.BlogInput) { in.Title = "ab" }, "title", "too_short"},
		{"ErrTitleLong", func(in *store.BlogInput) { in.Title = strings.Repeat("ع", 151) }, "title", "too_long"},
		{"ErrContentOnlyScript", func(in *store.BlogInput) { in.Content = "<script>alert(1)</script>" }, "content", "enter"},
		{"ErrContentTooLong", func(in *store.BlogInput) { in.Content = "<p>" + strings.Repeat("متن ", 25001) + "</p>" }, "content", "too_long"},
		{"ErrSummaryLong", func(in *store.BlogInput) { in.Summary = strings.Repeat("خ", 301) }, "summary", "too_long"},
		{"ErrNoCategory", func(in *store.BlogInput) { in.CategoryList = nil }, "category_list", "enter"},
		{"ErrUnknownCategory", func(in *store.BlogInput) { in.CategoryList = store.IDList{999999} }, "category_list", "enter_correct"},
		{"ErrTooManyCategories", func(in *store.BlogInput) {
			in.CategoryList = store.IDList{1, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110}
		}, "category_list", "too_many_items"},
		{"ErrReleaseAt", func(in *store.BlogInput) { in.ReleaseAt = "next tuesday" }, "release_at", "enter_correct"},
		{"ErrReleaseAtYear", func(in *store.BlogInput) { in.ReleaseAt = "2999-01-01" }, "release_at", "enter_correct"},
		// The clock reads 2026: the spec's picker offers 1916 to 2076.
		{"ErrReleaseAtBeforePicker", func(in *store.BlogInput) { in.ReleaseAt = "1915-12-31" }, "release_at", "enter_correct"},
		{"ErrReleaseAtAfterPicker", func(in *store.BlogInput) { in.ReleaseAt = "2077-01-01" }, "release_at", "enter_correct"},
		{"ErrImageOutside", func(in *store.BlogInput) { in.ImageURL = "https://evil.example/x.jpg" }, "image_url", "enter_correct"},
		{"ErrImageNotYours", func(in *store.BlogInput) { in.ImageURL = "/uploads/ab/abcdef.jpg" }, "image_url", "image_not_yours"},
		{"ErrTagLong", func(in *store.BlogInput) { in.Tag = store.TagList{strings.Repeat("ب", 41)} }, "tag", "too_long"},
		{"ErrTooManyTags", func(in *store.BlogInput) {
			in.Tag = store.TagList{"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "a11"}
		}, "tag", "too_many_items"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := blogIn("عنوانی درست", false)
			tc.mod(in)
			_, err := f.st.CreateBlog(ctx, f.owner, in, f.opt)
			if field, key := fieldOf(err); field != tc.wantField || key != tc.wantKey {
				t.Fatalf("got %s %s (%v), want %s %s", field, key, err, tc.wantField, tc.wantKey)
			}
		})
	}

	t.Run("ReleaseAtAnyDateOfThePicker", func(t *testing.T) {
		// 110 years back to 50 ahead of 2026, as dates, RFC 3339, seconds and milliseconds.
		for _, at := range []string{"1916-01-01", "1950-06-15T10:30:00Z", "1999-12-31", "2076-12-31",
			"2076-12-31T23:59", "-1577923200", "-1577923200000", "3376684799"} {
			in := blogIn("عنوان با تاریخ "+at, true)
			in.ReleaseAt = store.FlexTime(at)
			if _, err := f.st.CreateBlog(ctx, f.owner, in, f.opt); err != nil {
				t.Errorf("release_at %s: %v", at, err)
			}
		}
	})
	t.Run("DraftNeedsOnlyATitle", func(t *testing.T) {
		b, err := f.st.CreateBlog(ctx, f.other, &store.BlogInput{Title: "پیش‌نویس", IsDraft: true}, f.opt)
		if err != nil || b.Status != store.BlogDraft {
			t.Fatalf("got %+v %v", b, err)
		}
	})
	t.Run("TagsNormalisedAndDeduplicated", func(t *testing.T) {
		var in store.BlogInput
		if err := json.Unmarshal([]byte(`{"tag": "#لوله‌کشي, زمستان،زمستان , Pipes ,,"}`), &in); err != nil {
			t.Fatal(err)
		}
		if strings.Join(in.Tag, "|") != "#لوله‌کشي| زمستان|زمستان | Pipes " {
			t.Fatalf("split: got %q", in.Tag)
		}
		full := blogIn("برچسب‌ها", false)
		full.Tag = in.Tag
		b, err := f.st.CreateBlog(ctx, f.owner, full, f.opt)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(b.Tags, "|") != "لوله‌کشی|زمستان|pipes" {
			t.Fatalf("got %q", b.Tags)
		}
		var arr store.BlogInput
		if err := json.Unmarshal([]byte(`{"tag": ["الف", "ب"], "category_list": [{"id": 101}, "102", 1]}`), &arr); err != nil {
			t.Fatal(err)
		}
		if len(arr.Tag) != 2 || len(arr.CategoryList) != 3 || arr.CategoryList[1] != 102 {
			t.Fatalf("got %+v", arr)
		}
		if err := json.Unmarshal([]byte(`{"tag": 5}`), &arr); err == nil {
			t.Fatal("a number as tag was read")
		}
	})
	t.Run("ReleaseAtForms", func(t *testing.T) {
		tehran, _ := time.LoadLocation("Asia/Tehran")
		for _, tc := range []struct {
			in   string
			want time.Time
		}{
			{"2026-05-01T10:00:00Z", time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)},
			{"2026-05-01T10:00:00+03:30", time.Date(2026, 5, 1, 6, 30, 0, 0, time.UTC)},
			{"2026-05-01", time.Date(2026, 5, 1, 0, 0, 0, 0, tehran)},
			{"۲۰۲۶-۰۵-۰۱", time.Date(2026, 5, 1, 0, 0, 0, 0, tehran)},
			{"2026-05-01T08:15", time.Date(2026, 5, 1, 8, 15, 0, 0, tehran)},
			{"1777622400", time.Unix(1777622400, 0)},
			{"1777622400000", time.Unix(1777622400, 0)},
		} {
			got, ok := store.FlexTime(tc.in).Parse(tehran)
			if !ok || got != tc.want.Unix() {
				t.Errorf("%q: got %d %v, want %d", tc.in, got, ok, tc.want.Unix())
			}
		}
		var in store.BlogInput
		if err := json.Unmarshal([]byte(`{"release_at": 1777622400}`), &in); err != nil || in.ReleaseAt != "1777622400" {
			t.Errorf("number: got %q %v", in.ReleaseAt, err)
		}
	})
	t.Run("SlugsUniqueAndNeverDigits", func(t *testing.T) {
		a, _ := f.st.CreateBlog(ctx, f.owner, blogIn("عنوان تکراری", true), f.opt)
		b, _ := f.st.CreateBlog(ctx, f.owner, blogIn("عنوان تکراري", true), f.opt)
		if a.Slug != "عنوان-تکراری" || b.Slug != "عنوان-تکراری-2" {
			t.Fatalf("got %q %q", a.Slug, b.Slug)
		}
		n, _ := f.st.CreateBlog(ctx, f.owner, blogIn("۱۴۰۵", true), f.opt)
		if n.Slug != "blog-1405" {
			t.Fatalf("digits: got %q", n.Slug)
		}
		in := blogIn("عنوان تکراری", true)
		in.ID, in.Slug = b.ID, "نشانی دلخواه"
		if b, _ = f.st.UpdateBlog(ctx, f.owner, in, f.opt); b.Slug != "نشانی-دلخواه" {
			t.Fatalf("requested slug: got %q", b.Slug)
		}
	})
}

func TestBlogExperts(t *testing.T) {
	ctx := context.Background()
	f := newBlogFixture(t)
	t.Run("ErrNoAcceptedProfile", func(t *testing.T) {
		_, err := f.st.CreateBlog(ctx, f.other, blogIn("مقاله غیرمتخصص", false), f.opt)
		if codeOf(err) != store.EInvalid || errKey(err) != "blog_field_not_yours" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrOtherField", func(t *testing.T) {
		in := blogIn("مقاله حوزهٔ دیگر", false)
		in.CategoryList = store.IDList{101, 201}
		if _, err := f.st.CreateBlog(ctx, f.owner, in, f.opt); errKey(err) != "blog_field_not_yours" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrPendingProfileIsNotEnough", func(t *testing.T) {
		in := validInput()
		in.RangeWorker, in.CategoryList = 2, []int64{201}
		if _, err := f.st.CreateProfile(ctx, f.other.ID, in, true); err != nil {
			t.Fatal(err)
		}
		b := blogIn("مقاله لوازم خانگی", false)
		b.CategoryList = store.IDList{201}
		if _, err := f.st.CreateBlog(ctx, f.other, b, f.opt); errKey(err) != "blog_field_not_yours" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("OwnFieldAndItsCategories", func(t *testing.T) {
		in := blogIn("مقاله حوزهٔ خودم", false)
		in.CategoryList = store.IDList{1, 102, 105}
		if _, err := f.st.CreateBlog(ctx, f.owner, in, f.opt); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("AdminWritesAnywhereWithoutReview", func(t *testing.T) {
		in := blogIn("مقاله مدیر", false)
		in.CategoryList = store.IDList{201, 301}
		b, err := f.st.CreateBlog(ctx, f.admin, in, f.opt)
		if err != nil || b.Status != store.StatusAccepted {
			t.Fatalf("got %+v %v", b, err)
		}
	})
}

func TestBlogListingAndDelete(t *testing.T) {
	ctx := context.Background()
	f := newBlogFixture(t)
	off := store.BlogOptions{}
	var ids []int64
	for i := 0; i < 23; i++ {
		f.clock.advance(4 * time.Minute) // within the hourly cap of articles
		in := blogIn("مقاله شماره "+string(rune('A'+i)), false)
		if i%3 == 0 {
			in.Tag = store.TagList{"زمستان"}
		}
		if i%2 == 0 {
			in.CategoryList = store.IDList{102}
		}
		b, err := f.st.CreateBlog(ctx, f.owner, in, off)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, b.ID)
	}
	draft, _ := f.st.CreateBlog(ctx, f.owner, blogIn("پیش‌نویس پنهان", true), off)
	future := blogIn("مقاله آینده", false)
	future.ReleaseAt = store.FlexTime(f.clock.t.Add(time.Hour).Format(time.RFC3339))
	if _, err := f.st.CreateBlog(ctx, f.owner, future, off); err != nil {
		t.Fatal(err)
	}

	page1, total, _ := f.st.Blogs(ctx, store.BlogFilter{PublishedOnly: true, Limit: 20})
	page2, _, _ := f.st.Blogs(ctx, store.BlogFilter{PublishedOnly: true, Offset: 20, Limit: 20})
	if total != 23 || len(page1) != 20 || len(page2) != 3 || page1[0].ID != ids[22] || page2[2].ID != ids[0] {
		t.Fatalf("published: got %d, %d + %d", total, len(page1), len(page2))
	}
	if _, n, _ := f.st.Blogs(ctx, store.BlogFilter{PublishedOnly: true, Tag: "#زمستان"}); n != 8 {
		t.Errorf("tag: got %d, want 8", n)
	}
	if _, n, _ := f.st.Blogs(ctx, store.BlogFilter{PublishedOnly: true, CategoryID: 102}); n != 12 {
		t.Errorf("category 102: got %d, want 12", n)
	}
	if _, n, _ := f.st.Blogs(ctx, store.BlogFilter{PublishedOnly: true, CategoryID: 1}); n != 23 {
		t.Errorf("field 1: got %d, want 23", n)
	}
	if _, n, _ := f.st.Blogs(ctx, store.BlogFilter{WriterID: &f.owner.ID}); n != 25 {
		t.Errorf("writer's own: got %d, want 25", n)
	}
	for status, want := range map[string]int{store.BlogDraft: 1, store.StatusAccepted: 1, store.BlogPublished: 23} {
		st := status
		if _, n, _ := f.st.Blogs(ctx, store.BlogFilter{Status: &st}); n != want {
			t.Errorf("status %s: got %d, want %d", status, n, want)
		}
	}

	if err := f.st.DeleteBlog(ctx, f.other, draft.ID); errKey(err) != "blog_not_yours" {
		t.Fatalf("other deletes: got %v", err)
	}
	if err := f.st.DeleteBlog(ctx, f.owner, draft.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.Blog(ctx, draft.ID); codeOf(err) != store.ENotFound {
		t.Fatalf("deleted blog: got %v", err)
	}
	if err := f.st.DeleteBlog(ctx, f.admin, ids[0]); err != nil {
		t.Fatal(err)
	}
	if log, _ := f.st.AuditLog(ctx, "blog", ids[0]); len(log) != 1 || log[0].Action != "delete" {
		t.Fatalf("admin delete not audited: %+v", log)
	}
}
