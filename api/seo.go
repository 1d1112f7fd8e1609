package api

import "net/http"

// profileMeta answers the meta of a public profile's page, false when no visible profile has
// that slug.
func (s *Server) profileMeta(r *http.Request, slug string) (pageMeta, bool) {
	return pageMeta{}, false
}

// blogMeta answers the meta of a published blog's page, false when none has that slug.
func (s *Server) blogMeta(r *http.Request, slug string) (pageMeta, bool) {
	return pageMeta{}, false
}
