package store

import (
	"slices"
	"testing"
)

// parseIDList reads what json_group_array writes, and says so when it reads something else.
func TestParseIDList(t *testing.T) {
	for in, want := range map[string][]int64{"[]": {}, "[7]": {7}, "[3,14,159]": {3, 14, 159}, "[ 1, 2 ]": {1, 2}} {
		got, err := parseIDList(in)
		if err != nil || !slices.Equal(got, want) || got == nil {
			t.Errorf("%q: got %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "[", "7", "[a]", "[1,,2]", "[9999999999999999999999]", "null"} {
		if got, err := parseIDList(in); err == nil {
			t.Errorf("%q: got %v and no error", in, got)
		}
	}
}
