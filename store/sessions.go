package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// NewSession is a session to open: the hash of its token (the token itself is never stored),
// how long it lasts, and where it was opened from.
type NewSession struct {
	TokenHash []byte
	TTL       time.Duration
	ClientIP  string
	UserAgent string
}

// CreateSession opens a session for user id.
func (s *Store) CreateSession(ctx context.Context, userID int64, ns NewSession) error {
	if err := s.tx(ctx, func(tx *sql.Tx) error { return s.createSession(ctx, tx, userID, ns) }); err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return nil
}

func (s *Store) createSession(ctx context.Context, tx *sql.Tx, userID int64, ns NewSession) error {
	now := s.now()
	ua := ns.UserAgent
	if len(ua) > 256 {
		ua = ua[:256]
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO sessions (user_id, token_hash, create_at, expire_at, client_ip, user_agent)
		VALUES (?, ?, ?, ?, ?, ?)`, userID, ns.TokenHash, now, now+int64(ns.TTL/time.Second), ns.ClientIP, ua)
	return err
}

// UserBySession answers the user of a live session (not expired, not revoked), or the
// unauthorized error.
func (s *Store) UserBySession(ctx context.Context, tokenHash []byte) (*User, error) {
	u, err := scanUser(s.read.QueryRowContext(ctx, `SELECT u.id, u.number_phone, u.name, u.password_hash,
		u.profile_image, u.role, u.create_at, u.update_at
		FROM sessions s JOIN users u ON u.id = s.user_id
		WHERE s.token_hash = ? AND s.revoked_at IS NULL AND s.expire_at > ?`, tokenHash, s.now()))
	var e *Error
	if errors.As(err, &e) && e.Code == ENotFound {
		return nil, Unauthorized()
	}
	if err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	return u, nil
}

// RevokeSession ends the session with this token hash (sign-out); an unknown token is no error.
func (s *Store) RevokeSession(ctx context.Context, tokenHash []byte) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL`,
			s.now(), tokenHash)
		return err
	})
	if err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	return nil
}

// RevokeUserSessions ends every live session of user id except the one with token hash except
// (nil: all), and answers how many it ended.
func (s *Store) RevokeUserSessions(ctx context.Context, userID int64, except []byte) (int64, error) {
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = s.revokeUserSessions(ctx, tx, userID, except)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("revoke sessions of %d: %w", userID, err)
	}
	return n, nil
}

func (s *Store) revokeUserSessions(ctx context.Context, tx *sql.Tx, userID int64, except []byte) (int64, error) {
	if except == nil {
		except = []byte{}
	}
	res, err := tx.ExecContext(ctx, `UPDATE sessions SET revoked_at = ?
		WHERE user_id = ? AND revoked_at IS NULL AND expire_at > ? AND token_hash != ?`, s.now(), userID, s.now(), except)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// accountRetention is how long ended sessions, used codes and counted events are kept: long
// enough for every limit's window and for looking into an incident.
const accountRetention = 7 * 24 * time.Hour

// PruneAccounts deletes sessions that ended, codes, lead passes and rate events older than the retention
// window, and answers how many rows went.
func (s *Store) PruneAccounts(ctx context.Context) (int64, error) {
	cutoff := s.now() - int64(accountRetention/time.Second)
	var total int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		total = 0 // the closure may run twice (store/commit.go)
		for _, q := range []string{
			`DELETE FROM sessions WHERE expire_at < ?1 OR revoked_at < ?1`,
			`DELETE FROM otp_codes WHERE create_at < ?1`,
			`DELETE FROM lead_passes WHERE expire_at < ?1`, // their uploads stay for the purge (pass_id NULL)
			`DELETE FROM rate_events WHERE at < ?1`,
		} {
			res, err := tx.ExecContext(ctx, q, cutoff)
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			total += n
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("prune accounts: %w", err)
	}
	return total, nil
}
