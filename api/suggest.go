package api

import (
	"net/http"
	"strings"

	"kardan/search"
	"kardan/store"
)

// maxSuggestText bounds what suggest reads of the text typed.
const maxSuggestText = 100

// suggestPlace is a category or city offered while typing.
type suggestPlace struct {
	Slag        string `json:"slag"`
	FarsiName   string `json:"farsi_name"`
	EnglishName string `json:"english_name"`
}

// suggestProfile is a profile offered while typing: enough for a line of the dropdown.
type suggestProfile struct {
	ID           int64         `json:"id"`
	ProfileName  string        `json:"profile_name"`
	Slug         string        `json:"slug"`
	City         *suggestPlace `json:"city"`
	ProfileImage string        `json:"profile_image"`
	Logo         string        `json:"logo"`
}

// handleSuggest handles "GET /v1/search/suggest?q=&city_slag=": the categories, cities and
// profiles that what is being typed may mean (search.Suggest), profiles in city_slag when given.
func (s *Server) handleSuggest(w http.ResponseWriter, r *http.Request) error {
	v := &store.Validation{}
	q := store.CleanText(r.URL.Query().Get("q"), false)
	if store.RuneLen(q) > maxSuggestText {
		v.Add("q", "too_long", map[string]any{"max": maxSuggestText})
	}
	var city string
	if c := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("city_slag"))); c != "" && c != "iran" {
		found, err := s.cityBySlag(r.Context(), c)
		switch {
		case store.ErrorCode(err) == store.ENotFound:
			v.Correct("city_slag")
		case err != nil:
			return err
		default:
			city = found.Slag
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	ix := s.searchIndex()
	if ix == nil {
		return errSearchBuilding()
	}
	sg, err := ix.Suggest(r.Context(), q, city)
	if err != nil {
		return err
	}
	out := struct {
		Categories []suggestPlace   `json:"categories"`
		Cities     []suggestPlace   `json:"cities"`
		Profiles   []suggestProfile `json:"profiles"`
	}{places(sg.Categories), places(sg.Cities), []suggestProfile{}}
	if len(sg.Profiles) > 0 {
		rf, err := s.refs(r.Context())
		if err != nil {
			return err
		}
		// Only the visible ones: the index can trail the store by a moment.
		ps, err := s.store.VisibleProfileCards(r.Context(), sg.Profiles)
		if err != nil {
			return err
		}
		for _, p := range ps {
			sp := suggestProfile{ID: p.ID, ProfileName: p.ProfileName, Slug: p.Slug, ProfileImage: p.ProfileImage, Logo: p.Logo}
			if c, ok := rf.cities[p.CityID]; ok {
				sp.City = &suggestPlace{Slag: c.Slag, FarsiName: c.FarsiName, EnglishName: c.EnglishName}
			}
			out.Profiles = append(out.Profiles, sp)
		}
	}
	ok(w, out)
	return nil
}

func places(ps []search.Place) []suggestPlace {
	out := make([]suggestPlace, len(ps))
	for i, p := range ps {
		out[i] = suggestPlace{Slag: p.Slug, FarsiName: p.Fa, EnglishName: p.En}
	}
	return out
}
