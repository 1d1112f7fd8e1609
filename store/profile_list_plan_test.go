package store

import (
	"strings"
	"testing"
)

// The administrators' lists of profiles, newest first: a list of every profile (deleted ones
// included or not) must read a page of profiles_newest, and count from it, never sort the
// table; a list of one status keeps profiles_status. The statistics are those ANALYZE's
// sampling wrote for a million profiles (TestIDPagesWalkTheIDs).
func TestProfileListsReadTheNewest(t *testing.T) {
	s := openTemp(t)
	sampledStats(t, s, [][3]string{
		{"profiles", "profiles_visible_newest", "1000000 401 1 1"},
		{"profiles", "profiles_status", "1000000 401 1"},
		{"profiles", "profiles_newest", "1000000 1 1 1"},
	})
	accepted := StatusAccepted
	for _, c := range []struct {
		name        string
		f           ProfileFilter
		count, page string
	}{
		{"not deleted", ProfileFilter{}, "SCAN p USING COVERING INDEX profiles_newest", "SCAN p USING INDEX profiles_newest"},
		// Counting every row reads the narrowest index, whichever it is.
		{"with the deleted", ProfileFilter{IncludeDelete: true}, "SCAN p USING COVERING INDEX", "SCAN p USING INDEX profiles_newest"},
		{"accepted", ProfileFilter{Status: &accepted}, "SEARCH p USING", "SEARCH p USING INDEX profiles_status"},
	} {
		count, page, args := c.f.statements()
		if p := queryPlan(t, s, count, args...); !strings.HasPrefix(p, c.count) || strings.Contains(p, "TEMP B-TREE") {
			t.Errorf("%s: count's plan %q, want %q", c.name, p, c.count)
		}
		if p := queryPlan(t, s, page, append(args, 20, 0)...); !strings.HasPrefix(p, c.page) || strings.Contains(p, "TEMP B-TREE FOR ORDER BY") {
			t.Errorf("%s: page's plan %q, want %q and no sort", c.name, p, c.page)
		}
	}
}
