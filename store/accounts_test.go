package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"kardan/store"
	"kardan/store/storetest"
)

// clock is a controllable store clock.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func withClock(st *store.Store) *clock {
	c := &clock{t: time.Date(2026, 3, 21, 8, 0, 0, 0, time.UTC)}
	st.Now = c.now
	return c
}

func codeOf(err error) store.Code { return store.ErrorCode(err) }

// errKey answers the catalogue key of err: its first field's, or its own.
func errKey(err error) string {
	var e *store.Error
	if !errors.As(err, &e) {
		return ""
	}
	if len(e.Fields) > 0 {
		return e.Fields[0].Key
	}
	return e.Key
}

func waitOf(err error) int64 {
	var e *store.Error
	if errors.As(err, &e) {
		if s, ok := e.Args["seconds"].(int64); ok {
			return s
		}
	}
	return -1
}

var policy = store.CodePolicy{TTL: 2 * time.Minute, MaxTries: 5, Cooldown: time.Minute, PerPhone: 5, PerIP: 20, Window: time.Hour}

func session(b byte) store.NewSession {
	return store.NewSession{TokenHash: []byte{b, 1, 2, 3}, TTL: 72 * time.Hour, ClientIP: "10.0.0.1"}
}

func TestUsers(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	u := &store.User{NumberPhone: "09121234567", Name: "Sara", PasswordHash: "h1"}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if u.ID == 0 || u.Role != store.RoleUser {
		t.Fatalf("got %+v, want an id and role user", u)
	}
	t.Run("ErrDuplicate", func(t *testing.T) {
		err := st.CreateUser(ctx, &store.User{NumberPhone: "09121234567", PasswordHash: "h"})
		if codeOf(err) != store.EConflict || errKey(err) != "phone_registered" {
			t.Fatalf("got %v, want conflict phone_registered", err)
		}
	})
	t.Run("ByPhone", func(t *testing.T) {
		got, err := st.UserByPhone(ctx, "09121234567")
		if err != nil || got.ID != u.ID || got.Name != "Sara" {
			t.Fatalf("got %+v %v", got, err)
		}
		if _, err := st.UserByPhone(ctx, "09120000000"); codeOf(err) != store.ENotFound {
			t.Fatalf("got %v, want not found", err)
		}
	})
	t.Run("Roles", func(t *testing.T) {
		got, err := st.SetUserRole(ctx, "09121234567", store.RoleAdmin)
		if err != nil || !got.IsAdmin() {
			t.Fatalf("got %+v %v, want admin", got, err)
		}
		admin := store.RoleAdmin
		list, n, err := st.Users(ctx, store.UserFilter{Role: &admin})
		if err != nil || n != 1 || len(list) != 1 {
			t.Fatalf("got %d %d %v, want one admin", len(list), n, err)
		}
		if _, err := st.SetUserRole(ctx, "09129999999", store.RoleAdmin); codeOf(err) != store.ENotFound {
			t.Fatalf("got %v, want not found", err)
		}
	})
	t.Run("PasswordChangeRevokesOtherSessions", func(t *testing.T) {
		for _, b := range []byte{10, 11, 12} {
			if err := st.CreateSession(ctx, u.ID, session(b)); err != nil {
				t.Fatal(err)
			}
		}
		name := "Sara K"
		if _, err := st.UpdateUser(ctx, u.ID, store.UserUpdate{Name: &name}, session(10).TokenHash); err != nil {
			t.Fatal(err)
		}
		if _, err := st.UserBySession(ctx, session(11).TokenHash); err != nil {
			t.Fatalf("a name change ended a session: %v", err)
		}
		hash := "h2"
		got, err := st.UpdateUser(ctx, u.ID, store.UserUpdate{PasswordHash: &hash}, session(10).TokenHash)
		if err != nil || got.Name != "Sara K" || got.PasswordHash != "h2" {
			t.Fatalf("got %+v %v", got, err)
		}
		if _, err := st.UserBySession(ctx, session(10).TokenHash); err != nil {
			t.Fatalf("the session that changed the password ended: %v", err)
		}
		for _, b := range []byte{11, 12} {
			if _, err := st.UserBySession(ctx, session(b).TokenHash); codeOf(err) != store.EUnauthorized {
				t.Fatalf("session %d: got %v, want unauthorized", b, err)
			}
		}
	})
}

