package api

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"

	"kardan/store"
)

// syncIndex waits until the search index has applied the changes this process has committed
// (the caller's among them), so a change a user just made shows in search (or leaves it) when
// they get the answer. Concurrent writers share one index batch (search.Index.SyncTo). The
// change itself is committed already: a failure here is logged and the background indexer
// applies it on its next poll.
func (s *Server) syncIndex(ctx context.Context) {
	ix := s.searchIndex()
	if ix == nil {
		return // being built: the rebuild, then its catch-up from the outbox, takes the change
	}
	if err := ix.SyncTo(ctx, s.store.OutboxCommitted()); err != nil {
		slog.Error("search index sync", "err", err)
		ix.Kick()
	}
}

func (s *Server) moderated() bool { return s.cfg.Moderation != "off" }

// handleProfileCreate handles "POST /v1/user-technical/createProfile".
func (s *Server) handleProfileCreate(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	var in store.ProfileInput
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	p, err := s.store.CreateProfile(r.Context(), u.ID, &in, s.moderated())
	if err != nil {
		return err
	}
	s.syncIndex(r.Context())
	return s.writeProfile(w, r, p, u)
}

// handleProfileUpdate handles "PUT /v1/user-technical/update/{id}".
func (s *Server) handleProfileUpdate(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	var in store.ProfileInput
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	p, err := s.store.UpdateProfile(r.Context(), u, id, &in, s.moderated())
	if err != nil {
		return err
	}
	s.syncIndex(r.Context())
	return s.writeOwnProfile(w, r, p, u)
}

