// Package sharecard draws the pictures a shared link shows in Telegram, WhatsApp, Eitaa or Bale
// (Open Graph images, 1200×630): a business's or an article's name, its trade and city, its
// rating and its picture, in Vazirmatn, with the Persian shaped by HarfBuzz (go-text/typesetting)
// and laid out right to left. It also keeps the drawn cards as files (Cache).
//
// Why a dependency outside the team's list (go-text/typesetting): Persian cannot be drawn letter
// by letter. Each letter takes one of up to four joined forms, لا is a ligature, the zero-width
// non-joiner breaks a word's joining, marks sit on their letters, and a line mixing Persian with
// Latin or digits must be reordered (bidi). golang.org/x/image/font draws glyphs by code point
// without any of that, and none of the allowed libraries shapes text; doing it by hand would mean
// rewriting the part of HarfBuzz that reads Vazirmatn's GSUB and GPOS tables. go-text/typesetting
// is that part, in pure Go (no cgo, so the single static binary stays), BSD-3-Clause, and the
// shaper of the Gio and Fyne toolkits.
package sharecard

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

	"github.com/disintegration/imaging"
	"golang.org/x/image/vector"
)

// The card's size: what Open Graph readers crop to.
const (
	Width  = 1200
	Height = 630
)

// Card is what one share card shows.
type Card struct {
	RTL      bool        // Persian: text on the right, picture on the left
	Title    string      // the business's name or the article's title, bold, up to TitleLines lines
	Lines    []string    // one line each under the title: trade and city, the article's writer
	Rating   string      // the rating's text beside a star; "" draws no star
	Footer   string      // the site's name, in the foot band
	Host     string      // the site's address, at the other end of the foot band
	Picture  image.Image // the business's or article's picture; nil draws Initial on a tint
	Initial  string      // the placeholder's letter when there is no picture
	Accent   color.RGBA  // the background: the trade's colour
	Logo     image.Image // the site's logo, beside the name in the foot band (may be nil)
	MaxTitle int         // lines the title may take (0: 2)
}

const (
	margin   = 60
	picSide  = 420
	footH    = 96
	textGap  = 48
	textTop  = 70
	maxTextW = Width - 2*margin - picSide - textGap
)

// Render draws the card as a PNG.
func Render(c Card) ([]byte, error) {
	ts, err := sharedTypesetter()
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, Width, Height))
	draw.Draw(img, img.Bounds(), image.NewUniform(c.Accent), image.Point{}, draw.Src)
	// The foot band, lighter, as in the app's header.
	foot := image.Rect(0, Height-footH, Width, Height)
	draw.Draw(img, foot, image.NewUniform(color.RGBA{0, 0, 0, 0x38}), image.Point{}, draw.Over)

	// The picture on the side the eye reaches last: left for Persian, right for English.
	picX := margin
	textEdge := Width - margin // the text's start edge (right for Persian)
	if !c.RTL {
		picX = Width - margin - picSide
		textEdge = margin
	}
	picY := (Height - footH - picSide) / 2
	c.drawPicture(ts, img, image.Rect(picX, picY, picX+picSide, picY+picSide))

	white := color.RGBA{0xff, 0xff, 0xff, 0xff}
	soft := color.RGBA{0xf0, 0xf0, 0xf0, 0xff}
	y := textTop
	maxTitle := c.MaxTitle
	if maxTitle == 0 {
		maxTitle = 2
	}
	title := textStyle{weight: bold, size: 64, rtl: c.RTL, maxLines: maxTitle, color: white}
	y = ts.layout(c.Title, title, maxTextW).draw(img, textEdge, y, title)
	y += 12
	line := textStyle{weight: regular, size: 40, rtl: c.RTL, maxLines: 1, color: soft}
	for _, l := range c.Lines {
		if l == "" {
			continue
		}
		y = ts.layout(l, line, maxTextW).draw(img, textEdge, y, line) + 4
	}
	if c.Rating != "" {
		y += 16
		const star = 44
		rating := textStyle{weight: bold, size: 40, rtl: c.RTL, maxLines: 1, color: white}
		b := ts.layout(c.Rating, rating, maxTextW-star-16)
		starX := textEdge - star
		textX := textEdge - star - 16
		if !c.RTL {
			starX, textX = textEdge, textEdge+star+16
		}
		drawStar(img, float32(starX)+star/2, float32(y)+float32(b.height.Ceil())/2, star/2, color.RGBA{0xff, 0xc1, 0x07, 0xff})
		b.draw(img, textX, y, rating)
	}

	// Foot band: the site's logo and name at the text's edge, its address at the other end.
	footStyle := textStyle{weight: bold, size: 38, rtl: c.RTL, maxLines: 1, color: white}
	fb := ts.layout(c.Footer, footStyle, 500)
	fy := Height - footH + (footH-fb.height.Ceil())/2
	nameEdge := textEdge
	if c.Logo != nil {
		const side = 56
		logo := imaging.Fit(c.Logo, side, side, imaging.Lanczos)
		lx := textEdge - side
		if !c.RTL {
			lx = textEdge
		}
		at := image.Pt(lx, Height-footH+(footH-side)/2)
		disc := image.Rect(at.X-4, at.Y-4, at.X+side+4, at.Y+side+4)
		fillCircle(img, disc, white)
		draw.Draw(img, logo.Bounds().Sub(logo.Bounds().Min).Add(at), logo, logo.Bounds().Min, draw.Over)
		if c.RTL {
			nameEdge -= side + 20
		} else {
			nameEdge += side + 20
		}
	}
	fb.draw(img, nameEdge, fy, footStyle)
	if c.Host != "" {
		hostStyle := textStyle{weight: regular, size: 32, rtl: false, maxLines: 1, color: soft}
		hb := ts.layout(c.Host, hostStyle, 500)
		hx := margin
		if !c.RTL {
			hx = Width - margin - hb.widths[0].Ceil()
		}
		hb.draw(img, hx, Height-footH+(footH-hb.height.Ceil())/2, hostStyle)
	}

	var out bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, img); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// drawPicture draws the picture cropped to a square with rounded corners, or the placeholder: a
