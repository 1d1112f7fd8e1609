package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Users and EachUser read the accounts a page at a time, after the last id: every account comes
// once, in order, whatever the limit says against the pages' size, and a role is kept to.
func TestUsersInPages(t *testing.T) {
	defer func(n int) { userPage = n }(userPage)
	userPage = 2
	s := openTemp(t)
	ctx := context.Background()
	var ids, admins []int64
	for i := range 7 {
		u := &User{NumberPhone: fmt.Sprintf("0912000000%d", i), PasswordHash: "h"}
		if err := s.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, u.ID)
		if i%3 == 0 {
			if _, err := s.SetUserRole(ctx, u.NumberPhone, RoleAdmin); err != nil {
				t.Fatal(err)
			}
			admins = append(admins, u.ID)
		}
	}
	newest := slices.Clone(ids)
	slices.Reverse(newest)
	newestAdmins := slices.Clone(admins)
	slices.Reverse(newestAdmins)
	admin := RoleAdmin
	for _, c := range []struct {
		f     UserFilter
		want  []int64
		total int
	}{
		{UserFilter{}, newest, 7},
		{UserFilter{Limit: 4}, newest[:4], 7},
		{UserFilter{Limit: 5}, newest[:5], 7},
		{UserFilter{Limit: 9}, newest, 7},
		{UserFilter{Role: &admin}, newestAdmins, 3},
		{UserFilter{Role: &admin, Limit: 1}, newestAdmins[:1], 3},
	} {
		var got []int64
		total, err := s.EachUser(ctx, c.f, func(u *User) error {
			got = append(got, u.ID)
			return nil
		})
		if err != nil || total != c.total || !slices.Equal(got, c.want) {
			t.Errorf("EachUser(limit %d, admins %t): %v of %d, %v; want %v of %d", c.f.Limit, c.f.Role != nil, got, total, err, c.want, c.total)
		}
	}
	list, total, err := s.Users(ctx, UserFilter{Limit: 5})
	var got []int64
	for _, u := range list {
		got = append(got, u.ID)
	}
	if err != nil || total != 7 || !slices.Equal(got, ids[:5]) {
		t.Errorf("Users(limit 5): %v of %d, %v; want the oldest five %v of 7", got, total, err, ids[:5])
	}
	stop := fmt.Errorf("enough")
	n := 0
	if _, err := s.EachUser(ctx, UserFilter{}, func(*User) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("EachUser went on after its callback failed: %d calls, %v", n, err)
	}
}

// Counting and listing the administrators reads the partial index users_admins, not the
// accounts: at two million of them a server's start counted them all to learn whether setup was
// still needed.
func TestUserListsReadTheAdmins(t *testing.T) {
	s := openTemp(t)
	admin := RoleAdmin
	for _, newest := range []bool{false, true} {
		count, page, args, cursor := UserFilter{Role: &admin}.statements(newest)
		if p := queryPlan(t, s, count, args...); !strings.Contains(p, "USING COVERING INDEX users_admins") {
			t.Errorf("count's plan %q, want users_admins", p)
		}
		if p := queryPlan(t, s, page, append(args, cursor, 50)...); !strings.Contains(p, "USING INDEX users_admins") &&
			!strings.Contains(p, "USING COVERING INDEX users_admins") {
			t.Errorf("page's plan (newest %t) %q, want users_admins", newest, p)
		}
	}
}