func TestSessions(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	clk := withClock(st)
	u := &store.User{NumberPhone: "09121234567", PasswordHash: "h"}
	st.CreateUser(ctx, u)
	st.CreateSession(ctx, u.ID, session(1))
	st.CreateSession(ctx, u.ID, session(2))
	t.Run("OK", func(t *testing.T) {
		got, err := st.UserBySession(ctx, session(1).TokenHash)
		if err != nil || got.ID != u.ID {
			t.Fatalf("got %+v %v", got, err)
		}
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		if _, err := st.UserBySession(ctx, []byte("nope")); codeOf(err) != store.EUnauthorized {
			t.Fatalf("got %v, want unauthorized", err)
		}
	})
	t.Run("ErrRevoked", func(t *testing.T) {
		if err := st.RevokeSession(ctx, session(2).TokenHash); err != nil {
			t.Fatal(err)
		}
		if _, err := st.UserBySession(ctx, session(2).TokenHash); codeOf(err) != store.EUnauthorized {
			t.Fatalf("got %v, want unauthorized", err)
		}
	})
	t.Run("ErrExpired", func(t *testing.T) {
		clk.advance(72*time.Hour - time.Second)
		if _, err := st.UserBySession(ctx, session(1).TokenHash); err != nil {
			t.Fatalf("a second before expiry: %v", err)
		}
		clk.advance(time.Second)
		if _, err := st.UserBySession(ctx, session(1).TokenHash); codeOf(err) != store.EUnauthorized {
			t.Fatalf("got %v, want unauthorized", err)
		}
	})
	t.Run("Prune", func(t *testing.T) {
		clk.advance(8 * 24 * time.Hour)
		n, err := st.PruneAccounts(ctx)
		if err != nil || n != 2 {
			t.Fatalf("got %d %v, want both ended sessions pruned", n, err)
		}
	})
}

