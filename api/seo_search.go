package api

import (
	"encoding/json"
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
	// The page's heading is the app's (search.titleAll, search.titleCategory, search.iran); the
	// title and description above it say more for a results page in a search engine.
	place := message(lang, "content_all_iran", nil)
	heading := ""
	citySlag := strings.ToLower(parts[0])
	if citySlag != "iran" {
		c, err := s.cityBySlag(r.Context(), citySlag)
		if err != nil {
			return pageMeta{}, false
		}
		where = name(c.FarsiName, c.EnglishName)
		place = where
		citySlag = c.Slag
	}
	path := "/search/" + url.PathEscape(citySlag)
	trail := []crumb{{message(lang, "site_name", nil), "/"}, {where, path}}
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
		heading = message(lang, "content_search_in", map[string]any{"what": what, "where": place})
		path += "/" + url.PathEscape(c.Slag)
		trail = append(trail, crumb{what, path})
	}
	if heading == "" {
		heading = message(lang, "content_search_all", map[string]any{"where": place})
	}
	args := map[string]any{"what": what, "where": where}
	return pageMeta{
		Heading:     heading,
		Title:       message(lang, "search_meta_title", args),
		Description: message(lang, "search_meta_desc", args),
		Path:        path,
		JSONLD:      []any{s.breadcrumbList(r, trail)},
	}, true
}

// searchResults is the part of a searchUser answer a search page shows without its app: the
// envelope the API wrote for the page's first request, read back, so the page and the app show
// the same results in the same order.
type searchResults struct {
	Payload struct {
		Profiles []searchResult `json:"profiles"`
		Count    int            `json:"count"`
	} `json:"payload"`
}

// searchResult is one profile of a searchUser answer, as far as the page shows it.
type searchResult struct {
	Slug         string        `json:"slug"`
	ProfileName  string        `json:"profile_name"`
	Score        float64       `json:"score"`
	CountScorer  int           `json:"count_scorer"`
	Address      string        `json:"address"`
	City         *cityRef      `json:"city"`
	RangeWorker  *categoryRef  `json:"range_worker"`
	CategoryList []categoryRef `json:"category_list"`
}

// readSearchResults reads the first answer of a search page; nil when it has none.
func readSearchResults(a *firstAnswer) *searchResults {
	if a == nil {
		return nil
	}
	var out searchResults
	if json.Unmarshal(a.answer, &out) != nil {
		return nil
	}
	return &out
}

// itemList answers schema.org ItemList JSON-LD of a search page's first page of results (a
// summary page: each item is the address of the profile's own page).
func (s *Server) itemList(r *http.Request, res *searchResults) map[string]any {
	items := make([]map[string]any, len(res.Payload.Profiles))
	for i, p := range res.Payload.Profiles {
		items[i] = map[string]any{"@type": "ListItem", "position": i + 1, "url": s.siteURL(r, "/profile/"+url.PathEscape(p.Slug))}
	}
	return map[string]any{"@context": "https://schema.org", "@type": "ItemList", "numberOfItems": len(items), "itemListElement": items}
}
