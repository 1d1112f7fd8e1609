package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
)

// ReferenceCounts says how many reference rows a seed inserted or changed, how many of its rows
// it left out because an operator's row holds their id or slug, and how many profiles it moved
// or renamed (their city, province or categories changed).
type ReferenceCounts struct {
	Provinces, Counties, Cities, Categories int64
	Skipped, Profiles                       int64
}

// Changed reports whether a seed changed anything.
func (c ReferenceCounts) Changed() bool {
	return c.Provinces+c.Counties+c.Cities+c.Categories+c.Profiles > 0
}

// Reference is the whole reference data set a seed writes.
type Reference struct {
	Provinces  []Province
	Counties   []County
	Cities     []City
	Categories []Category // fields before their categories
}

// SeedReference writes provinces, cities and categories; see Seed.
func (s *Store) SeedReference(ctx context.Context, provinces []Province, cities []City, cats []Category) (ReferenceCounts, error) {
	return s.Seed(ctx, Reference{Provinces: provinces, Cities: cities, Categories: cats})
}

// Seed inserts or updates the reference data in one transaction. Rows are keyed by their stable
// ids and rewritten only when they differ, so a second run with the same data changes nothing
// and costs a few milliseconds (it runs on every start of `serve`).
//
// Rows an operator added are left alone: a shipped row is written over an existing one only when
// both have the same slug (shipped slugs never change), and a shipped row whose id or slug an
// operator's row already holds is skipped and counted. Profiles follow their records: when a
// city moves to another province or is renamed, or a category is renamed or moves to another
// field, the profiles naming it get the new province or field and a rebuilt key_word, and are
// queued for the index.
func (s *Store) Seed(ctx context.Context, ref Reference) (ReferenceCounts, error) {
	var n ReferenceCounts
	err := s.tx(ctx, func(tx *sql.Tx) error {
		n = ReferenceCounts{} // the closure may run twice (store/commit.go)
		before, err := readRefNames(ctx, tx)
		if err != nil {
			return err
		}
		upsert := func(what string, id any, q string, args ...any) (int64, error) {
			// An operator's row holding the slug under another id keeps it (one ON CONFLICT clause:
			// PostgreSQL takes no second one).
			var taken int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+what+` WHERE `+slugCol(what)+` = ? AND id <> ?`,
				args[slugArg(what)], id).Scan(&taken); err != nil {
				return 0, err
			}
			if taken > 0 {
				n.Skipped++
				return 0, nil
			}
			res, err := tx.ExecContext(ctx, q, args...)
			if err != nil {
				return 0, fmt.Errorf("%s %v: %w", what, id, err)
			}
			k := affected(res)
			if k == 0 {
				// Nothing written: either the row is already current, or an operator's row holds
				// the id or the slug.
				var same int
				if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+what+` WHERE id = ? AND `+slugCol(what)+` = ?`,
					id, args[slugArg(what)]).Scan(&same); err != nil {
					return 0, err
				}
				if same == 0 {
					n.Skipped++
				}
			}
			return k, nil
		}
		for _, p := range ref.Provinces {
			k, err := upsert("provinces", p.ID, `INSERT INTO provinces (id, farsi_name, english_name, slug, lat, long)
				VALUES (?, ?, ?, ?, ?, ?)
				ON CONFLICT (id) DO UPDATE SET farsi_name = excluded.farsi_name, english_name = excluded.english_name,
					lat = excluded.lat, long = excluded.long
				WHERE provinces.slug = excluded.slug AND (provinces.farsi_name, provinces.english_name, provinces.lat, provinces.long) IS DISTINCT FROM
					(excluded.farsi_name, excluded.english_name, excluded.lat, excluded.long)
`,
				p.ID, p.FarsiName, p.EnglishName, p.Slug, p.Lat, p.Long)
			if err != nil {
				return err
			}
			n.Provinces += k
		}
		for _, c := range ref.Counties {
			k, err := upsert("counties", c.ID, `INSERT INTO counties (id, province_id, farsi_name, english_name, slug, seat_city_id)
				VALUES (?, ?, ?, ?, ?, ?)
				ON CONFLICT (id) DO UPDATE SET province_id = excluded.province_id, farsi_name = excluded.farsi_name,
					english_name = excluded.english_name, seat_city_id = excluded.seat_city_id
				WHERE counties.slug = excluded.slug AND (counties.province_id, counties.farsi_name, counties.english_name, counties.seat_city_id) IS DISTINCT FROM
					(excluded.province_id, excluded.farsi_name, excluded.english_name, excluded.seat_city_id)
`,
				c.ID, c.ProvinceID, c.FarsiName, c.EnglishName, c.Slug, nullID(c.SeatCityID))
			if err != nil {
				return err
			}
			n.Counties += k
		}
		for _, c := range ref.Cities {
			aliases, err := json.Marshal(nonNilStrings(c.Aliases))
			if err != nil {
				return err
			}
			k, err := upsert("cities", c.ID, `INSERT INTO cities (id, province_id, county_id, farsi_name, english_name, slag, lat,
					long, capital, seat, aliases)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (id) DO UPDATE SET province_id = excluded.province_id, county_id = excluded.county_id,
					farsi_name = excluded.farsi_name, english_name = excluded.english_name, lat = excluded.lat,
					long = excluded.long, capital = excluded.capital, seat = excluded.seat, aliases = excluded.aliases
				WHERE cities.slag = excluded.slag AND
					(cities.province_id, cities.county_id, cities.farsi_name, cities.english_name, cities.lat, cities.long, cities.capital, cities.seat, cities.aliases) IS DISTINCT FROM
					(excluded.province_id, excluded.county_id, excluded.farsi_name, excluded.english_name, excluded.lat,
					 excluded.long, excluded.capital, excluded.seat, excluded.aliases)
`,
				c.ID, c.ProvinceID, nullID(c.CountyID), c.FarsiName, c.EnglishName, c.Slag, c.Lat, c.Long, c.Capital, c.Seat,
				string(aliases))
			if err != nil {
				return err
			}
			n.Cities += k
		}
		for _, c := range ref.Categories {
			synonyms, err := json.Marshal(nonNilStrings(c.Synonyms))
			if err != nil {
				return err
			}
			k, err := upsert("work_categories", c.ID, `INSERT INTO work_categories (id, parent_id, farsi_name, english_name, slag,
					favourite, sort, synonyms)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (id) DO UPDATE SET parent_id = excluded.parent_id, farsi_name = excluded.farsi_name,
					english_name = excluded.english_name, favourite = excluded.favourite, sort = excluded.sort,
					synonyms = excluded.synonyms
				WHERE work_categories.slag = excluded.slag AND
					(work_categories.parent_id, work_categories.farsi_name, work_categories.english_name, work_categories.favourite, work_categories.sort, work_categories.synonyms) IS DISTINCT FROM
					(excluded.parent_id, excluded.farsi_name, excluded.english_name, excluded.favourite, excluded.sort,
					 excluded.synonyms)
`,
				c.ID, c.ParentID, c.FarsiName, c.EnglishName, c.Slag, c.Favourite, c.Sort, string(synonyms))
			if err != nil {
				return err
			}
			n.Categories += k
		}
		if n.Provinces+n.Cities+n.Categories == 0 {
			return nil // nothing a profile names changed
		}
		after, err := readRefNames(ctx, tx)
		if err != nil {
			return err
		}
		moved, err := followReference(ctx, tx, before, after, s.now())
		n.Profiles = moved
		return err
	})
	if err != nil {
		return n, fmt.Errorf("seed reference data: %w", err)
	}
	return n, nil
}

