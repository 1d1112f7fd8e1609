package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"kardan/store"
)

// reportLimit bounds the reports one client address sends per hour: enough for a visitor who
// finds several bad items, too few to bury the queue.
func reportLimit(key string) store.Limit {
	return store.Limit{Kind: "report_ip", Key: key, Max: 10, Window: time.Hour}
}

// handleReportAdd handles "POST /v1/report/add {entity, id, reason, description}": a visitor's
// report of a public profile or comment (entity "profile" or "comment"; reason one of
// store.ReportReasons). Signed in or not; ten per client address per hour.
func (s *Server) handleReportAdd(w http.ResponseWriter, r *http.Request) error {
	var in store.ReportInput
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	var reporter *int64
	if u := userFrom(r); u != nil {
		reporter = &u.ID
	}
	ctx := r.Context()
	res, err := s.store.RateReserve(ctx, reportLimit(s.addrKeyOf(r)))
	if err != nil {
		return err
	}
	rep, err := s.store.AddReport(ctx, &in, reporter, s.addrKeyOf(r))
	if err != nil {
		// A refused report (bad input, a missing item, a repeat) does not count against the limit.
		if rerr := res.Release(context.WithoutCancel(ctx)); rerr != nil {
			return rerr
		}
		return err
	}
	writeJSON(w, http.StatusOK, rep, message(langOf(r), "report_received", nil))
	return nil
}

// reportGroupForm is one reported item in the admins' queue.
type reportGroupForm struct {
	Entity        string         `json:"entity"`
	ID            int64          `json:"id"`
	Count         int            `json:"count"`
	Reasons       map[string]int `json:"reasons"`
	FirstAt       string         `json:"first_at"`
	LastAt        string         `json:"last_at"`
	Reports       []reportForm   `json:"reports"`
	Title         string         `json:"title"`
	Slug          string         `json:"slug"`
	ProfileID     int64          `json:"profile_id"`
	ItemStatus    string         `json:"item_status"`
	Missing       bool           `json:"missing"`
	RegisterAdmin registerAdmin  `json:"register_admin"`
}

type reportForm struct {
	ID          int64  `json:"id"`
	Reason      string `json:"reason"`
	Description string `json:"description"`
	CreateAt    string `json:"create_at"`
}

// handleAdminReports handles "GET /v1/admin/report?status=Open|Dismissed|Actioned&skip&take": the
// reported items, each with its count, reasons and newest reports, the most reported first.
func (s *Server) handleAdminReports(w http.ResponseWriter, r *http.Request) error {
	if _, err := requireAdmin(r); err != nil {
		return err
	}
	skip, take, err := paging(r)
	if err != nil {
		return err
	}
	status := r.URL.Query().Get("status")
	switch status {
	case "":
		status = store.ReportOpen
	case store.ReportOpen, store.ReportDismissed, store.ReportActioned:
	default:
		v := &store.Validation{}
		v.Correct("status")
		return v.Err()
	}
	gs, total, err := s.store.ReportGroups(r.Context(), status, skip, take)
	if err != nil {
		return err
	}
	out := make([]reportGroupForm, len(gs))
	for i, g := range gs {
		f := reportGroupForm{Entity: g.Entity, ID: g.EntityID, Count: g.Count, Reasons: g.Reasons, FirstAt: isoTime(g.FirstAt),
			LastAt: isoTime(g.LastAt), Reports: make([]reportForm, len(g.Latest)), Title: g.Title, Slug: g.Slug, ProfileID: g.ProfileID,
			ItemStatus: g.ItemStatus, Missing: g.ItemMissing, RegisterAdmin: registerAdmin{AdminRegisterID: g.ResolvedBy, Description: g.AdminNote}}
		for j, rep := range g.Latest {
			f.Reports[j] = reportForm{ID: rep.ID, Reason: rep.Reason, Description: rep.Description, CreateAt: isoTime(rep.CreateAt)}
		}
		out[i] = f
	}
	ok(w, map[string]any{"reports": out, "count": total})
	return nil
}

// handleAdminReportStatus handles "PUT /v1/admin/report/{entity}/{id}/status {status,
// description}": closes every open report of the item. "Dismissed" leaves the item alone;
// "Actioned" also takes it down: a profile is blocked (a pending one rejected), a comment hidden.
func (s *Server) handleAdminReportStatus(w http.ResponseWriter, r *http.Request) error {
	u, id, move, err := moderationMove(w, r, func(st string) bool { return st == store.ReportDismissed || st == store.ReportActioned })
	if err != nil {
		return err
	}
	entity := mux.Vars(r)["entity"]
	ctx := r.Context()
	if move.Status == store.ReportActioned {
		if err := s.takeDown(ctx, &u.ID, entity, id, move.Description); err != nil {
			return err
		}
	}
	n, err := s.store.ResolveReports(ctx, &u.ID, entity, id, move.Status, move.Description)
	if err != nil {
		return err
	}
	s.syncIndex(ctx)
	writeJSON(w, http.StatusOK, map[string]any{"entity": entity, "id": id, "status": move.Status, "resolved": n},
		message(langOf(r), "reports_resolved", map[string]any{"count": n}))
	return nil
}

// takeDown blocks a reported profile (rejects a pending one) or hides a reported comment; an item
// already down stays so.
func (s *Server) takeDown(ctx context.Context, actor *int64, entity string, id int64, note string) error {
	var err error
	if entity == "lead" {
		err = s.store.CloseLead(ctx, actor, id, note)
	} else if entity == "comment" {
		_, err = s.store.SetCommentStatus(ctx, actor, id, store.CommentHidden, note)
	} else {
		var p *store.Profile
		if p, err = s.store.Profile(ctx, id); err != nil {
			return err
		}
		to := store.StatusBlocked
		if p.AccountStatus == store.StatusPending {
			to = store.StatusRejected
		}
		_, err = s.store.SetProfileStatus(ctx, actor, id, to, note)
	}
	if store.ErrorCode(err) == store.EConflict {
		return nil // already blocked, rejected or hidden
	}
	return err
}
