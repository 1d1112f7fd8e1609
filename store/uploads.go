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
// again keeps the one row.
func (s *Store) RecordUpload(ctx context.Context, u *Upload) error {
	u.CreateAt = s.now()
	err := s.tx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO uploads (user_id, upload_key, address, thumb, sha256, mime, width, height, size, create_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (user_id, address) DO UPDATE SET upload_key = excluded.upload_key
			RETURNING id, create_at`,
			u.UserID, u.UploadKey, u.Address, u.Thumb, u.SHA256, u.Mime, u.Width, u.Height, u.Size, u.CreateAt).Scan(&u.ID, &u.CreateAt)
	})
	if err != nil {
		return fmt.Errorf("record upload: %w", err)
	}
	return nil
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

// StaleUpload is a stored image no profile, account, review, request or blog uses any more.
type StaleUpload struct {
	Address, Thumb string
}

// StaleUploads answers up to limit stored images, uploaded before the cutoff (Unix seconds),
// that no profile (picture, logo, portfolio), account picture, review (its photos, shown or
// hidden), request for a price (signed in or out), blog (cover or content) or edit waiting for
// moderation uses, and forgets them in the same transaction; the caller then deletes their
// files. The cutoff leaves a new upload time to be saved into the form it was made for.
//
// Every column that may hold an upload's path must be named here, or the purge deletes a file
// that is still shown (migrations: grep for the columns holding /uploads/ paths).
func (s *Store) StaleUploads(ctx context.Context, before int64, limit int) ([]StaleUpload, error) {
	var out []StaleUpload
	err := s.tx(ctx, func(tx *sql.Tx) error {
		// A signed-out visitor's request photos (lead_uploads) are stored images like the
		// others: the same file may be in both tables, so a newer row in either keeps it.
		// An image without a thumbnail has thumb '', which every empty column equals and every
		// text contains (instr(x, '') is 1): matching it would keep the image for ever.
		// A review's photos are stored paths (commentImages), read once per statement: most
		// reviews have none, and scanning every review for each old upload would not scale.
		rows, err := tx.QueryContext(ctx, `SELECT DISTINCT u.address, u.thumb FROM (SELECT address, thumb, create_at FROM uploads
			UNION ALL SELECT address, thumb, create_at FROM lead_uploads) u
			WHERE u.create_at < ?1
			  AND NOT EXISTS (SELECT 1 FROM uploads v WHERE v.address = u.address AND v.create_at >= ?1)
			  AND NOT EXISTS (SELECT 1 FROM lead_uploads v WHERE v.address = u.address AND v.create_at >= ?1)
			  AND NOT EXISTS (SELECT 1 FROM profiles p WHERE p.profile_image = u.address OR p.logo = u.address
			      OR (u.thumb <> '' AND (p.profile_image = u.thumb OR p.logo = u.thumb))
			      OR EXISTS (SELECT 1 FROM json_each(p.portfolio_images) j WHERE j.value IN (u.address, u.thumb)))
			  AND NOT EXISTS (SELECT 1 FROM users w WHERE w.profile_image = u.address OR (u.thumb <> '' AND w.profile_image = u.thumb))
			  AND u.address NOT IN (SELECT j.value FROM comments c, json_each(c.images) j WHERE c.images <> '[]')
			  AND (u.thumb = '' OR u.thumb NOT IN (SELECT j.value FROM comments c, json_each(c.images) j WHERE c.images <> '[]'))
			  AND NOT EXISTS (SELECT 1 FROM leads l, json_each(l.photos) j WHERE j.value IN (u.address, u.thumb))
			  AND NOT EXISTS (SELECT 1 FROM profile_edits e WHERE instr(e.input, u.address) > 0 OR (u.thumb <> '' AND instr(e.input, u.thumb) > 0))
			  AND NOT EXISTS (SELECT 1 FROM blog_edits e WHERE instr(e.edit, u.address) > 0 OR (u.thumb <> '' AND instr(e.edit, u.thumb) > 0))
			  AND NOT EXISTS (SELECT 1 FROM blogs b WHERE b.image_url = u.address OR (u.thumb <> '' AND b.image_url = u.thumb)
			      OR instr(b.content, u.address) > 0 OR (u.thumb <> '' AND instr(b.content, u.thumb) > 0))
			LIMIT ?2`, before, limit)
		if err != nil {
			return err
		}
		for rows.Next() {
			var su StaleUpload
			if err := rows.Scan(&su.Address, &su.Thumb); err != nil {
				rows.Close()
				return err
			}
			out = append(out, su)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, su := range out {
			for _, q := range []string{`DELETE FROM uploads WHERE address = ?`, `DELETE FROM lead_uploads WHERE address = ?`} {
				if _, err := tx.ExecContext(ctx, q, su.Address); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("stale uploads: %w", err)
	}
	return out, nil
}
