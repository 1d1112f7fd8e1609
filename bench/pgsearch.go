package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"kardan/search"
	"kardan/store"
)

// stmtCache prepares each SQL text once per connection pool and keeps it: the searches come
// in a few shapes, and a prepared statement skips the parse (PostgreSQL then also may keep a
// generic plan when it is as good as a custom one).
type stmtCache struct {
	db *sql.DB
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

func (p *stmtCache) get(ctx context.Context, query string) (*sql.Stmt, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if st, ok := p.m[query]; ok {
		return st, nil
	}
	st, err := p.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if p.m == nil {
		p.m = map[string]*sql.Stmt{}
	}
	p.m[query] = st
	return st, nil
}

// loadLexicon reads the search table's vocabulary (word and number of profiles) for typo
// correction. Like the reference data it is read once: the benchmark does not write, and a
// production peer would refresh it as Kardan's lexicon follows its index.
func (s *pgServer) loadLexicon(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `SELECT word, ndoc FROM ts_stat('SELECT tsv FROM profile_search')`)
	if err != nil {
		return err
	}
	defer rows.Close()
	docs := map[string]int{}
	for rows.Next() {
		var w string
		var n int
		if err := rows.Scan(&w, &n); err != nil {
			return err
		}
		docs[w] = n
	}
	if err := rows.Err(); err != nil {
		return err
	}
	s.lex = newTypoLexicon(docs)
	return nil
}

