package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Limit is a rate limit on counted events: at most Max events of Kind for Key within Window.
// Events live in the rate_events table, so limits hold across restarts.
type Limit struct {
	Kind   string
	Key    string
	Max    int
	Window time.Duration
}

// TooMany is the 429 error telling the client how many seconds to wait.
func TooMany(seconds int64) *Error {
	return &Error{Code: ETooMany, Key: "too_many", Args: map[string]any{"seconds": max(seconds, 1)}}
}

// RateCheck answers the too-many error (with the longest wait) when any of the limits is used
// up, and nil otherwise. It records nothing: RateHit does.
func (s *Store) RateCheck(ctx context.Context, limits ...Limit) error {
	now := s.now()
	var wait int64
	for _, l := range limits {
		var n int
		var oldest sql.NullInt64
		// The Max-th newest event in the window decides when a slot frees up.
		err := s.read.QueryRowContext(ctx, `SELECT COUNT(*), MIN(at) FROM (SELECT at FROM rate_events
			WHERE kind = ? AND key = ? AND at > ? ORDER BY at DESC LIMIT ?)`,
			l.Kind, l.Key, now-int64(l.Window/time.Second), l.Max).Scan(&n, &oldest)
		if err != nil {
			return fmt.Errorf("rate check %s: %w", l.Kind, err)
		}
		if n >= l.Max {
			wait = max(wait, oldest.Int64+int64(l.Window/time.Second)-now)
		}
	}
	if wait > 0 {
		return TooMany(wait)
	}
	return nil
}

// RateHit records one event against each of the limits.
func (s *Store) RateHit(ctx context.Context, limits ...Limit) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		for _, l := range limits {
			if _, err := tx.ExecContext(ctx, `INSERT INTO rate_events (kind, key, at) VALUES (?, ?, ?)`, l.Kind, l.Key, s.now()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("rate hit: %w", err)
	}
	return nil
}

// RateClear forgets the events counted against l (a successful sign-in clears the number's
// failures).
func (s *Store) RateClear(ctx context.Context, l Limit) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM rate_events WHERE kind = ? AND key = ?`, l.Kind, l.Key)
		return err
	})
	if err != nil {
		return fmt.Errorf("rate clear: %w", err)
	}
	return nil
}
