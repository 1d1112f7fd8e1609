package cmd_test

import (
	"bytes"
	"context"
	"database/sql"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kardan/admin"
	"kardan/media/s3server"
	"kardan/store"

	"github.com/minio/minio-go/v7"
)

// TestMigrate moves a demo appliance into a new database and a bucket with `kardan migrate`:
// every row and image arrives, verified; searches on the new home answer as on the old; a second
// run is refused without --replace and skips the images already copied; a tampered copy fails
// verification.
func TestMigrate(t *testing.T) {
	srv := s3server.Start(t)
	srv.MakeBucket("kardan")
	srv.Env(t)
	src, dst := t.TempDir(), t.TempDir()
	if out, err := run(t, "seed", "--data", src, "--demo", "120"); err != nil {
		t.Fatal(err, out)
	}
	ctx := context.Background()

	// Bad requests stop with a message, before anything is copied.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"migrate", "--data", src}, "say where to"},
		{[]string{"migrate", "--data", src, "--to", filepath.Join(src, "kardan.db")}, "own database"},
		{[]string{"migrate", "--data", src, "--uploads", filepath.Join(src, "uploads")}, "own uploads"},
		{[]string{"migrate", "--data", t.TempDir(), "--to", filepath.Join(dst, "kardan.db")}, "no database"},
		{[]string{"migrate", "--data", src, "--uploads", "s3://nosuch?endpoint=http://" + srv.Endpoint}, "does not exist"},
	} {
		if out, err := run(t, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v %s, want %q", c.args, err, out, c.want)
		}
	}

	bucket := strings.Replace(srv.URL("kardan"), "s3://kardan", "s3://kardan/site", 1)
	out, err := run(t, "migrate", "--data", src, "--to", filepath.Join(dst, "kardan.db"), "--uploads", bucket)
	if err != nil {
		t.Fatal(err, out)
	}
	for _, want := range []string{"verified (rows and checksums of every table)", "copied, 0 already there, all verified",
		"Environment=KARDAN_UPLOADS=" + bucket, "Environment=KARDAN_DATA=" + dst} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	// Every row: the same tables with the same counts.
	a, b := inspect(t, src), inspect(t, dst)
	if a.SchemaVersion != b.SchemaVersion || len(a.Counts) != len(b.Counts) {
		t.Fatalf("schema %d/%d, tables %d/%d", a.SchemaVersion, b.SchemaVersion, len(a.Counts), len(b.Counts))
	}
	for table, n := range a.Counts {
		if b.Counts[table] != n {
			t.Errorf("%s: %d rows, %d copied", table, n, b.Counts[table])
		}
	}
	if a.Counts["profiles"] != 120 {
		t.Fatalf("profiles %d", a.Counts["profiles"])
	}
	// Every image, byte for byte, under the prefix.
	files := 0
	filepath.WalkDir(filepath.Join(src, "uploads"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		rel, _ := filepath.Rel(filepath.Join(src, "uploads"), p)
		want, _ := os.ReadFile(p)
		obj, err := srv.Client().GetObject(ctx, "kardan", "site/"+filepath.ToSlash(rel), minio.GetObjectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(obj)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes in the bucket, %d on disk (%v)", rel, len(got), len(want), err)
		}
		return nil
	})
	if files == 0 {
		t.Fatal("the demo made no images")
	}

	// The new home answers searches as the old one, and serves the images from the bucket.
	oldApp, cancel, done := startApp(t, src, nil)
	before := searchAnswers(t, oldApp.URL())
	cancel()
	<-done
	oldApp.Close()
	newApp := openBucketApp(t, dst, bucket, "")
	after := searchAnswers(t, newApp.app.URL())
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("search %s differs:\nold %.300s\nnew %.300s", searchBodies[i], before[i], after[i])
		}
	}
	st, err := store.Open(ctx, filepath.Join(dst, "kardan.db"))
	if err != nil {
		t.Fatal(err)
	}
	var addr string
	st.DB().QueryRowContext(ctx, `SELECT address FROM uploads LIMIT 1`).Scan(&addr)
	st.Close()
	if res, _ := get(t, newApp.app.URL()+addr); res.StatusCode != 200 {
		t.Fatalf("image %s on the new home: %d", addr, res.StatusCode)
	}
	newApp.close()

	// Again: the database is refused without --replace; with it, it is copied again and the
	// images already in the bucket are skipped.
	if out, err := run(t, "migrate", "--data", src, "--to", filepath.Join(dst, "kardan.db")); err == nil || !strings.Contains(err.Error(), "--replace") {
		t.Fatalf("second run: %v %s", err, out)
	}
	out, err = run(t, "migrate", "--data", src, "--to", filepath.Join(dst, "kardan.db"), "--uploads", bucket, "--replace")
	if err != nil || !strings.Contains(out, " 0 copied, ") {
		t.Fatalf("rerun: %v %s", err, out)
	}

	// A changed row or image fails verification, naming what differs.
	snap := filepath.Join(t.TempDir(), "snap.db")
	if err := store.SnapshotFile(ctx, filepath.Join(src, "kardan.db"), snap); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", filepath.Join(dst, "kardan.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := admin.VerifyDatabase(ctx, snap, db); err != nil {
		t.Fatalf("verify an exact copy: %v", err)
	}
	if _, err := db.ExecContext(ctx, `UPDATE comments SET description = description || '!' WHERE id = (SELECT MIN(id) FROM comments)`); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.VerifyDatabase(ctx, snap, db); err == nil || !strings.Contains(err.Error(), "comments") {
		t.Fatalf("verify a changed comment: %v", err)
	}
	var key string
	filepath.WalkDir(filepath.Join(src, "uploads"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && key == "" {
			rel, _ := filepath.Rel(filepath.Join(src, "uploads"), p)
			key = filepath.ToSlash(rel)
		}
		return err
	})
	bad := []byte("not the image")
	if _, err := srv.Client().PutObject(ctx, "kardan", "site/"+key, bytes.NewReader(bad), int64(len(bad)), minio.PutObjectOptions{}); err != nil {
		t.Fatal(err)
	}
	if out, err := run(t, "migrate", "--data", src, "--uploads", bucket); err == nil || !strings.Contains(err.Error(), key) {
		t.Fatalf("a different object under an image's name: %v %s", err, out)
	}
	// An appliance already on the bucket (KARDAN_UPLOADS) is not copied onto itself.
	t.Setenv("KARDAN_UPLOADS", bucket)
	if out, err := run(t, "migrate", "--data", src, "--uploads", bucket); err == nil || !strings.Contains(err.Error(), "already") {
		t.Fatalf("onto itself: %v %s", err, out)
	}
	_ = http.StatusOK

	// A backup of a local appliance restored with --uploads puts its images into the bucket.
	t.Setenv("KARDAN_UPLOADS", "")
	archive := filepath.Join(t.TempDir(), "b.tar.gz")
	if out, err := run(t, "backup", "--data", src, "--out", archive); err != nil {
		t.Fatal(err, out)
	}
	srv.MakeBucket("restored")
	out, err = run(t, "restore", archive, "--data", filepath.Join(t.TempDir(), "r"), "--uploads", srv.URL("restored"))
	if err != nil || !strings.Contains(out, " copied into the bucket ") {
		t.Fatalf("restore into a bucket: %v %s", err, out)
	}
	n := 0
	for o := range srv.Client().ListObjects(ctx, "restored", minio.ListObjectsOptions{Recursive: true}) {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		n++
	}
	if n != files {
		t.Fatalf("restored %d images into the bucket, want %d", n, files)
	}
}
