package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"kardan/search"
	"kardan/store"
)

// The SQLite peer: the obvious single-binary alternative to Bleve plus Kardan's ranking, built
// the way the fairness review built it (shared/research/perf/REVIEW.md §3): an FTS5 table over
// exactly the folded text the PostgreSQL peer indexes, ranked by bm25 (the name weighted above
// the rest), the city as a token of its own column, R*Trees for places (one with the category
// as a dimension, like PostgreSQL's composite GiST), a narrow table for browsing, and the page's
// profiles read with store.ProfilesByIDs, as the bare harness does. FTS5 needs go-sqlite3's
// sqlite_fts5 build tag, which only the benchmark's build sets (the product uses no FTS5).

// ftsSchema is the peer's own database, beside a copy of Kardan's.
const ftsSchema = `
CREATE VIRTUAL TABLE fts USING fts5(name, body, city, tokenize = 'unicode61 remove_diacritics 0', prefix = '3 4 5 6');
CREATE TABLE prof (id INTEGER PRIMARY KEY, city_id INTEGER NOT NULL, field_id INTEGER NOT NULL, level_score REAL NOT NULL,
  count_scorer INTEGER NOT NULL, score REAL NOT NULL, create_at INTEGER NOT NULL, lat REAL NOT NULL, long REAL NOT NULL);
CREATE TABLE pcat (category_id INTEGER NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (category_id, id)) WITHOUT ROWID;
CREATE VIRTUAL TABLE geo USING rtree(id, lat0, lat1, long0, long1, +lat REAL, +long REAL);
CREATE VIRTUAL TABLE cat_geo USING rtree(rid, cat0, cat1, lat0, lat1, long0, long1, +id INTEGER, +lat REAL, +long REAL);
`

const ftsIndexes = `
CREATE INDEX prof_best ON prof (level_score DESC, count_scorer DESC, id);
CREATE INDEX prof_city_best ON prof (city_id, level_score DESC, count_scorer DESC, id);
CREATE INDEX prof_field_best ON prof (field_id, level_score DESC, count_scorer DESC, id);
`

// errNoFTS5 says the benchmark was built without the sqlite_fts5 tag.
var errNoFTS5 = errors.New("this benchmark binary was built without FTS5 (go build -tags sqlite_fts5 ./bench, as `make bench` does)")

// ftsAvailable reports whether this binary's SQLite has FTS5.
func ftsAvailable() bool {
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		return false
	}
	defer db.Close()
	_, err = db.Exec(`CREATE VIRTUAL TABLE t USING fts5(x)`)
	return err == nil
}

