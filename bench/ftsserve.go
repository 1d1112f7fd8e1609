package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"

	"kardan/search"
	"kardan/store"
)

// searchQuery is the engine's query, which the FTS5 peer answers too.
type searchQuery = search.ProfileQuery

// runFTSServe serves the SQLite FTS5 peer over HTTP until ctx ends: searchUser with the same JSON
// as Kardan and the PostgreSQL peer (encoding/json, as a team would write it), the page read from
// a copy of Kardan's database.
func runFTSServe(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("ftsserve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	ftsPath := fs.String("fts", "", "the peer's FTS5 database (built by bench run)")
	dbPath := fs.String("db", "", "a copy of Kardan's database, for the pages")
	if err := fs.Parse(args); err != nil {
		return err
	}
	st, err := store.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	peer, err := openFTSPeer(ctx, *ftsPath, st)
	if err != nil {
		return err
	}
	defer peer.close()
	refs, err := sql.Open("sqlite3", "file:"+*dbPath+"?mode=ro")
	if err != nil {
		return err
	}
	defer refs.Close()
	loc, err := time.LoadLocation("Asia/Tehran")
	if err != nil {
		loc = time.UTC
	}
	// The reference tables have the same names and columns in both databases.
	s := &pgServer{db: refs, loc: loc}
	if err := s.loadRefs(ctx); err != nil {
		return err
	}
	f := &ftsServer{refs: s, peer: peer}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok\n")) })
	mux.HandleFunc("POST /v1/user-technical/searchUser", s.handle(f.searchUser))
	return serveUntil(ctx, *addr, mux)
}

type ftsServer struct {
	refs *pgServer
	peer *ftsPeer
}

func (f *ftsServer) searchUser(r *http.Request) (any, error) {
	var in pgSearchRequest
	if err := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 1<<20)).Decode(&in); err != nil {
		return nil, &httpError{http.StatusBadRequest, "bad body"}
	}
	q, err := f.refs.profileQuery(&in)
	if err != nil {
		return nil, err
	}
	hits, err := f.peer.search(r.Context(), q)
	if err != nil {
		return nil, err
	}
	ps, owners, err := f.peer.st.ProfilesWithOwners(r.Context(), hits.IDs)
	if err != nil {
		return nil, err
	}
	forms := make([]*pgProfileForm, 0, len(ps))
	for i, p := range ps {
		form, err := f.refs.formOf(p, owners[p.UserID])
		if err != nil {
			return nil, err
		}
		if i < len(hits.Distance) {
			d := int64(math.Round(hits.Distance[i]))
			form.Distance = &d
		}
		forms = append(forms, form)
	}
	return map[string]any{"profiles": forms, "count": hits.Total}, nil
}

// formOf answers a store profile's read form, field for field as the PostgreSQL peer writes it.
func (s *pgServer) formOf(p *store.Profile, owner store.ProfileAuthor) (*pgProfileForm, error) {
	f := &pgProfileForm{ID: p.ID, Active: p.Active, Display: p.Display, ProfileImage: p.ProfileImage,
		ProfileName: p.ProfileName, KeyWord: p.KeyWord, WorkHistoryYears: p.WorkHistoryYears, Descriotion: p.Descriotion,
		LevelScore: math.Round(p.LevelScore*10) / 10, CountScorer: p.CountScorer, Score: math.Round(p.Score*10) / 10,
		Location: []float64{p.Long, p.Lat}, Address: p.Address, AccountStatus: p.AccountStatus, ListObject: p.ListObject,
		CreateAt: isoTime(p.CreateAt), UpdateAt: isoTime(p.UpdateAt), Logo: p.Logo, Slug: p.Slug,
		UserID: pgOwner{UserID: p.UserID, Name: owner.Name, ProfileImage: owner.ProfileImage}, CategoryList: []pgCategory{},
		Services: p.Services, HoursOfWork: p.HoursOfWork, SocialNetwork: p.SocialNetwork}
	area, option, portfolio := any(p.AreaWorking), any(p.Option), any(p.PortfolioImages)
	if l := p.Stored; l != nil {
		// The stored week may be shared with other profiles: decode into fresh values.
		f.Services, f.HoursOfWork, f.SocialNetwork = nil, nil, nil
		for _, part := range []struct {
			raw string
			v   any
		}{{l.Services, &f.Services}, {l.HoursOfWork, &f.HoursOfWork}, {l.SocialNetwork, &f.SocialNetwork}} {
			if err := json.Unmarshal([]byte(part.raw), part.v); err != nil {
				return nil, fmt.Errorf("profile %d: %w", p.ID, err)
			}
		}
		area, option, portfolio = json.RawMessage(l.AreaWorking), json.RawMessage(l.Option), json.RawMessage(l.PortfolioImages)
	}
	var err error
	for _, part := range []struct {
		v   any
		dst *json.RawMessage
	}{{area, &f.AreaWorking}, {option, &f.Option}, {portfolio, &f.PortfolioImages}} {
		if *part.dst, err = json.Marshal(part.v); err != nil {
			return nil, err
		}
	}
	if len(f.ListObject) == 0 {
		f.ListObject = json.RawMessage("[]")
	}
	if c, ok := s.cats[p.RangeWorkerID]; ok {
		f.RangeWorker = &c
	}
	for _, id := range p.CategoryIDs {
		if c, ok := s.cats[id]; ok {
			f.CategoryList = append(f.CategoryList, c)
		}
	}
	if pr, ok := s.provinces[p.ProvinceID]; ok {
		f.Province = &pr
	}
	if c, ok := s.cities[p.CityID]; ok {
		f.City = &c
	}
	f.OpenStatus = f.HoursOfWork.OpenStatus(time.Now().In(s.loc))
	return f, nil
}

// profileQuery reads a searchUser body into the engine's query, resolving the slugs.
func (s *pgServer) profileQuery(in *pgSearchRequest) (*searchQuery, error) {
	q := &searchQuery{Text: in.SearchTxt, Take: in.Take, Skip: in.Skip, Order: in.Order, MinScore: in.MinScore,
		MinLevelScore: in.MinLevelScore}
	if slug := strings.ToLower(strings.TrimSpace(in.CitySlag)); slug != "" && slug != "iran" {
		c, ok := s.cityBySlg[slug]
		if !ok {
			return nil, &httpError{http.StatusBadRequest, "city_slag"}
		}
		q.City, q.CityID = c.Slag, c.ID
	}
	if slug := strings.ToLower(strings.TrimSpace(in.CategorySlag)); slug != "" {
		c, ok := s.catBySlug[slug]
		switch {
		case !ok:
			return nil, &httpError{http.StatusBadRequest, "category_slag"}
		case len(c.ParentIDs) == 0:
			q.Field, q.FieldID = c.Slag, c.ID
		default:
			q.Category, q.CategoryID = c.Slag, c.ID
		}
	}
	if in.Lat != nil && in.Long != nil {
		q.HasPoint, q.Lat, q.Long, q.Radius = true, *in.Lat, *in.Long, in.Radius
	}
	return q, nil
}
