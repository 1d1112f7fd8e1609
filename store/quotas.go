package store

import (
	"context"
	"database/sql"
	"strconv"
	"time"
)

// Quotas cap what one account may create, per hour and in total (README "Limits"): without
// them one signed-in account filled the disk with drafts (12 MB in 2.4 s) and the moderation
// queue with profiles and one-star comments. Each is checked and counted inside the
// transaction that creates, so a burst cannot pass a cap the way check-then-record could.
type Quotas struct {
	BlogsPerHour int   // articles and drafts created per hour
	Blogs        int   // articles and drafts kept
	Drafts       int   // drafts kept
	BlogBytes    int64 // bytes of article text kept (drafts included)

	ProfilesPerHour int // profiles created per hour
	Profiles        int // profiles kept (deleted ones too, until purged)

	CommentsPerHour int // comments written per hour
	Comments        int // comments kept

	Saved int // businesses saved (the heart): far more than a person shortlists
}

// DefaultQuotas are generous for a real business and its writer, and small next to a flood.
var DefaultQuotas = Quotas{
	BlogsPerHour: 20, Blogs: 300, Drafts: 50, BlogBytes: 20 << 20,
	ProfilesPerHour: 10, Profiles: 50,
	CommentsPerHour: 30, Comments: 3000,
	Saved: 500,
}

// quotaHour counts one creation of kind by userID against the hourly cap in tx: refused with
// the key's 429 (and the wait) when the cap is used up. The event rolls back with tx, so a
// creation refused for any other reason does not count.
func (s *Store) quotaHour(ctx context.Context, tx *sql.Tx, kind string, userID int64, max int) error {
	l := Limit{Kind: "create_" + kind, Key: strconv.FormatInt(userID, 10), Max: max, Window: time.Hour}
	now := s.now()
	wait, err := rateWait(ctx, tx, now, l)
	if err != nil {
		return err
	}
	if wait > 0 {
		return &Error{Code: ETooMany, Key: "quota_hour_" + kind, Args: map[string]any{"max": max, "seconds": wait}}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO rate_events (kind, key, at) VALUES (?, ?, ?)`, l.Kind, l.Key, now)
	return err
}

// quotaTotal refuses with the key's 429 when the count query (one ? for userID) already holds
// max rows or more.
func quotaTotal(ctx context.Context, tx *sql.Tx, key, query string, userID int64, max int) error {
	var n int
	if err := tx.QueryRowContext(ctx, query, userID).Scan(&n); err != nil {
		return err
	}
	if n >= max {
		return &Error{Code: ETooMany, Key: key, Args: map[string]any{"max": max}}
	}
	return nil
}

// checkBlogQuota is CreateBlog's (create) and UpdateBlog's caps for writerID (admins, who
// moderate everyone's writing, have none): the hourly and
// total counts on creation, the drafts when the blog is (or becomes) one, and the account's
// bytes of text with this blog's new text (newBytes) in place of its old (oldBytes).
func (s *Store) checkBlogQuota(ctx context.Context, tx *sql.Tx, writerID int64, create, draft bool, oldBytes, newBytes int64) error {
	q := s.Quotas
	if create {
		if err := s.quotaHour(ctx, tx, "blog", writerID, q.BlogsPerHour); err != nil {
			return err
		}
		if err := quotaTotal(ctx, tx, "quota_blogs", `SELECT COUNT(*) FROM blogs WHERE writer_id = ?`, writerID, q.Blogs); err != nil {
			return err
		}
	}
	if draft {
		if err := quotaTotal(ctx, tx, "quota_drafts", `SELECT COUNT(*) FROM blogs WHERE writer_id = ? AND status = 'Draft'`, writerID, q.Drafts); err != nil {
			return err
		}
	}
	if newBytes <= oldBytes {
		return nil
	}
	var used int64
	// octet_length reads the size from the record header, not the text.
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(octet_length(content)), 0) FROM blogs WHERE writer_id = ?`, writerID).Scan(&used); err != nil {
		return err
	}
	if used-oldBytes+newBytes > q.BlogBytes {
		return &Error{Code: ETooMany, Key: "quota_blog_bytes", Args: map[string]any{"max": q.BlogBytes >> 20}}
	}
	return nil
}

// checkProfileQuota is CreateProfile's caps for userID.
func (s *Store) checkProfileQuota(ctx context.Context, tx *sql.Tx, userID int64) error {
	if err := s.quotaHour(ctx, tx, "profile", userID, s.Quotas.ProfilesPerHour); err != nil {
		return err
	}
	return quotaTotal(ctx, tx, "quota_profiles", `SELECT COUNT(*) FROM profiles WHERE user_id = ?`, userID, s.Quotas.Profiles)
}

// checkCommentQuota is AddComment's caps for userID.
func (s *Store) checkCommentQuota(ctx context.Context, tx *sql.Tx, userID int64) error {
	if err := s.quotaHour(ctx, tx, "comment", userID, s.Quotas.CommentsPerHour); err != nil {
		return err
	}
	return quotaTotal(ctx, tx, "quota_comments", `SELECT COUNT(*) FROM comments WHERE user_id = ?`, userID, s.Quotas.Comments)
}
