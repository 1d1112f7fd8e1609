package cmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"kardan/admin"
	"kardan/store"
)

// BackupsDir is where backups go unless --out says otherwise.
func (g *Globals) BackupsDir() string { return filepath.Join(g.DataDir, "backups") }

func newBackupCmd(g *Globals) *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "backup",
		Short: "Write a consistent backup (database and uploads) while the server keeps running",
		Long: `backup copies the database online (a WAL checkpoint, then SQLite's VACUUM INTO: the running
server is not stopped or slowed for writes) and every uploaded image into one .tar.gz with a
manifest.json: the format and schema versions, the rows of every table and the SHA-256 of every
file. The search index is left out: restore rebuilds it.

The default output is backups/kardan-<UTC time>.tar.gz inside the data directory; --out FILE
writes elsewhere and --out - writes the archive to standard output (for ssh or a pipe).`,
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if g.OnPostgres() {
				return errBackupOnPostgres
			}
			if err := requireDB(g); err != nil {
				return err
			}
			st, err := store.Open(ctx, g.DBPath())
			if err != nil {
				return err
			}
			defer st.Close()
			start := time.Now()
			opt := admin.BackupOptions{UploadsDir: g.backupUploadsDir(), Version: Version}
			if out == "-" {
				// The archive owns standard output; the summary goes to standard error.
				m, err := admin.Backup(ctx, st, cmd.OutOrStdout(), opt)
				if err != nil {
					return err
				}
				printBackup(g, cmd.ErrOrStderr(), "standard output", -1, m, time.Since(start))
				return nil
			}
			dest := out
			if dest == "" {
				dest = filepath.Join(g.BackupsDir(), admin.BackupName(time.Now()))
			}
			m, size, err := admin.BackupToFile(ctx, st, dest, opt)
			if err != nil {
				return err
			}
			printBackup(g, g.Out, dest, size, m, time.Since(start))
			return nil
		},
	}
	c.Flags().StringVar(&out, "out", "", "write the backup to this file (- for standard output); default backups/kardan-<time>.tar.gz in the data directory")
	return c
}

func printBackup(g *Globals, w interface{ Write([]byte) (int, error) }, dest string, size int64, m *admin.Manifest, d time.Duration) {
	sizeText := ""
	if size >= 0 {
		sizeText = fmt.Sprintf(", %.1f MiB", float64(size)/(1<<20))
	}
	fmt.Fprintf(w, "backup written to %s (schema %d, %d files%s) in %.1f s\n", dest, m.SchemaVersion, len(m.Files), sizeText, d.Seconds())
	fmt.Fprintf(w, "rows: %s\n", countsLine(m.Counts))
	if g.Uploads != "" {
		fmt.Fprintf(w, "images: not in this archive: they are in the bucket %s; back it up with its own tools (versioning, replication)\n", redactURL(g.Uploads))
	}
}

// requireDB refuses to run a command that reads data on a directory without a database, rather
// than let store.Open create an empty one and answer with nothing.
// errBackupOnPostgres is kardan backup's answer on a shared PostgreSQL database: a consistent
// copy of a live cluster is PostgreSQL's own tools' job.
var errBackupOnPostgres = errors.New("kardan backup copies the SQLite file; this data is in PostgreSQL (--db): back it up with " +
	"PostgreSQL's own tools (pg_dump -Fc, or pg_basebackup with WAL archiving for point-in-time recovery) and the images " +
	"with your bucket's versioning or replication; `kardan export` writes the data as JSON on either engine")

func requireDB(g *Globals) error {
	if g.OnPostgres() {
		return nil // a server, not a file: Open says whether it answers
	}
	if _, err := os.Stat(g.DBPath()); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no database at %s: is --data right?", g.DBPath())
	}
	return nil
}

func logBackup(dest string, size int64, m *admin.Manifest, d time.Duration, rotated int) {
	slog.Info("backup written", "file", dest, "bytes", size, "files", len(m.Files), "schema", m.SchemaVersion,
		"profiles", m.Counts["profiles"], "users", m.Counts["users"], "seconds", d.Seconds(), "rotated", rotated)
}

