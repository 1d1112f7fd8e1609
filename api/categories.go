package api

import (
	"net/http"

	"kardan/store"
)

// handleCategoryTree handles "GET /v1/work_category/getTreeById?id=": with no id the whole tree
// (the fields of work with their categories), with an id that node and its children.
func (s *Server) handleCategoryTree(w http.ResponseWriter, r *http.Request) error {
	id, err := queryInt64(r, "id")
	if err != nil {
		return err
	}
	t, err := s.categories(r.Context())
	if err != nil {
		return err
	}
	if id == 0 {
		ok(w, t.Roots)
		return nil
	}
	n := t.ByID(id)
	if n == nil {
		return store.NotFound()
	}
	ok(w, []*store.Category{n})
	return nil
}

// handleCategoryFavourites handles "GET /v1/work_category/getFavourite": the fields and
// categories marked for the home page's quick access, without their subtrees.
func (s *Server) handleCategoryFavourites(w http.ResponseWriter, r *http.Request) error {
	t, err := s.categories(r.Context())
	if err != nil {
		return err
	}
	favs := t.Favourites()
	out := make([]store.Category, len(favs))
	for i, c := range favs {
		out[i] = *c
		out[i].Children = []*store.Category{}
	}
	ok(w, out)
	return nil
}
