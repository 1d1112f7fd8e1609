// Package admin holds the operations that the command line and the admin API share: seeding,
// backups, moderation, the retention purge and statistics.
package admin

import (
	"context"
	"fmt"

	"kardan/store"
)

// SeedReference loads the embedded reference data into the store: provinces, counties, cities
// and the category tree. It is idempotent: a second run with the same binary changes nothing, so
// `kardan seed` and every start of `serve` call it. Rows an operator added are left alone, and
// profiles follow a city or category the new data moves or renames (store.Seed).
func SeedReference(ctx context.Context, st *store.Store) (store.ReferenceCounts, error) {
	d, err := LoadReferenceData()
	if err != nil {
		return store.ReferenceCounts{}, err
	}
	provinces := make([]store.Province, len(d.Provinces))
	for i, p := range d.Provinces {
		provinces[i] = store.Province{ID: p.ID, FarsiName: p.FarsiName, EnglishName: p.EnglishName, Slug: p.Slug, Lat: p.Lat, Long: p.Long}
	}
	counties := make([]store.County, len(d.Counties))
	for i, c := range d.Counties {
		counties[i] = store.County{ID: c.ID, ProvinceID: c.ProvinceID, FarsiName: c.FarsiName, EnglishName: c.EnglishName,
			Slug: c.Slug, SeatCityID: c.SeatCityID}
	}
	cities := make([]store.City, len(d.Cities))
	for i, c := range d.Cities {
		cities[i] = store.City{ID: c.ID, ProvinceID: c.ProvinceID, CountyID: c.CountyID, FarsiName: c.FarsiName,
			EnglishName: c.EnglishName, Slag: c.Slug, Lat: c.Lat, Long: c.Long, Capital: c.Capital, Seat: c.Seat,
			Aliases: c.Aliases}
	}
	var cats []store.Category
	// Fields first: their categories refer to them.
	for i, f := range d.Fields {
		cats = append(cats, store.Category{ID: f.ID, FarsiName: f.FarsiName, EnglishName: f.EnglishName, Slag: f.Slug,
			Favourite: f.Favourite, Sort: i, Synonyms: f.Synonyms})
	}
	for _, f := range d.Fields {
		parent := f.ID
		for j, c := range f.Children {
			cats = append(cats, store.Category{ID: c.ID, ParentID: &parent, FarsiName: c.FarsiName,
				EnglishName: c.EnglishName, Slag: c.Slug, Favourite: c.Favourite, Sort: j, Synonyms: c.Synonyms})
		}
	}
	n, err := st.Seed(ctx, store.Reference{Provinces: provinces, Counties: counties, Cities: cities, Categories: cats})
	if err != nil {
		return n, fmt.Errorf("seed: %w", err)
	}
	return n, nil
}
