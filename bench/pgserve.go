package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/lib/pq"

	"kardan/store"
)

// pgServer is the PostgreSQL peer: the same three calls as Kardan's API, answered with plain SQL
// and the same JSON shapes, as a team that picked PostgreSQL would write them.
type pgServer struct {
	db        *sql.DB
	loc       *time.Location
	cats      map[int64]pgCategory
	catBySlug map[string]pgCategory
	cities    map[int64]pgCity
	cityBySlg map[string]pgCity
	provinces map[int64]pgProvince
	lex       *typoLexicon
	stmts     stmtCache
	counts    sync.Map // browse counts by filters
}

type pgCategory struct {
	ID          int64   `json:"id"`
	FarsiName   string  `json:"farsi_name"`
	EnglishName string  `json:"english_name"`
	Slag        string  `json:"slag"`
	ParentIDs   []int64 `json:"parent_ids"`
}

type pgCity struct {
	ID          int64  `json:"id"`
	FarsiName   string `json:"farsi_name"`
	EnglishName string `json:"english_name"`
	Slag        string `json:"slag"`
}

type pgProvince struct {
	ID          int64  `json:"id"`
	FarsiName   string `json:"farsi_name"`
	EnglishName string `json:"english_name"`
}

// runPGServe serves the PostgreSQL peer until ctx ends.
func runPGServe(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("pgserve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	dsn := fs.String("dsn", "", "PostgreSQL connection string")
	conns := fs.Int("conns", 8, "database connections")
	if err := fs.Parse(args); err != nil {
		return err
	}
	db, err := sql.Open("postgres", *dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(*conns)
	db.SetMaxIdleConns(*conns)
	loc, err := time.LoadLocation("Asia/Tehran")
	if err != nil {
		loc = time.UTC
	}
	s := &pgServer{db: db, loc: loc, stmts: stmtCache{db: db}}
	if err := s.loadRefs(ctx); err != nil {
		return err
	}
	if err := s.loadLexicon(ctx); err != nil {
		return fmt.Errorf("lexicon: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok\n")) })
	mux.HandleFunc("POST /v1/user-technical/searchUser", s.handle(s.searchUser))
	mux.HandleFunc("POST /v1/user-technical/searchUserSlag", s.handle(s.searchUserSlag))
	mux.HandleFunc("POST /v1/comment/get", s.handle(s.comments))
	return serveUntil(ctx, *addr, mux)
}

// loadRefs reads the reference data once: it never changes while the benchmark runs, and any
// application would cache it.
func (s *pgServer) loadRefs(ctx context.Context) error {
	s.cats, s.catBySlug = map[int64]pgCategory{}, map[string]pgCategory{}
	rows, err := s.db.QueryContext(ctx, `SELECT id, parent_id, farsi_name, english_name, slag FROM work_categories`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var c pgCategory
		var parent sql.NullInt64
		if err := rows.Scan(&c.ID, &parent, &c.FarsiName, &c.EnglishName, &c.Slag); err != nil {
			rows.Close()
			return err
		}
		c.ParentIDs = []int64{}
		if parent.Valid {
			c.ParentIDs = []int64{parent.Int64}
		}
		s.cats[c.ID], s.catBySlug[c.Slag] = c, c
	}
	rows.Close()
	s.cities, s.cityBySlg = map[int64]pgCity{}, map[string]pgCity{}
	rows, err = s.db.QueryContext(ctx, `SELECT id, farsi_name, english_name, slag FROM cities`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var c pgCity
		if err := rows.Scan(&c.ID, &c.FarsiName, &c.EnglishName, &c.Slag); err != nil {
			rows.Close()
			return err
		}
		s.cities[c.ID], s.cityBySlg[c.Slag] = c, c
	}
	rows.Close()
	s.provinces = map[int64]pgProvince{}
	rows, err = s.db.QueryContext(ctx, `SELECT id, farsi_name, english_name FROM provinces`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var p pgProvince
		if err := rows.Scan(&p.ID, &p.FarsiName, &p.EnglishName); err != nil {
			return err
		}
		s.provinces[p.ID] = p
	}
	return rows.Err()
}

// httpError is an answer with a status other than 200.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func (s *pgServer) handle(fn func(r *http.Request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		payload, err := fn(r)
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		if err != nil {
			status := http.StatusInternalServerError
			if he, ok := err.(*httpError); ok {
				status = he.status
			}
			w.WriteHeader(status)
			json.NewEncoder(w).Encode(map[string]any{"payload": nil, "message": err.Error()})
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"payload": payload, "message": ""})
	}
}

