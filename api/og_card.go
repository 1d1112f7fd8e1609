package api

import (
	"bytes"
	"hash/fnv"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"net/http"
	"strings"
	"sync"

	"github.com/disintegration/imaging"
	"github.com/gorilla/mux"
)

// Site and trade cards: the picture a link shows in Telegram, WhatsApp, Eitaa or Bale when its
// page has no card of its own (profiles and articles have, og_share.go). They are the size Open
// Graph readers crop to, and carry the logo and no text.
const (
	ogWidth  = 1200
	ogHeight = 630
	// ogSitePath is the site's card, for pages without a picture of their own.
	ogSitePath = "/og/site.png"
	// ogTradePrefix + a field's slug + ".png" is a trade's placeholder, for profiles without a
	// picture.
	ogTradePrefix = "/og/trade/"
)

// ogPalette are the backgrounds of trade placeholders; a trade's field picks one by its slug,
// so every profile of a field shares a card and the fields are told apart.
var ogPalette = []color.RGBA{
	{0x0b, 0x6e, 0x69, 0xff}, {0x1d, 0x4e, 0x89, 0xff}, {0x7a, 0x3e, 0x9d, 0xff}, {0xa6, 0x4b, 0x2a, 0xff},
	{0x2e, 0x7d, 0x32, 0xff}, {0x8d, 0x6e, 0x00, 0xff}, {0xad, 0x14, 0x57, 0xff}, {0x37, 0x47, 0x4f, 0xff},
}

// ogCards keeps the cards made, by path. Key: the card's path; a card depends only on its slug
// and on the logo embedded in the binary, so nothing invalidates it while the server runs. It
// holds at most one card per field plus the site's (TestShareCards).
type ogCards struct {
	mu    sync.Mutex
	cards map[string][]byte
}

// ogCard answers the PNG of a card with the given background, the site's logo in its middle.
func (s *Server) ogCard(bg color.RGBA) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, ogWidth, ogHeight))
	draw.Draw(img, img.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	// A lighter band at the foot, as in the app's header.
	band := color.RGBA{0xff, 0xff, 0xff, 0x30}
	draw.Draw(img, image.Rect(0, ogHeight-90, ogWidth, ogHeight), image.NewUniform(band), image.Point{}, draw.Over)
	if f, ok := s.web.files["/images/logo.png"]; ok {
		if logo, err := png.Decode(bytes.NewReader(f.body)); err == nil {
			logo = imaging.Fit(logo, 300, 300, imaging.Lanczos)
			// A white disc behind the logo keeps it readable on any background.
			disc := image.NewRGBA(image.Rect(0, 0, 360, 360))
			for y := 0; y < 360; y++ {
				for x := 0; x < 360; x++ {
					if dx, dy := x-180, y-180; dx*dx+dy*dy <= 180*180 {
						disc.Set(x, y, color.White)
					}
				}
			}
			at := image.Pt((ogWidth-360)/2, (ogHeight-90-360)/2)
			draw.Draw(img, disc.Bounds().Add(at), disc, image.Point{}, draw.Over)
			lb := logo.Bounds()
			at = image.Pt((ogWidth-lb.Dx())/2, (ogHeight-90-lb.Dy())/2)
			draw.Draw(img, lb.Sub(lb.Min).Add(at), logo, lb.Min, draw.Over)
		}
	}
	var b bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// tradeColor picks a field's background.
func tradeColor(slug string) color.RGBA {
	h := fnv.New32a()
	h.Write([]byte(slug))
	return ogPalette[h.Sum32()%uint32(len(ogPalette))]
}

// handleOGCard handles "GET /og/site.png" and "GET /og/trade/{slug}.png" (404 for a slug that
// names no field).
func (s *Server) handleOGCard(w http.ResponseWriter, r *http.Request) error {
	p := r.URL.Path
	bg := ogPalette[0]
	if p != ogSitePath {
		slug := strings.TrimSuffix(mux.Vars(r)["slug"], ".png")
		tree, err := s.categories(r.Context())
		if err != nil {
			return err
		}
		c := tree.BySlag(slug)
		if c == nil || !c.IsField() {
			http.Error(w, "404 page not found", http.StatusNotFound)
			return nil
		}
		bg = tradeColor(c.Slag)
	}
	s.og.mu.Lock()
	card, ok := s.og.cards[p]
	if !ok {
		var err error
		if card, err = s.ogCard(bg); err != nil {
			s.og.mu.Unlock()
			return err
		}
		if s.og.cards == nil {
			s.og.cards = map[string][]byte{}
		}
		s.og.cards[p] = card
	}
	s.og.mu.Unlock()
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	writeConditional(w, r, card)
	return nil
}

// tradeCardPath answers the placeholder card of a profile's trade: the field of its first
// category (or of its range of work), or the site's card.
func tradeCardPath(field string) string {
	if field == "" {
		return ogSitePath
	}
	return ogTradePrefix + field + ".png"
}