func TestSignupCodes(t *testing.T) {
	ctx := context.Background()
	const phone = "09121234567"
	hash := []byte("right")
	issue := func(st *store.Store, phone, ip string) error {
		_, err := st.IssueSignupCode(ctx, store.SignupCode{NumberPhone: phone, ClientIP: ip, CodeHash: hash}, policy)
		return err
	}
	register := func(st *store.Store, code string) error {
		return st.Register(ctx, &store.User{NumberPhone: phone, Name: "N", PasswordHash: "h"}, []byte(code), policy, session(1))
	}

	t.Run("OK", func(t *testing.T) {
		st := storetest.Open(t)
		clk := withClock(st)
		if err := issue(st, phone, "1.1.1.1"); err != nil {
			t.Fatal(err)
		}
		if err := register(st, "right"); err != nil {
			t.Fatal(err)
		}
		u, err := st.UserBySession(ctx, session(1).TokenHash)
		if err != nil || u.NumberPhone != phone {
			t.Fatalf("got %+v %v, want the new user signed in", u, err)
		}
		// A registered number is issued (and counted) like any other: the caller sends a notice.
		clk.advance(time.Minute)
		if err := issue(st, phone, "1.1.1.1"); err != nil {
			t.Fatalf("a code for a registered number: got %v, want it issued", err)
		}
		// Even a right answer to it creates nothing.
		if err := register(st, "right"); codeOf(err) != store.EConflict {
			t.Fatalf("register twice: got %v, want conflict", err)
		}
	})
	t.Run("ErrUsedTwice", func(t *testing.T) {
		st := storetest.Open(t)
		withClock(st)
		issue(st, phone, "1.1.1.1")
		register(st, "right")
		err := st.Register(ctx, &store.User{NumberPhone: phone, PasswordHash: "h"}, hash, policy, session(2))
		if errKey(err) != "code_expired" {
			t.Fatalf("got %v, want code_expired (the code is used up)", err)
		}
	})
	t.Run("ErrNoCode", func(t *testing.T) {
		st := storetest.Open(t)
		if err := register(st, "right"); errKey(err) != "code_expired" {
			t.Fatalf("got %v, want code_expired", err)
		}
	})
	t.Run("ErrExpired", func(t *testing.T) {
		st := storetest.Open(t)
		clk := withClock(st)
		issue(st, phone, "1.1.1.1")
		clk.advance(2 * time.Minute)
		if err := register(st, "right"); errKey(err) != "code_expired" {
			t.Fatalf("got %v, want code_expired", err)
		}
	})
	t.Run("ErrBurnedAfterFiveWrong", func(t *testing.T) {
		st := storetest.Open(t)
		withClock(st)
		issue(st, phone, "1.1.1.1")
		for i := 1; i <= 5; i++ {
			err := register(st, "wrong")
			want := "wrong_code"
			if i == 5 {
				want = "code_burned"
			}
			if codeOf(err) != store.EInvalid || errKey(err) != want {
				t.Fatalf("try %d: got %v, want %s", i, err, want)
			}
		}
		if err := register(st, "right"); errKey(err) != "code_burned" {
			t.Fatalf("the right code after five wrong: got %v, want code_burned", err)
		}
	})
	t.Run("CheckDoesNotUseTheCode", func(t *testing.T) {
		st := storetest.Open(t)
		withClock(st)
		issue(st, phone, "1.1.1.1")
		if err := st.CheckSignupCode(ctx, phone, []byte("wrong"), policy); errKey(err) != "wrong_code" {
			t.Fatalf("wrong: got %v, want wrong_code", err)
		}
		for i := 0; i < 2; i++ {
			if err := st.CheckSignupCode(ctx, phone, hash, policy); err != nil {
				t.Fatalf("check %d: %v", i+1, err)
			}
		}
		// One wrong try by check and three by register make five: burnt.
		for i := 0; i < 3; i++ {
			register(st, "wrong")
		}
		if err := st.CheckSignupCode(ctx, phone, []byte("wrong"), policy); errKey(err) != "code_burned" {
			t.Fatalf("fifth wrong try: got %v, want code_burned", err)
		}
		if err := register(st, "right"); errKey(err) != "code_burned" {
			t.Fatalf("got %v, want code_burned", err)
		}
	})
	t.Run("NewCodeReplacesOld", func(t *testing.T) {
		st := storetest.Open(t)
		clk := withClock(st)
		issue(st, phone, "1.1.1.1")
		clk.advance(time.Minute)
		st.IssueSignupCode(ctx, store.SignupCode{NumberPhone: phone, ClientIP: "1.1.1.1", CodeHash: []byte("newer")}, policy)
		if err := register(st, "right"); errKey(err) != "wrong_code" {
			t.Fatalf("the older code: got %v, want wrong_code", err)
		}
		if err := register(st, "newer"); err != nil {
			t.Fatalf("the newer code: %v", err)
		}
	})
	t.Run("ErrCooldown", func(t *testing.T) {
		st := storetest.Open(t)
		clk := withClock(st)
		issue(st, phone, "1.1.1.1")
		clk.advance(20 * time.Second)
		err := issue(st, phone, "2.2.2.2")
		if codeOf(err) != store.ETooMany || waitOf(err) != 40 {
			t.Fatalf("got %v (wait %d), want too many with 40 s", err, waitOf(err))
		}
		clk.advance(40 * time.Second)
		if err := issue(st, phone, "2.2.2.2"); err != nil {
			t.Fatalf("after the cooldown: %v", err)
		}
	})
	t.Run("ErrHourlyCapPerNumber", func(t *testing.T) {
		st := storetest.Open(t)
		clk := withClock(st)
		for i := 0; i < 5; i++ {
			if err := issue(st, phone, "1.1.1.1"); err != nil {
				t.Fatalf("send %d: %v", i+1, err)
			}
			clk.advance(61 * time.Second)
		}
		// 5 sends at 0, 61, ..., 244 s; now is 305 s: the first leaves the window at 3600 s.
		err := issue(st, phone, "1.1.1.1")
		if codeOf(err) != store.ETooMany || waitOf(err) != 3600-305 {
			t.Fatalf("got %v (wait %d), want too many with %d s", err, waitOf(err), 3600-305)
		}
		clk.advance(time.Duration(3600-305) * time.Second)
		if err := issue(st, phone, "1.1.1.1"); err != nil {
			t.Fatalf("after the hour: %v", err)
		}
	})
	t.Run("ErrHourlyCapPerAddress", func(t *testing.T) {
		st := storetest.Open(t)
		clk := withClock(st)
		for i := 0; i < 20; i++ {
			if err := issue(st, "0912000"+string(rune('0'+i/10))+"0"+string(rune('0'+i%10))+"0", "9.9.9.9"); err != nil {
				t.Fatalf("send %d: %v", i+1, err)
			}
			clk.advance(time.Second)
		}
		err := issue(st, "09350000000", "9.9.9.9")
		if codeOf(err) != store.ETooMany || waitOf(err) != 3600-20 {
			t.Fatalf("got %v (wait %d), want too many with %d s", err, waitOf(err), 3600-20)
		}
		if err := issue(st, "09350000000", "9.9.9.8"); err != nil {
			t.Fatalf("another address: %v", err)
		}
	})
	t.Run("WithdrawnDoesNotCount", func(t *testing.T) {
		st := storetest.Open(t)
		withClock(st)
		id, err := st.IssueSignupCode(ctx, store.SignupCode{NumberPhone: phone, ClientIP: "1.1.1.1", CodeHash: hash}, policy)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.WithdrawCode(ctx, id); err != nil {
			t.Fatal(err)
		}
		if err := issue(st, phone, "1.1.1.1"); err != nil {
			t.Fatalf("a withdrawn send held the cooldown: %v", err)
		}
	})
}

