package main

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"kardan/admin"
	"kardan/search"
	"kardan/store"
)

// The FTS5 peer answers what Kardan's engine answers where both mean the same thing: the count of
// a category (by name), a category within a radius with the same distances in the same order,
// and browsing best first. It runs only where the benchmark's sqlite_fts5 build tag is set
// (`go test -tags sqlite_fts5 ./bench`), as in `make bench`; `make test` runs it so.
func TestFTSPeerAgreesWithKardan(t *testing.T) {
	if !ftsAvailable() {
		t.Skip("built without the sqlite_fts5 tag: go test -tags sqlite_fts5 ./bench (make test runs it so)")
	}
	ctx := context.Background()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "kardan.db")
	st, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := admin.SeedReference(ctx, st); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.SeedDemo(ctx, st, admin.DemoOptions{Profiles: 600, PasswordHash: "x", Seed: 5,
		Now: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	ftsPath := filepath.Join(dir, "fts.db")
	if _, err := buildFTS(ctx, dbPath, ftsPath); err != nil {
		t.Fatal(err)
	}
	if err := search.Rebuild(ctx, filepath.Join(dir, "index"), st); err != nil {
		t.Fatal(err)
	}
	ix, err := search.Open(ctx, filepath.Join(dir, "index"), st)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	peer, err := openFTSPeer(ctx, ftsPath, st)
	if err != nil {
		t.Fatal(err)
	}
	defer peer.close()

	raw, err := sql.Open("sqlite3", "file:"+dbPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	demo, err := sampleDemo(ctx, raw, 60, 1)
	if err != nil {
		t.Fatal(err)
	}
	ws := demo.buildWorkloads(60, 1)
	equal := map[string]int{}
	asked := map[string]int{}
	for _, w := range ws[:5] { // the search workloads
		for _, r := range w.Reqs {
			k, err := ix.SearchProfiles(ctx, *r.Query)
			if err != nil {
				t.Fatal(err)
			}
			p, err := peer.search(ctx, r.Query)
			if err != nil {
				t.Fatalf("%s %s: %v", w.Name, r.Body, err)
			}
			asked[w.Name]++
			if k.Total == p.Total && (w.Name == "text" || w.Name == "text_city" || equalIDs(k.IDs, p.IDs)) {
				equal[w.Name]++
			}
		}
	}
	// Places and browsing mean exactly the same in both: every answer equal, page and order
	// included. Text differs where Kardan knows more (stems, synonyms): most counts equal.
	for _, name := range []string{"category_radius", "map_radius", "browse_best"} {
		if equal[name] != asked[name] {
			t.Errorf("%s: %d of %d answers equal Kardan's", name, equal[name], asked[name])
		}
	}
	for _, name := range []string{"text", "text_city"} {
		if equal[name]*10 < asked[name]*8 {
			t.Errorf("%s: %d of %d counts equal Kardan's, want 80%% or more", name, equal[name], asked[name])
		}
	}
	t.Logf("equal: %v of %v", equal, asked)
}
