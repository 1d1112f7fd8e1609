package cmd_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kardan/admin"
	"kardan/store"
)

// TestMigrateToPostgres moves a demo appliance's database into a real PostgreSQL with `kardan
// migrate --to postgres://…`: every table arrives with the same rows and checksums, the store
// opens on it and answers, a second run is refused without --replace and works with it.
func TestMigrateToPostgres(t *testing.T) {
	url := postgresDB(t, "the migration to PostgreSQL did not run")
	src := t.TempDir()
	// KARDAN_MIGRATE_DEMO=100000 measures a large move; the default keeps the test quick.
	demo := envNumber("KARDAN_MIGRATE_DEMO", 150)
	if out, err := run(t, "seed", "--data", src, "--demo", strconv.Itoa(demo)); err != nil {
		t.Fatal(err, out)
	}
	// A database nobody answers for is a clear error naming it, not a panic or a half copy.
	if out, err := run(t, "migrate", "--data", src, "--to", "postgres://kardan:secret@127.0.0.1:1/none?sslmode=disable"); err == nil ||
		!strings.Contains(err.Error(), "--to postgres://kardan:xxxxx@127.0.0.1:1/none") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("unreachable database: %v %s", err, out)
	}
	out, err := run(t, "migrate", "--data", src, "--to", url)
	if err != nil {
		t.Fatal(err, out)
	}
	if !strings.Contains(out, "verified (rows and checksums of every table)") || !strings.Contains(out, "Environment=KARDAN_DB=") {
		t.Fatalf("output:\n%s", out)
	}
	t.Log(out)
	ctx := context.Background()
	snap := filepath.Join(t.TempDir(), "snap.db")
	if err := store.SnapshotFile(ctx, filepath.Join(src, "kardan.db"), snap); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sums, err := admin.VerifyDatabase(ctx, snap, db)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]int64{}
	for _, s := range sums {
		rows[s.Table] = s.Rows
	}
	if rows["profiles"] != int64(demo) || rows["users"] == 0 || rows["comments"] == 0 || rows["cities"] == 0 {
		t.Fatalf("rows %v", rows)
	}
	// The store runs on the copy, and new rows get new ids after the copied ones.
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	u := &store.User{NumberPhone: "09129998877", Name: "after the move", PasswordHash: "x"}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	var maxID int64
	db.QueryRowContext(ctx, `SELECT MAX(id) FROM users WHERE id <> $1`, u.ID).Scan(&maxID)
	if u.ID <= maxID {
		t.Fatalf("new user id %d, copied ids up to %d", u.ID, maxID)
	}
	st.Close()
	// A replica on the copy (its own, empty data directory: it builds its index from
	// PostgreSQL) answers searches as the appliance did.
	oldApp, cancel, done := startApp(t, src, nil)
	before := searchAnswers(t, oldApp.URL())
	cancel()
	<-done
	oldApp.Close()
	replica := openReplica(t, t.TempDir(), url, "", "")
	after := searchAnswers(t, replica.app.URL())
	replica.close()
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("search %s differs on PostgreSQL:\nold %.300s\nnew %.300s", searchBodies[i], before[i], after[i])
		}
	}

	if out, err := run(t, "migrate", "--data", src, "--to", url); err == nil || !strings.Contains(err.Error(), "--replace") {
		t.Fatalf("second run: %v %s", err, out)
	}
	if out, err := run(t, "migrate", "--data", src, "--to", url, "--replace"); err != nil {
		t.Fatalf("--replace: %v %s", err, out)
	}
	// The appliance wrote search statistics since: the copy is of its newer state.
	snap2 := filepath.Join(t.TempDir(), "snap.db")
	if err := store.SnapshotFile(ctx, filepath.Join(src, "kardan.db"), snap2); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.VerifyDatabase(ctx, snap2, db); err != nil {
		t.Fatal(err)
	}
}
