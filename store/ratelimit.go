package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Limit is a rate limit on counted events: at most Max events of Kind for Key within Window.
// Events live in the rate_events table, so limits hold across restarts.
//
// With Backoff set, the limit slows down instead of blocking: past Max events, one more is
// allowed once Backoff·2^(n-Max) has passed since the newest (n events in the window), the wait
// capped at BackoffMax (Window when zero). Anyone who can make events for a key (a phone number
// anybody knows) can then only slow its owner down, never lock them out.
type Limit struct {
	Kind       string
	Key        string
	Max        int
	Window     time.Duration
	Backoff    time.Duration
	BackoffMax time.Duration
}

// TooMany is the 429 error telling the client how many seconds to wait.
func TooMany(seconds int64) *Error {
	return &Error{Code: ETooMany, Key: "too_many", Args: map[string]any{"seconds": max(seconds, 1)}}
}

// Reservation is the events one RateReserve recorded, one per limit.
type Reservation struct {
	s   *Store
	ids []int64
}

// RateReserve checks every limit and records one event against each, in one write transaction:
// the check and the record are a single step, so of any number of concurrent callers at most
// the limit's allowance get through. Reserve before the expensive or abusable work (hashing a
// password, decoding an image, sending an SMS), never after it. When a limit is used up nothing
// is recorded and the error is TooMany with the longest wait.
//
// The caller keeps the reservation when the work counts (a failed login, an upload, a sent
// message) and calls Release when it turns out not to (a login that succeeded, a message
// refused as invalid).
func (s *Store) RateReserve(ctx context.Context, limits ...Limit) (*Reservation, error) {
	res := &Reservation{s: s}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		var wait int64
		for _, l := range limits {
			w, err := rateWait(ctx, tx, now, l)
			if err != nil {
				return fmt.Errorf("%s: %w", l.Kind, err)
			}
			wait = max(wait, w)
		}
		if wait > 0 {
			return TooMany(wait)
		}
		res.ids = res.ids[:0]
		for _, l := range limits {
			var id int64
			if err := tx.QueryRowContext(ctx, `INSERT INTO rate_events (kind, key, at) VALUES (?, ?, ?) RETURNING `+s.rowidColumn(),
				l.Kind, l.Key, now).Scan(&id); err != nil {
				return err
			}
			res.ids = append(res.ids, id)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("rate reserve: %w", err)
	}
	return res, nil
}

// Release forgets the reservation's events: the work they stood for did not count. Releasing
// twice, or a nil reservation, does nothing.
func (r *Reservation) Release(ctx context.Context) error {
	if r == nil || len(r.ids) == 0 {
		return nil
	}
	ids := r.ids
	r.ids = nil
	in, args := r.s.idsIn(r.s.rowidColumn(), ids)
	err := r.s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM rate_events WHERE `+in, args...)
		return err
	})
	if err != nil {
		return fmt.Errorf("rate release: %w", err)
	}
	return nil
}

// rowQuerier is a transaction or the read pool.
type rowQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// rateWait answers how many seconds l needs before one more event (0: now).
func rateWait(ctx context.Context, tx rowQuerier, now int64, l Limit) (int64, error) {
	window := int64(l.Window / time.Second)
	take := l.Max
	if l.Backoff > 0 {
		// Past Max the count only sets the doubling; 30 doublings exceed any cap.
		take = l.Max + 30
	}
	var n int
	var oldest, newest sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*), MIN(at), MAX(at) FROM (SELECT at FROM rate_events
		WHERE kind = ? AND key = ? AND at > ? ORDER BY at DESC LIMIT ?) recent`,
		l.Kind, l.Key, now-window, take).Scan(&n, &oldest, &newest)
	if err != nil {
		return 0, err
	}
	if n < l.Max {
		return 0, nil
	}
	if l.Backoff <= 0 {
		// The Max-th newest event in the window decides when a slot frees up.
		return oldest.Int64 + window - now, nil
	}
	capWait := l.BackoffMax
	if capWait <= 0 {
		capWait = l.Window
	}
	gap := l.Backoff << (n - l.Max)
	if gap <= 0 || gap > capWait {
		gap = capWait
	}
	return max(0, newest.Int64+int64(gap/time.Second)-now), nil
}

// RateCheck answers the too-many error (with the longest wait) when any of the limits is used
// up, and nil otherwise. It records nothing, so it cannot enforce a limit under concurrency: use
// it only to tell a client in advance; enforce with RateReserve.
func (s *Store) RateCheck(ctx context.Context, limits ...Limit) error {
	var wait int64
	now := s.now()
	for _, l := range limits {
		w, err := rateWait(ctx, s.read, now, l)
		if err != nil {
			return fmt.Errorf("rate check %s: %w", l.Kind, err)
		}
		wait = max(wait, w)
	}
	if wait > 0 {
		return TooMany(wait)
	}
	return nil
}

// RateHit records one event against each of the limits, whatever their state: for events that
// happen anyway (an SMS already sent) and must count against later reservations.
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

// RateClear forgets the events counted against l (a successful sign-in clears the failures
// of its number from its address).
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
