package admin

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"

	"kardan/search"
	"kardan/store"
)

// Archive bounds: a manifest is small, and a restore must not be talked into filling the disk
// with an endless entry or a million empty ones.
const (
	maxManifestBytes = 64 << 20
	maxArchiveFiles  = 10_000_000
)

// ErrTargetNotEmpty is answered when the restore target holds data and --force was not given.
var ErrTargetNotEmpty = errors.New("restore: the target directory is not empty (use --force to replace it)")

// ErrTargetInUse is answered when a running kardan serve holds the target directory.
var ErrTargetInUse = errors.New("restore: a running kardan serve holds the target directory: stop it first")

// RestoreOptions shape a restore.
type RestoreOptions struct {
	// Force replaces a target directory that holds data; the old one is kept beside it.
	Force bool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// RestoreResult says what a restore put in place.
type RestoreResult struct {
	Manifest *Manifest
	// SchemaVersion is the database's schema after the restore (migrations run when the backup
	// was older than this binary).
	SchemaVersion int
	// Counts are the rows of each table as restored.
	Counts map[string]int64
	// Files is how many files were restored, uploads included.
	Files int
	// Replaced is where the target's previous content was moved ("" when it was empty).
	Replaced string
}

// Restore replaces the data directory dataDir with the backup read from r. Nothing is written
// into dataDir until the archive has been read whole into a scratch directory beside it, every
// file's checksum and size matched the manifest, the schema was found no newer than this binary
// and the database passed SQLite's integrity check; the search index is then rebuilt in the
// scratch directory and the directories are swapped by rename.
func Restore(ctx context.Context, r io.Reader, dataDir string, opt RestoreOptions) (*RestoreResult, error) {
	now := time.Now
	if opt.Now != nil {
		now = opt.Now
	}
	target, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	empty, err := dirEmpty(target)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	if !empty && !opt.Force {
		return nil, ErrTargetNotEmpty
	}
	if indexInUse(filepath.Join(target, "index")) {
		return nil, ErrTargetInUse
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o750); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	scratch, err := os.MkdirTemp(filepath.Dir(target), "."+filepath.Base(target)+".restore-*")
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	keep := false
	defer func() {
		if !keep {
			os.RemoveAll(scratch)
		}
	}()

	m, got, err := unpack(ctx, r, scratch)
	if err != nil {
		return nil, err
	}
	if err := m.verify(got); err != nil {
		return nil, err
	}
	dbPath := filepath.Join(scratch, archiveDB)
	info, err := store.InspectFile(ctx, dbPath)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	if info.Integrity != "ok" {
		return nil, fmt.Errorf("restore: the backup's database fails SQLite's integrity check: %s", info.Integrity)
	}
	if info.SchemaVersion != m.SchemaVersion {
		return nil, fmt.Errorf("restore: the database has schema %d but the manifest says %d", info.SchemaVersion, m.SchemaVersion)
	}
	for table, want := range m.Counts {
		if n := info.Counts[table]; n != want {
			return nil, fmt.Errorf("restore: table %s has %d rows but the manifest says %d", table, n, want)
		}
	}

	// Verified: bring the schema up to this binary's and build the index, still in scratch.
	st, err := store.Open(ctx, dbPath)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	res := &RestoreResult{Manifest: m, Files: len(m.Files)}
	err = func() error {
		if res.SchemaVersion, err = st.Version(ctx); err != nil {
			return err
		}
		return search.Rebuild(ctx, filepath.Join(scratch, "index"), st)
	}()
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	after, err := store.InspectFile(ctx, dbPath)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	res.Counts = after.Counts
	if err := os.MkdirAll(filepath.Join(scratch, "uploads"), 0o750); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}

	// A server may have started on the target while we worked: look again right before the swap.
	if indexInUse(filepath.Join(target, "index")) {
		return nil, ErrTargetInUse
	}
	if res.Replaced, err = swapIn(scratch, target, now()); err != nil {
		return nil, err
	}
	keep = true
	syncDir(filepath.Dir(target))
	return res, nil
}

