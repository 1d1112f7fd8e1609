package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"kardan/search"
	"kardan/store"
)

func checkDataDir(c Config) []Result {
	dir := c.DataDir
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return []Result{{Name: "data directory", Status: Warn, Detail: dir + " does not exist yet",
			Fix: "kardan serve creates it; to choose its owner and mode first: install -d -o kardan -g kardan -m 0750 " + dir}}
	}
	if err != nil {
		return []Result{{Name: "data directory", Status: Fail, Detail: err.Error(), Fix: "check the path and its parents' permissions"}}
	}
	if !fi.IsDir() {
		return []Result{{Name: "data directory", Status: Fail, Detail: dir + " is not a directory", Fix: "point --data (KARDAN_DATA) at a directory"}}
	}
	var rs []Result
	r := Result{Name: "data directory", Status: OK}
	probe, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		r.Status, r.Detail = Fail, dir+" is not writable: "+err.Error()
		r.Fix = "run doctor (and serve) as the account that owns it, e.g. sudo -u kardan kardan doctor; or chown -R kardan:kardan " + dir
		return append(rs, r)
	}
	probe.Close()
	os.Remove(probe.Name())
	mode := fi.Mode().Perm()
	r.Detail = fmt.Sprintf("%s: writable, mode %04o", dir, mode)
	if owner, ok := ownerOf(fi); ok && owner != os.Getuid() {
		r.Status = Warn
		r.Detail += fmt.Sprintf(", owned by uid %d while doctor runs as uid %d", owner, os.Getuid())
		r.Fix = "run doctor as the service's account (sudo -u kardan kardan doctor), or files it creates may not be readable by serve"
	}
	if mode&0o007 != 0 {
		r.Status = Warn
		r.Detail += "; other accounts can enter it (it holds password hashes and backups)"
		r.Fix = "chmod 0750 " + dir
	}
	rs = append(rs, r)
	if db, err := os.Stat(filepath.Join(dir, "kardan.db")); err == nil && db.Mode().Perm()&0o004 != 0 && mode&0o005 != 0 {
		rs = append(rs, Result{Name: "database file", Status: Warn,
			Detail: fmt.Sprintf("kardan.db is mode %04o: readable by every account", db.Mode().Perm()),
			Fix:    "chmod 0640 " + filepath.Join(dir, "kardan.db") + " (serve's unit sets UMask=0027)"})
	}

	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return append(rs, Result{Name: "free space", Status: Skip, Detail: err.Error()})
	}
	free := uint64(st.Bavail) * uint64(st.Bsize)
	total := uint64(st.Blocks) * uint64(st.Bsize)
	sr := Result{Name: "free space", Status: OK, Detail: fmt.Sprintf("%s free of %s", bytesText(free), bytesText(total))}
	var dbSize uint64
	if fi, err := os.Stat(filepath.Join(dir, "kardan.db")); err == nil {
		dbSize = uint64(fi.Size())
	}
	switch {
	case free < failFree:
		sr.Status, sr.Fix = Fail, "free disk space: SQLite needs room to write, and a full disk stops every write"
	case free < warnFree || free < 2*dbSize:
		sr.Status, sr.Fix = Warn, fmt.Sprintf("keep at least 1 GiB and twice the database (%s) free: a backup and a reindex each need about the database's size", bytesText(dbSize))
	}
	return append(rs, sr)
}

func checkDatabase(ctx context.Context, c Config) []Result {
	path := filepath.Join(c.DataDir, "kardan.db")
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return []Result{{Name: "database", Status: Warn, Detail: "no kardan.db yet",
			Fix: "kardan serve creates it on its first start (with the reference data)"}}
	}
	in, err := store.OpenInspector(path)
	if err != nil {
		return []Result{{Name: "database", Status: Fail, Detail: err.Error(), Fix: "check the file's owner and mode"}}
	}
	defer in.Close()
	var rs []Result
	check := "quick_check"
	if c.FullIntegrity {
		check = "integrity_check"
	}
	problems, err := in.Integrity(ctx, c.FullIntegrity)
	switch {
	case err != nil:
		rs = append(rs, Result{Name: "database", Status: Fail, Detail: check + ": " + err.Error(),
			Fix: "the file is unreadable: stop serve and restore the newest backup (kardan restore FILE --force)"})
		return rs
	case len(problems) > 0:
		if len(problems) > 3 {
			problems = append(problems[:3], fmt.Sprintf("… %d more", len(problems)-3))
		}
		rs = append(rs, Result{Name: "database", Status: Fail, Detail: check + ": " + strings.Join(problems, "; "),
			Fix: "stop serve and restore the newest backup (kardan restore FILE --force); restore checks the backup's integrity first"})
		return rs
	}
	v, err := in.SchemaVersion(ctx)
	if err != nil {
		return append(rs, Result{Name: "database", Status: Fail, Detail: err.Error()})
	}
	r := Result{Name: "database", Status: OK, Detail: fmt.Sprintf("%s ok, schema %d", check, v)}
	switch {
	case v > c.SchemaVersion:
		r.Status = Fail
		r.Detail += fmt.Sprintf(", newer than this binary's %d", c.SchemaVersion)
		r.Fix = "use the newer kardan that wrote it (this one refuses to serve it)"
	case v < c.SchemaVersion:
		r.Status = Warn
		r.Detail += fmt.Sprintf(", older than this binary's %d", c.SchemaVersion)
		r.Fix = "serve migrates it at start, after writing a backup of the untouched database"
	}
	rs = append(rs, r)
	if v == 0 {
		return rs
	}

	ref := Result{Name: "reference data", Status: OK}
	p, err1 := in.Count(ctx, "provinces")
	ci, err2 := in.Count(ctx, "cities")
	ca, err3 := in.Count(ctx, "categories")
	if err := errors.Join(err1, err2, err3); err != nil {
		ref.Status, ref.Detail = Fail, err.Error()
	} else {
		ref.Detail = fmt.Sprintf("%d provinces, %d cities, %d categories", p, ci, ca)
		if p < 31 || ci == 0 || ca == 0 {
			ref.Status, ref.Fix = Warn, "kardan serve loads it at start; or run kardan seed"
		}
	}
	rs = append(rs, ref)

	adm := Result{Name: "administrator", Status: OK}
	if n, err := in.Count(ctx, "admins"); err != nil {
		adm.Status, adm.Detail = Fail, err.Error()
	} else if n == 0 {
		adm.Status, adm.Detail = Warn, "no administrator: nobody can moderate"
		adm.Fix = "kardan user create --data " + c.DataDir + " --phone 09xxxxxxxxx --name 'Admin' --password '…' --admin"
	} else {
		adm.Detail = fmt.Sprintf("%d administrator(s)", n)
	}
	return append(rs, adm)
}

