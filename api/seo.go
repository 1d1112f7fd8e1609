package api

import "net/http"

// blogMeta answers the meta of a published blog's page, false when none has that slug.
func (s *Server) blogMeta(r *http.Request, slug string) (pageMeta, bool) {
	return pageMeta{}, false
}
