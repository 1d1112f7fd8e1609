package cmd_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"kardan/store"
	"kardan/store/storetest"
)

func TestProfileCommands(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	st := openStore(t, dir)
	storetest.Seed(t, st)
	owner := &store.User{NumberPhone: "09121234568", Name: "Reza", PasswordHash: "x"}
	if err := st.CreateUser(ctx, owner); err != nil {
		t.Fatal(err)
	}
	p, err := st.CreateProfile(ctx, owner.ID, &store.ProfileInput{ProfileName: "Reza Plumbing", ProvinceID: 1, CityID: 1,
		RangeWorker: 1, CategoryList: []int64{101}}, true)
	if err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprint(p.ID)
	profile := func(args ...string) (string, error) {
		return run(t, append([]string{"--data", dir, "--log-level", "warn", "profile"}, args...)...)
	}

	out, err := profile("list", "--status", "Pending")
	if err != nil || !strings.Contains(out, "Reza Plumbing") || !strings.Contains(out, "1 of 1 profiles") {
		t.Fatalf("list pending: %q %v", out, err)
	}
	out, err = profile("accept", id, "--note", "checked")
	if err != nil || !strings.Contains(out, "profile "+id+" (Reza Plumbing) is now Accepted") {
		t.Fatalf("accept: %q %v", out, err)
	}
	if out, err = profile("list", "--status", "Pending"); err != nil || !strings.Contains(out, "0 of 0 profiles") {
		t.Fatalf("list pending after accept: %q %v", out, err)
	}
	if out, err = profile("block", id); err != nil || !strings.Contains(out, "is now Blocked") {
		t.Fatalf("block: %q %v", out, err)
	}
	log, err := st.AuditLog(ctx, "profile", p.ID)
	if err != nil || len(log) < 2 || log[0].ActorID != nil {
		t.Fatalf("audit: %+v %v", log, err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"reject", id}, "not allowed from the current status"},
		{[]string{"accept", "99"}, "not found"},
		{[]string{"accept", "0"}, `profile id "0": want a positive number`},
		{[]string{"list", "--status", "Lost"}, `--status "Lost"`},
	} {
		if _, err := profile(tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %q", tc.args, err, tc.want)
		}
	}
}