// checkSQLiteBuild warns of a binary built without the Makefile's SQLite flags: it works the
// same, but SQLite compiles many statements again at every call.
func checkSQLiteBuild(c Config) Result {
	if !c.UnstablePlans {
		return Result{Name: "sqlite build", Status: OK, Detail: "statements keep their plans (ENABLE_QPSG)"}
	}
	return Result{Name: "sqlite build", Status: Warn,
		Detail: "built without -DSQLITE_ENABLE_QPSG: SQLite compiles many statements again at every call, and reads are up to 3x slower",
		Fix:    "build with make (it sets CGO_CFLAGS), or use a release binary"}
}

// checkIndex compares the search index with the database. Bleve locks its index exclusively, so
// while serve runs the comparison is skipped: the server keeps the index in step by itself.
func checkIndex(ctx context.Context, c Config) Result {
	r := Result{Name: "search index"}
	info, err := search.Inspect(filepath.Join(c.DataDir, "index"))
	switch {
	case errors.Is(err, search.ErrNoIndex):
		r.Status, r.Detail, r.Fix = Warn, "no index yet", "kardan serve builds it at start (or kardan reindex)"
		return r
	case errors.Is(err, search.ErrLocked):
		r.Status, r.Detail = Skip, "kardan serve is running and holds the index (Bleve's lock): counts not compared"
		r.Fix = "the server keeps it in step by itself (kardan_outbox_backlog in /metrics should stay near 0); stop serve and run doctor again to compare counts"
		return r
	case err != nil:
		r.Status, r.Detail, r.Fix = Fail, "unreadable: "+err.Error(), "kardan serve rebuilds an unreadable index at start; or stop serve and run kardan reindex"
		return r
	}
	if !info.Current {
		r.Status, r.Detail, r.Fix = Warn, fmt.Sprintf("mapping version %q is not this binary's", info.Version), "kardan serve rebuilds it at start (or kardan reindex)"
		return r
	}
	path := filepath.Join(c.DataDir, "kardan.db")
	in, err := store.OpenInspector(path)
	if err != nil {
		r.Status, r.Detail = Skip, "no database to compare with"
		return r
	}
	defer in.Close()
	profiles, err1 := in.Count(ctx, "indexed profiles")
	blogs, err2 := in.Count(ctx, "indexed blogs")
	head, err3 := in.Count(ctx, "outbox head")
	if err := errors.Join(err1, err2, err3); err != nil {
		r.Status, r.Detail = Fail, err.Error()
		return r
	}
	want := uint64(profiles + blogs)
	r.Detail = fmt.Sprintf("%d documents for %d visible profiles and %d published articles", info.Docs, profiles, blogs)
	switch {
	case info.Applied < head:
		r.Status = Warn
		r.Detail += fmt.Sprintf("; %d changes not applied yet", head-info.Applied)
		r.Fix = "kardan serve applies them at start"
	case info.Docs != want:
		r.Status = Fail
		r.Fix = "stop serve and run kardan reindex (the index is derived from the database; nothing is lost)"
	default:
		r.Status = OK
	}
	return r
}

func checkBackups(c Config) Result {
	r := Result{Name: "backups"}
	files, _ := filepath.Glob(filepath.Join(c.DataDir, "backups", "*.tar.gz"))
	var newest time.Time
	var name string
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.ModTime().After(newest) {
			newest, name = fi.ModTime(), filepath.Base(f)
		}
	}
	if name == "" {
		r.Status, r.Detail = Warn, "no backup in "+filepath.Join(c.DataDir, "backups")
		r.Fix = "serve --backup-every 24h (KARDAN_BACKUP_EVERY), or kardan backup from cron; and copy them to another machine (docs/deploy.md)"
		return r
	}
	age := c.Now().Sub(newest)
	limit := 48 * time.Hour
	if c.BackupEvery > 0 {
		limit = 2 * c.BackupEvery
	}
	r.Status, r.Detail = OK, fmt.Sprintf("newest %s, %s old (%d in all)", name, ageText(age), len(files))
	if age > limit {
		r.Status = Warn
		r.Fix = fmt.Sprintf("the newest backup is older than %s: check that serve --backup-every runs, or run kardan backup", ageText(limit))
	}
	return r
}

func ownerOf(fi os.FileInfo) (int, bool) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid), true
	}
	return 0, false
}

func bytesText(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

func ageText(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%.0f days", d.Hours()/24)
	case d >= time.Hour:
		return fmt.Sprintf("%.0f h", d.Hours())
	}
	return fmt.Sprintf("%.0f min", d.Minutes())
}
