package doctor

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"kardan/media"
)

// checkUploads checks where images are kept: with --uploads, that the bucket answers to the
// keys, and that the newest image the database names is there (a move that forgot the images
// shows at once). It reads only.
func checkUploads(ctx context.Context, c Config) Result {
	if c.Uploads == "" {
		return Result{Name: "images", Status: OK, Detail: "kept in " + filepath.Join(c.DataDir, "uploads")}
	}
	if c.OpenUploads == nil {
		return Result{Name: "images", Status: Skip, Detail: "no way to open " + c.Uploads}
	}
	storage, err := c.OpenUploads(ctx)
	if err != nil {
		return Result{Name: "images", Status: Fail, Detail: err.Error(),
			Fix: "check --uploads (KARDAN_UPLOADS) and the keys KARDAN_S3_ACCESS_KEY/KARDAN_S3_SECRET_KEY; the bucket must exist"}
	}
	where := "in the bucket"
	if b, ok := storage.(*media.Bucket); ok {
		where = "in " + b.Config().String()
	}
	key, err := newestImage(ctx, filepath.Join(c.DataDir, "kardan.db"))
	if err != nil || key == "" {
		return Result{Name: "images", Status: OK, Detail: "kept " + where + " (reachable; no image to look for)"}
	}
	f, err := storage.Open(ctx, key)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Result{Name: "images", Status: Fail, Detail: "the newest image, " + key + ", is not " + where,
			Fix: "copy the images there: kardan migrate --uploads '" + c.Uploads + "'"}
	case err != nil:
		return Result{Name: "images", Status: Fail, Detail: err.Error(), Fix: "check that the bucket's endpoint is reachable from this machine"}
	}
	f.Close()
	return Result{Name: "images", Status: OK, Detail: "kept " + where + "; the newest image is there"}
}

// newestImage answers the storage key of the newest upload the database records, "" if none.
func newestImage(ctx context.Context, path string) (string, error) {
	if _, err := os.Stat(path); err != nil {
		return "", err
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_query_only", "true")
	db, err := sql.Open("sqlite3", "file:"+path+"?"+q.Encode())
	if err != nil {
		return "", err
	}
	defer db.Close()
	var addr string
	err = db.QueryRowContext(ctx, `SELECT address FROM uploads ORDER BY id DESC LIMIT 1`).Scan(&addr)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	key, _ := strings.CutPrefix(addr, "/uploads/")
	return key, err
}