// scheduledBackup writes one backup into the data directory's backups/ and keeps the newest
// keep of them; serve --backup-every runs it.
func scheduledBackup(ctx context.Context, g *Globals, st *store.Store, keep int) error {
	start := time.Now()
	dest := filepath.Join(g.BackupsDir(), admin.BackupName(start))
	m, size, err := admin.BackupToFile(ctx, st, dest, admin.BackupOptions{UploadsDir: g.backupUploadsDir(), Version: Version})
	if err != nil {
		return err
	}
	removed, err := admin.RotateBackups(g.BackupsDir(), keep)
	if err != nil {
		return err
	}
	logBackup(dest, size, m, time.Since(start), len(removed))
	return nil
}

// minBackupEvery keeps a mistyped --backup-every (1s for 1d) from turning the server into a
// backup loop.
const minBackupEvery = time.Minute

// checkBackupFlags validates --backup-every and --backup-keep.
func checkBackupFlags(cfg ServeConfig) error {
	if cfg.BackupEvery < 0 || (cfg.BackupEvery > 0 && cfg.BackupEvery < minBackupEvery) {
		return fmt.Errorf("--backup-every %s: use 0 (off) or at least %s", cfg.BackupEvery, minBackupEvery)
	}
	if cfg.BackupEvery > 0 && cfg.BackupKeep < 1 {
		return fmt.Errorf("--backup-keep %d: keep at least 1 backup", cfg.BackupKeep)
	}
	return nil
}

// backupLoop takes a backup every a.cfg.BackupEvery until ctx ends. The first one is due one
// interval after the newest backup already in backups/, so a server restarted often still backs
// up on schedule and one restarted in a crash loop does not back up at every start.
func (a *App) backupLoop(ctx context.Context) {
	every := a.cfg.BackupEvery
	wait := nextBackupDelay(a.g.BackupsDir(), every, time.Now())
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		if err := scheduledBackup(ctx, a.g, a.Store, a.cfg.BackupKeep); err != nil && ctx.Err() == nil {
			slog.Error("scheduled backup", "err", err)
		}
		wait = every
	}
}

// nextBackupDelay answers how long to wait before the next scheduled backup: one interval after
// the newest kardan-*.tar.gz in dir, at once when that is past or there is none.
func nextBackupDelay(dir string, every time.Duration, now time.Time) time.Duration {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	var newest time.Time
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(n, "kardan-") || !strings.HasSuffix(n, ".tar.gz") {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().After(newest) {
			newest = fi.ModTime()
		}
	}
	if d := newest.Add(every).Sub(now); d > 0 {
		return d
	}
	return 0
}

// backupBeforeMigrate keeps a backup of the database in backups/ when this binary is about to
// migrate it to a newer schema: an upgrade that goes wrong can then be rolled back with the old
// binary and kardan restore. A fresh or current database needs none.
func backupBeforeMigrate(ctx context.Context, g *Globals) error {
	if _, err := os.Stat(g.DBPath()); err != nil {
		return nil
	}
	v, err := store.FileSchemaVersion(ctx, g.DBPath())
	if err != nil {
		return err
	}
	if v == 0 || v >= store.SchemaVersion() {
		return nil
	}
	start := time.Now()
	dest := filepath.Join(g.BackupsDir(), fmt.Sprintf("kardan-%s-before-schema-%d.tar.gz",
		start.UTC().Format("20060102T150405Z"), store.SchemaVersion()))
	slog.Info("the database will be migrated: backing it up first", "schema", v, "binary", store.SchemaVersion(), "file", dest)
	m, size, err := admin.BackupClosedDB(ctx, g.DBPath(), dest, admin.BackupOptions{UploadsDir: g.backupUploadsDir(), Version: Version})
	if err != nil {
		return fmt.Errorf("backup before migrating: %w", err)
	}
	logBackup(dest, size, m, time.Since(start), 0)
	return nil
}
