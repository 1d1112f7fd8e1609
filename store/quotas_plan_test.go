package store

import (
	"context"
	"strings"
	"testing"
)

// The caps a write checks run inside the one writer: each must be a range of the account's own
// rows, never a scan of everyone's (the drafts count once went through blogs_status, every
// draft of the site on each save).
func TestQuotaCountsSearchTheAccountsRows(t *testing.T) {
	s := openTemp(t)
	for query, index := range map[string]string{
		`SELECT COUNT(*) FROM blogs WHERE writer_id = ?`:                                    "blogs_writer_status",
		`SELECT COUNT(*) FROM blogs WHERE writer_id = ? AND status = 'Draft'`:               "blogs_writer_status",
		`SELECT COALESCE(SUM(octet_length(content)), 0) FROM blogs WHERE writer_id = ?`:     "blogs_writer_status",
		`SELECT COUNT(*) FROM comments WHERE user_id = ?`:                                   "comments_user",
		`SELECT COUNT(*) FROM profiles WHERE user_id = ?`:                                   "",
		`SELECT COUNT(*) FROM comments WHERE profile_id = ? AND user_id = ?`:                "",
		`SELECT at FROM rate_events WHERE kind = ? AND key = ? AND at > ? ORDER BY at DESC`: "rate_events_key",
	} {
		p := queryPlan(t, s, query, 1, 1, 1)
		if strings.Contains(p, "SCAN") || !strings.Contains(p, "SEARCH") || !strings.Contains(p, index) {
			t.Errorf("%s: plan %q, want a SEARCH using %s", query, p, index)
		}
	}
}

// queryPlan answers the writer's plan for query with args, its steps joined by "; ".
func queryPlan(t *testing.T, s *Store, query string, args ...any) string {
	t.Helper()
	rows, err := s.write.QueryContext(context.Background(), `EXPLAIN QUERY PLAN `+query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return strings.Join(plan, "; ")
}
