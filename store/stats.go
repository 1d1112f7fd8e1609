package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// The kinds of event an owner's statistics count.
const (
	StatView       = "view"       // the profile page was opened
	StatAppearance = "appearance" // the profile was in a search answer
	StatCall       = "call"
	StatSMS        = "sms"
	StatRoute      = "route" // detail: the navigation app
	StatShare      = "share"
	StatSocial     = "social" // detail: the social network
	StatWebsite    = "website"
	StatQuote      = "quote" // a request for a price
)

// StatKinds are every kind, in the order the statistics answer lists them.
var StatKinds = []string{StatView, StatAppearance, StatCall, StatSMS, StatRoute, StatShare, StatSocial, StatWebsite, StatQuote}

// StatCount is a number of events of one kind (and detail) on one profile and day.
type StatCount struct {
	ProfileID int64
	Day       string // YYYY-MM-DD
	Kind      string
	Detail    string
	N         int64
}

// AddStats adds counts to the daily statistics in one transaction. A count of a profile that
// no longer exists (purged since it was counted) is skipped, so it cannot fail the others.
func (s *Store) AddStats(ctx context.Context, counts []StatCount) error {
	if len(counts) == 0 {
		return nil
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `INSERT INTO profile_stats (profile_id, day, kind, detail, count)
			SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM profiles WHERE id = ?1)
			ON CONFLICT (profile_id, day, kind, detail) DO UPDATE SET count = profile_stats.count + excluded.count`)
		if err != nil {
			return fmt.Errorf("add stats: %w", err)
		}
		defer st.Close()
		for _, c := range counts {
			if _, err := st.ExecContext(ctx, c.ProfileID, c.Day, c.Kind, c.Detail, c.N); err != nil {
				return fmt.Errorf("add stats: %w", err)
			}
		}
		return nil
	})
}

// ProfileStats answers a profile's counts on the days from to to (YYYY-MM-DD, both included),
// by day, kind and detail.
func (s *Store) ProfileStats(ctx context.Context, profileID int64, from, to string) ([]StatCount, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT day, kind, detail, count FROM profile_stats
		WHERE profile_id = ? AND day BETWEEN ? AND ? ORDER BY day, kind, detail`, profileID, from, to)
	if err != nil {
		return nil, fmt.Errorf("profile stats: %w", err)
	}
	defer rows.Close()
	var out []StatCount
	for rows.Next() {
		c := StatCount{ProfileID: profileID}
		if err := rows.Scan(&c.Day, &c.Kind, &c.Detail, &c.N); err != nil {
			return nil, fmt.Errorf("profile stats: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// ProfileVisibleOwner answers whether the public sees profile id, and its owner: the cheap
// check a statistics beacon makes. A missing profile answers NotFound.
func (s *Store) ProfileVisibleOwner(ctx context.Context, id int64) (visible bool, owner int64, err error) {
	err = s.read.QueryRowContext(ctx, `SELECT visible, user_id FROM profiles WHERE id = ?`, id).Scan(&visible, &owner)
	if errors.Is(err, sql.ErrNoRows) {
		return false, 0, NotFound()
	}
	if err != nil {
		return false, 0, fmt.Errorf("profile visible: %w", err)
	}
	return visible, owner, nil
}

// RouteApps are the navigation apps a route tap may name.
var RouteApps = map[string]bool{"google": true, "waze": true, "neshan": true, "balad": true, "apple": true, "osm": true}

// StatDetail checks the kind and detail of a tap a beacon (POST /v1/stats/event) reports, and
// answers the detail as stored: a route names its navigation app, a social tap one of
// SocialTypes (in the spec's spelling); other taps have none. A quote is no beacon's: the
// server counts one per asked profile when a request for a price is sent (lead/add), so a
// cached old web app or a direct call cannot add quotes nobody asked for.
func StatDetail(kind, detail string) (string, bool) {
	detail = strings.TrimSpace(detail)
	switch kind {
	case StatRoute:
		d := strings.ToLower(detail)
		return d, RouteApps[d]
	case StatSocial:
		name, _, ok := canonicalSocialType(detail)
		return name, ok
	case StatCall, StatSMS, StatShare, StatWebsite:
		return "", detail == ""
	}
	return "", false
}

// SiteStats answers the counts of every profile together on the days from to to, by day, kind
// and detail: the admins' overview.
func (s *Store) SiteStats(ctx context.Context, from, to string) ([]StatCount, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT day, kind, detail, SUM(count) FROM profile_stats
		WHERE day BETWEEN ? AND ? GROUP BY day, kind, detail ORDER BY day, kind, detail`, from, to)
	if err != nil {
		return nil, fmt.Errorf("site stats: %w", err)
	}
	defer rows.Close()
	var out []StatCount
	for rows.Next() {
		var c StatCount
		if err := rows.Scan(&c.Day, &c.Kind, &c.Detail, &c.N); err != nil {
			return nil, fmt.Errorf("site stats: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
