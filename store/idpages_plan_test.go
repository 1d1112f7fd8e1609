package store

import (
	"context"
	"testing"
)

// A reindex reads the ids page after page, and the sitemap the slugs: each page must walk the
// primary key in order, not read every visible profile (or Accepted blog) and sort them again
// for each page. The statistics are those ANALYZE's sampling wrote for a million profiles,
// where visible = 1 is estimated at 401 rows: with them the plain `p.visible = 1` went through
// profiles_visible_newest and a temporary B-tree.
func TestIDPagesWalkTheIDs(t *testing.T) {
	s := openTemp(t)
	sampledStats(t, s, [][3]string{
		{"profiles", "profiles_visible_field", "1000000 401 401 2 2 1"},
		{"profiles", "profiles_visible_province", "1000000 401 401 2 2 1"},
		{"profiles", "profiles_visible_city", "1000000 401 401 2 2 1"},
		{"profiles", "profiles_visible_newest", "1000000 401 1 1"},
		{"profiles", "profiles_visible_reviews", "1000000 401 401 2 1"},
		{"profiles", "profiles_visible_best", "1000000 401 2 2 1"},
		{"profiles", "profiles_status", "1000000 401 1"},
		{"blogs", "blogs_status", "1000000 401 1"},
	})
	for query, want := range map[string]string{
		visibleProfileIDsSQL: "SEARCH p USING INTEGER PRIMARY KEY (rowid>?)",
		acceptedBlogIDsSQL:   "SEARCH blogs USING INTEGER PRIMARY KEY (rowid>?)",
		visibleSlugsSQL:      "SCAN p",
	} {
		if p := queryPlan(t, s, query, 1, 500); p != want {
			t.Errorf("%s: plan %q, want %q: the primary key in order, no sort", query, p, want)
		}
	}
}

// sampledStats writes statistics rows (table, index, stat) as ANALYZE's sampling wrote them, and
// has the writer's connection, which queryPlan asks, read them again.
func sampledStats(t *testing.T, s *Store, rows [][3]string) {
	t.Helper()
	ctx := context.Background()
	for _, r := range rows {
		if _, err := s.write.ExecContext(ctx, `INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)`, r[0], r[1], r[2]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.write.ExecContext(ctx, `ANALYZE sqlite_schema`); err != nil {
		t.Fatal(err)
	}
}
