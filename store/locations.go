package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// Province is one of Iran's 31 provinces.
type Province struct {
	ID          int64   `json:"id"`
	FarsiName   string  `json:"farsi_name"`
	EnglishName string  `json:"english_name"`
	Slug        string  `json:"slug"`
	Lat         float64 `json:"lat"`
	Long        float64 `json:"long"`
}

// County is one of a province's counties (شهرستان); its seat is one of its cities.
type County struct {
	ID          int64  `json:"id"`
	ProvinceID  int64  `json:"province_id"`
	FarsiName   string `json:"farsi_name"`
	EnglishName string `json:"english_name"`
	Slug        string `json:"slug"`
	SeatCityID  int64  `json:"seat_city_id"`
}

// City is a city with its province and county; the spec spells its slug "slag". Capital marks
// the province's capital, Seat its county's seat; Aliases are former names (search finds a city
// by them).
type City struct {
	ID          int64    `json:"id"`
	ProvinceID  int64    `json:"province_id"`
	CountyID    int64    `json:"county_id"`
	FarsiName   string   `json:"farsi_name"`
	EnglishName string   `json:"english_name"`
	Slag        string   `json:"slag"`
	Lat         float64  `json:"lat"`
	Long        float64  `json:"long"`
	Capital     bool     `json:"capital"`
	Seat        bool     `json:"seat"`
	Aliases     []string `json:"aliases"`
}

// Provinces answers every province in id order (clients sort by name in their own language).
func (s *Store) Provinces(ctx context.Context) ([]Province, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, farsi_name, english_name, slug, lat, long FROM provinces ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("list provinces: %w", err)
	}
	defer rows.Close()
	out := []Province{}
	for rows.Next() {
		var p Province
		if err := rows.Scan(&p.ID, &p.FarsiName, &p.EnglishName, &p.Slug, &p.Lat, &p.Long); err != nil {
			return nil, fmt.Errorf("list provinces: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Province answers one province by id.
func (s *Store) Province(ctx context.Context, id int64) (*Province, error) {
	var p Province
	err := s.read.QueryRowContext(ctx, `SELECT id, farsi_name, english_name, slug, lat, long FROM provinces WHERE id = ?`, id).
		Scan(&p.ID, &p.FarsiName, &p.EnglishName, &p.Slug, &p.Lat, &p.Long)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("get province: %w", err)
	}
	return &p, nil
}

const citySelect = `SELECT id, province_id, COALESCE(county_id, 0), farsi_name, english_name, slag, lat, long, capital,
	seat, aliases FROM cities`

func scanCity(sc interface{ Scan(...any) error }) (City, error) {
	var c City
	var aliases string
	err := sc.Scan(&c.ID, &c.ProvinceID, &c.CountyID, &c.FarsiName, &c.EnglishName, &c.Slag, &c.Lat, &c.Long, &c.Capital,
		&c.Seat, &aliases)
	if err != nil {
		return c, err
	}
	c.Aliases = []string{}
	if aliases != "" && aliases != "[]" {
		if err := json.Unmarshal([]byte(aliases), &c.Aliases); err != nil {
			return c, fmt.Errorf("city %d aliases: %w", c.ID, err)
		}
	}
	return c, nil
}

// Counties answers a province's counties (every county when provinceID is 0), by id.
func (s *Store) Counties(ctx context.Context, provinceID int64) ([]County, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, province_id, farsi_name, english_name, slug, COALESCE(seat_city_id, 0)
		FROM counties WHERE ? = 0 OR province_id = ? ORDER BY id`, provinceID, provinceID)
	if err != nil {
		return nil, fmt.Errorf("list counties: %w", err)
	}
	defer rows.Close()
	out := []County{}
	for rows.Next() {
		var c County
		if err := rows.Scan(&c.ID, &c.ProvinceID, &c.FarsiName, &c.EnglishName, &c.Slug, &c.SeatCityID); err != nil {
			return nil, fmt.Errorf("list counties: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// CityFilter narrows a city listing; nil fields are not filtered on.
type CityFilter struct {
	ProvinceID *int64
}

// Cities answers the cities matching f, capitals first, then by Persian name.
func (s *Store) Cities(ctx context.Context, f CityFilter) ([]City, error) {
	where, args := "1 = 1", []any{}
	if f.ProvinceID != nil {
		where += " AND province_id = ?"
		args = append(args, *f.ProvinceID)
	}
	out, err := queryRows(ctx, s.read, scanCity, citySelect+` WHERE `+where+` ORDER BY capital DESC, farsi_name`, args...)
	if err != nil {
		return nil, fmt.Errorf("list cities: %w", err)
	}
	return out, nil
}

// City answers one city by id.
func (s *Store) City(ctx context.Context, id int64) (*City, error) {
	c, err := scanCity(s.read.QueryRowContext(ctx, citySelect+` WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("get city: %w", err)
	}
	return &c, nil
}

// CityBySlag answers one city by its slug.
func (s *Store) CityBySlag(ctx context.Context, slag string) (*City, error) {
	c, err := scanCity(s.read.QueryRowContext(ctx, citySelect+` WHERE slag = ?`, slag))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("get city: %w", err)
	}
	return &c, nil
}

// NearestCity answers the city closest to a point by great-circle distance, and that distance in
// metres. Fifteen hundred cities are few enough to measure them all (about 30 µs).
func (s *Store) NearestCity(ctx context.Context, lat, long float64) (*City, float64, error) {
	all, err := s.Cities(ctx, CityFilter{})
	if err != nil {
		return nil, 0, err
	}
	if len(all) == 0 {
		return nil, 0, NotFound()
	}
	best, bestD := 0, math.Inf(1)
	for i, c := range all {
		// A city placed at its county seat for want of its own point ties with the seat: the
		// seat wins.
		if d := Haversine(lat, long, c.Lat, c.Long); d < bestD || d == bestD && c.Seat && !all[best].Seat {
			best, bestD = i, d
		}
	}
	return &all[best], bestD, nil
}

// EarthRadius is the mean radius of the Earth in metres.
const EarthRadius = 6371008.8

// Haversine answers the great-circle distance in metres between two points in degrees.
func Haversine(lat1, long1, lat2, long2 float64) float64 {
	rad := math.Pi / 180
	dLat := (lat2 - lat1) * rad
	dLong := (long2 - long1) * rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLong/2)*math.Sin(dLong/2)
	return 2 * EarthRadius * math.Asin(math.Min(1, math.Sqrt(a)))
}

// InIran reports whether a point lies inside Iran's bounding box.
func InIran(lat, long float64) bool {
	return lat >= 25 && lat <= 39.8 && long >= 44 && long <= 63.4
}
