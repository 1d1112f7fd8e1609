package admin

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"

	"kardan/media"
)

// WalkStorage is a storage that can list what it holds.
type WalkStorage interface {
	media.Storage
	Walk(ctx context.Context, fn func(key string, size int64) error) error
}

// statStorage answers an object's size and ETag without reading it (a bucket).
type statStorage interface {
	Stat(ctx context.Context, key string) (size int64, etag string, err error)
}

// ImageReport says what a migration did with the images.
type ImageReport struct {
	Files   int   // images in the source
	Bytes   int64 // their size
	Copied  int   // put into the target
	Skipped int   // already in the target with the same content
	// Unreferenced is how many images no uploads row names (purge would remove them anyway);
	// MissingInSource how many the database names that the source itself lacks.
	Unreferenced, MissingInSource int
}

// imageWorkers is how many images are copied at once: a bucket is latency-bound.
const imageWorkers = 8

// CopyImages copies every image of src into dst and verifies each one there: by size and ETag
// when the target answers an MD5 ETag, else by reading it back and comparing SHA-256. Images the
// target already holds with the same content are skipped, so an interrupted copy resumes.
// snapshot, when set, is the database copy whose uploads rows are checked against the images.
func CopyImages(ctx context.Context, src WalkStorage, dst media.Storage, snapshot string) (ImageReport, error) {
	var rep ImageReport
	var keys []string
	sizes := map[string]int64{}
	if err := src.Walk(ctx, func(key string, size int64) error {
		keys = append(keys, key)
		sizes[key] = size
		rep.Bytes += size
		return nil
	}); err != nil {
		return rep, fmt.Errorf("list images: %w", err)
	}
	rep.Files = len(keys)
	if snapshot != "" {
		refs, err := referencedImages(ctx, snapshot)
		if err != nil {
			return rep, err
		}
		for k := range refs {
			if _, ok := sizes[k]; !ok {
				rep.MissingInSource++
			}
		}
		for _, k := range keys {
			if !refs[k] {
				rep.Unreferenced++
			}
		}
	}
	work := make(chan string)
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range imageWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for key := range work {
				copied, err := copyImage(ctx, src, dst, key, sizes[key])
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
					if len(errs) >= 10 {
						cancel()
					}
				} else if copied {
					rep.Copied++
				} else {
					rep.Skipped++
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, k := range keys {
		select {
		case work <- k:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	if len(errs) > 0 {
		return rep, fmt.Errorf("images: %d failed, first: %w", len(errs), errs[0])
	}
	return rep, ctx.Err()
}

// copyImage puts one image into dst unless it is there already, then verifies it. It answers
// whether it copied.
func copyImage(ctx context.Context, src, dst media.Storage, key string, size int64) (bool, error) {
	f, err := src.Open(ctx, key)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", key, err)
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return false, fmt.Errorf("read %s: %w", key, err)
	}
	if int64(len(data)) != size {
		return false, fmt.Errorf("read %s: %d bytes, listed as %d", key, len(data), size)
	}
	sum := md5.Sum(data)
	md5hex := hex.EncodeToString(sum[:])
	there, err := sameImage(ctx, dst, key, data, md5hex)
	if err != nil {
		return false, err
	}
	if there {
		return false, nil
	}
	if err := dst.Put(ctx, key, bytes.NewReader(data)); err != nil {
		return false, fmt.Errorf("put %s: %w", key, err)
	}
	ok, err := sameImage(ctx, dst, key, data, md5hex)
	if err != nil {
		return false, err
	}
	if !ok {
		return false, fmt.Errorf("verify %s: the target's copy differs from the source (an object of that name with other bytes was there before: remove it and run again)", key)
	}
	return true, nil
}

// sameImage tells whether dst holds exactly data under key.
func sameImage(ctx context.Context, dst media.Storage, key string, data []byte, md5hex string) (bool, error) {
	if st, ok := dst.(statStorage); ok {
		size, etag, err := st.Stat(ctx, key)
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if size != int64(len(data)) {
			return false, nil
		}
		if strings.EqualFold(etag, md5hex) {
			return true, nil
		}
		// Not a plain MD5 ETag (multipart, encryption): read it back.
	}
	f, err := dst.Open(ctx, key)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("verify %s: %w", key, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, fmt.Errorf("verify %s: %w", key, err)
	}
	want := sha256.Sum256(data)
	return bytes.Equal(h.Sum(nil), want[:]), nil
}

// referencedImages answers the storage keys the database's uploads rows name.
func referencedImages(ctx context.Context, snapshot string) (map[string]bool, error) {
	db, err := openSnapshot(snapshot)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT address, thumb FROM uploads`)
	if err != nil {
		return nil, fmt.Errorf("referenced images: %w", err)
	}
	defer rows.Close()
	refs := map[string]bool{}
	for rows.Next() {
		var a, t sql.NullString
		if err := rows.Scan(&a, &t); err != nil {
			return nil, err
		}
		for _, s := range []sql.NullString{a, t} {
			if k, ok := strings.CutPrefix(s.String, "/uploads/"); ok && k != "" {
				refs[k] = true
			}
		}
	}
	return refs, rows.Err()
}
