package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
)

// ring is a closed line of [long, lat] points.
type ring [][2]float64

// area is one province's territory: polygons, each an outer ring followed by its holes.
type area struct {
	FarsiName, EnglishName string
	Polygons               [][]ring
}

type geoFeature struct {
	Type       string            `json:"type"`
	Properties map[string]string `json:"properties"`
	Geometry   struct {
		Type        string          `json:"type"`
		Coordinates json.RawMessage `json:"coordinates"`
	} `json:"geometry"`
}

// readAreas reads a GeoJSON FeatureCollection of (Multi)Polygons named by name:fa / name:en.
func readAreas(path string) ([]area, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var fc struct {
		Features []geoFeature `json:"features"`
	}
	if err := json.Unmarshal(b, &fc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []area
	for _, f := range fc.Features {
		a := area{FarsiName: f.Properties["name:fa"], EnglishName: f.Properties["name:en"]}
		switch f.Geometry.Type {
		case "Polygon":
			var p []ring
			if err := json.Unmarshal(f.Geometry.Coordinates, &p); err != nil {
				return nil, err
			}
			a.Polygons = [][]ring{p}
		case "MultiPolygon":
			if err := json.Unmarshal(f.Geometry.Coordinates, &a.Polygons); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("%s: %s has geometry %s", path, a.FarsiName, f.Geometry.Type)
		}
		out = append(out, a)
	}
	return out, nil
}

// contains reports whether the point lies inside the area (even-odd rule over every ring, so
// holes are excluded).
func (a *area) contains(lat, long float64) bool {
	for _, poly := range a.Polygons {
		in := false
		for _, r := range poly {
			n := len(r)
			for i, j := 0, n-1; i < n; j, i = i, i+1 {
				xi, yi, xj, yj := r[i][0], r[i][1], r[j][0], r[j][1]
				if (yi > lat) != (yj > lat) && long < (xj-xi)*(lat-yi)/(yj-yi)+xi {
					in = !in
				}
			}
		}
		if in {
			return true
		}
	}
	return false
}

// simplify thins a ring with Douglas-Peucker at tol degrees, keeping at least four points.
func simplify(r ring, tol float64) ring {
	if len(r) <= 4 {
		return r
	}
	keep := make([]bool, len(r))
	keep[0], keep[len(r)-1] = true, true
	var rec func(a, b int)
	rec = func(a, b int) {
		best, bestD := -1, tol
		for i := a + 1; i < b; i++ {
			if d := segDist(r[i], r[a], r[b]); d > bestD {
				best, bestD = i, d
			}
		}
		if best >= 0 {
			keep[best] = true
			rec(a, best)
			rec(best, b)
		}
	}
	rec(0, len(r)-1)
	var out ring
	for i, k := range keep {
		if k {
			out = append(out, [2]float64{round(r[i][0], 4), round(r[i][1], 4)})
		}
	}
	if len(out) < 4 {
		return nil
	}
	return out
}

func segDist(p, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	if dx == 0 && dy == 0 {
		return math.Hypot(p[0]-a[0], p[1]-a[1])
	}
	t := ((p[0]-a[0])*dx + (p[1]-a[1])*dy) / (dx*dx + dy*dy)
	t = math.Max(0, math.Min(1, t))
	return math.Hypot(p[0]-a[0]-t*dx, p[1]-a[1]-t*dy)
}

func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}

// writeSimplified writes the areas as a small GeoJSON file for the tests.
func writeSimplified(path string, areas []area, tol float64) error {
	type feature struct {
		Type       string            `json:"type"`
		Properties map[string]string `json:"properties"`
		Geometry   struct {
			Type        string   `json:"type"`
			Coordinates [][]ring `json:"coordinates"`
		} `json:"geometry"`
	}
	fc := struct {
		Type     string    `json:"type"`
		Features []feature `json:"features"`
	}{Type: "FeatureCollection"}
	for _, a := range areas {
		f := feature{Type: "Feature", Properties: map[string]string{"name:fa": a.FarsiName, "name:en": a.EnglishName}}
		f.Geometry.Type = "MultiPolygon"
		for _, poly := range a.Polygons {
			var p []ring
			for i, r := range poly {
				s := simplify(r, tol)
				if s == nil {
					if i == 0 {
						break // an outer ring too small to keep: drop the islet with its holes
					}
					continue
				}
				p = append(p, s)
			}
			if len(p) > 0 {
				f.Geometry.Coordinates = append(f.Geometry.Coordinates, p)
			}
		}
		fc.Features = append(fc.Features, f)
	}
	b, err := json.Marshal(fc)
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// haversineKm is the great-circle distance between two points in kilometres.
func haversineKm(lat1, lon1, lat2, lon2 float64) float64 {
	rad := math.Pi / 180
	dLat, dLon := (lat2-lat1)*rad, (lon2-lon1)*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * 6371 * math.Asin(math.Min(1, math.Sqrt(h)))
}
