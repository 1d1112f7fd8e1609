package api

import (
	"net/http"
	"net/url"
	"strings"
)

// searchMeta answers the meta of a search page, /search/{city|iran}/{category?}, titled for its
// category and city; false when the city or the category is unknown, so such an address is a
// real 404 and not an endless supply of soft-404 pages that each claim to be canonical.
func (s *Server) searchMeta(r *http.Request, p string) (pageMeta, bool) {
	lang := langOf(r)
	parts := strings.Split(strings.TrimPrefix(p, "/search/"), "/")
	if len(parts) > 2 {
		return pageMeta{}, false
	}
	name := func(fa, en string) string {
		if lang == En && en != "" {
			return en
		}
		return fa
	}
	where := message(lang, "search_all_iran", nil)
	what := message(lang, "search_all_trades", nil)
	citySlag := strings.ToLower(parts[0])
	if citySlag != "iran" {
		c, err := s.store.CityBySlag(r.Context(), citySlag)
		if err != nil {
			return pageMeta{}, false
		}
		where = name(c.FarsiName, c.EnglishName)
		citySlag = c.Slag
	}
	path := "/search/" + url.PathEscape(citySlag)
	if len(parts) == 2 && parts[1] != "" {
		tree, err := s.categories(r.Context())
		if err != nil {
			return pageMeta{}, false
		}
		c := tree.BySlag(strings.ToLower(parts[1]))
		if c == nil {
			return pageMeta{}, false
		}
		what = name(c.FarsiName, c.EnglishName)
		path += "/" + url.PathEscape(c.Slag)
	}
	args := map[string]any{"what": what, "where": where}
	return pageMeta{
		Title:       message(lang, "search_meta_title", args),
		Description: message(lang, "search_meta_desc", args),
		Path:        path,
	}, true
}
