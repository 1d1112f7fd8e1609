package cmd

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"kardan/admin"
	"kardan/media"
)

func newRestoreCmd(g *Globals) *cobra.Command {
	var force bool
	c := &cobra.Command{
		Use:   "restore FILE",
		Short: "Restore a backup into the data directory (refused while a server runs there)",
		Long: `restore reads a backup made by kardan backup (FILE, or - for standard input) into a scratch
directory beside the data directory, checks every file against the manifest's SHA-256, checks that
the schema is not newer than this binary and that SQLite finds the database sound, brings the
schema up to date, rebuilds the search index, and only then swaps the directories by rename.

A data directory that holds anything is refused unless --force is given; with --force the old
directory is kept beside it as <data>.before-restore-<time> (its backups/ move into the restored
one). Stop kardan serve first: restore refuses while a server holds the directory.`,
		Args:         cobra.ExactArgs(1),
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			// The archive is an SQLite file: restoring it beside a PostgreSQL database would report
			// success while the server keeps reading PostgreSQL.
			if g.OnPostgres() {
				return errBackupOnPostgres
			}
			start := time.Now()
			var r io.Reader = cmd.InOrStdin()
			if args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return fmt.Errorf("restore: %w", err)
				}
				defer f.Close()
				r = f
			}
			res, err := admin.Restore(cmd.Context(), r, g.DataDir, admin.RestoreOptions{Force: force})
			if err != nil {
				return err
			}
			m := res.Manifest
			fmt.Fprintf(g.Out, "restored %s into %s in %.1f s: backup of %s, schema %d (now %d), %d files\n",
				args[0], g.DataDir, time.Since(start).Seconds(), m.CreatedAt.Format(time.RFC3339), m.SchemaVersion,
				res.SchemaVersion, res.Files)
			fmt.Fprintf(g.Out, "rows: %s\n", countsLine(res.Counts))
			if g.Uploads != "" {
				// The archive's images were restored into uploads/; serve reads them from the bucket.
				if err := restoreIntoBucket(cmd, g); err != nil {
					return err
				}
			}
			if res.Replaced != "" {
				fmt.Fprintf(g.Out, "the previous data directory was kept at %s: delete it when the restore is checked\n", res.Replaced)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&force, "force", false, "replace a data directory that holds data (the old one is kept beside it)")
	return c
}

// restoreIntoBucket copies the images a restore put into uploads/ into the --uploads bucket,
// verified, skipping those already there.
func restoreIntoBucket(cmd *cobra.Command, g *Globals) error {
	local, err := media.NewLocalDir(g.UploadsDir())
	if err != nil {
		return err
	}
	bucket, err := g.OpenStorage(cmd.Context())
	if err != nil {
		return fmt.Errorf("restore: the database is restored, the images are in %s, but: %w", g.UploadsDir(), err)
	}
	rep, err := admin.CopyImages(cmd.Context(), local, bucket, "")
	if err != nil {
		return fmt.Errorf("restore: the database is restored, the images are in %s, but copying them into the bucket failed (run kardan migrate --uploads … to finish): %w", g.UploadsDir(), err)
	}
	fmt.Fprintf(g.Out, "images: %d copied into the bucket %s, %d already there, all verified\n", rep.Copied, redactURL(g.Uploads), rep.Skipped)
	return nil
}

// countsLine prints the row counts of the tables people care about first, then the rest.
func countsLine(counts map[string]int64) string {
	first := []string{"users", "profiles", "blogs", "comments", "uploads"}
	var parts []string
	seen := map[string]bool{}
	for _, t := range first {
		if n, ok := counts[t]; ok {
			parts = append(parts, fmt.Sprintf("%s %d", t, n))
			seen[t] = true
		}
	}
	var rest []string
	for t := range counts {
		if !seen[t] {
			rest = append(rest, t)
		}
	}
	sort.Strings(rest)
	for _, t := range rest {
		parts = append(parts, fmt.Sprintf("%s %d", t, counts[t]))
	}
	return strings.Join(parts, ", ")
}
