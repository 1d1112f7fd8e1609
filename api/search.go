package api

import (
	"net/http"
	"strings"

	"kardan/search"
	"kardan/store"
)

// Search bounds.
const (
	defaultRadius = 5000   // metres, the spec's query-search default
	maxRadius     = 200000 // metres
	maxSearchText = 200
	maxPrice      = 1_000_000_000_000 // Toman, as a service's price (store/profile_input.go)
)

// searchUserRequest is the body of searchUser (SPEC.md §7), plus province_id, order, open_now and
// the price range (price_min, price_max in Toman: a profile with a service priced within it).
type searchUserRequest struct {
	Take          *int     `json:"take"`
	Skip          *int     `json:"skip"`
	CategorySlag  string   `json:"category_slag"`
	CitySlag      string   `json:"city_slag"`
	ProvinceID    int64    `json:"province_id"`
	Lat           *float64 `json:"lat"`
	Long          *float64 `json:"long"`
	Radius        *float64 `json:"radius"`
	MinLevelScore *float64 `json:"minLevel_score"`
	MinScore      *float64 `json:"min_score"`
	SearchTxt     string   `json:"search_txt"`
	Order         string   `json:"order"`
	OpenNow       bool     `json:"open_now"`
	PriceMin      *int64   `json:"price_min"`
	PriceMax      *int64   `json:"price_max"`
}

// handleSearchUser handles "POST /v1/user-technical/searchUser".
func (s *Server) handleSearchUser(w http.ResponseWriter, r *http.Request) error {
	var in searchUserRequest
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	q, from, err := s.profileQuery(r, &in)
	if err != nil {
		return err
	}
	ix := s.searchIndex()
	if ix == nil && !q.Browses() {
		return errSearchBuilding()
	}
	viewer := userFrom(r)
	var hits *search.ProfileHits
	forms, private, err := s.answerProfiles(r.Context(), viewer, func(pv *publicView) ([]*cachedForm, error) {
		var err error
		sq := *q
		if pv != nil {
			sq.Head = pv.head // read just before: a browse need not read it again
		}
		if ix == nil {
			hits, err = search.Browse(r.Context(), s.store, sq)
		} else {
			hits, err = ix.SearchProfiles(r.Context(), sq)
		}
		if err != nil || pv == nil {
			return nil, err
		}
		return s.publicForms(r.Context(), pv, hits.IDs)
	})
	if err != nil {
		return err
	}
	if private {
		// An admin's or an owner's own search counts as no appearance.
		return s.writeSearchForms(w, r, hits, viewer, from)
	}
	s.countAppearances(r, forms)
	writePublicFormList(w, forms, hits.Total, s.now(), from, searchExtras(langOf(r), hits))
	return nil
}

// searchExtras encodes what a search answer says besides its profiles: the fallback it took when
// the text as typed matched nothing ("fallback": the category and city it shows, and a message
// in the asker's language) and "did_you_mean", the query with its unknown words corrected. Nil
// for an ordinary answer, which so costs nothing.
func searchExtras(lang Lang, hits *search.ProfileHits) []byte {
	if hits.Fallback == nil && hits.DidYouMean == "" {
		return nil
	}
	var b []byte
	if fb := hits.Fallback; fb != nil {
		name := func(p *search.Place) string {
			if lang == En {
				return p.En
			}
			return p.Fa
		}
		var msg string
		switch {
		case fb.Category != nil && fb.City != nil:
			msg = message(lang, "search_fallback_category_city", map[string]any{"category": name(fb.Category), "city": name(fb.City)})
		case fb.Category != nil:
			msg = message(lang, "search_fallback_category", map[string]any{"category": name(fb.Category)})
		default:
			msg = message(lang, "search_fallback_words", nil)
		}
		b = append(b, `,"fallback":{"category":`...)
		b = appendPlace(b, fb.Category)
		b = append(b, `,"city":`...)
		b = appendPlace(b, fb.City)
		b = append(b, `,"message":`...)
		b = appendString(b, msg)
		b = append(b, '}')
	}
	if hits.DidYouMean != "" {
		b = append(b, `,"did_you_mean":`...)
		b = appendString(b, hits.DidYouMean)
	}
	return b
}

