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
	ctx := context.Background()
	s := openTemp(t)
	for _, stat := range [][2]string{
		{"profiles_visible_field", "1000000 401 401 2 2 1"},
		{"profiles_visible_province", "1000000 401 401 2 2 1"},
		{"profiles_visible_city", "1000000 401 401 2 2 1"},
		{"profiles_visible_newest", "1000000 401 1 1"},
		{"profiles_visible_reviews", "1000000 401 401 2 1"},
		{"profiles_visible_best", "1000000 401 2 2 1"},
		{"profiles_status", "1000000 401 1"},
	} {
		if _, err := s.write.ExecContext(ctx, `INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('profiles', ?, ?)`, stat[0], stat[1]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.write.ExecContext(ctx, `INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('blogs', 'blogs_status', '1000000 401 1')`); err != nil {
		t.Fatal(err)
	}
	// Reloads the statistics on this connection.
	if _, err := s.write.ExecContext(ctx, `ANALYZE sqlite_schema`); err != nil {
		t.Fatal(err)
	}
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
