package store_test

import (
	"testing"

	"kardan/store"
)

func TestNormalizeMobile(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want string // "" = refused
	}{
		{"09121234567", "09121234567"},
		{"۰۹۱۲۱۲۳۴۵۶۷", "09121234567"},
		{"٠٩١٢١٢٣٤٥٦٧", "09121234567"},
		{"+989121234567", "09121234567"},
		{"00989121234567", "09121234567"},
		{"989121234567", "09121234567"},
		{"9121234567", "09121234567"},
		{"0912 123 4567", "09121234567"},
		{"0912-123-4567", "09121234567"},
		{" +98 912 123 4567 ", "09121234567"},
		{"+98 (0) 912 123 4567", "09121234567"},
		{"۰۹۱۲-۱۲۳-۴۵۶۷", "09121234567"},
		{"\u200e+98 935 000 1122\u200f", "09350001122"},
		{"02188776655", ""},            // Tehran landline
		{"+982188776655", ""},          // landline with the country code
		{"0912123456", ""},             // one digit short
		{"091212345678", ""},           // one digit long
		{"912123456", ""},              // short without zero
		{"", ""},                       //
		{"abc", ""},                    //
		{"0912123456a", ""},            // a letter
		{"09+121234567", ""},           // plus in the middle
		{"+19121234567", ""},           // another country
		{"0098912123456", ""},          // short after the prefix
		{"98912123456", ""},            // 11 digits starting 98 is not a number with a prefix
		{"1234567890123456789012", ""}, // long garbage
	} {
		got, ok := store.NormalizeMobile(tt.in)
		if tt.want == "" {
			if ok {
				t.Errorf("NormalizeMobile(%q): got %q, want refused", tt.in, got)
			}
			continue
		}
		if !ok || got != tt.want {
			t.Errorf("NormalizeMobile(%q): got %q (%v), want %q", tt.in, got, ok, tt.want)
		}
	}
}