// appendPlace encodes a category or city named in an answer, or null.
func appendPlace(b []byte, p *search.Place) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"slag":`...)
	b = appendString(b, p.Slug)
	b = append(b, `,"farsi_name":`...)
	b = appendString(b, p.Fa)
	b = append(b, `,"english_name":`...)
	b = appendString(b, p.En)
	return append(b, '}')
}

// writeSearchForms answers a search with the forms as viewer may see them, read afresh.
func (s *Server) writeSearchForms(w http.ResponseWriter, r *http.Request, hits *search.ProfileHits, viewer *store.User, from point) error {
	ps, err := s.store.ProfilesByIDs(r.Context(), hits.IDs)
	if err != nil {
		return err
	}
	// The index can trail the store by a moment: never show what stopped being visible.
	visible := ps[:0]
	for _, p := range ps {
		if p.Visible() {
			visible = append(visible, p)
		}
	}
	forms, err := s.profileForms(r.Context(), visible, viewer, from)
	if err != nil {
		return err
	}
	writeFormListWith(w, forms, hits.Total, searchExtras(langOf(r), hits))
	return nil
}

// profileQuery validates a searchUser body and resolves its slugs.
func (s *Server) profileQuery(r *http.Request, in *searchUserRequest) (*search.ProfileQuery, point, error) {
	v := &store.Validation{}
	q := &search.ProfileQuery{Take: defaultTake, Order: in.Order, Province: in.ProvinceID, OpenNow: in.OpenNow, Now: s.now()}
	if in.Take != nil && *in.Take != 0 {
		if *in.Take < 1 || *in.Take > maxTake {
			v.Add("take", "out_of_range", map[string]any{"min": 1, "max": maxTake})
		}
		q.Take = *in.Take
	}
	if in.Skip != nil {
		if *in.Skip < 0 || *in.Skip > maxSkip {
			v.Add("skip", "out_of_range", map[string]any{"min": 0, "max": maxSkip})
		}
		q.Skip = *in.Skip
	}
	q.Text = store.CleanText(in.SearchTxt, false)
	if store.RuneLen(q.Text) > maxSearchText {
		v.Add("search_txt", "too_long", map[string]any{"max": maxSearchText})
	}
	if !search.ValidOrder(in.Order) {
		v.Correct("order")
	}
	if in.ProvinceID < 0 {
		v.Correct("province_id")
	}
	// The spec's client sends radius 5000 with every query search, with or without a point, and
	// null or 0 for a coordinate it does not have: a point needs both coordinates, and radius means
	// nothing without one. Only a half point (one coordinate given) is refused.
	lat, long := coordinate(in.Lat), coordinate(in.Long)
	var from point
	switch {
	case lat != nil && long != nil:
		if *lat < -90 || *lat > 90 {
			v.Correct("lat")
		}
		if *long < -180 || *long > 180 {
			v.Correct("long")
		}
		q.HasPoint, q.Lat, q.Long = true, *lat, *long
		from = point{ok: true, lat: *lat, long: *long}
		q.Radius = defaultRadius
		if in.Radius != nil && *in.Radius != 0 {
			if *in.Radius < 0 || *in.Radius > maxRadius {
				v.Add("radius", "out_of_range", map[string]any{"min": 1, "max": maxRadius})
			}
			q.Radius = *in.Radius
		}
	case lat != nil:
		v.Enter("long")
	case long != nil:
		v.Enter("lat")
	}
	for field, val := range map[string]*float64{"min_score": in.MinScore, "minLevel_score": in.MinLevelScore} {
		if val != nil && (*val < 0 || *val > 5) {
			v.Add(field, "out_of_range", map[string]any{"min": 0, "max": 5})
		}
	}
	for field, val := range map[string]*int64{"price_min": in.PriceMin, "price_max": in.PriceMax} {
		if val != nil && (*val < 0 || *val > maxPrice) {
			v.Add(field, "out_of_range", map[string]any{"min": 0, "max": maxPrice})
		}
	}
	if in.PriceMin != nil && in.PriceMax != nil && *in.PriceMax > 0 && *in.PriceMin > *in.PriceMax && !v.Has("price_min") && !v.Has("price_max") {
		v.Add("price_min", "price_min_over_max", nil)
	}
	if in.PriceMin != nil && *in.PriceMin > 0 {
		q.PriceMin = *in.PriceMin
	}
	if in.PriceMax != nil && *in.PriceMax > 0 {
		q.PriceMax = *in.PriceMax
	}
	if in.MinScore != nil && *in.MinScore > 0 {
		q.MinScore = in.MinScore
	}
	if in.MinLevelScore != nil && *in.MinLevelScore > 0 {
		q.MinLevelScore = in.MinLevelScore
	}
	if city := strings.ToLower(strings.TrimSpace(in.CitySlag)); city != "" && city != "iran" {
		c, err := s.cityBySlag(r.Context(), city)
		if err != nil {
			if store.ErrorCode(err) != store.ENotFound {
				return nil, point{}, err
			}
			v.Correct("city_slag")
		} else {
			q.City, q.CityID = c.Slag, c.ID
		}
	}
	if cat := strings.ToLower(strings.TrimSpace(in.CategorySlag)); cat != "" {
		tree, err := s.categories(r.Context())
		if err != nil {
			return nil, point{}, err
		}
		switch c := tree.BySlag(cat); {
		case c == nil:
			v.Correct("category_slag")
		case c.IsField():
			q.Field, q.FieldID = c.Slag, c.ID
		default:
			q.Category, q.CategoryID = c.Slag, c.ID
		}
	}
	if err := v.Err(); err != nil {
		return nil, point{}, err
	}
	return q, from, nil
}

// coordinate answers a searchUser coordinate, nil when absent, null or 0 (no point).
func coordinate(c *float64) *float64 {
	if c == nil || *c == 0 {
		return nil
	}
	return c
}

// handleSearchUserSlag handles "POST /v1/user-technical/searchUserSlag {slug}" (or {slag}): one public
// profile by its slug (owners and admins also see theirs in any state).
func (s *Server) handleSearchUserSlag(w http.ResponseWriter, r *http.Request) error {
	// The spec spells slugs "slag" elsewhere (city and category slag), so its client may too.
	var in struct {
		Slug string `json:"slug"`
		Slag string `json:"slag"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	slug := strings.TrimSpace(in.Slug)
	if slug == "" {
		slug = strings.TrimSpace(in.Slag)
	}
	if slug == "" {
		v := &store.Validation{}
		v.Enter("slug")
		return v.Err()
	}
	viewer := userFrom(r)
	forms, private, err := s.answerProfiles(r.Context(), viewer, func(pv *publicView) ([]*cachedForm, error) {
		if pv == nil {
			return nil, nil
		}
		return s.slugPage(r.Context(), pv, slug)
	})
	if err != nil {
		return err
	}
	if private || !forms[0].visible {
		return s.writeSlugForm(w, r, slug, viewer) // private, or not found for a visitor
	}
	s.countView(r, forms[0].id, forms[0].userID)
	writePublicForm(w, forms[0], s.now())
	return nil
}

// writeSlugForm answers a profile page as viewer may see it, read afresh.
func (s *Server) writeSlugForm(w http.ResponseWriter, r *http.Request, slug string, viewer *store.User) error {
	p, err := s.store.ProfileBySlug(r.Context(), slug)
	if err != nil {
		return err
	}
	if !canSee(p, viewer) {
		return store.NotFound()
	}
	f, err := s.profileForm(r.Context(), p, viewer)
	if err != nil {
		return err
	}
	writeForm(w, f)
	return nil
}