// RestoreFile restores the backup at path into dataDir (see Restore).
func RestoreFile(ctx context.Context, path, dataDir string, opt RestoreOptions) (*RestoreResult, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	defer f.Close()
	return Restore(ctx, f, dataDir, opt)
}

// unpack reads the archive into dir, hashing every file on the way, and answers the manifest
// and what was found. Only regular files with names a backup can hold are accepted: links,
// devices, absolute paths and ".." are refused, not skipped, because a backup never has them.
func unpack(ctx context.Context, r io.Reader, dir string) (*Manifest, map[string]ManifestFile, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, nil, fmt.Errorf("restore: not a kardan backup (gzip): %w", err)
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	got := map[string]ManifestFile{}
	var m *Manifest
	for {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("restore: damaged archive: %w", err)
		}
		name := hdr.Name
		if hdr.Typeflag == tar.TypeDir {
			// Backups hold no directory entries, but tar tools add them when an operator
			// re-packs one; under uploads/ they are harmless, as files make their own.
			if d := strings.TrimSuffix(name, "/"); d != "uploads" && !validArchiveName(d) {
				return nil, nil, fmt.Errorf("restore: archive entry %q is not part of a kardan backup", name)
			}
			continue
		}
		if hdr.Typeflag != tar.TypeReg {
			return nil, nil, fmt.Errorf("restore: archive entry %q is a link or special file: refused", name)
		}
		if !validArchiveName(name) {
			return nil, nil, fmt.Errorf("restore: archive entry %q is not part of a kardan backup", name)
		}
		if _, dup := got[name]; dup || (name == archiveManifest && m != nil) {
			return nil, nil, fmt.Errorf("restore: archive entry %q appears twice", name)
		}
		if len(got) >= maxArchiveFiles {
			return nil, nil, fmt.Errorf("restore: more than %d files in the archive", maxArchiveFiles)
		}
		if name == archiveManifest {
			body, err := io.ReadAll(io.LimitReader(tr, maxManifestBytes+1))
			if err != nil {
				return nil, nil, fmt.Errorf("restore: read manifest: %w", err)
			}
			if len(body) > maxManifestBytes {
				return nil, nil, fmt.Errorf("restore: manifest larger than %d bytes", maxManifestBytes)
			}
			m = &Manifest{}
			if err := json.Unmarshal(body, m); err != nil {
				return nil, nil, fmt.Errorf("restore: read manifest: %w", err)
			}
			continue
		}
		f, err := extract(tr, dir, name)
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) {
			return nil, nil, fmt.Errorf("restore: damaged or truncated archive at %s: %w", name, err)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("restore: %s: %w", name, err)
		}
		got[name] = f
	}
	if m == nil {
		return nil, nil, errors.New("restore: the archive has no manifest.json: not a kardan backup")
	}
	return m, got, nil
}

