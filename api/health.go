package api

import (
	"context"
	"net/http"
	"time"
)

// handleHealth handles "GET /healthz": 200 when the database answers, 503 otherwise; its search
// is "building" while the search index is, and a PostgreSQL replica answers 503 meanwhile.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if _, err := s.store.Version(ctx); err != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "unavailable"}, message(langOf(r), "server_error", nil))
		return
	}
	// search says whether the index is built: serve answers while it builds a large one, with
	// browsing only (cmd's App). A replica of a PostgreSQL cluster is unhealthy meanwhile, so
	// its balancer sends its searches to the others and a rolling upgrade waits for it; a
	// single server has no others, and browsing beats nothing.
	if s.searchIndex() == nil && s.cfg.SearchBuilding {
		status := http.StatusOK
		if s.store.IsPostgres() {
			status = http.StatusServiceUnavailable
		}
		writeJSON(w, status, map[string]any{"status": "ok", "search": "building", "uptime_seconds": int64(time.Since(s.started).Seconds())}, "")
		return
	}
	index := "ready"
	if s.searchIndex() == nil {
		index = "none" // a server without an index (a test's) answers browsing only
	}
	ok(w, map[string]any{"status": "ok", "search": index, "uptime_seconds": int64(time.Since(s.started).Seconds())})
}

// handleConfig handles "GET /v1/config": what the web app needs to know about this server.
func (s *Server) handleConfig(w http.ResponseWriter, r *http.Request) error {
	ok(w, map[string]any{
		"tiles":      s.cfg.Tiles,
		"base_url":   s.cfg.BaseURL,
		"moderation": s.cfg.Moderation,
		"timezone":   s.cfg.Location.String(),
	})
	return nil
}
