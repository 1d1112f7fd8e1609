package store

import (
	"fmt"
	"strings"
	"testing"
)

// The administrators' lists of profiles, newest first: a list of every profile (deleted ones
// included or not) must read a page of profiles_newest, and count from it, never sort the
// table; a list of one status counts from profiles_status alone and reads its page in that
// index's order; the list of waiting edits reads its few profiles by id. The statistics are
// those ANALYZE's sampling wrote for a million profiles (TestIDPagesWalkTheIDs), and none for
// profiles_status, as migration 73 leaves it until the next ANALYZE.
func TestProfileListsReadTheNewest(t *testing.T) {
	for _, stats := range [][][3]string{
		{{"profiles", "profiles_status", "1000000 401 401 1"}},
		nil,
	} {
		t.Run(fmt.Sprintf("%d status statistics", len(stats)), func(t *testing.T) {
			profileListPlans(t, stats)
		})
	}
}

func profileListPlans(t *testing.T, stats [][3]string) {
	s := openTemp(t)
	sampledStats(t, s, append([][3]string{
		{"profiles", "profiles_visible_newest", "1000000 401 1 1"},
		{"profiles", "profiles_newest", "1000000 1 1 1"},
		{"profiles", "profiles_deleted", "0 0"},
	}, stats...))
	accepted, edited := StatusAccepted, StatusEdited
	for _, c := range []struct {
		name        string
		f           ProfileFilter
		count, page string
	}{
		{"not deleted", ProfileFilter{}, "SCAN p USING COVERING INDEX profiles_newest", "SCAN p USING INDEX profiles_newest"},
		// Counting every row reads the narrowest index, whichever it is.
		{"with the deleted", ProfileFilter{IncludeDelete: true}, "SCAN p USING COVERING INDEX", "SCAN p USING INDEX profiles_newest"},
		{"accepted", ProfileFilter{Status: &accepted}, "SEARCH p USING COVERING INDEX profiles_status (account_status=? AND delete_at=?)",
			"SEARCH p USING INDEX profiles_status (account_status=? AND delete_at=?)"},
		// A page of edits sorts its few profiles: what it must not do is walk every Accepted one.
		{"edited", ProfileFilter{Status: &edited}, "SEARCH p USING INTEGER PRIMARY KEY (rowid=?)", "SEARCH p USING INTEGER PRIMARY KEY (rowid=?)"},
	} {
		count, page, args := c.f.statements()
		if p := queryPlan(t, s, count, args...); !strings.HasPrefix(p, c.count) || strings.Contains(p, "TEMP B-TREE") {
			t.Errorf("%s: count's plan %q, want %q", c.name, p, c.count)
		}
		if p := queryPlan(t, s, page, append(args, 20, 0)...); !strings.HasPrefix(p, c.page) ||
			c.f.Status != &edited && strings.Contains(p, "TEMP B-TREE FOR ORDER BY") {
			t.Errorf("%s: page's plan %q, want %q and no sort", c.name, p, c.page)
		}
	}
}

// The admins' queue of verifications is read first and its profiles by id, even with statistics
// for a million profiles and none for the queue (an empty one has none): joined plainly, the
// planner walked every profile to find the few in the queue.
func TestVerificationsReadTheQueue(t *testing.T) {
	s := openTemp(t)
	sampledStats(t, s, [][3]string{
		{"profiles", "profiles_newest", "1000000 1 1 1"},
		{"profiles", "profiles_status", "1000000 401 401 1"},
	})
	want := "SCAN v; SEARCH p USING INTEGER PRIMARY KEY (rowid=?); USE TEMP B-TREE FOR ORDER BY"
	if p := queryPlan(t, s, verificationsSQL); p != want {
		t.Errorf("plan %q, want %q", p, want)
	}
}
