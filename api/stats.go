package api

import (
	"context"
	"net/http"
	"time"

	"kardan/stats"
	"kardan/store"
)

// Statistics bounds.
const (
	statsBeaconRate  = 2  // beacons a second per client address, on average
	statsBeaconBurst = 30 // a visitor tapping through a page
	statsMaxDays     = 366
	statsDefaultDays = 30
)

// RunStats writes the statistics counted in memory once a second until ctx ends, then writes
// what is left. Without it counts are written only when an owner reads them.
func (s *Server) RunStats(ctx context.Context) { s.stats.Run(ctx) }

// PruneShared deletes what the replicas share and no longer need (store.PruneShared): the
// statistics' marks and keys of the days before today, in the time zone statistics days are
// counted in, and the rate-limit buckets idle for an hour. The leader runs it hourly.
func (s *Server) PruneShared(ctx context.Context) (int64, error) {
	return s.store.PruneShared(ctx, s.store.Now().In(s.cfg.Location).Format(time.DateOnly))
}

// visitorOf names r's visitor for today's statistics (see package stats).
func (s *Server) visitorOf(r *http.Request) stats.Visitor {
	return s.stats.VisitorOf(clientIPOf(r), r.UserAgent())
}

// countView counts a view of a public profile by r's visitor, unless the viewer is its owner
// or an admin. It only touches memory.
func (s *Server) countView(r *http.Request, profileID, ownerID int64) {
	s.countTap(r, profileID, ownerID, store.StatView)
}

// countTap counts a tap the server itself sees (a request for a price sent) as the beacon
// would, once per visitor and day, unless r's user owns the profile or is an admin.
func (s *Server) countTap(r *http.Request, profileID, ownerID int64, kind string) {
	if u := userFrom(r); u != nil && (u.ID == ownerID || u.IsAdmin()) {
		return
	}
	s.stats.Count(s.visitorOf(r), profileID, kind, "")
}

// countAppearances counts the profiles a public search answer shows r's visitor: in memory,
// under one lock, with no write.
func (s *Server) countAppearances(r *http.Request, forms []*cachedForm) {
	var buf [64]int64
	ids := buf[:0]
	for _, f := range forms {
		if f != nil && f.visible {
			ids = append(ids, f.id)
		}
	}
	if len(ids) == 0 {
		return
	}
	s.stats.CountAll(s.visitorOf(r), ids, store.StatAppearance)
}

// statsEvent is the body of POST /v1/stats/event.
type statsEvent struct {
	ProfileID looseID `json:"profile_id"`
	Kind      string  `json:"kind"`
	Detail    string  `json:"detail"`
}