// extract writes one entry to dir/name (name already validated) and answers its size and hash.
func extract(r io.Reader, dir, name string) (ManifestFile, error) {
	dest := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(dest), 0o750); err != nil {
		return ManifestFile{}, err
	}
	// O_EXCL: a name that somehow exists already (a link planted by a racing process) is never
	// followed or overwritten.
	f, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
	if err != nil {
		return ManifestFile{}, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return ManifestFile{}, err
	}
	return ManifestFile{Path: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// verify checks what was unpacked against the manifest: the format is known, the schema is not
// newer than this binary, and the files are exactly the manifest's, byte for byte.
func (m *Manifest) verify(got map[string]ManifestFile) error {
	if m.Format < 1 || m.Format > BackupFormat {
		return fmt.Errorf("restore: backup format %d is not known to this kardan (it knows up to %d): use a newer kardan", m.Format, BackupFormat)
	}
	if bin := store.SchemaVersion(); m.SchemaVersion > bin {
		return fmt.Errorf("restore: the backup has schema version %d but this kardan knows only %d: use a newer kardan", m.SchemaVersion, bin)
	}
	if m.SchemaVersion < 1 {
		return fmt.Errorf("restore: the manifest has no schema version")
	}
	listed := map[string]bool{}
	for _, f := range m.Files {
		if !validArchiveName(f.Path) || f.Path == archiveManifest {
			return fmt.Errorf("restore: the manifest lists %q, which a backup cannot hold", f.Path)
		}
		if listed[f.Path] {
			return fmt.Errorf("restore: the manifest lists %q twice", f.Path)
		}
		listed[f.Path] = true
		g, ok := got[f.Path]
		switch {
		case !ok:
			return fmt.Errorf("restore: %s is in the manifest but not in the archive", f.Path)
		case g.Size != f.Size:
			return fmt.Errorf("restore: %s has %d bytes but the manifest says %d", f.Path, g.Size, f.Size)
		case !strings.EqualFold(g.SHA256, f.SHA256):
			return fmt.Errorf("restore: %s fails its checksum (SHA-256 %s, manifest %s)", f.Path, g.SHA256, f.SHA256)
		}
	}
	for name := range got {
		if !listed[name] {
			return fmt.Errorf("restore: %s is in the archive but not in the manifest", name)
		}
	}
	if !listed[archiveDB] {
		return errors.New("restore: the backup has no kardan.db")
	}
	return nil
}

// swapIn puts scratch in target's place. A target holding data is moved aside to
// <target>.before-restore-<time> (answered) rather than deleted, so a mistaken restore can be
// undone; its backups/ directory moves into the restored directory, as backups are not data the
// restore replaces.
func swapIn(scratch, target string, now time.Time) (string, error) {
	fi, err := os.Lstat(target)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(scratch, target); err != nil {
			return "", fmt.Errorf("restore: %w", err)
		}
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("restore: %w", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("restore: %s is not a directory", target)
	}
	if empty, _ := dirEmpty(target); empty {
		if err := os.Remove(target); err != nil {
			return "", fmt.Errorf("restore: %w", err)
		}
		if err := os.Rename(scratch, target); err != nil {
			return "", fmt.Errorf("restore: %w", err)
		}
		return "", nil
	}
	aside := target + ".before-restore-" + now.UTC().Format("20060102T150405Z")
	backups := filepath.Join(target, "backups")
	if _, err := os.Stat(backups); err == nil {
		if err := os.Rename(backups, filepath.Join(scratch, "backups")); err != nil {
			return "", fmt.Errorf("restore: keep backups: %w", err)
		}
	}
	if err := os.Rename(target, aside); err != nil {
		return "", fmt.Errorf("restore: move the old data aside: %w", err)
	}
	if err := os.Rename(scratch, target); err != nil {
		// Put the old data back rather than leave no data directory at all.
		if rerr := os.Rename(aside, target); rerr != nil {
			slog.Error("restore: could not put the old data back", "from", aside, "err", rerr)
		}
		return "", fmt.Errorf("restore: %w", err)
	}
	return aside, nil
}

// dirEmpty reports whether dir is missing or has no entries.
func dirEmpty(dir string) (bool, error) {
	f, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	names, err := f.Readdirnames(1)
	if errors.Is(err, io.EOF) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return len(names) == 0, nil
}

// indexInUse reports whether a running server holds the search index in dir. The index's lock
// is the one thing a server holds for its whole life, so it is the test for "serve is running
// here"; SQLite in WAL mode takes no lock a second process would notice.
func indexInUse(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "index_meta.json")); err != nil {
		return false
	}
	idx, err := bleve.OpenUsing(dir, map[string]interface{}{"bolt_timeout": "1s", "spatialPlugin": "s2"})
	if err != nil {
		return strings.Contains(err.Error(), "timeout")
	}
	idx.Close()
	return false
}

// syncDir makes renames in dir durable; failing to is not worth failing a finished restore.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
