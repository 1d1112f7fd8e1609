package admin_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"kardan/admin"
	"kardan/search"
	"kardan/store"
	"kardan/store/storetest"
)

// dataDir is a data directory with reference data, demo profiles and a few upload files, laid out
// as serve lays it out.
type dataDir struct {
	Dir string
	St  *store.Store
}

func (d *dataDir) uploads() string { return filepath.Join(d.Dir, "uploads") }

func newDataDir(t testing.TB, profiles int) *dataDir {
	t.Helper()
	st := storetest.Seeded(t)
	dir := storetest.Dir(st)
	storetest.Demo(t, st, profiles, 7)
	for name, body := range map[string]string{
		"ab/ab01.jpg":     "not really a jpeg, but a backup copies bytes",
		"ab/ab01-400.jpg": "thumbnail",
		"cd/cd02.png":     strings.Repeat("png", 1000),
		"cd/.upload-123":  "a half-written temporary file that must not be archived",
	} {
		p := filepath.Join(dir, "uploads", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A symbolic link inside uploads/ must not be followed into the rest of the disk.
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "uploads", "ab", "evil.jpg")); err != nil {
		t.Fatal(err)
	}
	return &dataDir{Dir: dir, St: st}
}

func mustBackup(t testing.TB, d *dataDir) ([]byte, *admin.Manifest) {
	t.Helper()
	var buf bytes.Buffer
	m, err := admin.Backup(context.Background(), d.St, &buf, admin.BackupOptions{UploadsDir: d.uploads(), Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), m
}

// entries lists an archive's entries in order, with their bodies.
type entry struct {
	hdr  tar.Header
	body []byte
}

func readArchive(t testing.TB, b []byte) []entry {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var out []entry
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(tr)
		out = append(out, entry{hdr: *h, body: body})
	}
}