// searchUser answers POST /v1/user-technical/searchUser the way the fairness review's expert
// would: the hits of the narrow search table (or of cat_geo for a category around a point) in
// one materialized CTE, their count and the page from it in one statement, the wide profile
// rows joined for the page only. Browsing without text or place reads the page off a btree
// index and caches the count, as Kardan caches browse counts until the next write (the
// benchmark does not write).
func (s *pgServer) searchUser(r *http.Request) (any, error) {
	var in pgSearchRequest
	if err := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 1<<20)).Decode(&in); err != nil {
		return nil, &httpError{http.StatusBadRequest, "bad body"}
	}
	if in.Take <= 0 || in.Take > 100 {
		in.Take = 20
	}
	where, args := []string{}, []any{}
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	tokens := search.QueryTokens(in.SearchTxt)
	tq := ""
	if len(tokens) > 0 {
		tq = arg(buildPeerQuery(tokens, s.lex).tsquery())
		where = append(where, "s.tsv @@ to_tsquery('kardan', "+tq+")")
	}
	if slug := strings.ToLower(strings.TrimSpace(in.CitySlag)); slug != "" && slug != "iran" {
		c, ok := s.cityBySlg[slug]
		if !ok {
			return nil, &httpError{http.StatusBadRequest, "city_slag"}
		}
		where = append(where, "s.city_id = "+arg(c.ID))
	}
	catArg := ""
	if slug := strings.ToLower(strings.TrimSpace(in.CategorySlag)); slug != "" {
		c, ok := s.catBySlug[slug]
		if !ok {
			return nil, &httpError{http.StatusBadRequest, "category_slag"}
		}
		catArg = arg(c.ID)
		if len(c.ParentIDs) == 0 {
			where = append(where, "s.range_worker_id = "+catArg)
		} else {
			where = append(where, "EXISTS (SELECT 1 FROM profile_categories pc WHERE pc.profile_id = s.id AND pc.category_id = "+catArg+")")
		}
	}
	if in.MinScore != nil && *in.MinScore > 0 {
		where = append(where, "s.score >= "+arg(*in.MinScore))
	}
	if in.MinLevelScore != nil && *in.MinLevelScore > 0 {
		where = append(where, "s.level_score >= "+arg(*in.MinLevelScore))
	}
	hasPoint := in.Lat != nil && in.Long != nil
	order := in.Order
	if order == "" || order == "relevance" {
		switch {
		case tq != "":
			order = "relevance"
		case hasPoint:
			order = "nearest"
		default:
			order = "best"
		}
	}
	if order == "relevance" && tq == "" || order == "nearest" && !hasPoint {
		order = "best"
	}
	// The hits' columns that the order reads, and the order over them.
	cols, by := "s.level_score AS ls, s.count_scorer AS cs", "%[1]sls DESC, %[1]scs DESC, %[1]sid"
	switch order {
	case "relevance":
		cols, by = "ts_rank(s.tsv, to_tsquery('kardan', "+tq+")) AS r, s.level_score AS ls", "%[1]sr DESC, %[1]sls DESC, %[1]sid"
	case "reviews":
		by = "%[1]scs DESC, %[1]sls DESC, %[1]sid"
	case "newest":
		cols, by = "s.create_at AS ca", "%[1]sca DESC, %[1]sid DESC"
	}
	from := "profile_search s"
	if hasPoint {
		radius := in.Radius
		if radius <= 0 {
			radius = 5000
		}
		lat, long := *in.Lat, *in.Long
		dLat := radius / 111320
		dLong := radius / (111320 * math.Cos(lat*math.Pi/180))
		la, lo := arg(lat), arg(long)
		dist := fmt.Sprintf("haversine(%s, %s, s.lat, s.long)", la, lo)
		box := fmt.Sprintf("point(s.long, s.lat) <@ box(point(%s, %s), point(%s, %s))", arg(long-dLong), arg(lat-dLat), arg(long+dLong), arg(lat+dLat))
		if catArg != "" && len(where) == 1 && order == "nearest" {
			// Only the category and the place: the composite GiST index answers both. The
			// category must be a bigint, or it drops out of the index condition.
			from = "cat_geo s"
			where = []string{"s.category_id = " + catArg + "::bigint"}
		}
		where = append(where, box, dist+" <= "+arg(radius))
		if order == "nearest" {
			cols, by = dist+" AS d", "%[1]sd, %[1]sid"
		}
	}
	cond := "true"
	if len(where) > 0 {
		cond = strings.Join(where, " AND ")
	}
	take, skip := arg(in.Take), arg(max(0, in.Skip))
	var query string
	if tq == "" && !hasPoint {
		query = `SELECT 0, ` + pgProfileColumns + ` FROM (SELECT s.id, ` + cols + ` FROM ` + from + ` WHERE ` + cond +
			` ORDER BY ` + fmt.Sprintf(by, "") + ` LIMIT ` + take + ` OFFSET ` + skip + `) top
			JOIN profiles p ON p.id = top.id JOIN users u ON u.id = p.user_id ORDER BY ` + fmt.Sprintf(by, "top.")
	} else {
		query = `WITH hits AS MATERIALIZED (SELECT s.id, ` + cols + ` FROM ` + from + ` WHERE ` + cond + `),
			top AS (SELECT * FROM hits ORDER BY ` + fmt.Sprintf(by, "") + ` LIMIT ` + take + ` OFFSET ` + skip + `)
			SELECT (SELECT count(*) FROM hits), ` + pgProfileColumns + ` FROM top JOIN profiles p ON p.id = top.id
			JOIN users u ON u.id = p.user_id ORDER BY ` + fmt.Sprintf(by, "top.")
	}
	ctx := r.Context()
	st, err := s.stmts.get(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	forms := []*pgProfileForm{}
	total := -1
	for rows.Next() {
		f, n, err := s.scanCountedForm(rows)
		if err != nil {
			return nil, err
		}
		total = n
		if hasPoint {
			d := int64(math.Round(store.Haversine(*in.Lat, *in.Long, f.Location[1], f.Location[0])))
			f.Distance = &d
		}
		forms = append(forms, f)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if tq == "" && !hasPoint || total < 0 {
		// Browsing (or a page past the last hit): the count alone, cached by its filters.
		n, err := s.count(ctx, from, cond, args[:len(args)-2])
		if err != nil {
			return nil, err
		}
		total = n
	}
	return map[string]any{"profiles": forms, "count": total}, nil
}

// count answers how many hits the filters have, cached by the filters: the data does not change
// while the benchmark runs, and Kardan keeps its browse counts until the next write.
func (s *pgServer) count(ctx context.Context, from, cond string, args []any) (int, error) {
	key := from + "|" + cond + "|" + fmt.Sprint(args...)
	if v, ok := s.counts.Load(key); ok {
		return v.(int), nil
	}
	st, err := s.stmts.get(ctx, `SELECT count(*) FROM `+from+` WHERE `+cond)
	if err != nil {
		return 0, err
	}
	var n int
	if err := st.QueryRowContext(ctx, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count: %w", err)
	}
	s.counts.Store(key, n)
	return n, nil
}

// scanCountedForm reads a row of the count followed by a profile's columns.
func (s *pgServer) scanCountedForm(rows *sql.Rows) (*pgProfileForm, int, error) {
	var n int
	f, err := s.scanFormWith(rows, &n)
	return f, n, err
}