// buildFTS writes the peer's database at path from the visible profiles of Kardan's database,
// answering the seconds it took.
func buildFTS(ctx context.Context, kardanDB, path string) (float64, error) {
	start := time.Now()
	os.Remove(path)
	db, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=OFF&_synchronous=OFF")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, ftsSchema); err != nil {
		if strings.Contains(err.Error(), "no such module: fts5") {
			return 0, errNoFTS5
		}
		return 0, fmt.Errorf("fts schema: %w", err)
	}
	lite, err := sql.Open("sqlite3", "file:"+kardanDB+"?mode=ro&_query_only=true")
	if err != nil {
		return 0, err
	}
	defer lite.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	stmt := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var s *sql.Stmt
		s, err = tx.PrepareContext(ctx, q)
		return s
	}
	insFTS := stmt(`INSERT INTO fts (rowid, name, body, city) VALUES (?, ?, ?, ?)`)
	insProf := stmt(`INSERT INTO prof VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	insCat := stmt(`INSERT OR IGNORE INTO pcat VALUES (?, ?)`)
	insGeo := stmt(`INSERT INTO geo VALUES (?, ?, ?, ?, ?, ?, ?)`)
	insCatGeo := stmt(`INSERT INTO cat_geo VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return 0, err
	}
	rows, err := lite.QueryContext(ctx, `SELECT id, profile_name, key_word, descriotion, services, area_working, option, city_id,
		range_worker_id, level_score, count_scorer, score, create_at, COALESCE(lat, 0), COALESCE(long, 0),
		(SELECT group_concat(category_id) FROM profile_categories WHERE profile_id = p.id)
		FROM profiles p WHERE visible = 1`)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, city, field, count, created int64
		var name, keyWord, desc, services, area, option string
		var cats sql.NullString
		var level, score, lat, long float64
		if err := rows.Scan(&id, &name, &keyWord, &desc, &services, &area, &option, &city, &field, &level, &count, &score,
			&created, &lat, &long, &cats); err != nil {
			return 0, err
		}
		n, body := peerTexts(name, keyWord, desc, services, area, option)
		if _, err := insFTS.ExecContext(ctx, id, n, body, "c"+strconv.FormatInt(city, 10)); err != nil {
			return 0, err
		}
		if _, err := insProf.ExecContext(ctx, id, city, field, level, count, score, created, lat, long); err != nil {
			return 0, err
		}
		if _, err := insGeo.ExecContext(ctx, id, lat, lat, long, long, lat, long); err != nil {
			return 0, err
		}
		ids := []int64{field}
		for _, c := range strings.Split(cats.String, ",") {
			if c, err := strconv.ParseInt(c, 10, 64); err == nil && c != field {
				ids = append(ids, c)
			}
		}
		for _, c := range ids {
			if _, err := insCat.ExecContext(ctx, c, id); err != nil {
				return 0, err
			}
			if _, err := insCatGeo.ExecContext(ctx, c, c, lat, lat, long, long, id, lat, long); err != nil {
				return 0, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, ftsIndexes); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO fts (fts) VALUES ('optimize'); ANALYZE;`); err != nil {
		return 0, err
	}
	return time.Since(start).Seconds(), nil
}

// peerTexts answers the folded name and text both peers index: key words (which hold the field,
// category, city and province names in both languages), description, service titles, areas and
// options.
func peerTexts(name, keyWord, desc, services, area, option string) (string, string) {
	text := []string{keyWord, desc}
	var svc []store.Service
	if json.Unmarshal([]byte(services), &svc) == nil {
		for _, sv := range svc {
			text = append(text, sv.Title)
		}
	}
	for _, s := range []string{area, option} {
		var list []string
		if json.Unmarshal([]byte(s), &list) == nil {
			text = append(text, list...)
		}
	}
	return search.IndexText(name), search.IndexText(strings.Join(text, " \n "))
}

// ftsPeer answers searches from the FTS5 database and reads the page from a copy of Kardan's.
type ftsPeer struct {
	db     *sql.DB
	st     *store.Store
	lex    *typoLexicon
	stmts  stmtCache
	counts sync.Map
}

// openFTSPeer opens the peer's database and the store copy at kardanDB (which it does not own).
func openFTSPeer(ctx context.Context, path string, st *store.Store) (*ftsPeer, error) {
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro&_cache_size=-65536")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)
	p := &ftsPeer{db: db, st: st, stmts: stmtCache{db: db}}
	docs, err := ftsVocabulary(ctx, db)
	if err != nil {
		db.Close()
		return nil, err
	}
	p.lex = newTypoLexicon(docs)
	return p, nil
}

// ftsVocabulary reads the index's words and their document counts through fts5vocab, on one
// connection (the vocabulary table lives in its temp schema).
func ftsVocabulary(ctx context.Context, db *sql.DB) (map[string]int, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, 'fts', 'row')`); err != nil {
		if strings.Contains(err.Error(), "no such module") {
			return nil, errNoFTS5
		}
		return nil, err
	}
	rows, err := conn.QueryContext(ctx, `SELECT term, doc FROM temp.vocab`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	docs := map[string]int{}
	for rows.Next() {
		var w string
		var n int
		if err := rows.Scan(&w, &n); err != nil {
			return nil, err
		}
		docs[w] = n
	}
	return docs, rows.Err()
}

func (p *ftsPeer) close() { p.db.Close() }

// ftsHits are a page of ids, their distances when the query has a point, and the count.
type ftsHits struct {
	IDs      []int64
	Distance []float64
	Total    int
}

// search answers q's page and count.
func (p *ftsPeer) search(ctx context.Context, q *search.ProfileQuery) (*ftsHits, error) {
	take, skip := q.Take, max(0, q.Skip)
	if take <= 0 || take > 100 {
		take = 20
	}
	catID := q.CategoryID
	if catID == 0 {
		catID = q.FieldID
	}
	tokens := search.QueryTokens(q.Text)
	if q.HasPoint {
		return p.near(ctx, q, tokens, catID, take, skip)
	}
	if len(tokens) > 0 {
		match := buildPeerQuery(tokens, p.lex).fts5()
		if q.CityID != 0 {
			match = "city : c" + strconv.FormatInt(q.CityID, 10) + " AND " + match
		}
		filter, args := "", []any{match}
		if catID != 0 {
			filter, args = " AND rowid IN (SELECT id FROM pcat WHERE category_id = ?)", append(args, catID)
		}
		total, err := p.scalar(ctx, `SELECT count(*) FROM fts WHERE fts MATCH ?`+filter, args...)
		if err != nil {
			return nil, err
		}
		order := ` ORDER BY bm25(fts, 4.0, 1.0, 0.0), rowid`
		if q.Order == "best" {
			order = ` ORDER BY (SELECT level_score FROM prof WHERE id = fts.rowid) DESC, rowid`
		}
		ids, err := p.ids(ctx, `SELECT rowid FROM fts WHERE fts MATCH ?`+filter+order+` LIMIT ? OFFSET ?`, append(args, take, skip)...)
		return &ftsHits{IDs: ids, Total: total}, err
	}
	// Browsing: the page off the index, the count cached as Kardan caches it.
	where, args := []string{"1"}, []any{}
	if q.CityID != 0 {
		where, args = append(where, "city_id = ?"), append(args, q.CityID)
	}
	switch {
	case q.FieldID != 0 && q.CategoryID == 0:
		where, args = append(where, "field_id = ?"), append(args, q.FieldID)
	case catID != 0:
		where, args = append(where, "id IN (SELECT id FROM pcat WHERE category_id = ?)"), append(args, catID)
	}
	if q.MinScore != nil {
		where, args = append(where, "score >= ?"), append(args, *q.MinScore)
	}
	if q.MinLevelScore != nil {
		where, args = append(where, "level_score >= ?"), append(args, *q.MinLevelScore)
	}
	cond := strings.Join(where, " AND ")
	key := cond + fmt.Sprint(args...)
	total, ok := p.counts.Load(key)
	if !ok {
		n, err := p.scalar(ctx, `SELECT count(*) FROM prof WHERE `+cond, args...)
		if err != nil {
			return nil, err
		}
		p.counts.Store(key, n)
		total = n
	}
	order := "level_score DESC, count_scorer DESC, id"
	switch q.Order {
	case "reviews":
		order = "count_scorer DESC, level_score DESC, id"
	case "newest":
		order = "create_at DESC, id DESC"
	}
	ids, err := p.ids(ctx, `SELECT id FROM prof WHERE `+cond+` ORDER BY `+order+` LIMIT ? OFFSET ?`, append(args, take, skip)...)
	return &ftsHits{IDs: ids, Total: total.(int)}, err
}

