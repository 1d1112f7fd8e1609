// Package cmd holds kardan's command line: thin cobra commands that parse flags and call store,
// admin and api.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"kardan/store"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// Version, Commit and CommitDate describe the build; the Makefile sets them with -ldflags
// (CommitDate is the commit's time, not the build's, so a release build is reproducible).
var (
	Version    = "dev"
	Commit     = "unknown"
	CommitDate = ""
)

// Globals are the flags every command shares.
type Globals struct {
	DataDir string
	// DB is a postgres:// URL of a database shared by several replicas; empty keeps the SQLite
	// file kardan.db in the data directory (the default).
	DB       string
	LogLevel string
	// Uploads is an s3:// URL of the bucket images are kept in; empty keeps them in the data
	// directory's uploads/.
	Uploads string
	// Web is the embedded web app (webui/dist).
	Web fs.FS
	// Out and Err are where commands write, so tests can read them.
	Out, Err io.Writer
}

// DBPath is the database: the --db PostgreSQL URL, or the file kardan.db inside the data directory.
func (g *Globals) DBPath() string {
	if g.DB != "" {
		return g.DB
	}
	return filepath.Join(g.DataDir, "kardan.db")
}

// OnPostgres reports whether the database is a shared PostgreSQL one.
func (g *Globals) OnPostgres() bool { return store.IsPostgresURL(g.DBPath()) }

// IndexDir is the search index directory inside the data directory.
func (g *Globals) IndexDir() string { return filepath.Join(g.DataDir, "index") }

// UploadsDir is the uploaded images' directory inside the data directory.
func (g *Globals) UploadsDir() string { return filepath.Join(g.DataDir, "uploads") }

// CardsDir holds the drawn share cards of profiles and articles (a cache: deleting it is safe).
func (g *Globals) CardsDir() string { return filepath.Join(g.DataDir, "cards") }

// env answers KARDAN_<name> from the environment, or def.
func env(name, def string) string {
	if v, ok := os.LookupEnv("KARDAN_" + name); ok {
		return v
	}
	return def
}

// withStore opens the data directory's store for one command, runs fn with it and closes it.
func withStore(cmd *cobra.Command, g *Globals, fn func(ctx context.Context, st *store.Store) error) error {
	ctx := cmd.Context()
	st, err := store.Open(ctx, g.DBPath())
	if err != nil {
		return err
	}
	defer st.Close()
	return fn(ctx, st)
}

// envReader reads a command's typed KARDAN_<name> fallbacks and keeps the values that do not
// parse: the command then stops with a message naming them (Err, from its PreRunE), instead of
// running on a default the operator did not choose.
type envReader struct{ errs []error }

// lookup answers KARDAN_<name>'s value, parsed by parse, or def when it is unset. A value parse
// refuses is recorded with what the variable wants.
func lookup[T any](e *envReader, name string, def T, want string, parse func(string) (T, error)) T {
	v, ok := os.LookupEnv("KARDAN_" + name)
	if !ok {
		return def
	}
	got, err := parse(strings.TrimSpace(v))
	if err != nil {
		e.errs = append(e.errs, fmt.Errorf("environment KARDAN_%s=%q: want %s", name, v, want))
		return def
	}
	return got
}

// Duration answers KARDAN_<name> parsed as a duration, or def when unset.
func (e *envReader) Duration(name string, def time.Duration) time.Duration {
	return lookup(e, name, def, "a duration such as 90s or 24h", time.ParseDuration)
}

// Int answers KARDAN_<name> parsed as a whole number, or def when unset.
func (e *envReader) Int(name string, def int) int {
	return lookup(e, name, def, "a whole number", strconv.Atoi)
}

// Float answers KARDAN_<name> parsed as a number, or def when unset.
func (e *envReader) Float(name string, def float64) float64 {
	return lookup(e, name, def, "a number", func(s string) (float64, error) { return strconv.ParseFloat(s, 64) })
}

// Bool answers KARDAN_<name> parsed as a boolean, or def when unset; empty means false.
func (e *envReader) Bool(name string, def bool) bool {
	return lookup(e, name, def, "1, true, yes, on, 0, false, no or off", func(s string) (bool, error) {
		switch strings.ToLower(s) {
		case "1", "true", "yes", "on":
			return true, nil
		case "0", "false", "no", "off", "":
			return false, nil
		}
		return false, errors.New("not a boolean")
	})
}

// Err reports every value that did not parse, or nil.
func (e *envReader) Err() error { return errors.Join(e.errs...) }

// NewRootCmd builds the kardan command with all its subcommands.
func NewRootCmd(web fs.FS) *cobra.Command {
	g := &Globals{Web: web, Out: os.Stdout, Err: os.Stderr}
	root := &cobra.Command{
		Use:   "kardan",
		Short: "Kardan (کاردان): a directory and marketplace of local professionals, in one binary",
		Long: `Kardan is a self-hosted directory of local professionals and businesses for Persian speakers.
One binary holds the API, the web app, the search index and the operator's tools; its data lives
in one directory (--data): kardan.db (SQLite), index/ (Bleve), uploads/ and backups/.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			g.Out, g.Err = cmd.OutOrStdout(), cmd.ErrOrStderr()
			return setupLogging(g.Err, g.LogLevel)
		},
	}
	root.PersistentFlags().StringVar(&g.DataDir, "data", env("DATA", "./data"), "data directory (env KARDAN_DATA)")
	root.PersistentFlags().StringVar(&g.DB, "db", env("DB", ""), "a PostgreSQL database shared by several replicas: postgres://user:password@host/db (env KARDAN_DB); default the SQLite file kardan.db in the data directory")
	root.PersistentFlags().StringVar(&g.Uploads, "uploads", env("UPLOADS", ""), "keep images in an S3-compatible bucket: s3://bucket[/prefix]?endpoint=host&region=name, keys from KARDAN_S3_ACCESS_KEY/KARDAN_S3_SECRET_KEY or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY (env KARDAN_UPLOADS); default uploads/ in the data directory")
	root.PersistentFlags().StringVar(&g.LogLevel, "log-level", env("LOG_LEVEL", "info"), "log level: debug, info, warn, error (env KARDAN_LOG_LEVEL)")
	root.AddCommand(
		newServeCmd(g),
		newSeedCmd(g),
		newVersionCmd(g),
		newUserCmd(g),
		newReindexCmd(g),
		newProfileCmd(g),
		newPurgeCmd(g),
		newBlogCmd(g),
		newBackupCmd(g),
		newRestoreCmd(g),
		newExportCmd(g),
		newDoctorCmd(g),
		newMigrateCmd(g),
	)
	return root
}

func setupLogging(w io.Writer, level string) error {
	l, err := logLevel(level)
	if err != nil {
		return err
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})))
	return nil
}

// logLevel reads --log-level.
func logLevel(level string) (slog.Level, error) {
	switch strings.ToLower(level) {
	case "debug":
		return slog.LevelDebug, nil
	case "info", "":
		return slog.LevelInfo, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
}

func newVersionCmd(g *Globals) *cobra.Command {
	return &cobra.Command{
		Use:          "version",
		Short:        "Print the version and the schema version",
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(g.Out, "kardan %s (schema %d)\n", Version, schemaVersion())
			fmt.Fprintf(g.Out, "commit %s", Commit)
			if CommitDate != "" {
				fmt.Fprintf(g.Out, " of %s", CommitDate)
			}
			fmt.Fprintf(g.Out, ", %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}
