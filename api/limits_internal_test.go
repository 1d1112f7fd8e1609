package api

import "testing"

func TestAddrKey(t *testing.T) {
	for _, tt := range []struct {
		addr string
		bits int
		want string
	}{
		{"198.51.100.7", 64, "198.51.100.7"},
		{"::ffff:198.51.100.7", 64, "198.51.100.7"},
		{"2001:db8:1:2::1", 64, "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", 64, "2001:db8:1:2::/64"},
		{"2001:db8:1:2::1", 56, "2001:db8:1::/56"},
		{"2001:db8:1:2::1", 0, "2001:db8:1:2::/64"},
		{"2001:db8:1:2::1", 128, "2001:db8:1:2::1/128"},
		{"not-an-address", 64, "not-an-address"},
	} {
		if got := addrKey(tt.addr, tt.bits); got != tt.want {
			t.Errorf("addrKey(%q, %d) = %q, want %q", tt.addr, tt.bits, got, tt.want)
		}
	}
}

func TestInFlight(t *testing.T) {
	f := newInFlight(2)
	a, ok1 := f.enter("x", "y")
	_, ok2 := f.enter("x")
	_, ok3 := f.enter("x", "z")
	if !ok1 || !ok2 || ok3 {
		t.Fatalf("got %v %v %v, want two places for x and no third", ok1, ok2, ok3)
	}
	if _, ok := f.enter("z"); !ok {
		t.Fatal("a refused entry took a place for z")
	}
	a()
	a() // twice gives back once
	if _, ok := f.enter("x"); !ok {
		t.Fatal("leave did not give the place back")
	}
	if _, ok := f.enter("x"); ok {
		t.Fatal("leave gave back more than one place")
	}
}
