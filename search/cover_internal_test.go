package search

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2/geo"
	"github.com/blevesearch/geo/s2"

	"kardan/store"
)

// destination answers the point d metres from (lat, long) on the bearing theta (radians).
func destination(lat, long, d, theta float64) (float64, float64) {
	φ1, λ1, δ := lat*math.Pi/180, long*math.Pi/180, d/store.EarthRadius
	φ2 := math.Asin(math.Sin(φ1)*math.Cos(δ) + math.Cos(φ1)*math.Sin(δ)*math.Cos(theta))
	λ2 := λ1 + math.Atan2(math.Sin(theta)*math.Sin(δ)*math.Cos(φ1), math.Cos(δ)-math.Sin(φ1)*math.Sin(φ2))
	return φ2 * 180 / math.Pi, math.Remainder(λ2*180/math.Pi, 360)
}

// covers answers whether one of cells holds the point.
func covers(cells []s2.CellID, lat, long float64) bool {
	leaf := s2.CellIDFromLatLng(s2.LatLngFromDegrees(lat, long))
	for _, c := range cells {
		if c.Contains(leaf) {
			return true
		}
	}
	return false
}

// TestCircleCover checks that circleCells holds every point of its circle, with many taken in
// the last thousandth of the radius, at radii from a metre to 200 km (the API's largest), around
// centres anywhere: in Iran, at the cube corner of s2's faces just west of it (35.26°N 45°E,
// where three faces meet), on face edges, at the poles and the antimeridian. It checks too that
// every cell is at an indexed level, meets the circle and is given once.
func TestCircleCover(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	corner := math.Atan(1/math.Sqrt2) * 180 / math.Pi
	centres := [][2]float64{{35.7, 51.4}, {corner, 45}, {corner + 1e-7, 45 - 1e-7}, {corner - 0.01, 45.01}, {0, 45}, {45, 0},
		{89.99, 10}, {-89.99, 10}, {90, 0}, {10, 180}, {10, -179.9999}, {38.08, 46.29}, {29.61, 52.53}}
	for range 400 {
		centres = append(centres, [2]float64{rng.Float64()*180 - 90, rng.Float64()*360 - 180})
	}
	for range 400 {
		centres = append(centres, [2]float64{25 + rng.Float64()*15, 44 + rng.Float64()*20}) // Iran's box
	}
	var points, bleveMissed int
	plugin := geo.GetSpatialAnalyzerPlugin("s2")
	for i, c := range centres {
		radius := math.Pow(10, rng.Float64()*5.3) // 1 m to 200 km
		if i%5 == 0 {
			radius = []float64{50, 500, 1000, 2000, 5000, 10000, 20000, 200000}[i/5%8]
		}
		cells := circleCells(c[0], c[1], radius)
		if len(cells) == 0 {
			t.Fatalf("%v r %.1f: no cells", c, radius)
		}
		centre := s2.PointFromLatLng(s2.LatLngFromDegrees(c[0], c[1]))
		for j, cell := range cells {
			if l := cell.Level(); l < cellMinLevel || l > cellMaxLevel || l%cellLevelMod != 0 {
				t.Fatalf("%v r %.1f: cell %v at level %d", c, radius, cell, l)
			}
			if slices.Contains(cells[:j], cell) {
				t.Fatalf("%v r %.1f: cell %v twice", c, radius, cell)
			}
			if d := s2.CellFromCellID(cell).Distance(centre).Angle().Radians() * store.EarthRadius; d > radius+1 {
				t.Fatalf("%v r %.1f: cell %v is %.1f m away", c, radius, cell, d)
			}
		}
		var bleveCells []s2.CellID
		for _, tok := range plugin.GetQueryTokens(geo.NewPointDistance(c[0], c[1], radius)) {
			bleveCells = append(bleveCells, s2.CellIDFromToken(tok))
		}
		for k := range 300 {
			d := radius * rng.Float64()
			if k%2 == 0 {
				d = radius * (1 - rng.Float64()/1000)
			}
			lat, long := destination(c[0], c[1], d, rng.Float64()*2*math.Pi)
			if store.Haversine(c[0], c[1], lat, long) > radius {
				continue
			}
			points++
			if !covers(cells, lat, long) {
				t.Fatalf("%v r %.3f: (%v, %v) at %.3f m is in no cell of %v", c, radius, lat, long,
					store.Haversine(c[0], c[1], lat, long), cells)
			}
			if !covers(bleveCells, lat, long) {
				bleveMissed++
			}
		}
	}
	t.Logf("%d points in %d circles, all covered (Bleve's plugin left out %d)", points, len(centres), bleveMissed)
	if points < 200000 {
		t.Fatalf("only %d points inside their circles", points)
	}
}

// TestCircleTermsIndexedLevels holds circleTerms to how Bleve's s2 plugin indexes a point: its
// cell at each level the constants name, and no other. Were Bleve to change its options, radius
// searches would find nothing, and this says why.
func TestCircleTermsIndexedLevels(t *testing.T) {
	plugin := geo.GetSpatialAnalyzerPlugin("s2")
	rng := rand.New(rand.NewPCG(3, 5))
	for range 1000 {
		lat, long := rng.Float64()*180-90, rng.Float64()*360-180
		got := plugin.GetIndexTokens(&geo.Point{Lat: lat, Lon: long})
		leaf := s2.CellIDFromLatLng(s2.LatLngFromDegrees(lat, long))
		var want []string
		for l := cellMinLevel; l <= cellMaxLevel; l += cellLevelMod {
			want = append(want, leaf.Parent(l).ToToken())
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("(%v, %v): Bleve indexes %v, circleTerms assumes %v", lat, long, got, want)
		}
		// The circle's own terms find the point.
		terms := circleTerms(lat, long, 10)
		if !slices.ContainsFunc(terms, func(s string) bool { return slices.Contains(want, s) }) {
			t.Fatalf("(%v, %v): terms %v miss the centre's cells %v", lat, long, terms, want)
		}
	}
}