type pgSearchRequest struct {
	Take          int      `json:"take"`
	Skip          int      `json:"skip"`
	CategorySlag  string   `json:"category_slag"`
	CitySlag      string   `json:"city_slag"`
	Lat           *float64 `json:"lat"`
	Long          *float64 `json:"long"`
	Radius        float64  `json:"radius"`
	MinLevelScore *float64 `json:"minLevel_score"`
	MinScore      *float64 `json:"min_score"`
	SearchTxt     string   `json:"search_txt"`
	Order         string   `json:"order"`
}

// pgProfileColumns read a profile's read form in one query: the owner by join, the categories
// as an array.
const pgProfileColumns = `p.id, p.user_id, p.range_worker_id, p.province_id, p.city_id, p.profile_name, p.slug, p.key_word,
	p.work_history_years, p.descriotion, p.address, p.lat, p.long, p.account_status, p.active, p.display, p.delete_at,
	p.score, p.count_scorer, p.level_score, p.profile_image, p.logo, p.services, p.hours_of_work, p.social_network,
	p.area_working, p.portfolio_images, p.option, p.list_object, p.create_at, p.update_at,
	u.name, u.profile_image,
	ARRAY(SELECT category_id FROM profile_categories pc WHERE pc.profile_id = p.id ORDER BY category_id)`

