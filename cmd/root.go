// Package cmd holds kardan's command line: thin cobra commands that parse flags and call store,
// admin and api.
package cmd

import (
	"fmt"
	"io"
	"io/fs"
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
	DataDir  string
	LogLevel string
	// Web is the embedded web app (webui/dist).
	Web fs.FS
	// Out and Err are where commands write, so tests can read them.
	Out, Err io.Writer
}

// DBPath is the database file inside the data directory.
func (g *Globals) DBPath() string { return filepath.Join(g.DataDir, "kardan.db") }

// IndexDir is the search index directory inside the data directory.
func (g *Globals) IndexDir() string { return filepath.Join(g.DataDir, "index") }

// UploadsDir is the uploaded images' directory inside the data directory.
func (g *Globals) UploadsDir() string { return filepath.Join(g.DataDir, "uploads") }

// env answers KARDAN_<name> from the environment, or def.
func env(name, def string) string {
	if v, ok := os.LookupEnv("KARDAN_" + name); ok {
		return v
	}
	return def
}

// envDuration answers KARDAN_<name> parsed as a duration, or def when unset or unreadable.
func envDuration(name string, def time.Duration) time.Duration {
	if v, ok := os.LookupEnv("KARDAN_" + name); ok {
		if d, err := time.ParseDuration(v); err == nil {
			return d
		}
	}
	return def
}

// envInt answers KARDAN_<name> parsed as an integer, or def when unset or unreadable.
func envInt(name string, def int) int {
	if v, ok := os.LookupEnv("KARDAN_" + name); ok {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return def
}

// envFloat answers KARDAN_<name> parsed as a number, or def when unset or unreadable.
func envFloat(name string, def float64) float64 {
	if v, ok := os.LookupEnv("KARDAN_" + name); ok {
		if n, err := strconv.ParseFloat(v, 64); err == nil {
			return n
		}
	}
	return def
}

// envBool answers KARDAN_<name> parsed as a boolean (1, true, yes, on), or def when unset or
// unreadable.
func envBool(name string, def bool) bool {
	if v, ok := os.LookupEnv("KARDAN_" + name); ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "1", "true", "yes", "on":
			return true
		case "0", "false", "no", "off", "":
			return false
		}
	}
	return def
}

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
	)
	return root
}

func setupLogging(w io.Writer, level string) error {
	var l slog.Level
	switch strings.ToLower(level) {
	case "debug":
		l = slog.LevelDebug
	case "info", "":
		l = slog.LevelInfo
	case "warn", "warning":
		l = slog.LevelWarn
	case "error":
		l = slog.LevelError
	default:
		return fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})))
	return nil
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