// handleProfileFlags handles "PUT /v1/user-technical/{id}/flags" (our addition): the owner's
// active and display switches.
func (s *Server) handleProfileFlags(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	var in struct {
		Active  *bool `json:"active"`
		Display *bool `json:"display"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	p, err := s.store.SetProfileFlags(r.Context(), u, id, in.Active, in.Display)
	if err != nil {
		return err
	}
	s.syncIndex(r.Context())
	return s.writeProfile(w, r, p, u)
}

func (s *Server) writeProfile(w http.ResponseWriter, r *http.Request, p *store.Profile, viewer *store.User) error {
	f, err := s.profileForm(r.Context(), p, viewer)
	if err != nil {
		return err
	}
	writeForm(w, f)
	return nil
}

// canSee reports whether viewer may see p: the public sees visible profiles, owners and admins
// see theirs in any state.
func canSee(p *store.Profile, viewer *store.User) bool {
	return seenBy(p.Visible(), p.UserID, viewer)
}

// seenBy is canSee for a profile known by its visibility and owner alone.
func seenBy(visible bool, owner int64, viewer *store.User) bool {
	return visible || (viewer != nil && (viewer.ID == owner || viewer.IsAdmin()))
}

// handleProfileGet handles "GET /v1/user-technical/{id}".
func (s *Server) handleProfileGet(w http.ResponseWriter, r *http.Request) error {
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	p, err := s.store.Profile(r.Context(), id)
	if err != nil {
		return err
	}
	viewer := userFrom(r)
	if !canSee(p, viewer) {
		return store.NotFound()
	}
	if p.Visible() {
		s.countView(r, p.ID, p.UserID)
	}
	return s.writeProfile(w, r, p, viewer)
}

// handleProfileGetAuth handles "GET /v1/user-technical/getAuthProfileById/{id}": the owner's or
// an admin's view, in any state.
func (s *Server) handleProfileGetAuth(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	p, err := s.store.Profile(r.Context(), id)
	if err != nil {
		return err
	}
	if p.UserID != u.ID && !u.IsAdmin() {
		// Answered like a missing id, so the route tells nobody which ids exist (audit I5).
		return store.NotFound()
	}
	return s.writeOwnProfile(w, r, p, u)
}

// handleProfilesOfUser handles "GET /v1/user-technical/getAll/{id}": a user's visible profiles
// ("other profiles of the same user"); the user themself and admins see all of them.
func (s *Server) handleProfilesOfUser(w http.ResponseWriter, r *http.Request) error {
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	skip, take, err := paging(r)
	if err != nil {
		return err
	}
	viewer := userFrom(r)
	f := store.ProfileFilter{UserID: &id, VisibleOnly: true, Offset: skip, Limit: take}
	if viewer != nil && (viewer.ID == id || viewer.IsAdmin()) {
		// The owner's Desk lists every profile, deleted ones too, so they can be restored.
		f.VisibleOnly, f.IncludeDelete = false, true
	}
	ps, total, err := s.store.Profiles(r.Context(), f)
	if err != nil {
		return err
	}
	return s.writeProfileList(w, r, ps, total, viewer)
}

// handleProfilesAll handles "GET /v1/user-technical/getAllWithSoftDeleted" (admins): every
// profile, soft-deleted ones included, newest first.
func (s *Server) handleProfilesAll(w http.ResponseWriter, r *http.Request) error {
	u, err := requireAdmin(r)
	if err != nil {
		return err
	}
	skip, take, err := paging(r)
	if err != nil {
		return err
	}
	ps, total, err := s.store.Profiles(r.Context(), store.ProfileFilter{IncludeDelete: true, Offset: skip, Limit: take})
	if err != nil {
		return err
	}
	return s.writeProfileList(w, r, ps, total, u)
}

func (s *Server) writeProfileList(w http.ResponseWriter, r *http.Request, ps []*store.Profile, total int, viewer *store.User) error {
	fs, err := s.profileForms(r.Context(), ps, viewer, point{})
	if err != nil {
		return err
	}
	writeFormList(w, fs, total)
	return nil
}

// handleProfileDelete handles "DELETE /v1/user-technical/{id}": a soft delete, restorable for
// 30 days.
func (s *Server) handleProfileDelete(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	if err := s.store.DeleteProfile(r.Context(), u, id); err != nil {
		return err
	}
	s.syncIndex(r.Context())
	p, err := s.store.Profile(r.Context(), id)
	if err != nil {
		return err
	}
	return s.writeProfile(w, r, p, u)
}

// handleProfileRestore handles "PUT /v1/user-technical/restore{id}" (and "/restore/{id}").
func (s *Server) handleProfileRestore(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	p, err := s.store.RestoreProfile(r.Context(), u, id)
	if err != nil {
		return err
	}
	s.syncIndex(r.Context())
	return s.writeProfile(w, r, p, u)
}

// handleAdminProfiles handles "GET /v1/admin/user-technical?status=&skip=&take=": the
// moderation queue (any status, Deleted included).
func (s *Server) handleAdminProfiles(w http.ResponseWriter, r *http.Request) error {
	u, err := requireAdmin(r)
	if err != nil {
		return err
	}
	skip, take, err := paging(r)
	if err != nil {
		return err
	}
	f := store.ProfileFilter{Offset: skip, Limit: take}
	if st := r.URL.Query().Get("status"); st != "" {
		if !store.ValidStatus(st) && st != store.StatusDeleted && st != store.StatusEdited {
			v := &store.Validation{}
			v.Correct("status")
			return v.Err()
		}
		f.Status = &st
	}
	ps, total, err := s.store.Profiles(r.Context(), f)
	if err != nil {
		return err
	}
	if f.Status != nil && *f.Status == store.StatusEdited {
		return s.writeEditedList(w, r, ps, total, u)
	}
	return s.writeProfileList(w, r, ps, total, u)
}

// handleAdminProfileStatus handles "PUT /v1/admin/user-technical/{id}/status {status,
// description}": a moderation move, recorded in the audit log.
func (s *Server) handleAdminProfileStatus(w http.ResponseWriter, r *http.Request) error {
	u, id, move, err := moderationMove(w, r, store.ValidStatus)
	if err != nil {
		return err
	}
	p, err := s.store.SetProfileStatus(r.Context(), &u.ID, id, move.Status, move.Description)
	if err != nil {
		return err
	}
	s.smsNotice(r.Context(), p.UserID, store.NotifyModeration, p.ProfileName, move.Status)
	s.syncIndex(r.Context())
	return s.writeOwnProfile(w, r, p, u)
}

// statusMove is the body of the admin status routes.
type statusMove struct {
	Status      string `json:"status"`
	Description string `json:"description"`
}

// moderationMove reads an admin status route: the signed-in admin, the path's id and the move,
// whose status must pass valid (nil accepts any: the store decides).
func moderationMove(w http.ResponseWriter, r *http.Request, valid func(string) bool) (*store.User, int64, statusMove, error) {
	var move statusMove
	u, err := requireAdmin(r)
	if err != nil {
		return nil, 0, move, err
	}
	id, err := pathInt64(r, "id")
	if err != nil {
		return nil, 0, move, err
	}
	if err := decodeJSON(w, r, &move); err != nil {
		return nil, 0, move, err
	}
	if valid != nil && !valid(move.Status) {
		v := &store.Validation{}
		v.Correct("status")
		return nil, 0, move, v.Err()
	}
	return u, id, move, nil
}

// Paging bounds (SPEC.md §9: pages of 20).
const (
	defaultTake = 20
	maxTake     = 100
	maxSkip     = 100_000
)

// paging reads skip and take from the query string.
func paging(r *http.Request) (skip, take int, err error) {
	q := r.URL.Query()
	v := &store.Validation{}
	skip, take = 0, defaultTake
	if raw := q.Get("skip"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 0 || n > maxSkip {
			v.Correct("skip")
		}
		skip = n
	}
	if raw := q.Get("take"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > maxTake {
			v.Correct("take")
		}
		take = n
	}
	return skip, take, v.Err()
}
