package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"kardan/auth"
	"kardan/store"
)

// defaultSMSPerDay is how many notice SMS one user gets per day at most (README, Limits).
const defaultSMSPerDay = 5

// notificationForm is one item under the bell.
type notificationForm struct {
	ID       int64  `json:"id"`
	Kind     string `json:"kind"`
	Entity   string `json:"entity"`
	EntityID int64  `json:"entity_id"`
	Title    string `json:"title"`
	Status   string `json:"status"`
	Note     string `json:"note"`
	CreateAt string `json:"create_at"`
	Read     bool   `json:"read"`
}

// handleNotificationList handles "GET /v1/notification/list?skip&take": the signed-in user's
// notifications, newest first, with the unread count.
func (s *Server) handleNotificationList(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	skip, take, err := paging(r)
	if err != nil {
		return err
	}
	ns, unread, err := s.store.Notifications(r.Context(), u.ID, skip, take)
	if err != nil {
		return err
	}
	out := make([]notificationForm, len(ns))
	for i, n := range ns {
		out[i] = notificationForm{ID: n.ID, Kind: n.Kind, Entity: n.Entity, EntityID: n.EntityID, Title: n.Title, Status: n.Status,
			Note: n.Note, CreateAt: isoTime(n.CreateAt), Read: n.ReadAt != nil}
	}
	ok(w, map[string]any{"notifications": out, "unread": unread})
	return nil
}

// handleNotificationRead handles "PUT /v1/notification/read {ids}": marks the user's listed
// notifications read, or all of them when ids is empty or missing.
func (s *Server) handleNotificationRead(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		IDs []int64 `json:"ids"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if len(in.IDs) > 100 {
		v := &store.Validation{}
		v.Add("ids", "too_many_items", map[string]any{"max": 100})
		return v.Err()
	}
	if _, err := s.store.MarkNotificationsRead(r.Context(), u.ID, in.IDs); err != nil {
		return err
	}
	unread, err := s.store.UnreadNotifications(r.Context(), u.ID)
	if err != nil {
		return err
	}
	ok(w, map[string]any{"unread": unread})
	return nil
}

// handleNotificationSMSGet handles "GET /v1/notification/sms": which SMS notices are on.
func (s *Server) handleNotificationSMSGet(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	return s.writeSMSPrefs(w, r, u.ID)
}

// handleNotificationSMSSet handles "PUT /v1/notification/sms {kind, enabled}": turns one kind
// of SMS notice on or off for the signed-in user.
func (s *Server) handleNotificationSMSSet(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Kind    string `json:"kind"`
		Enabled *bool  `json:"enabled"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.Enabled == nil {
		v := &store.Validation{}
		v.Enter("enabled")
		return v.Err()
	}
	if err := s.store.SetSMSOptOut(r.Context(), u.ID, in.Kind, !*in.Enabled); err != nil {
		return err
	}
	return s.writeSMSPrefs(w, r, u.ID)
}

func (s *Server) writeSMSPrefs(w http.ResponseWriter, r *http.Request, userID int64) error {
	off, err := s.store.SMSOptOuts(r.Context(), userID)
	if err != nil {
		return err
	}
	out := map[string]bool{}
	for _, k := range store.SMSKinds {
		out[k] = !off[k]
	}
	ok(w, map[string]any{"sms": out, "per_day": s.smsPerDay()})
	return nil
}

func (s *Server) smsPerDay() int {
	if s.cfg.SMSPerDay > 0 {
		return s.cfg.SMSPerDay
	}
	return defaultSMSPerDay
}

// smsNotice sends a notice SMS of kind to a user after the event is committed, unless the user
// turned the kind off or already had their SMS for the day. The notification under the bell
// exists either way, so a failed or skipped SMS is logged, not returned.
func (s *Server) smsNotice(ctx context.Context, userID int64, kind string, tokens ...string) {
	ctx = context.WithoutCancel(ctx)
	if err := s.sendNotice(ctx, userID, kind, tokens...); err != nil {
		slog.Warn("notice sms not sent", "user", userID, "kind", kind, "err", err)
	}
}

func (s *Server) sendNotice(ctx context.Context, userID int64, kind string, tokens ...string) error {
	off, err := s.store.SMSOptOuts(ctx, userID)
	if err != nil || off[kind] {
		return err
	}
	u, err := s.store.UserByID(ctx, userID)
	if err != nil {
		return err
	}
	res, err := s.store.RateReserve(ctx, store.Limit{Kind: "notice_sms", Key: fmt.Sprint(userID), Max: s.smsPerDay(), Window: 24 * time.Hour})
	var se *store.Error
	if errors.As(err, &se) && se.Code == store.ETooMany {
		return nil // the day's allowance is used: the bell still has it
	}
	if err != nil {
		return err
	}
	template := s.cfg.SMSTemplates[kind]
	if template == "" {
		template = kind
	}
	sent, err := auth.SendTemplate(ctx, s.sms, u.NumberPhone, template, tokens...)
	if err != nil || !sent {
		// Nothing went out: it does not count against the day.
		if rerr := res.Release(ctx); rerr != nil {
			return rerr
		}
	}
	return err
}
