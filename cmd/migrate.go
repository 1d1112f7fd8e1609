package cmd

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"kardan/admin"
	"kardan/media"
	"kardan/store"

	"github.com/spf13/cobra"
)

func newMigrateCmd(g *Globals) *cobra.Command {
	var to, uploads string
	var replace bool
	c := &cobra.Command{
		Use:   "migrate --to DATABASE [--uploads STORAGE]",
		Short: "Copy this appliance's database and images to a new home, verified (docs/scale-out.md)",
		Long: `migrate copies the data directory's database and images into another home and proves the
copy, while the server keeps running:

  --to DATABASE    the target database: a PostgreSQL URL (postgres://…) or an SQLite file path.
                   Its schema is created or brought up to date first; then every table is copied
                   in one transaction (a failure leaves the target as it was) and verified, table
                   by table: rows and an order-independent checksum of every value.
  --uploads WHERE  the target image storage: s3://bucket[/prefix]?endpoint=host&region=name (keys
                   from KARDAN_S3_ACCESS_KEY/KARDAN_S3_SECRET_KEY or AWS_ACCESS_KEY_ID/
                   AWS_SECRET_ACCESS_KEY) or a directory. Images already there with the same
                   content are skipped, so an interrupted copy resumes; every image is verified.

The database is copied from a consistent snapshot: rows written after it are not in the copy.
For the final move, stop the server and run it again with --replace. At the end it prints what
to change in the service file.`,
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if store.IsPostgresURL(g.DBPath()) {
				return errors.New("migrate moves an appliance's SQLite database, and this one is on PostgreSQL (--db, KARDAN_DB): copy it with pg_dump; --uploads without --db moves its images")
			}
			if to == "" && uploads == "" {
				return errors.New("say where to: --to DATABASE, --uploads STORAGE, or both")
			}
			if err := requireDB(g); err != nil {
				return err
			}
			return runMigrate(cmd.Context(), g, to, uploads, replace)
		},
	}
	f := c.Flags()
	f.StringVar(&to, "to", "", "target database: postgres://… or an SQLite file")
	// This --uploads is the target; the global one (env KARDAN_UPLOADS) stays where images are now.
	f.StringVar(&uploads, "uploads", "", "target image storage: s3://bucket[/prefix]?endpoint=host&region=name, or a directory")
	f.BoolVar(&replace, "replace", false, "overwrite a target database that already holds accounts or profiles")
	return c
}

func runMigrate(ctx context.Context, g *Globals, to, uploads string, replace bool) error {
	tmp, err := os.MkdirTemp(g.DataDir, ".kardan-migrate-*")
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	snap := filepath.Join(tmp, "kardan.db")
	if err := store.SnapshotFile(ctx, g.DBPath(), snap); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	fmt.Fprintf(g.Out, "snapshot of %s taken at %s\n", g.DBPath(), start.UTC().Format(time.RFC3339))
	if to != "" {
		if err := migrateDatabase(ctx, g, snap, to, replace); err != nil {
			return err
		}
	}
	if uploads != "" {
		if err := migrateImages(ctx, g, snap, uploads); err != nil {
			return err
		}
	}
	fmt.Fprintf(g.Out, "migrated and verified in %.1f s\n", time.Since(start).Seconds())
	printServiceChanges(g.Out, g, to, uploads)
	return nil
}

// openTarget creates or upgrades the target's schema through the store, then answers a handle
// that may write to it.
func openTarget(ctx context.Context, g *Globals, to string) (*sql.DB, bool, error) {
	if store.IsPostgresURL(to) {
		st, err := store.Open(ctx, to)
		if err != nil {
			return nil, false, fmt.Errorf("--to %s: %w", redactURL(to), err)
		}
		st.Close()
		// The store's pgx driver is registered under "pgx"; the copy needs a plain handle that may
		// write (the store's read pool is read-only).
		db, err := sql.Open("pgx", to)
		if err != nil {
			return nil, false, fmt.Errorf("--to %s: %w", redactURL(to), err)
		}
		db.SetMaxOpenConns(2)
		return db, true, nil
	}
	abs, err := filepath.Abs(to)
	if err != nil {
		return nil, false, err
	}
	if src, _ := filepath.Abs(g.DBPath()); src == abs {
		return nil, false, fmt.Errorf("--to %s is this appliance's own database", to)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o750); err != nil {
		return nil, false, fmt.Errorf("--to %s: %w", to, err)
	}
	st, err := store.Open(ctx, abs)
	if err != nil {
		return nil, false, fmt.Errorf("--to %s: %w", to, err)
	}
	st.Close()
	q := url.Values{}
	q.Set("_foreign_keys", "on")
	q.Set("_busy_timeout", "5000")
	q.Set("_journal_mode", "WAL")
	db, err := sql.Open("sqlite3", "file:"+abs+"?"+q.Encode())
	if err != nil {
		return nil, false, fmt.Errorf("--to %s: %w", to, err)
	}
	db.SetMaxOpenConns(1)
	return db, false, nil
}