func writeArchive(t testing.TB, es []entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range es {
		h := e.hdr
		if h.Typeflag == tar.TypeReg {
			h.Size = int64(len(e.body))
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if len(e.body) > 0 {
			if _, err := tw.Write(e.body); err != nil {
				t.Fatal(err)
			}
		}
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

func TestBackupArchive(t *testing.T) {
	d := newDataDir(t, 40)
	b, m := mustBackup(t, d)
	es := readArchive(t, b)

	if m.Format != admin.BackupFormat || m.SchemaVersion != store.SchemaVersion() || m.KardanVersion != "test" {
		t.Errorf("manifest header: got %+v", m)
	}
	if m.Counts["profiles"] != 40 || m.Counts["provinces"] != 31 || m.Counts["users"] < 40 {
		t.Errorf("counts: got %v", m.Counts)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.hdr.Name)
	}
	want := []string{"kardan.db", "uploads/ab/ab01-400.jpg", "uploads/ab/ab01.jpg", "uploads/cd/cd02.png", "manifest.json"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("entries: got %v, want %v (no temporary file, no symlink, manifest last)", names, want)
	}
	var onDisk admin.Manifest
	if err := json.Unmarshal(es[len(es)-1].body, &onDisk); err != nil {
		t.Fatal(err)
	}
	if len(onDisk.Files) != 4 {
		t.Fatalf("manifest files: got %d, want 4", len(onDisk.Files))
	}
	for i, f := range onDisk.Files {
		sum := sha256.Sum256(es[i].body)
		if f.Path != es[i].hdr.Name || f.SHA256 != hex.EncodeToString(sum[:]) || f.Size != int64(len(es[i].body)) {
			t.Errorf("manifest entry %d: got %+v, want the archived file's name, size and hash", i, f)
		}
	}
}

func TestBackupToFileAndRotate(t *testing.T) {
	d := newDataDir(t, 5)
	dir := filepath.Join(d.Dir, "backups")
	base := time.Date(2025, 3, 1, 2, 0, 0, 0, time.UTC)
	for i := 0; i < 4; i++ {
		dest := filepath.Join(dir, admin.BackupName(base.Add(time.Duration(i)*24*time.Hour)))
		_, size, err := admin.BackupToFile(context.Background(), d.St, dest, admin.BackupOptions{UploadsDir: d.uploads()})
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(dest)
		if err != nil || fi.Size() != size || fi.Mode().Perm() != 0o600 {
			t.Fatalf("backup file: %v %v, want %d bytes, mode 0600", fi, err, size)
		}
	}
	other := filepath.Join(dir, "notes.txt")
	os.WriteFile(other, []byte("the operator's"), 0o644)

	removed, err := admin.RotateBackups(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"kardan-20250301T020000Z.tar.gz", "kardan-20250302T020000Z.tar.gz"}; !reflect.DeepEqual(removed, want) {
		t.Fatalf("rotated: got %v, want %v", removed, want)
	}
	left, _ := os.ReadDir(dir)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	if want := []string{"kardan-20250303T020000Z.tar.gz", "kardan-20250304T020000Z.tar.gz", "notes.txt"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("left: got %v, want %v (no partial files, other files untouched)", names, want)
	}
	if _, err := admin.RotateBackups(dir, 0); err == nil {
		t.Error("keep 0 was accepted")
	}
}

func TestRestoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	d := newDataDir(t, 60)
	b, m := mustBackup(t, d)
	// Later writes to the source must not be in the backup.
	if _, err := admin.SeedDemo(ctx, d.St, admin.DemoOptions{Profiles: 3, PasswordHash: "x", Seed: 9}); err != nil {
		t.Fatal(err)
	}

	target := filepath.Join(t.TempDir(), "restored")
	res, err := admin.Restore(ctx, bytes.NewReader(b), target, admin.RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Counts, m.Counts) {
		t.Errorf("counts: got %v, want %v", res.Counts, m.Counts)
	}
	if res.Files != 4 || res.SchemaVersion != store.SchemaVersion() || res.Replaced != "" {
		t.Errorf("result: got %+v", res)
	}
	for _, name := range []string{"uploads/ab/ab01.jpg", "uploads/cd/cd02.png", "kardan.db", "index/index_meta.json"} {
		if _, err := os.Stat(filepath.Join(target, name)); err != nil {
			t.Errorf("restored %s: %v", name, err)
		}
	}
	got, _ := os.ReadFile(filepath.Join(target, "uploads/cd/cd02.png"))
	if string(got) != strings.Repeat("png", 1000) {
		t.Error("an upload changed in the round trip")
	}
	left, _ := os.ReadDir(filepath.Dir(target))
	if len(left) != 1 {
		t.Errorf("scratch directories left beside the target: %v", left)
	}

	// The restored index answers like the source's would: the same visible profiles.
	st, err := store.Open(ctx, filepath.Join(target, "kardan.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ix, err := search.Open(ctx, filepath.Join(target, "index"), st)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	n, err := ix.DocCount()
	if err != nil || n != 60 {
		t.Fatalf("restored index holds %d documents (%v), want 60", n, err)
	}
}

func TestRestoreReplacesWithForce(t *testing.T) {
	ctx := context.Background()
	d := newDataDir(t, 5)
	b, _ := mustBackup(t, d)
	target := filepath.Join(t.TempDir(), "data")
	os.MkdirAll(filepath.Join(target, "backups"), 0o750)
	os.WriteFile(filepath.Join(target, "kardan.db"), []byte("the old database"), 0o600)
	os.WriteFile(filepath.Join(target, "backups", "kardan-20240101T000000Z.tar.gz"), []byte("an old backup"), 0o600)

	if _, err := admin.Restore(ctx, bytes.NewReader(b), target, admin.RestoreOptions{}); !errors.Is(err, admin.ErrTargetNotEmpty) {
		t.Fatalf("without --force: got %v, want ErrTargetNotEmpty", err)
	}
	if got, _ := os.ReadFile(filepath.Join(target, "kardan.db")); string(got) != "the old database" {
		t.Fatal("a refused restore changed the target")
	}
	now := time.Date(2025, 5, 6, 7, 8, 9, 0, time.UTC)
	res, err := admin.Restore(ctx, bytes.NewReader(b), target, admin.RestoreOptions{Force: true, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	if want := target + ".before-restore-20250506T070809Z"; res.Replaced != want {
		t.Fatalf("replaced: got %q, want %q", res.Replaced, want)
	}
	if got, _ := os.ReadFile(filepath.Join(res.Replaced, "kardan.db")); string(got) != "the old database" {
		t.Error("the old data was not kept aside")
	}
	if got, _ := os.ReadFile(filepath.Join(target, "backups", "kardan-20240101T000000Z.tar.gz")); string(got) != "an old backup" {
		t.Error("the backups did not move into the restored directory")
	}
	if info, err := store.InspectFile(ctx, filepath.Join(target, "kardan.db")); err != nil || info.Counts["profiles"] != 5 {
		t.Errorf("restored database: %+v %v", info, err)
	}

	// An empty target directory needs no --force.
	empty := filepath.Join(t.TempDir(), "empty")
	os.Mkdir(empty, 0o750)
	if _, err := admin.Restore(ctx, bytes.NewReader(b), empty, admin.RestoreOptions{}); err != nil {
		t.Fatalf("empty target: %v", err)
	}
}

func TestRestoreRefusesWhileServing(t *testing.T) {
	ctx := context.Background()
	d := newDataDir(t, 3)
	b, _ := mustBackup(t, d)
	// A running server holds its index open, as search.Open does here.
	ix, err := search.Open(ctx, filepath.Join(d.Dir, "index"), d.St)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	_, err = admin.Restore(ctx, bytes.NewReader(b), d.Dir, admin.RestoreOptions{Force: true})
	if !errors.Is(err, admin.ErrTargetInUse) {
		t.Fatalf("got %v, want ErrTargetInUse", err)
	}
}

// TestRestoreRefusesBadArchives checks that each kind of damaged or hostile archive is refused
// and that a refused restore writes nothing: the target stays as it was and no scratch
// directory is left.
func TestRestoreRefusesBadArchives(t *testing.T) {
	d := newDataDir(t, 5)
	good, _ := mustBackup(t, d)
	es := readArchive(t, good)
	manifestOf := func(es []entry) *admin.Manifest {
		var m admin.Manifest
		json.Unmarshal(es[len(es)-1].body, &m)
		return &m
	}
	withManifest := func(es []entry, m *admin.Manifest) []entry {
		b, _ := json.Marshal(m)
		out := append([]entry(nil), es...)
		out[len(out)-1] = entry{hdr: out[len(out)-1].hdr, body: b}
		return out
	}
	clone := func() []entry {
		out := make([]entry, len(es))
		for i, e := range es {
			out[i] = entry{hdr: e.hdr, body: append([]byte(nil), e.body...)}
		}
		return out
	}
	reg := func(name, body string) entry {
		return entry{hdr: tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644}, body: []byte(body)}
	}
	insert := func(e entry) []entry {
		c := clone()
		return append(c[:len(c)-1:len(c)-1], e, c[len(c)-1])
	}

	cases := []struct {
		name    string
		archive func() []byte
		want    string
	}{
		{"NotGzip", func() []byte { return []byte("hello") }, "gzip"},
		{"Truncated", func() []byte { return good[:len(good)/2] }, "damaged"},
		{"NoManifest", func() []byte { c := clone(); return writeArchive(t, c[:len(c)-1]) }, "no manifest"},
		{"UploadTampered", func() []byte { c := clone(); c[1].body[0] ^= 1; return writeArchive(t, c) }, "checksum"},
		{"DatabaseTampered", func() []byte { c := clone(); c[0].body[200] ^= 0xff; return writeArchive(t, c) }, "checksum"},
		{"FileMissing", func() []byte { c := clone(); return writeArchive(t, append(c[:1:1], c[2:]...)) }, "not in the archive"},
		{"FileNotInManifest", func() []byte { return writeArchive(t, insert(reg("uploads/zz/extra.jpg", "x"))) }, "not in the manifest"},
		{"PathTraversal", func() []byte { return writeArchive(t, insert(reg("uploads/../../evil", "x"))) }, "not part of a kardan backup"},
		{"AbsolutePath", func() []byte { return writeArchive(t, insert(reg("/tmp/evil", "x"))) }, "not part of a kardan backup"},
		{"DotDot", func() []byte { return writeArchive(t, insert(reg("../evil", "x"))) }, "not part of a kardan backup"},
		{"OutsideUploads", func() []byte { return writeArchive(t, insert(reg("index/evil", "x"))) }, "not part of a kardan backup"},
		{"Symlink", func() []byte {
			return writeArchive(t, insert(entry{hdr: tar.Header{Name: "uploads/ab/link.jpg", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}}))
		}, "link"},
		{"Hardlink", func() []byte {
			return writeArchive(t, insert(entry{hdr: tar.Header{Name: "uploads/ab/hard.jpg", Typeflag: tar.TypeLink, Linkname: "kardan.db"}}))
		}, "link"},
		{"Duplicate", func() []byte { c := clone(); return writeArchive(t, insert(c[1])) }, "twice"},
		{"NewerSchema", func() []byte {
			m := manifestOf(es)
			m.SchemaVersion = store.SchemaVersion() + 1
			return writeArchive(t, withManifest(clone(), m))
		}, "newer kardan"},
		{"NewerFormat", func() []byte {
			m := manifestOf(es)
			m.Format = admin.BackupFormat + 1
			return writeArchive(t, withManifest(clone(), m))
		}, "format"},
		{"CountsDisagree", func() []byte {
			m := manifestOf(es)
			m.Counts["profiles"]++
			return writeArchive(t, withManifest(clone(), m))
		}, "rows"},
		{"ManifestListsTraversal", func() []byte {
			m := manifestOf(es)
			m.Files = append(m.Files, admin.ManifestFile{Path: "uploads/../x"})
			return writeArchive(t, withManifest(clone(), m))
		}, "cannot hold"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parent := t.TempDir()
			target := filepath.Join(parent, "data")
			os.Mkdir(target, 0o750)
			os.WriteFile(filepath.Join(target, "kardan.db"), []byte("keep me"), 0o600)
			_, err := admin.Restore(context.Background(), bytes.NewReader(c.archive()), target, admin.RestoreOptions{Force: true})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error about %q", err, c.want)
			}
			if got, _ := os.ReadFile(filepath.Join(target, "kardan.db")); string(got) != "keep me" {
				t.Error("the target changed")
			}
			if left, _ := os.ReadDir(parent); len(left) != 1 {
				t.Errorf("left beside the target: %v", left)
			}
			if _, err := os.Stat(filepath.Join(parent, "evil")); err == nil {
				t.Error("a file was written outside the scratch directory")
			}
		})
	}
}
