package api

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/gorilla/mux"

	"kardan/store"
)

// savedMerge is the body of "POST /v1/saved": the ids a device saved while signed out, newest
// first.
type savedMerge struct {
	IDs []int64 `json:"ids"`
}

// handleSaved handles "GET /v1/saved": the signed-in user's saved businesses that are public
// now, most recently saved first, as {count, profiles, ids}.
func (s *Server) handleSaved(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	return s.writeSaved(w, r, u)
}

// handleSavedMerge handles "POST /v1/saved {ids}": a device's list merged into the account's at
// sign-in. Profiles missing or hidden since are skipped; answers the merged list as GET does.
func (s *Server) handleSavedMerge(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	var in savedMerge
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	v := &store.Validation{}
	if in.IDs == nil {
		v.Enter("ids")
	} else if max := s.store.Quotas.Saved; len(in.IDs) > max {
		v.Add("ids", "quota_saved", map[string]any{"max": max})
	}
	for _, id := range in.IDs {
		if id <= 0 {
			v.Correct("ids")
			break
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	if err := s.store.SaveProfiles(r.Context(), u.ID, in.IDs, false); err != nil {
		return err
	}
	return s.writeSaved(w, r, u)
}

// handleSavedPut handles "PUT /v1/saved/{profileId}": the heart. Saving a missing or hidden
// profile is 404; saving one twice is not an error.
func (s *Server) handleSavedPut(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	id, err := pathInt64(r, "profileId")
	if err != nil {
		return err
	}
	if err := s.store.SaveProfiles(r.Context(), u.ID, []int64{id}, true); err != nil {
		return err
	}
	return s.writeSavedIDs(w, r, u, "saved_added")
}

// handleSavedDelete handles "DELETE /v1/saved/{profileId}": the heart taken back; removing one
// not saved is not an error, so two devices may both do it.
func (s *Server) handleSavedDelete(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	id, err := pathInt64(r, "profileId")
	if err != nil {
		return err
	}
	if err := s.store.UnsaveProfile(r.Context(), u.ID, id); err != nil {
		return err
	}
	return s.writeSavedIDs(w, r, u, "saved_removed")
}

// savedVisible answers u's saved profiles that are public now, most recently saved first.
func (s *Server) savedVisible(r *http.Request, u *store.User) ([]*store.Profile, error) {
	ids, err := s.store.SavedIDs(r.Context(), u.ID)
	if err != nil {
		return nil, err
	}
	ps, err := s.store.ProfilesByIDs(r.Context(), ids)
	if err != nil {
		return nil, err
	}
	visible := ps[:0]
	for _, p := range ps {
		if p.Visible() {
			visible = append(visible, p)
		}
	}
	return visible, nil
}

// writeSaved writes u's saved list as {count, profiles, ids}: the read forms and their ids.
func (s *Server) writeSaved(w http.ResponseWriter, r *http.Request, u *store.User) error {
	visible, err := s.savedVisible(r, u)
	if err != nil {
		return err
	}
	fs, err := s.profileForms(r.Context(), visible, u, point{})
	if err != nil {
		return err
	}
	extra := []byte(`,"ids":[`)
	for i, p := range visible {
		if i > 0 {
			extra = append(extra, ',')
		}
		extra = strconv.AppendInt(extra, p.ID, 10)
	}
	extra = append(extra, ']')
	writeFormListWith(w, fs, len(visible), extra)
	return nil
}

// writeSavedIDs answers a heart's change with the ids of u's saved list, {ids, count}, and the
// message of key msg.
func (s *Server) writeSavedIDs(w http.ResponseWriter, r *http.Request, u *store.User, msg string) error {
	visible, err := s.savedVisible(r, u)
	if err != nil {
		return err
	}
	ids := make([]int64, len(visible))
	for i, p := range visible {
		ids[i] = p.ID
	}
	writeJSON(w, http.StatusOK, map[string]any{"ids": ids, "count": len(ids)}, message(langOf(r), msg, nil))
	return nil
}

// handleShortLink handles "GET /p/{id}": a short, stable link to a profile (for sharing and QR
// codes) that redirects permanently to its page by slug, which changes when the name does. A
// missing or non-public profile is the web app's 404 page.
func (s *Server) handleShortLink(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(mux.Vars(r)["id"], 10, 64)
	var p *store.Profile
	if err == nil && id > 0 {
		p, err = s.store.Profile(r.Context(), id)
	}
	if err != nil || p == nil || !p.Visible() {
		s.handleWeb(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	http.Redirect(w, r, "/profile/"+url.PathEscape(p.Slug), http.StatusMovedPermanently)
}
