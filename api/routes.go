package api

import (
	"net/http"

	"github.com/gorilla/mux"
)

// routes is the whole route table, in one place.
func (s *Server) routes() http.Handler {
	r := mux.NewRouter()
	r.NotFoundHandler = http.HandlerFunc(s.handleWeb)
	r.MethodNotAllowedHandler = http.HandlerFunc(s.handleWeb)

	r.HandleFunc("/healthz", s.handleHealth).Methods(http.MethodGet, http.MethodHead)

	v1 := r.PathPrefix("/v1").Subrouter()
	v1.NotFoundHandler = http.HandlerFunc(notFoundJSON)
	v1.MethodNotAllowedHandler = http.HandlerFunc(methodNotAllowed)

	v1.HandleFunc("/config", handle(s.handleConfig)).Methods(http.MethodGet)

	// Reference data.
	v1.HandleFunc("/locations/province/list", handle(s.handleProvinceList)).Methods(http.MethodGet)
	v1.HandleFunc("/locations/cities/list/{provinceId}", handle(s.handleCityList)).Methods(http.MethodGet)
	v1.HandleFunc("/locations/nearest", handle(s.handleNearestCity)).Methods(http.MethodGet)
	v1.HandleFunc("/work_category/getTreeById", handle(s.handleCategoryTree)).Methods(http.MethodGet)
	v1.HandleFunc("/work_category/getFavourite", handle(s.handleCategoryFavourites)).Methods(http.MethodGet)

	var h http.Handler = r
	h = withGzip(h)
	h = s.withSecurityHeaders(h)
	h = withRecover(h)
	h = s.withRequest(h)
	return h
}