// lighter tint of the trade's colour with the name's first letter, as the app's cards draw a
// business without a photo in its trade's colour.
func (c Card) drawPicture(ts *typesetter, dst *image.RGBA, r image.Rectangle) {
	tile := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	if c.Picture != nil {
		pic := imaging.Fill(c.Picture, r.Dx(), r.Dy(), imaging.Center, imaging.Lanczos)
		draw.Draw(tile, tile.Bounds(), pic, pic.Bounds().Min, draw.Src)
	} else {
		tint := mix(c.Accent, color.RGBA{0xff, 0xff, 0xff, 0xff}, 0.28)
		draw.Draw(tile, tile.Bounds(), image.NewUniform(tint), image.Point{}, draw.Src)
		if c.Initial != "" {
			st := textStyle{weight: bold, size: 220, rtl: c.RTL, maxLines: 1, color: color.RGBA{0xff, 0xff, 0xff, 0xff}}
			b := ts.layout(c.Initial, st, r.Dx())
			if len(b.widths) > 0 {
				w := b.widths[0].Ceil()
				x := (r.Dx() - w) / 2
				if c.RTL {
					x += w
				}
				b.draw(tile, x, (r.Dy()-b.height.Ceil())/2, st)
			}
		}
	}
	// Rounded corners through a mask.
	mask := image.NewAlpha(tile.Bounds())
	var z vector.Rasterizer
	z.Reset(r.Dx(), r.Dy())
	roundRect(&z, 0, 0, float32(r.Dx()), float32(r.Dy()), 28)
	z.Draw(mask, mask.Bounds(), image.Opaque, image.Point{})
	draw.DrawMask(dst, r, tile, image.Point{}, mask, image.Point{}, draw.Over)
}

// roundRect adds a rectangle with rounded corners (cubic arcs) to the path.
func roundRect(z *vector.Rasterizer, x0, y0, x1, y1, rad float32) {
	const k = 0.5523 // a quarter circle as one cubic
	z.MoveTo(x0+rad, y0)
	z.LineTo(x1-rad, y0)
	z.CubeTo(x1-rad+rad*k, y0, x1, y0+rad-rad*k, x1, y0+rad)
	z.LineTo(x1, y1-rad)
	z.CubeTo(x1, y1-rad+rad*k, x1-rad+rad*k, y1, x1-rad, y1)
	z.LineTo(x0+rad, y1)
	z.CubeTo(x0+rad-rad*k, y1, x0, y1-rad+rad*k, x0, y1-rad)
	z.LineTo(x0, y0+rad)
	z.CubeTo(x0, y0+rad-rad*k, x0+rad-rad*k, y0, x0+rad, y0)
	z.ClosePath()
}

// fillCircle fills the circle inscribed in r.
func fillCircle(dst *image.RGBA, r image.Rectangle, c color.Color) {
	var z vector.Rasterizer
	z.Reset(r.Dx(), r.Dy())
	w, h := float32(r.Dx()), float32(r.Dy())
	roundRect(&z, 0, 0, w, h, w/2)
	z.Draw(dst, r, image.NewUniform(c), image.Point{})
}

// drawStar fills a five-pointed star centred at (cx, cy) with outer radius rad.
func drawStar(dst *image.RGBA, cx, cy, rad float32, c color.Color) {
	var z vector.Rasterizer
	box := image.Rect(int(cx-rad)-1, int(cy-rad)-1, int(cx+rad)+2, int(cy+rad)+2)
	z.Reset(box.Dx(), box.Dy())
	for i := range 10 {
		rr := rad
		if i%2 == 1 {
			rr = rad * 0.45
		}
		a := float64(i)*math.Pi/5 - math.Pi/2
		x := cx + rr*float32(math.Cos(a)) - float32(box.Min.X)
		y := cy + rr*float32(math.Sin(a)) - float32(box.Min.Y)
		if i == 0 {
			z.MoveTo(x, y)
		} else {
			z.LineTo(x, y)
		}
	}
	z.ClosePath()
	z.Draw(dst, box, image.NewUniform(c), image.Point{})
}

// mix answers a moved toward b by t (0..1).
func mix(a, b color.RGBA, t float64) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*t) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 0xff}
}