func TestRateLimits(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	clk := withClock(st)
	l := store.Limit{Kind: "login_fail_phone", Key: "09121234567", Max: 3, Window: 15 * time.Minute}
	other := store.Limit{Kind: "login_fail_ip", Key: "1.2.3.4", Max: 10, Window: 15 * time.Minute}
	for i := 0; i < 3; i++ {
		if err := st.RateCheck(ctx, l, other); err != nil {
			t.Fatalf("event %d: %v", i+1, err)
		}
		st.RateHit(ctx, l, other)
		clk.advance(time.Minute)
	}
	err := st.RateCheck(ctx, l, other)
	if codeOf(err) != store.ETooMany || waitOf(err) != 15*60-3*60 {
		t.Fatalf("got %v (wait %d), want too many with %d s", err, waitOf(err), 15*60-3*60)
	}
	clk.advance(12 * time.Minute)
	if err := st.RateCheck(ctx, l); err != nil {
		t.Fatalf("after the window: %v", err)
	}
	st.RateHit(ctx, l, l)
	if err := st.RateClear(ctx, l); err != nil {
		t.Fatal(err)
	}
	if err := st.RateCheck(ctx, l); err != nil {
		t.Fatalf("after clear: %v", err)
	}
}

func TestUploads(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	a := &store.User{NumberPhone: "09121234567", PasswordHash: "h"}
	b := &store.User{NumberPhone: "09121234568", PasswordHash: "h"}
	st.CreateUser(ctx, a)
	st.CreateUser(ctx, b)
	up := &store.Upload{UserID: a.ID, UploadKey: store.UploadUser, Address: "/uploads/ab/abcd.jpg", Thumb: "/uploads/ab/abcd-400.jpg",
		SHA256: "abcd", Mime: "image/jpeg", Width: 10, Height: 10, Size: 100}
	if err := st.RecordUpload(ctx, up); err != nil {
		t.Fatal(err)
	}
	again := *up
	again.UploadKey = store.UploadUserTechnical
	if err := st.RecordUpload(ctx, &again); err != nil || again.ID != up.ID {
		t.Fatalf("the same upload twice: got id %d (%v), want %d", again.ID, err, up.ID)
	}
	for _, tt := range []struct {
		user int64
		addr string
		want bool
	}{
		{a.ID, "/uploads/ab/abcd.jpg", true},
		{a.ID, "uploads/ab/abcd.jpg", true},
		{a.ID, "https://kardan.example/uploads/ab/abcd.jpg", true},
		{a.ID, "/uploads/ab/abcd-400.jpg", true},
		{b.ID, "/uploads/ab/abcd.jpg", false},
		{a.ID, "/uploads/ab/other.jpg", false},
		{a.ID, "", false},
	} {
		got, err := st.UploadOwnedBy(ctx, tt.user, tt.addr)
		if err != nil || got != tt.want {
			t.Errorf("UploadOwnedBy(%d, %q): got %v %v, want %v", tt.user, tt.addr, got, err, tt.want)
		}
	}
}
