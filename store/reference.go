package store

import (
	"context"
	"database/sql"
	"fmt"
)

// ReferenceCounts says how many reference rows a seed inserted or changed.
type ReferenceCounts struct {
	Provinces, Cities, Categories int64
}

// Changed reports whether a seed changed anything.
func (c ReferenceCounts) Changed() bool { return c.Provinces+c.Cities+c.Categories > 0 }

// SeedReference inserts or updates the reference data (provinces, cities, the category tree) in
// one transaction. Rows are keyed by their stable ids and rewritten only when they differ, so a
// second run with the same data changes nothing.
func (s *Store) SeedReference(ctx context.Context, provinces []Province, cities []City, cats []Category) (ReferenceCounts, error) {
	var n ReferenceCounts
	err := s.tx(ctx, func(tx *sql.Tx) error {
		for _, p := range provinces {
			res, err := tx.ExecContext(ctx, `INSERT INTO provinces (id, farsi_name, english_name, slug, lat, long)
				VALUES (?, ?, ?, ?, ?, ?)
				ON CONFLICT (id) DO UPDATE SET farsi_name = excluded.farsi_name, english_name = excluded.english_name,
					slug = excluded.slug, lat = excluded.lat, long = excluded.long
				WHERE (farsi_name, english_name, slug, lat, long) IS NOT
					(excluded.farsi_name, excluded.english_name, excluded.slug, excluded.lat, excluded.long)`,
				p.ID, p.FarsiName, p.EnglishName, p.Slug, p.Lat, p.Long)
			if err != nil {
				return fmt.Errorf("province %d: %w", p.ID, err)
			}
			n.Provinces += affected(res)
		}
		for _, c := range cities {
			res, err := tx.ExecContext(ctx, `INSERT INTO cities (id, province_id, farsi_name, english_name, slag, lat, long, capital)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (id) DO UPDATE SET province_id = excluded.province_id, farsi_name = excluded.farsi_name,
					english_name = excluded.english_name, slag = excluded.slag, lat = excluded.lat, long = excluded.long,
					capital = excluded.capital
				WHERE (province_id, farsi_name, english_name, slag, lat, long, capital) IS NOT
					(excluded.province_id, excluded.farsi_name, excluded.english_name, excluded.slag, excluded.lat,
					 excluded.long, excluded.capital)`,
				c.ID, c.ProvinceID, c.FarsiName, c.EnglishName, c.Slag, c.Lat, c.Long, c.Capital)
			if err != nil {
				return fmt.Errorf("city %d: %w", c.ID, err)
			}
			n.Cities += affected(res)
		}
		for _, c := range cats {
			res, err := tx.ExecContext(ctx, `INSERT INTO work_categories (id, parent_id, farsi_name, english_name, slag, favourite, sort)
				VALUES (?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (id) DO UPDATE SET parent_id = excluded.parent_id, farsi_name = excluded.farsi_name,
					english_name = excluded.english_name, slag = excluded.slag, favourite = excluded.favourite,
					sort = excluded.sort
				WHERE (parent_id, farsi_name, english_name, slag, favourite, sort) IS NOT
					(excluded.parent_id, excluded.farsi_name, excluded.english_name, excluded.slag, excluded.favourite,
					 excluded.sort)`,
				c.ID, c.ParentID, c.FarsiName, c.EnglishName, c.Slag, c.Favourite, c.Sort)
			if err != nil {
				return fmt.Errorf("category %d: %w", c.ID, err)
			}
			n.Categories += affected(res)
		}
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("seed reference data: %w", err)
	}
	return n, nil
}

func affected(res sql.Result) int64 {
	n, _ := res.RowsAffected()
	return n
}