// near answers a search around a point: the R*Tree's box (with the category as a dimension
// when there is one), refined by the exact distance, nearest first.
func (p *ftsPeer) near(ctx context.Context, q *search.ProfileQuery, tokens []string, catID int64, take, skip int) (*ftsHits, error) {
	radius := q.Radius
	if radius <= 0 {
		radius = 5000
	}
	dLat := radius / 111320
	dLong := radius / (111320 * math.Cos(q.Lat*math.Pi/180))
	box := []any{q.Lat - dLat, q.Lat + dLat, q.Long - dLong, q.Long + dLong}
	query := `SELECT id, lat, long FROM geo WHERE lat1 >= ? AND lat0 <= ? AND long1 >= ? AND long0 <= ?`
	if catID != 0 {
		query = `SELECT id, lat, long FROM cat_geo WHERE cat1 >= ?5 AND cat0 <= ?5 AND lat1 >= ?1 AND lat0 <= ?2 AND long1 >= ?3 AND long0 <= ?4`
		box = append(box, catID)
	}
	st, err := p.stmts.get(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, box...)
	if err != nil {
		return nil, err
	}
	type near struct {
		id int64
		d  float64
	}
	var hits []near
	for rows.Next() {
		var h near
		var lat, long float64
		if err := rows.Scan(&h.id, &lat, &long); err != nil {
			rows.Close()
			return nil, err
		}
		if h.d = store.Haversine(q.Lat, q.Long, lat, long); h.d <= radius {
			hits = append(hits, h)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(tokens) > 0 || q.CityID != 0 {
		// Other filters: keep the hits the text (and city) match as well.
		match := "city : c" + strconv.FormatInt(q.CityID, 10)
		switch {
		case len(tokens) > 0 && q.CityID != 0:
			match += " AND " + buildPeerQuery(tokens, p.lex).fts5()
		case len(tokens) > 0:
			match = buildPeerQuery(tokens, p.lex).fts5()
		}
		ids, err := p.ids(ctx, `SELECT rowid FROM fts WHERE fts MATCH ?`, match)
		if err != nil {
			return nil, err
		}
		in := make(map[int64]bool, len(ids))
		for _, id := range ids {
			in[id] = true
		}
		kept := hits[:0]
		for _, h := range hits {
			if in[h.id] {
				kept = append(kept, h)
			}
		}
		hits = kept
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].d != hits[j].d {
			return hits[i].d < hits[j].d
		}
		return hits[i].id < hits[j].id
	})
	out := &ftsHits{Total: len(hits)}
	for _, h := range hits[min(skip, len(hits)):min(skip+take, len(hits))] {
		out.IDs = append(out.IDs, h.id)
		out.Distance = append(out.Distance, h.d)
	}
	return out, nil
}

func (p *ftsPeer) scalar(ctx context.Context, query string, args ...any) (int, error) {
	st, err := p.stmts.get(ctx, query)
	if err != nil {
		return 0, err
	}
	var n int
	if err := st.QueryRowContext(ctx, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("fts count: %w", err)
	}
	return n, nil
}

func (p *ftsPeer) ids(ctx context.Context, query string, args ...any) ([]int64, error) {
	st, err := p.stmts.get(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("fts search: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// call answers one search in process, as the bare harness does: the hits, then the page's
// profiles from the store.
func (p *ftsPeer) call(ctx context.Context, r *request) (int, error) {
	if r.Query == nil {
		return 0, errors.New("the FTS5 peer answers searches only")
	}
	h, err := p.search(ctx, r.Query)
	if err != nil {
		return 0, err
	}
	_, err = p.st.ProfilesByIDs(ctx, h.IDs)
	return 0, err
}
