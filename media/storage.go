// Package media is Kardan's image pipeline: it checks what an upload really is, bounds it before
// decoding, applies the EXIF orientation, drops every bit of metadata by re-encoding, makes the
// display and thumbnail variants, and stores them content-addressed behind a small Storage
// interface whose default is a local directory.
package media

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Storage keeps stored images by key ("ab/abcdef....jpg"). The local directory is the default;
// an S3-compatible bucket can implement the same three calls.
type Storage interface {
	// Put stores the content of r under key, atomically: readers see all of it or nothing.
	Put(ctx context.Context, key string, r io.Reader) error
	// Open answers the content under key; a missing key is fs.ErrNotExist.
	Open(ctx context.Context, key string) (io.ReadSeekCloser, error)
	// Delete removes key; a missing key is no error.
	Delete(ctx context.Context, key string) error
}

// ErrBadKey is a key that could escape the storage's root.
var ErrBadKey = errors.New("media: bad storage key")

// LocalDir stores images as files under a directory.
type LocalDir struct {
	root string
}

// NewLocalDir answers a LocalDir at root, creating the directory.
func NewLocalDir(root string) (*LocalDir, error) {
	if err := os.MkdirAll(root, 0o750); err != nil {
		return nil, fmt.Errorf("uploads directory: %w", err)
	}
	return &LocalDir{root: root}, nil
}

// Root is the directory.
func (d *LocalDir) Root() string { return d.root }

func (d *LocalDir) path(key string) (string, error) {
	if key == "" || strings.Contains(key, "\\") || path.Clean(key) != key || strings.HasPrefix(key, "/") ||
		key == ".." || strings.HasPrefix(key, "../") || !fs.ValidPath(key) {
		return "", ErrBadKey
	}
	return filepath.Join(d.root, filepath.FromSlash(key)), nil
}

// Put writes to a temporary file beside the target, syncs it and renames it into place, so a
// crash or a full disk never leaves a half-written image under a real name. Content-addressed
// keys make a second Put of the same key a no-op.
func (d *LocalDir) Put(ctx context.Context, key string, r io.Reader) error {
	p, err := d.path(key)
	if err != nil {
		return err
	}
	if _, err := os.Stat(p); err == nil {
		return nil
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	tmp, err := os.CreateTemp(dir, ".upload-*")
	if err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := io.Copy(tmp, r); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	done = true
	// The rename is durable once the directory entry is.
	if dh, err := os.Open(dir); err == nil {
		dh.Sync()
		dh.Close()
	}
	return nil
}

// Open opens the file under key.
func (d *LocalDir) Open(ctx context.Context, key string) (io.ReadSeekCloser, error) {
	p, err := d.path(key)
	if err != nil {
		return nil, fs.ErrNotExist
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fs.ErrNotExist
	}
	return f, nil
}

// Delete removes the file under key.
func (d *LocalDir) Delete(ctx context.Context, key string) error {
	p, err := d.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	return nil
}

// Walk calls fn with every stored key and its size, skipping the temporary files of a Put in
// progress. The order is the directory walk's (lexical).
func (d *LocalDir) Walk(ctx context.Context, fn func(key string, size int64) error) error {
	return filepath.WalkDir(d.root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			return nil
		}
		rel, err := filepath.Rel(d.root, p)
		if err != nil {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		return fn(filepath.ToSlash(rel), info.Size())
	})
}