func migrateDatabase(ctx context.Context, g *Globals, snap, to string, replace bool) error {
	db, postgres, err := openTarget(ctx, g, to)
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	sums, err := admin.CopyDatabase(ctx, snap, admin.MoveTarget{DB: db, Postgres: postgres, Replace: replace})
	if err != nil {
		return fmt.Errorf("migrate the database: %w", err)
	}
	var rows int64
	parts := make([]string, 0, len(sums))
	for _, s := range sums {
		rows += s.Rows
		if s.Rows > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", s.Table, s.Rows))
		}
	}
	fmt.Fprintf(g.Out, "database: %d tables, %d rows copied to %s and verified (rows and checksums of every table) in %.1f s\n",
		len(sums), rows, redactURL(to), time.Since(start).Seconds())
	fmt.Fprintf(g.Out, "rows: %s\n", strings.Join(parts, ", "))
	return nil
}

func migrateImages(ctx context.Context, g *Globals, snap, uploads string) error {
	if g.Uploads != "" && g.Uploads == uploads {
		return fmt.Errorf("--uploads %s is where this appliance's images already are (KARDAN_UPLOADS)", uploads)
	}
	from, err := g.OpenStorage(ctx)
	if err != nil {
		return err
	}
	src, ok := from.(admin.WalkStorage)
	if !ok {
		return errors.New("migrate: the source storage cannot list its images")
	}
	var dst media.Storage
	if strings.Contains(uploads, "://") {
		dst, err = openBucket(ctx, uploads)
	} else {
		if a, _ := filepath.Abs(uploads); g.Uploads == "" && a == mustAbs(g.UploadsDir()) {
			return fmt.Errorf("--uploads %s is this appliance's own uploads directory", uploads)
		}
		dst, err = media.NewLocalDir(uploads)
	}
	if err != nil {
		return err
	}
	start := time.Now()
	rep, err := admin.CopyImages(ctx, src, dst, snap)
	if err != nil {
		return fmt.Errorf("migrate the images: %w", err)
	}
	fmt.Fprintf(g.Out, "images: %d files (%.1f MiB): %d copied, %d already there, all verified, in %.1f s\n",
		rep.Files, float64(rep.Bytes)/(1<<20), rep.Copied, rep.Skipped, time.Since(start).Seconds())
	if rep.MissingInSource > 0 {
		fmt.Fprintf(g.Out, "warning: %d images the database names were already missing from %s\n", rep.MissingInSource, g.UploadsDir())
	}
	if rep.Unreferenced > 0 {
		fmt.Fprintf(g.Out, "note: %d images no upload record names were copied too (purge removes unused ones)\n", rep.Unreferenced)
	}
	return nil
}

func mustAbs(p string) string {
	a, _ := filepath.Abs(p)
	return a
}

// redactURL hides a URL's password for printing.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	return u.Redacted()
}

// printServiceChanges tells the operator what to put in the service file after a move.
func printServiceChanges(w io.Writer, g *Globals, to, uploads string) {
	fmt.Fprintln(w, "\nNow change the service (docs/kardan.service, and /etc/kardan/kardan.env for secrets, mode 0600) on every replica:")
	if store.IsPostgresURL(to) {
		fmt.Fprintf(w, "  Environment=KARDAN_DB=%s (its password, if any, in /etc/kardan/kardan.env)\n", redactURL(to))
	} else if to != "" {
		if filepath.Base(to) == "kardan.db" {
			fmt.Fprintf(w, "  Environment=KARDAN_DATA=%s\n", filepath.Dir(mustAbs(to)))
			fmt.Fprintf(w, "  ReadWritePaths=%s\n", filepath.Dir(mustAbs(to)))
		} else {
			fmt.Fprintf(w, "  the database is now %s: kardan reads <data>/kardan.db, so move it to kardan.db in the new data directory\n", to)
		}
	}
	if uploads != "" {
		if strings.Contains(uploads, "://") {
			fmt.Fprintf(w, "  Environment=KARDAN_UPLOADS=%s\n", uploads)
			fmt.Fprintln(w, "  KARDAN_S3_ACCESS_KEY=… and KARDAN_S3_SECRET_KEY=… in /etc/kardan/kardan.env")
			fmt.Fprintln(w, "  optionally Environment=KARDAN_UPLOADS_PUBLIC_URL=https://your-cdn/… to redirect images to a CDN")
		} else if to == "" || mustAbs(uploads) != filepath.Join(filepath.Dir(mustAbs(to)), "uploads") {
			fmt.Fprintf(w, "  images are now in %s: they belong in <data>/uploads of the new data directory\n", uploads)
		}
	}
	fmt.Fprintln(w, "then: systemctl daemon-reload && systemctl restart kardan (each replica builds its search index at its first start)")
}
