// Package admin holds the operations that the command line and the admin API share: seeding,
// backups, moderation, the retention purge and statistics.
package admin

import (
	"context"
	"fmt"

	"kardan/store"
)

// SeedReference loads the embedded reference data into the store. It is idempotent: a second run
// with the same binary changes nothing.
func SeedReference(ctx context.Context, st *store.Store) (store.ReferenceCounts, error) {
	d, err := LoadReferenceData()
	if err != nil {
		return store.ReferenceCounts{}, err
	}
	provinces := make([]store.Province, len(d.Provinces))
	for i, p := range d.Provinces {
		provinces[i] = store.Province{ID: p.ID, FarsiName: p.FarsiName, EnglishName: p.EnglishName, Slug: p.Slug, Lat: p.Lat, Long: p.Long}
	}
	cities := make([]store.City, len(d.Cities))
	for i, c := range d.Cities {
		cities[i] = store.City{ID: c.ID, ProvinceID: c.ProvinceID, FarsiName: c.FarsiName, EnglishName: c.EnglishName,
			Slag: c.Slug, Lat: c.Lat, Long: c.Long, Capital: c.Capital}
	}
	var cats []store.Category
	// Fields first: their categories refer to them.
	for i, f := range d.Fields {
		cats = append(cats, store.Category{ID: f.ID, FarsiName: f.FarsiName, EnglishName: f.EnglishName, Slag: f.Slug,
			Favourite: f.Favourite, Sort: i})
	}
	for _, f := range d.Fields {
		parent := f.ID
		for j, c := range f.Children {
			cats = append(cats, store.Category{ID: c.ID, ParentID: &parent, FarsiName: c.FarsiName,
				EnglishName: c.EnglishName, Slag: c.Slug, Favourite: c.Favourite, Sort: j})
		}
	}
	n, err := st.SeedReference(ctx, provinces, cities, cats)
	if err != nil {
		return n, fmt.Errorf("seed: %w", err)
	}
	return n, nil
}
