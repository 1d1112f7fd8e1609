package admin

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"kardan/media"
	"kardan/store"
)

// PurgeReport says what a purge removed.
type PurgeReport struct {
	Profiles int // profiles deleted more than the retention ago
	Images   int // image files no longer used by anything
}

// uploadGrace is how long a new upload may stay unused before a purge removes it: long enough
// for a professional to finish the form the picture was uploaded for.
const uploadGrace = 7 * 24 * time.Hour

// purgeBatch is how many unused uploads one write transaction forgets.
const purgeBatch = 500

// Purge removes profiles deleted more than store.RetentionDays ago, then every stored image
// that nothing uses any more (theirs included), from the database first and then from storage.
// A crash between the two leaves only unreferenced files, never a reference to a missing one.
func Purge(ctx context.Context, st *store.Store, storage media.Storage) (PurgeReport, error) {
	var rep PurgeReport
	n, _, err := st.PurgeDeletedProfiles(ctx)
	if err != nil {
		return rep, err
	}
	rep.Profiles = n
	// One scan of every table from the read pool, then short write transactions of a few
	// hundred uploads each: API writes wait for one batch at most, never for the whole purge.
	started := time.Now()
	scan, err := st.ScanStaleUploads(ctx, st.Now().Add(-uploadGrace).Unix())
	if err != nil {
		return rep, err
	}
	scanned := time.Since(started)
	var held time.Duration
	for scan.Remaining() > 0 {
		t := time.Now()
		stale, err := st.ForgetStaleUploads(ctx, scan, purgeBatch)
		held += time.Since(t)
		if err != nil {
			return rep, err
		}
		for _, su := range stale {
			n, err := deleteStale(ctx, st, storage, su)
			rep.Images += n
			if err != nil {
				return rep, err
			}
		}
	}
	slog.Debug("purge of unused uploads", "scan", scanned, "writer", held, "total", time.Since(started))
	if rep.Profiles > 0 || rep.Images > 0 {
		slog.Info("purged", "profiles", rep.Profiles, "images", rep.Images)
	}
	return rep, nil
}

// deleteStale deletes the files of a forgotten upload, answering how many went, unless a row
// of uploads or lead_uploads names its address again: someone uploaded the same image after
// the batch was forgotten, and the file is theirs now.
func deleteStale(ctx context.Context, st *store.Store, storage media.Storage, su store.StaleUpload) (int, error) {
	if storage == nil {
		return 0, nil
	}
	if back, err := st.UploadRecorded(ctx, su.Address); err != nil || back {
		return 0, err
	}
	n := 0
	for _, addr := range []string{su.Address, su.Thumb} {
		key, ok := strings.CutPrefix(addr, "/uploads/")
		if !ok || key == "" {
			continue
		}
		if err := storage.Delete(ctx, key); err != nil {
			return n, fmt.Errorf("purge image %s: %w", key, err)
		}
		n++
	}
	return n, nil
}
