package api

import (
	"net/http"

	"kardan/store"
)

// handleCategoryTree handles "GET /v1/work_category/getTreeById?id=": with no id the whole tree
// (the fields of work with their categories), with an id that node and its children. The spec's
// client asks for the whole tree with id=0 or id=null (an unset variable), so those mean no id.
func (s *Server) handleCategoryTree(w http.ResponseWriter, r *http.Request) error {
	var id int64
	switch raw := r.URL.Query().Get("id"); raw {
	case "", "0", "null", "undefined":
	default:
		var err error
		if id, err = queryInt64(r, "id"); err != nil {
			return err
		}
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
