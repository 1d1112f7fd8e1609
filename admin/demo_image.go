package admin

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"
)

// demoPictureSide is the side of a demo trade's picture in pixels.
const demoPictureSide = 192

// demoPicture draws a trade's picture: a tile in the field's colour with the field's white
// emblem; the category's place in its field picks one of four shades and one to six dots on a
// ring, so two trades of one field differ at a glance (up to 48 per field). It is an icon, not a photograph, and
// not the Kardan logo. The emblem's mask is drawn once per field (masks).
func demoPicture(field, category int, masks *emblemMasks) []byte {
	const n = demoPictureSide
	hue := math.Mod(float64(field)*137.508, 360) // the golden angle spreads the fields' hues apart
	light := 0.42 + 0.06*float64(category%4)
	bg := hsl(hue, 0.55, light)
	bgDark := hsl(hue, 0.6, light-0.12)
	dots := 1 + (category/4)%6
	turn := float64(category/24) * math.Pi / float64(dots) // the 25th trade of a field on shifts its dots
	mask := masks.of(field)
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	white := color.NRGBA{255, 255, 255, 255}
	type pt struct{ x, y float64 }
	centres := make([]pt, dots)
	for i := range centres {
		a := 2*math.Pi*float64(i)/float64(dots) - math.Pi/2 + turn
		centres[i] = pt{math.Cos(a) * 0.82, math.Sin(a) * 0.82}
	}
	for y := 0; y < n; y++ {
		v := (float64(y)+0.5)/n*2 - 1
		for x := 0; x < n; x++ {
			u := (float64(x)+0.5)/n*2 - 1
			c := mix(bg, bgDark, (u+v+2)/4) // shaded diagonally from the top corner
			if a := mask[y*n+x]; a > 0 {
				c = mix(c, white, float64(a)/255)
			} else if r2 := u*u + v*v; r2 > 0.74*0.74 && r2 < 0.9*0.9 {
				for _, p := range centres {
					if dx, dy := u-p.x, v-p.y; dx*dx+dy*dy < 0.07*0.07 {
						c = mix(c, white, 0.85)
					}
				}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		panic(err) // encoding an in-memory NRGBA cannot fail
	}
	return buf.Bytes()
}

// emblemMasks keeps each field's emblem as coverage bytes (255 inside, a soft edge, 0 outside).
type emblemMasks struct {
	mu    sync.Mutex
	masks map[int][]uint8
}

func (m *emblemMasks) of(field int) []uint8 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if mask, ok := m.masks[field]; ok {
		return mask
	}
	const n = demoPictureSide
	shape := demoShapes[field%len(demoShapes)]
	rot := float64(field/len(demoShapes)) * math.Pi / 8
	cr, sr := math.Cos(rot), math.Sin(rot)
	mask := make([]uint8, n*n)
	for y := 0; y < n; y++ {
		v := (float64(y)+0.5)/n*2 - 1
		for x := 0; x < n; x++ {
			u := (float64(x)+0.5)/n*2 - 1
			if u*u+v*v > 0.5 {
				continue
			}
			d := shape((u*cr-v*sr)/0.52, (u*sr+v*cr)/0.52)
			switch {
			case d <= 0:
				mask[y*n+x] = 255
			case d < 0.04:
				mask[y*n+x] = uint8(255 * (1 - d/0.04)) // a soft edge instead of jagged pixels
			}
		}
	}
	if m.masks == nil {
		m.masks = map[int][]uint8{}
	}
	m.masks[field] = mask
	return mask
}

// demoShapes are signed distances (negative inside) of emblems in unit coordinates.
var demoShapes = []func(x, y float64) float64{
	func(x, y float64) float64 { return math.Hypot(x, y) - 1 },                      // disc
	func(x, y float64) float64 { return math.Max(math.Abs(x), math.Abs(y)) - 0.85 }, // square
	func(x, y float64) float64 { return math.Abs(x) + math.Abs(y) - 1.1 },           // diamond
	func(x, y float64) float64 { return math.Abs(math.Hypot(x, y)-0.75) - 0.22 },    // ring
	func(x, y float64) float64 { return polygon(x, y, 3, 0.95) },                    // triangle
	func(x, y float64) float64 { return polygon(x, y, 6, 0.95) },                    // hexagon
	func(x, y float64) float64 { return polygon(x, y, 5, 0.95) },                    // pentagon
	func(x, y float64) float64 { return star(x, y) },                                // star
	func(x, y float64) float64 {
		return math.Min(math.Max(math.Abs(x)-0.3, math.Abs(y)-0.95), math.Max(math.Abs(x)-0.95, math.Abs(y)-0.3))
	}, // cross
	func(x, y float64) float64 { return math.Max(math.Hypot(x, y)-1, -(math.Hypot(x-0.45, y+0.2) - 0.75)) },  // crescent
	func(x, y float64) float64 { return math.Max(math.Abs(x)-0.95, math.Abs(math.Mod(y+3, 0.7)-0.35)-0.18) }, // bars
}

// polygon is the distance to a regular polygon of k sides and circumradius r, one vertex up.
func polygon(x, y float64, k int, r float64) float64 {
	a := math.Atan2(x, -y)
	seg := 2 * math.Pi / float64(k)
	a = math.Mod(a+seg/2+2*math.Pi, seg) - seg/2
	return math.Hypot(x, y)*math.Cos(a) - r*math.Cos(math.Pi/float64(k))
}

// star is a five-pointed star: inside the pentagon, or inside one of its points.
func star(x, y float64) float64 {
	a := math.Atan2(x, -y)
	seg := 2 * math.Pi / 5
	a = math.Mod(a+2*math.Pi, seg)
	if a > seg/2 {
		a = seg - a
	}
	// Radius of the star's outline at this angle, between the inner and outer radii.
	outer, inner := 1.0, 0.45
	r := inner + (outer-inner)*(1-a/(seg/2))
	return math.Hypot(x, y) - r
}

func hsl(h, s, l float64) color.NRGBA {
	c := (1 - math.Abs(2*l-1)) * s
	hp := h / 60
	x := c * (1 - math.Abs(math.Mod(hp, 2)-1))
	var r, g, b float64
	switch {
	case hp < 1:
		r, g = c, x
	case hp < 2:
		r, g = x, c
	case hp < 3:
		g, b = c, x
	case hp < 4:
		g, b = x, c
	case hp < 5:
		r, b = x, c
	default:
		r, b = c, x
	}
	m := l - c/2
	return color.NRGBA{uint8((r + m) * 255), uint8((g + m) * 255), uint8((b + m) * 255), 255}
}

func mix(a, b color.NRGBA, t float64) color.NRGBA {
	t = math.Max(0, math.Min(1, t))
	f := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t) }
	return color.NRGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 255}
}