func slugCol(table string) string {
	if table == "cities" || table == "work_categories" {
		return "slag"
	}
	return "slug"
}

// slugArg is where each upsert passes its slug among its arguments.
func slugArg(table string) int {
	switch table {
	case "provinces":
		return 3
	case "counties":
		return 4
	case "cities":
		return 5
	default:
		return 4
	}
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func affected(res sql.Result) int64 {
	n, _ := res.RowsAffected()
	return n
}

// refNames is what a profile's key_word and place depend on, per reference row.
type refNames struct {
	provinces  map[int64]string // names
	cities     map[int64]string // names and province
	categories map[int64]string // names and parent
}

func readRefNames(ctx context.Context, tx *sql.Tx) (*refNames, error) {
	r := &refNames{provinces: map[int64]string{}, cities: map[int64]string{}, categories: map[int64]string{}}
	for _, q := range []struct {
		sql string
		to  map[int64]string
	}{
		{`SELECT id, farsi_name || '|' || english_name FROM provinces`, r.provinces},
		{`SELECT id, farsi_name || '|' || english_name || '|' || province_id FROM cities`, r.cities},
		{`SELECT id, farsi_name || '|' || english_name || '|' || COALESCE(parent_id, 0) FROM work_categories`, r.categories},
	} {
		rows, err := tx.QueryContext(ctx, q.sql)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			var v string
			if err := rows.Scan(&id, &v); err != nil {
				rows.Close()
				return nil, err
			}
			q.to[id] = v
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func changedIDs(before, after map[int64]string) []any {
	var out []any
	for id, v := range after {
		if old, ok := before[id]; ok && old != v {
			out = append(out, id)
		}
	}
	return out
}

func marks(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

// followReference moves and re-keys the profiles whose province, city or categories the seed
// changed, queues them and the blogs of changed categories for the index, and answers how many
// profiles it touched.
func followReference(ctx context.Context, tx *sql.Tx, before, after *refNames, now int64) (int64, error) {
	ids := map[int64]bool{}
	collect := func(q string, args []any) error {
		if len(args) == 0 {
			return nil
		}
		rows, err := tx.QueryContext(ctx, fmt.Sprintf(q, marks(len(args))), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return err
			}
			ids[id] = true
		}
		return rows.Err()
	}
	provs := changedIDs(before.provinces, after.provinces)
	cities := changedIDs(before.cities, after.cities)
	cats := changedIDs(before.categories, after.categories)
	if err := collect(`SELECT id FROM profiles WHERE province_id IN (%s)`, provs); err != nil {
		return 0, err
	}
	if err := collect(`SELECT id FROM profiles WHERE city_id IN (%s)`, cities); err != nil {
		return 0, err
	}
	if err := collect(`SELECT profile_id FROM profile_categories WHERE category_id IN (%s)`, cats); err != nil {
		return 0, err
	}
	if err := collect(`SELECT id FROM profiles WHERE range_worker_id IN (%s)`, cats); err != nil {
		return 0, err
	}
	if len(cats) > 0 {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`INSERT INTO index_outbox (entity, entity_id, create_at)
			SELECT DISTINCT 'blog', blog_id, CAST(? AS BIGINT) FROM blog_categories WHERE category_id IN (%s)`, marks(len(cats))),
			append([]any{now}, cats...)...); err != nil {
			return 0, err
		}
		if err := noteQueued(ctx, tx); err != nil {
			return 0, err
		}
	}
	if len(ids) == 0 {
		return 0, nil
	}
	tree, err := treeTx(ctx, tx)
	if err != nil {
		return 0, err
	}
	cityOf := map[int64]*City{}
	rows, err := tx.QueryContext(ctx, citySelect)
	if err != nil {
		return 0, err
	}
	for rows.Next() {
		c, err := scanCity(rows)
		if err != nil {
			rows.Close()
			return 0, err
		}
		cityOf[c.ID] = &c
	}
	rows.Close()
	provOf := map[int64]*Province{}
	rows, err = tx.QueryContext(ctx, `SELECT id, farsi_name, english_name, slug, lat, long FROM provinces`)
	if err != nil {
		return 0, err
	}
	for rows.Next() {
		var p Province
		if err := rows.Scan(&p.ID, &p.FarsiName, &p.EnglishName, &p.Slug, &p.Lat, &p.Long); err != nil {
			rows.Close()
			return 0, err
		}
		provOf[p.ID] = &p
	}
	rows.Close()
	var touched int64
	for id := range ids {
		var name string
		var cityID, fieldID int64
		if err := tx.QueryRowContext(ctx, `SELECT profile_name, city_id, range_worker_id FROM profiles WHERE id = ?`, id).
			Scan(&name, &cityID, &fieldID); err != nil {
			return 0, err
		}
		var catRefs []*Category
		parents := map[int64]bool{}
		crows, err := tx.QueryContext(ctx, `SELECT category_id FROM profile_categories WHERE profile_id = ? ORDER BY category_id`, id)
		if err != nil {
			return 0, err
		}
		for crows.Next() {
			var cid int64
			if err := crows.Scan(&cid); err != nil {
				crows.Close()
				return 0, err
			}
			if c := tree.ByID(cid); c != nil {
				catRefs = append(catRefs, c)
				if c.ParentID != nil {
					parents[*c.ParentID] = true
				}
			}
		}
		crows.Close()
		// A profile whose categories all moved to another field follows them there; one whose
		// categories now span two fields keeps its field (its owner is asked to choose on the
		// next edit, as the form checks).
		if len(parents) == 1 && !parents[fieldID] {
			for p := range parents {
				fieldID = p
			}
		}
		city, field := cityOf[cityID], tree.ByID(fieldID)
		if city == nil || field == nil || provOf[city.ProvinceID] == nil {
			continue
		}
		kw := buildKeyWord(name, &ProfileRefs{Field: field, Categories: catRefs, City: city, Province: provOf[city.ProvinceID]})
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET province_id = ?, range_worker_id = ?, key_word = ? WHERE id = ?`,
			city.ProvinceID, fieldID, kw, id); err != nil {
			return 0, err
		}
		if err := queueIndex(ctx, tx, "profile", id, now); err != nil {
			return 0, err
		}
		touched++
	}
	return touched, nil
}