// searchUserSlag answers POST /v1/user-technical/searchUserSlag.
func (s *pgServer) searchUserSlag(r *http.Request) (any, error) {
	var in struct {
		Slug string `json:"slug"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 1<<20)).Decode(&in); err != nil || in.Slug == "" {
		return nil, &httpError{http.StatusBadRequest, "slug"}
	}
	rows, err := s.db.QueryContext(r.Context(), `SELECT `+pgProfileColumns+` FROM profiles p JOIN users u ON u.id = p.user_id
		WHERE p.slug = $1 AND p.visible`, in.Slug)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, err
		}
		return nil, &httpError{http.StatusNotFound, "not found"}
	}
	return s.scanForm(rows)
}

type pgComment struct {
	ID           int64    `json:"id"`
	UserTechID   int64    `json:"user_technical_id"`
	CategoryList []int64  `json:"category_list"`
	Description  string   `json:"description"`
	Score        int      `json:"score"`
	Status       string   `json:"status"`
	CreateAt     string   `json:"create_at"`
	UpdateAt     string   `json:"update_at"`
	User         pgAuthor `json:"user"`
	Reply        *pgReply `json:"reply"`
}

type pgAuthor struct {
	ID           int64  `json:"id"`
	Name         string `json:"name"`
	ProfileImage string `json:"profileImage"`
}

type pgReply struct {
	Description string `json:"description"`
	CreateAt    string `json:"create_at"`
}

// comments answers POST /v1/comment/get: the profile must be visible, then a page of its
// visible comments, newest first, and their count.
func (s *pgServer) comments(r *http.Request) (any, error) {
	var in struct {
		ProfileID int64 `json:"user_technical_id"`
		Skip      int   `json:"skip"`
		Take      int   `json:"take"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 1<<20)).Decode(&in); err != nil || in.ProfileID <= 0 {
		return nil, &httpError{http.StatusBadRequest, "user_technical_id"}
	}
	if in.Take <= 0 || in.Take > 100 {
		in.Take = 20
	}
	var visible bool
	err := s.db.QueryRowContext(r.Context(), `SELECT visible FROM profiles WHERE id = $1`, in.ProfileID).Scan(&visible)
	if err == sql.ErrNoRows || (err == nil && !visible) {
		return nil, &httpError{http.StatusNotFound, "not found"}
	}
	if err != nil {
		return nil, err
	}
	var total int
	if err := s.db.QueryRowContext(r.Context(), `SELECT count(*) FROM comments WHERE profile_id = $1 AND NOT hidden`, in.ProfileID).Scan(&total); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(r.Context(), `SELECT c.id, c.profile_id, c.category_list, c.description, c.score, c.reply,
		c.reply_at, c.create_at, c.update_at, u.id, u.name, u.profile_image
		FROM comments c JOIN users u ON u.id = c.user_id WHERE c.profile_id = $1 AND NOT c.hidden
		ORDER BY c.create_at DESC, c.id DESC LIMIT $2 OFFSET $3`, in.ProfileID, in.Take, max(0, in.Skip))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []pgComment{}
	for rows.Next() {
		var c pgComment
		var cats []byte
		var reply sql.NullString
		var replyAt sql.NullInt64
		var created, updated int64
		if err := rows.Scan(&c.ID, &c.UserTechID, &cats, &c.Description, &c.Score, &reply, &replyAt, &created, &updated,
			&c.User.ID, &c.User.Name, &c.User.ProfileImage); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(cats, &c.CategoryList); err != nil {
			return nil, err
		}
		c.Status = "Visible"
		c.CreateAt, c.UpdateAt = isoTime(created), isoTime(updated)
		if reply.Valid {
			c.Reply = &pgReply{Description: reply.String, CreateAt: isoTime(replyAt.Int64)}
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return map[string]any{"comments": out, "count": total}, nil
}

func isoTime(sec int64) string { return time.Unix(sec, 0).UTC().Format(time.RFC3339) }

// pgProfileForm is the profile read form, field for field as Kardan answers it.
type pgProfileForm struct {
	ID               int64              `json:"id"`
	DeleteAt         *string            `json:"delete_at"`
	Active           bool               `json:"active"`
	Display          bool               `json:"display"`
	Option           json.RawMessage    `json:"option"`
	RegisterAdmin    pgRegisterAdmin    `json:"register_admin"`
	UserID           pgOwner            `json:"user_id"`
	RangeWorker      *pgCategory        `json:"range_worker"`
	CategoryList     []pgCategory       `json:"category_list"`
	ProfileImage     string             `json:"profile_image"`
	ProfileName      string             `json:"profile_name"`
	KeyWord          string             `json:"key_word"`
	WorkHistoryYears int                `json:"work_history_years"`
	Descriotion      string             `json:"descriotion"`
	LevelScore       float64            `json:"level_score"`
	CountScorer      int                `json:"count_scorer"`
	Score            float64            `json:"score"`
	Location         []float64          `json:"location"`
	AreaWorking      json.RawMessage    `json:"area_working"`
	Address          string             `json:"address"`
	AccountStatus    string             `json:"account_status"`
	PortfolioImages  json.RawMessage    `json:"portfolio_images"`
	CreateAt         string             `json:"create_at"`
	UpdateAt         string             `json:"update_at"`
	ListObject       json.RawMessage    `json:"list_object"`
	SocialNetwork    []store.SocialLink `json:"social_network"`
	Services         []store.Service    `json:"services"`
	HoursOfWork      store.Hours        `json:"hours_of_work"`
	Logo             string             `json:"logo"`
	Slug             string             `json:"slug"`
	Province         *pgProvince        `json:"province"`
	City             *pgCity            `json:"city"`
	OpenStatus       string             `json:"open_status"`
	Distance         *int64             `json:"distance,omitempty"`
}

type pgRegisterAdmin struct {
	AdminRegisterID *int64 `json:"adminRegisterId"`
	Description     string `json:"description"`
}

type pgOwner struct {
	UserID       int64  `json:"userId"`
	Name         string `json:"name"`
	ProfileImage string `json:"profileImage"`
}

func (s *pgServer) scanForm(rows *sql.Rows) (*pgProfileForm, error) { return s.scanFormWith(rows) }

// scanFormWith reads a profile's columns after the columns of lead.
func (s *pgServer) scanFormWith(rows *sql.Rows, lead ...any) (*pgProfileForm, error) {
	f := &pgProfileForm{CategoryList: []pgCategory{}}
	var field, province, city int64
	var lat, long float64
	var deleteAt sql.NullInt64
	var created, updated int64
	var services, hours, social []byte
	var cats pq.Int64Array
	err := rows.Scan(append(lead, &f.ID, &f.UserID.UserID, &field, &province, &city, &f.ProfileName, &f.Slug, &f.KeyWord,
		&f.WorkHistoryYears, &f.Descriotion, &f.Address, &lat, &long, &f.AccountStatus, &f.Active, &f.Display, &deleteAt,
		&f.Score, &f.CountScorer, &f.LevelScore, &f.ProfileImage, &f.Logo, &services, &hours, &social,
		&f.AreaWorking, &f.PortfolioImages, &f.Option, &f.ListObject, &created, &updated,
		&f.UserID.Name, &f.UserID.ProfileImage, &cats)...)
	if err != nil {
		return nil, fmt.Errorf("scan profile: %w", err)
	}
	for _, part := range []struct {
		raw []byte
		v   any
	}{{services, &f.Services}, {hours, &f.HoursOfWork}, {social, &f.SocialNetwork}} {
		if err := json.Unmarshal(part.raw, part.v); err != nil {
			return nil, fmt.Errorf("profile %d: %w", f.ID, err)
		}
	}
	f.Score, f.LevelScore = math.Round(f.Score*10)/10, math.Round(f.LevelScore*10)/10
	f.Location = []float64{long, lat}
	f.CreateAt, f.UpdateAt = isoTime(created), isoTime(updated)
	if deleteAt.Valid {
		d := isoTime(deleteAt.Int64)
		f.DeleteAt = &d
	}
	if c, ok := s.cats[field]; ok {
		f.RangeWorker = &c
	}
	for _, id := range cats {
		if c, ok := s.cats[id]; ok {
			f.CategoryList = append(f.CategoryList, c)
		}
	}
	if p, ok := s.provinces[province]; ok {
		f.Province = &p
	}
	if c, ok := s.cities[city]; ok {
		f.City = &c
	}
	f.OpenStatus = f.HoursOfWork.OpenStatus(time.Now().In(s.loc))
	return f, nil
}
