// Package doctor checks what an operator checks before going live, and says how to fix each
// finding: the data directory, the database, the search index, the SMS sender, the public
// address, the trusted proxies, backups and the clock.
package doctor

import (
	"context"
	"fmt"
	"io"
	"time"

	"kardan/auth"
	"kardan/media"
)

// Status is a check's verdict.
type Status string

// A check passes (OK), needs attention before going live (Warn), is broken (Fail) or could not
// be made (Skip).
const (
	OK   Status = "ok"
	Warn Status = "WARN"
	Fail Status = "FAIL"
	Skip Status = "skip"
)

// Result is one check's finding.
type Result struct {
	Name   string
	Status Status
	Detail string
	// Fix says what to do about a Warn or Fail.
	Fix string
}

// Config is what the checks look at: the data directory and the flags serve is given.
type Config struct {
	DataDir        string
	Addr           string
	BaseURL        string
	TrustedProxies string
	Timezone       string
	SMS            string
	SMSKey         string
	SMSTemplate    string
	BackupEvery    time.Duration
	// SMSTo, when set, receives a test SMS through the configured sender.
	SMSTo string
	// FullIntegrity runs PRAGMA integrity_check instead of quick_check.
	FullIntegrity bool
	// BuiltAt is the binary's commit time (zero when unknown): a clock before it is wrong.
	BuiltAt time.Time
	// SchemaVersion is the binary's schema version.
	SchemaVersion int
	// UnstablePlans is true of a binary whose SQLite lacks the query planner stability
	// guarantee (store.StablePlans): built without the Makefile's CGO_CFLAGS.
	UnstablePlans bool
	// Uploads is serve's --uploads (an s3:// URL; empty: the data directory's uploads/), and
	// OpenUploads opens it with the keys from the environment.
	Uploads     string
	OpenUploads func(ctx context.Context) (media.Storage, error)
	// Now is the clock (time.Now).
	Now func() time.Time
	// Sender overrides the sender built from SMS (tests: the edge of the world).
	Sender auth.Sender
}

// Free-space thresholds: below failFree the server may stop writing; below warnFree a backup or
// a reindex may not fit.
const (
	failFree = 100 << 20
	warnFree = 1 << 30
)

// Run makes every check in order.
func Run(ctx context.Context, c Config) []Result {
	if c.Now == nil {
		c.Now = time.Now
	}
	var rs []Result
	add := func(r ...Result) { rs = append(rs, r...) }
	add(checkDataDir(c)...)
	add(checkDatabase(ctx, c)...)
	add(checkSQLiteBuild(c))
	add(checkIndex(ctx, c))
	add(checkSMS(ctx, c))
	add(checkBaseURL(c))
	add(checkProxies(c))
	add(checkUploads(ctx, c))
	add(checkBackups(c))
	add(checkClock(ctx, c)...)
	return rs
}

// Failed counts the failures.
func Failed(rs []Result) int {
	n := 0
	for _, r := range rs {
		if r.Status == Fail {
			n++
		}
	}
	return n
}

// Print writes the results, one line each and the fix under it.
func Print(w io.Writer, rs []Result) {
	for _, r := range rs {
		fmt.Fprintf(w, "%-5s %-18s %s\n", r.Status, r.Name, r.Detail)
		if r.Fix != "" && (r.Status == Warn || r.Status == Fail || r.Status == Skip) {
			fmt.Fprintf(w, "      %-18s fix: %s\n", "", r.Fix)
		}
	}
}
