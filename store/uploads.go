package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"
)

// Upload keys: what an image is for (SPEC.md §7, uploadKey).
const (
	UploadUser          = "user"
	UploadUserTechnical = "userTechnical"
	// UploadComment is a photo for a review (at most three per review).
	UploadComment = "comment"
)

// Upload is a processed image a user uploaded. Address and Thumb are public paths
// (/uploads/ab/<sha256>.jpg); SHA256 is the hash of the stored image, which names it.
type Upload struct {
	ID        int64
	UserID    int64
	UploadKey string
	Address   string
	Thumb     string
	SHA256    string
	Mime      string
	Width     int
	Height    int
	Size      int64
	CreateAt  int64
}

// RecordUpload records that u.UserID uploaded the image; the same user uploading the same image
// again keeps the one row, dated anew: the purge spares uploads younger than its grace, and a
// re-upload kept at its first date would be purged while someone is using it.
func (s *Store) RecordUpload(ctx context.Context, u *Upload) error {
	u.CreateAt = s.now()
	err := s.tx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO uploads (user_id, upload_key, address, thumb, sha256, mime, width, height, size, create_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (user_id, address) DO UPDATE SET upload_key = excluded.upload_key, create_at = excluded.create_at
			RETURNING id, create_at`,
			u.UserID, u.UploadKey, u.Address, u.Thumb, u.SHA256, u.Mime, u.Width, u.Height, u.Size, u.CreateAt).Scan(&u.ID, &u.CreateAt)
	})
	if err != nil {
		return fmt.Errorf("record upload: %w", err)
	}
	return nil
}

// UploadRecorded reports whether a row of uploads or lead_uploads names the image at address
// (its public path): the purge checks it just before deleting a forgotten image's files, so an
// image uploaded again meanwhile keeps them, and so does a lead's upload that failed to record
// an image someone else's row holds.
func (s *Store) UploadRecorded(ctx context.Context, address string) (bool, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM uploads WHERE address = ?1)
		+ (SELECT COUNT(*) FROM lead_uploads WHERE address = ?1)`, address).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("upload recorded %s: %w", address, err)
	}
	return n > 0, nil
}

// UploadOwnedBy reports whether user id uploaded the image at address (its public path, its
// thumbnail's, or a full URL ending in either), so a profile or account can only show images
// its owner uploaded.
func (s *Store) UploadOwnedBy(ctx context.Context, userID int64, address string) (bool, error) {
	a := uploadPath(address)
	if a == "" {
		return false, nil
	}
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM uploads WHERE user_id = ?1 AND (address = ?2 OR thumb = ?2)`,
		userID, a).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("upload owned by %d: %w", userID, err)
	}
	return n > 0, nil
}

// UploadPath reduces an address to the stored public path, /uploads/..., dropping any scheme,
// host, query or fragment around it.
func UploadPath(address string) string { return uploadPath(address) }

// uploadPath reduces an address to the stored public path: /uploads/...
func uploadPath(address string) string {
	a := strings.TrimSpace(address)
	if strings.ContainsAny(a, ":?#") {
		u, err := url.Parse(a)
		if err != nil {
			return ""
		}
		a = u.Path
	}
	if !strings.HasPrefix(a, "/") {
		a = "/" + a
	}
	return a
}
