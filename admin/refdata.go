package admin

import (
	"embed"
	"encoding/json"
	"fmt"
)

// refdataFS holds the reference data of Iran shipped inside the binary. cities.json and
// counties.json are generated from the research files (see refdata/gen); provinces.json and
// categories.json are kept by hand.
//
//go:generate go run ./refdata/gen -src ../../shared/research/iran-places
//go:embed refdata/*.json
var refdataFS embed.FS

// RefProvince is one of Iran's 31 provinces; Lat/Long are its capital's position.
type RefProvince struct {
	ID          int64   `json:"id"`
	FarsiName   string  `json:"farsi_name"`
	EnglishName string  `json:"english_name"`
	Slug        string  `json:"slug"`
	Lat         float64 `json:"lat"`
	Long        float64 `json:"long"`
}

// RefCounty is one of Iran's counties (شهرستان), with the id of the city that is its seat.
type RefCounty struct {
	ID          int64  `json:"id"`
	ProvinceID  int64  `json:"province_id"`
	FarsiName   string `json:"farsi_name"`
	EnglishName string `json:"english_name"`
	Slug        string `json:"slug"`
	SeatCityID  int64  `json:"seat_city_id"`
}

// RefCity is one of Iran's official cities. cities.json is generated (refdata/gen) from the
// official divisions; OfficialID is the city's id there, which keeps ids stable when it runs again.
type RefCity struct {
	ID          int64    `json:"id"`
	ProvinceID  int64    `json:"province_id"`
	CountyID    int64    `json:"county_id"`
	FarsiName   string   `json:"farsi_name"`
	EnglishName string   `json:"english_name"`
	Slug        string   `json:"slug"`
	Lat         float64  `json:"lat"`
	Long        float64  `json:"long"`
	Capital     bool     `json:"capital"`
	Seat        bool     `json:"seat"`
	Aliases     []string `json:"aliases"`
	OfficialID  int64    `json:"official_id"`
}

// RefField is a field of work (range_worker), the root of a branch of the category tree.
type RefField struct {
	ID          int64         `json:"id"`
	FarsiName   string        `json:"farsi_name"`
	EnglishName string        `json:"english_name"`
	Slug        string        `json:"slug"`
	Favourite   bool          `json:"favourite"`
	Synonyms    []string      `json:"synonyms"`
	Children    []RefCategory `json:"children"`
}

// RefCategory is a category of work inside a field.
type RefCategory struct {
	ID          int64    `json:"id"`
	FarsiName   string   `json:"farsi_name"`
	EnglishName string   `json:"english_name"`
	Slug        string   `json:"slug"`
	Favourite   bool     `json:"favourite"`
	Synonyms    []string `json:"synonyms"` // other words people search it by, Persian and English
}

// ReferenceData is the whole embedded reference data set.
type ReferenceData struct {
	Provinces []RefProvince
	Counties  []RefCounty
	Cities    []RefCity
	Fields    []RefField
}

// LoadReferenceData parses the embedded provinces, cities and category tree.
func LoadReferenceData() (*ReferenceData, error) {
	var d ReferenceData
	if err := loadRefJSON("refdata/provinces.json", &d.Provinces); err != nil {
		return nil, fmt.Errorf("load provinces: %w", err)
	}
	if err := loadRefJSON("refdata/counties.json", &d.Counties); err != nil {
		return nil, fmt.Errorf("load counties: %w", err)
	}
	if err := loadRefJSON("refdata/cities.json", &d.Cities); err != nil {
		return nil, fmt.Errorf("load cities: %w", err)
	}
	if err := loadRefJSON("refdata/categories.json", &d.Fields); err != nil {
		return nil, fmt.Errorf("load categories: %w", err)
	}
	return &d, nil
}

// loadRefJSON decodes one embedded file, refusing unknown fields so typos in the data surface.
func loadRefJSON(name string, v any) error {
	f, err := refdataFS.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
