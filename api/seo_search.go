package api

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"kardan/store"
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
	at := &searchPlace{}
	citySlag := strings.ToLower(parts[0])
	if citySlag != "iran" {
		c, err := s.cityBySlag(r.Context(), citySlag)
		if err != nil {
			return pageMeta{}, false
		}
		where = name(c.FarsiName, c.EnglishName)
		place = where
		citySlag = c.Slag
		at.City = where
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
		at.Category, at.Field = what, c.IsField()
		heading = message(lang, "content_search_in", map[string]any{"what": what, "where": place})
		path += "/" + url.PathEscape(c.Slag)
		trail = append(trail, crumb{what, path})
	}
	if heading == "" {
		heading = message(lang, "content_search_all", map[string]any{"where": place})
	}
	if id, err := strconv.ParseInt(r.URL.Query().Get("province"), 10, 64); err == nil && id > 0 {
		if pr, err := s.store.Province(r.Context(), id); err == nil {
			at.ProvinceID, at.Province = id, name(pr.FarsiName, pr.EnglishName)
		}
	}
	args := map[string]any{"what": what, "where": where}
	return pageMeta{
		Heading:     heading,
		Title:       message(lang, "search_meta_title", args),
		Description: message(lang, "search_meta_desc", args),
		Path:        path,
		JSONLD:      []any{s.breadcrumbList(r, trail)},
		Search:      at,
	}, true
}

// searchPlace is what a search page's address names, as its filters show it: the city's name
// ("" for all of Iran) and the category's ("" for none), and whether that is a field of work.
type searchPlace struct {
	City, Category string
	Field          bool
	Province       string // the province the address's query names, when it exists
	ProvinceID     int64
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

// UnmarshalJSON reads each result's link and card apart, so that one card in a shape the page
// cannot read leaves that card plain instead of the whole page without its results.
func (r *searchResult) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &r.searchLink); err != nil {
		return err
	}
	if json.Unmarshal(b, &r.searchCard) != nil {
		r.searchCard = searchCard{}
	}
	return nil
}

// searchResult is one profile of a searchUser answer, as far as the page shows it: the link and
// its words, then what the app's card shows besides.
type searchResult struct {
	searchLink
	searchCard
}

// searchLink is what a result needs to be listed and linked to.
type searchLink struct {
	Slug         string        `json:"slug"`
	ProfileName  string        `json:"profile_name"`
	Score        float64       `json:"score"`
	CountScorer  int           `json:"count_scorer"`
	Address      string        `json:"address"`
	City         *cityRef      `json:"city"`
	RangeWorker  *categoryRef  `json:"range_worker"`
	CategoryList []categoryRef `json:"category_list"`
}

// searchCard is what the app's card shows besides (src/components/ProfileCard). Its values come
// from stored columns (a week, services) that another writer may have left in an older shape,
// so it is read apart from the link: a card it cannot read still lists its profile.
type searchCard struct {
	Verified        bool            `json:"verified"`
	ProfileImage    string          `json:"profile_image"`
	PortfolioImages []string        `json:"portfolio_images"`
	Logo            string          `json:"logo"`
	OpenStatus      string          `json:"open_status"`
	NextChange      *store.Change   `json:"next_change"`
	HoursOfWork     store.Hours     `json:"hours_of_work"`
	SpecialDays     []any           `json:"special_days"`
	Services        []searchService `json:"services"`
	Distance        *float64        `json:"distance"`
}

// searchService is what a card reads of a service: its price, when it has one.
type searchService struct {
	Price *float64 `json:"price"`
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
