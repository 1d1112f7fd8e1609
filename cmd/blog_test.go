package cmd_test

import (
	"context"
	"strings"
	"testing"

	"kardan/store"
	"kardan/store/storetest"
)

func TestBlogCommands(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	st := openStore(t, dir)
	storetest.Seed(t, st)
	writer := &store.User{NumberPhone: "09121234567", Name: "Sara", PasswordHash: "x"}
	if err := st.CreateUser(ctx, writer); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateProfile(ctx, writer.ID, &store.ProfileInput{ProfileName: "Sara Plumbing", ProvinceID: 1, CityID: 1,
		RangeWorker: 1, CategoryList: []int64{101}}, false); err != nil {
		t.Fatal(err)
	}
	opt := store.BlogOptions{Moderated: true}
	pending, err := st.CreateBlog(ctx, writer, &store.BlogInput{Title: "Frozen pipes", Content: "<p>Insulate them.</p>",
		CategoryList: store.IDList{101}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateBlog(ctx, writer, &store.BlogInput{Title: "A draft", IsDraft: true}, opt); err != nil {
		t.Fatal(err)
	}
	blog := func(args ...string) (string, error) {
		return run(t, append([]string{"--data", dir, "--log-level", "warn", "blog"}, args...)...)
	}

	out, err := blog("list", "--status", "Pending")
	if err != nil || !strings.Contains(out, "Frozen pipes") || strings.Contains(out, "A draft") || !strings.Contains(out, "1 of 1 blogs") {
		t.Fatalf("list pending: %q %v", out, err)
	}
	out, err = blog("accept", "1", "--note", "clear and useful")
	if err != nil || !strings.Contains(out, "blog 1 (Frozen pipes) is now Published") {
		t.Fatalf("accept: %q %v", out, err)
	}
	out, err = blog("list")
	if err != nil || !strings.Contains(out, "Published") || !strings.Contains(out, "Draft") || !strings.Contains(out, "2 of 2 blogs") {
		t.Fatalf("list: %q %v", out, err)
	}
	if out, err = blog("block", "1"); err != nil || !strings.Contains(out, "is now Blocked") {
		t.Fatalf("block: %q %v", out, err)
	}
	log, err := st.AuditLog(ctx, "blog", pending.ID)
	if err != nil || len(log) != 2 || log[0].ActorID != nil || log[0].Note != "clear and useful" {
		t.Fatalf("audit: %+v %v", log, err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"reject", "1"}, "not allowed from the current status"},
		{[]string{"accept", "2"}, "not allowed from the current status"},
		{[]string{"accept", "99"}, "not found"},
		{[]string{"accept", "x"}, `blog id "x": want a positive number`},
		{[]string{"list", "--status", "Lost"}, `--status "Lost"`},
	} {
		if _, err := blog(tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %q", tc.args, err, tc.want)
		}
	}
}
