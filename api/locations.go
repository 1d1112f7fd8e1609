package api

import (
	"net/http"
	"strconv"
	"strings"

	"kardan/store"
)

// handleProvinceList handles "GET /v1/locations/province/list".
func (s *Server) handleProvinceList(w http.ResponseWriter, r *http.Request) error {
	ps, err := s.store.Provinces(r.Context())
	if err != nil {
		return err
	}
	ok(w, ps)
	return nil
}

// handleCityList handles "GET /v1/locations/cities/list/{provinceId}".
func (s *Server) handleCityList(w http.ResponseWriter, r *http.Request) error {
	id, err := pathInt64(r, "provinceId")
	if err != nil {
		return err
	}
	if _, err := s.store.Province(r.Context(), id); err != nil {
		return err
	}
	cs, err := s.store.Cities(r.Context(), store.CityFilter{ProvinceID: &id})
	if err != nil {
		return err
	}
	ok(w, cs)
	return nil
}

// handleNearestCity handles "GET /v1/locations/nearest?lat=&long=": the city nearest a point,
// for the spec's fall-back to the nearest city. Answers the city and its distance in metres.
func (s *Server) handleNearestCity(w http.ResponseWriter, r *http.Request) error {
	v := &store.Validation{}
	lat := queryFloat(r, "lat", v)
	long := queryFloat(r, "long", v)
	if err := v.Err(); err != nil {
		return err
	}
	if !store.InIran(lat, long) {
		return store.Errorf(store.ENotFound, "position_not_found", nil)
	}
	c, d, err := s.store.NearestCity(r.Context(), lat, long)
	if err != nil {
		return err
	}
	ok(w, map[string]any{
		"id": c.ID, "province_id": c.ProvinceID, "farsi_name": c.FarsiName, "english_name": c.EnglishName,
		"slag": c.Slag, "lat": c.Lat, "long": c.Long, "capital": c.Capital, "distance": int64(d),
	})
	return nil
}

// queryFloat reads a required finite number from the query, recording what is wrong in v.
func queryFloat(r *http.Request, name string, v *store.Validation) float64 {
	raw := strings.TrimSpace(r.URL.Query().Get(name))
	if raw == "" {
		v.Enter(name)
		return 0
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || f != f || f > 1e6 || f < -1e6 {
		v.Correct(name)
		return 0
	}
	return f
}
