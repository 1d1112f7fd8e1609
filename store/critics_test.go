package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"kardan/store"
	"kardan/store/storetest"
)

func TestCritics(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	clk := withClock(st)
	valid := func() *store.CriticInput {
		return &store.CriticInput{Name: "مریم", Email: "maryam@example.ir", NumberPhone: "۰۹۱۲ ۳۴۵ ۶۷۸۹", Subject: "پیشنهاد",
			Message: "جستجو بر اساس محله هم اضافه شود"}
	}
	t.Run("OK", func(t *testing.T) {
		c, err := st.AddCritic(ctx, nil, valid(), "10.0.0.1")
		if err != nil {
			t.Fatal(err)
		}
		if c.NumberPhone != "09123456789" || c.Read || c.UserID != nil {
			t.Fatalf("got %+v", c)
		}
	})
	t.Run("LandlineAndNoContact", func(t *testing.T) {
		in := valid()
		in.NumberPhone = "021-8888 1234"
		c, err := st.AddCritic(ctx, nil, in, "")
		if err != nil || c.NumberPhone != "02188881234" {
			t.Fatalf("got %+v %v", c, err)
		}
		in = &store.CriticInput{Message: "فقط یک پیام"}
		if _, err := st.AddCritic(ctx, nil, in, ""); err != nil {
			t.Fatalf("message alone: %v", err)
		}
	})
	for _, tc := range []struct {
		name      string
		mod       func(in *store.CriticInput)
		wantField string
		wantKey   string
	}{
		{"ErrMessageEmpty", func(in *store.CriticInput) { in.Message = " " }, "message", "enter"},
		{"ErrMessageShort", func(in *store.CriticInput) { in.Message = "سلام" }, "message", "too_short"},
		{"ErrMessageLong", func(in *store.CriticInput) { in.Message = strings.Repeat("پ", 3001) }, "message", "too_long"},
		{"ErrSubjectLong", func(in *store.CriticInput) { in.Subject = strings.Repeat("م", 151) }, "subject", "too_long"},
		{"ErrNameLong", func(in *store.CriticInput) { in.Name = strings.Repeat("ن", 101) }, "name", "too_long"},
		{"ErrEmailShape", func(in *store.CriticInput) { in.Email = "not-an-email" }, "email", "enter_correct"},
		{"ErrEmailNoDot", func(in *store.CriticInput) { in.Email = "a@localhost" }, "email", "enter_correct"},
		{"ErrEmailWithName", func(in *store.CriticInput) { in.Email = "Ali <ali@example.ir>" }, "email", "enter_correct"},
		{"ErrPhoneLetters", func(in *store.CriticInput) { in.NumberPhone = "call me" }, "number_phone", "enter_correct"},
		{"ErrPhoneShort", func(in *store.CriticInput) { in.NumberPhone = "123" }, "number_phone", "enter_correct"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := valid()
			tc.mod(in)
			_, err := st.AddCritic(ctx, nil, in, "")
			if field, key := fieldOf(err); field != tc.wantField || key != tc.wantKey {
				t.Fatalf("got %s %s (%v), want %s %s", field, key, err, tc.wantField, tc.wantKey)
			}
		})
	}
	t.Run("ListNewestFirstAndRead", func(t *testing.T) {
		clk.advance(time.Minute)
		last, err := st.AddCritic(ctx, nil, valid(), "")
		if err != nil {
			t.Fatal(err)
		}
		cs, total, err := st.Critics(ctx, store.CriticFilter{Limit: 2})
		if err != nil || total != 4 || len(cs) != 2 || cs[0].ID != last.ID {
			t.Fatalf("got %d %d %v", total, len(cs), err)
		}
		c, err := st.SetCriticRead(ctx, last.ID, true)
		if err != nil || !c.Read {
			t.Fatalf("got %+v %v", c, err)
		}
		read := true
		if _, n, _ := st.Critics(ctx, store.CriticFilter{Read: &read}); n != 1 {
			t.Fatalf("read filter: got %d", n)
		}
		if _, err := st.SetCriticRead(ctx, 99999, true); codeOf(err) != store.ENotFound {
			t.Fatalf("missing: got %v", err)
		}
	})
}