// handleStatsEvent handles "POST /v1/stats/event {profile_id, kind, detail}": a visitor's tap on
// a profile's call, SMS, route (detail: the app), share, social (detail: the network) or website
// button, sent by the web app with navigator.sendBeacon; a quote is refused like an unknown kind
// (lead/add counts it). It answers {counted}: false for a bot or a visitor already counted
// today for that tap. It reads one row and writes nothing; the count is written with the
// second's others.
func (s *Server) handleStatsEvent(w http.ResponseWriter, r *http.Request) error {
	if allowed, wait := s.statsLimit.take(r.Context(), s.addrKeyOf(r)); !allowed {
		return store.TooMany(int64(wait/time.Second) + 1)
	}
	var in statsEvent
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	v := &store.Validation{}
	if in.ProfileID <= 0 {
		v.Correct("profile_id")
	}
	detail, valid := store.StatDetail(in.Kind, in.Detail)
	if !valid {
		if in.Kind == store.StatRoute || in.Kind == store.StatSocial {
			v.Correct("detail")
		} else {
			v.Correct("kind")
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	visible, owner, err := s.store.ProfileVisibleOwner(r.Context(), int64(in.ProfileID))
	if err != nil {
		return err
	}
	if !visible {
		return store.NotFound()
	}
	counted := false
	if u := userFrom(r); u == nil || (u.ID != owner && !u.IsAdmin()) {
		counted = s.stats.Count(s.visitorOf(r), int64(in.ProfileID), in.Kind, detail)
	}
	ok(w, map[string]any{"counted": counted})
	return nil
}

// statsTotals are counts by kind.
type statsTotals map[string]int64

// statsDay is one day's counts by kind.
type statsDay struct {
	Date   string      `json:"date"`
	Counts statsTotals `json:"counts"`
}

// statsAnswer is the answer of GET /v1/user-technical/{id}/stats.
type statsAnswer struct {
	ProfileID int64                       `json:"profile_id"`
	From      string                      `json:"from"`
	To        string                      `json:"to"`
	Kinds     []string                    `json:"kinds"`
	Days      []statsDay                  `json:"days"`
	Totals    statsTotals                 `json:"totals"`
	Previous  statsTotals                 `json:"previous"` // the as long period just before from
	Details   map[string]map[string]int64 `json:"details"`  // route by app, social by network
}

// handleProfileStats handles "GET /v1/user-technical/{id}/stats?from=YYYY-MM-DD&to=YYYY-MM-DD":
// a profile's daily statistics for its owner and admins (anyone else: not found). Without
// dates it answers the last 30 days; a period is at most 366 days.
func (s *Server) handleProfileStats(w http.ResponseWriter, r *http.Request) error {
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	u := userFrom(r)
	if u == nil {
		return store.NotFound()
	}
	p, err := s.store.Profile(r.Context(), id)
	if err != nil {
		return err
	}
	if p.UserID != u.ID && !u.IsAdmin() {
		return store.NotFound() // like a missing id, so the route tells nobody which ids exist
	}
	from, to, err := s.statsPeriod(r)
	if err != nil {
		return err
	}
	ans, err := s.statsAnswer(r.Context(), from, to, func(ctx context.Context, from, to string) ([]store.StatCount, error) {
		return s.store.ProfileStats(ctx, id, from, to)
	})
	if err != nil {
		return err
	}
	ans.ProfileID = id
	ok(w, ans)
	return nil
}

// handleAdminStats handles "GET /v1/admin/stats?from=&to=": the statistics of every profile
// together, for the admins' overview; the same answer as a profile's, with profile_id 0.
func (s *Server) handleAdminStats(w http.ResponseWriter, r *http.Request) error {
	if _, err := requireAdmin(r); err != nil {
		return err
	}
	from, to, err := s.statsPeriod(r)
	if err != nil {
		return err
	}
	ans, err := s.statsAnswer(r.Context(), from, to, s.store.SiteStats)
	if err != nil {
		return err
	}
	ok(w, ans)
	return nil
}

// statsAnswer reads the counts of from..to and of the as long period before it through read,
// and answers them day by day with their totals.
func (s *Server) statsAnswer(ctx context.Context, from, to time.Time, read func(ctx context.Context, from, to string) ([]store.StatCount, error)) (*statsAnswer, error) {
	// What was counted in the last second is written first, so the reader sees it at once.
	if err := s.stats.Flush(ctx); err != nil {
		return nil, err
	}
	days := int(to.Sub(from).Hours()/24+0.5) + 1
	prevFrom := from.AddDate(0, 0, -days)
	rows, err := read(ctx, prevFrom.Format(time.DateOnly), to.Format(time.DateOnly))
	if err != nil {
		return nil, err
	}
	ans := &statsAnswer{From: from.Format(time.DateOnly), To: to.Format(time.DateOnly), Kinds: store.StatKinds,
		Days: make([]statsDay, days), Totals: zeroTotals(), Previous: zeroTotals(),
		Details: map[string]map[string]int64{store.StatRoute: {}, store.StatSocial: {}}}
	index := make(map[string]int, days)
	for i := range ans.Days {
		d := from.AddDate(0, 0, i).Format(time.DateOnly)
		ans.Days[i] = statsDay{Date: d, Counts: zeroTotals()}
		index[d] = i
	}
	for _, c := range rows {
		i, in := index[c.Day]
		if !in {
			ans.Previous[c.Kind] += c.N
			continue
		}
		ans.Days[i].Counts[c.Kind] += c.N
		ans.Totals[c.Kind] += c.N
		if c.Detail != "" {
			if m := ans.Details[c.Kind]; m != nil {
				m[c.Detail] += c.N
			}
		}
	}
	return ans, nil
}

func zeroTotals() statsTotals {
	t := make(statsTotals, len(store.StatKinds))
	for _, k := range store.StatKinds {
		t[k] = 0
	}
	return t
}

// statsPeriod reads ?from= and ?to= (YYYY-MM-DD, both included; default: the 30 days to today).
func (s *Server) statsPeriod(r *http.Request) (from, to time.Time, err error) {
	q := r.URL.Query()
	v := &store.Validation{}
	today := s.store.Now().In(s.cfg.Location)
	to = time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	if raw := q.Get("to"); raw != "" {
		if to, err = time.Parse(time.DateOnly, raw); err != nil {
			v.Correct("to")
		}
	}
	from = to.AddDate(0, 0, -(statsDefaultDays - 1))
	if raw := q.Get("from"); raw != "" {
		if from, err = time.Parse(time.DateOnly, raw); err != nil {
			v.Correct("from")
		}
	}
	if !v.Has("from") && !v.Has("to") && (from.After(to) || to.Sub(from) >= statsMaxDays*24*time.Hour) {
		v.Correct("from")
	}
	return from, to, v.Err()
}
