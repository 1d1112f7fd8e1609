package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // stored pictures are JPEG or PNG (media.Processor)
	"image/png"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gorilla/mux"

	"kardan/sharecard"
	"kardan/store"
)

// A profile's or an article's own share card: its name, trade, city, rating and picture drawn
// into the Open Graph image, so a link shared in a messenger shows the business and not only the
// site. The card's address carries the version of what it draws
// (/og/profile/{id}-{lang}-{version}.png): an edit makes a new address, so messengers that keep
// a picture by its address show the new card, and the file cache (sharecard.Cache) keys on it.

// cardDrawing is the version of the drawing itself: raise it when sharecard's layout changes, so
// every card is drawn again.
const cardDrawing = "1"

const (
	ogProfileCardPrefix = "/og/profile/"
	ogBlogCardPrefix    = "/og/blog/"
)

// cardSpec is everything a card draws; its hash is the card's version.
type cardSpec struct {
	Drawing string   `json:"drawing"`
	Lang    Lang     `json:"lang"`
	Title   string   `json:"title"`
	Lines   []string `json:"lines"`
	Rating  string   `json:"rating"`
	Picture string   `json:"picture"` // the picture's /uploads/ address, "" for the placeholder
	Accent  string   `json:"accent"`  // the field whose colour the card takes ("" the site's)
	Host    string   `json:"host"`
	Lines3  bool     `json:"lines3"` // the title may take three lines (articles)
}

func (c *cardSpec) version() string {
	b, _ := json.Marshal(c)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// profileCardSpec answers what a profile's card shows in lang.
func (s *Server) profileCardSpec(ctx context.Context, p *store.Profile, form *profileForm, lang Lang) *cardSpec {
	trade, city, _ := placeNames(form, lang)
	spec := &cardSpec{Drawing: cardDrawing, Lang: lang, Title: p.ProfileName, Host: s.host(),
		Picture: profilePicture(p), Accent: s.fieldOfForm(ctx, form)}
	switch {
	case trade != "" && city != "":
		spec.Lines = []string{trade + " · " + city}
	case trade != "" || city != "":
		spec.Lines = []string{trade + city}
	}
	if p.CountScorer > 0 {
		score := strconv.FormatFloat(round1(p.Score), 'f', -1, 64)
		count := strconv.Itoa(p.CountScorer)
		if lang == Fa {
			score = strings.ReplaceAll(persianDigits(score), ".", "٫")
			count = persianDigits(count)
		}
		key := "card_rating"
		if p.CountScorer == 1 {
			key = "card_rating_one"
		}
		spec.Rating = message(lang, key, map[string]any{"score": score, "count": count})
	}
	return spec
}

// blogCardSpec answers what an article's card shows in lang: its title and writer.
func (s *Server) blogCardSpec(b *store.Blog, writer string, lang Lang) *cardSpec {
	spec := &cardSpec{Drawing: cardDrawing, Lang: lang, Title: b.Title, Host: s.host(), Lines3: true}
	if strings.HasPrefix(b.ImageURL, "/uploads/") {
		spec.Picture = b.ImageURL
	}
	if writer != "" {
		spec.Lines = []string{message(lang, "card_by", map[string]any{"name": writer})}
	}
	return spec
}

// profilePicture answers the picture a profile is shown with, as the app picks it (its photo,
// else its first portfolio photo, else its logo); only stored uploads are drawn, a picture
// elsewhere on the web is never fetched.
func profilePicture(p *store.Profile) string {
	for _, u := range append([]string{p.ProfileImage}, append(p.PortfolioImages, p.Logo)...) {
		if u != "" {
			if strings.HasPrefix(u, "/uploads/") {
				return u
			}
			return ""
		}
	}
	return ""
}

// host answers the site's address as a card shows it.
func (s *Server) host() string {
	if u, err := url.Parse(s.cfg.BaseURL); err == nil && u.Host != "" {
		return u.Host
	}
	return ""
}

// cardURL answers the address of a subject's card ("profile" or "blog").
func cardURL(kind string, id int64, spec *cardSpec) string {
	return fmt.Sprintf("/og/%s/%d-%s-%s.png", kind, id, spec.Lang, spec.version())
}

// drawCard draws a card from its spec.
func (s *Server) drawCard(ctx context.Context, spec *cardSpec) ([]byte, error) {
	c := sharecard.Card{RTL: spec.Lang == Fa, Title: spec.Title, Lines: spec.Lines, Rating: spec.Rating,
		Footer: message(spec.Lang, "site_name", nil), Host: spec.Host, Accent: ogPalette[0]}
	if spec.Accent != "" {
		c.Accent = tradeColor(spec.Accent)
	}
	if spec.Lines3 {
		c.MaxTitle = 3
	}
	if r := []rune(strings.TrimSpace(spec.Title)); len(r) > 0 {
		c.Initial = string(r[0])
	}
	if f, ok := s.web.files[siteLogoPath]; ok {
		if logo, err := png.Decode(bytes.NewReader(f.body)); err == nil {
			c.Logo = logo
		}
	}
	if spec.Picture != "" && s.cfg.Uploads != nil {
		// A picture that cannot be opened now (a bucket down for a moment) fails this drawing
		// rather than caching a placeholder under the picture's version for good; the next request
		// draws again. One that opens but does not decode keeps the placeholder: it never will.
		rc, err := s.cfg.Uploads.Open(ctx, strings.TrimPrefix(spec.Picture, "/uploads/"))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("share card picture: %w", err)
		}
		if err == nil {
			if img, _, err := image.Decode(io.LimitReader(rc, 32<<20)); err == nil {
				c.Picture = img
			}
			rc.Close()
		}
	}
	return sharecard.Render(c)
}

// handleShareCard handles "GET /og/profile/{id}-{lang}-{version}.png" and
// "GET /og/blog/{id}-{lang}-{version}.png": the subject's current card, drawn once per version
// and kept in the data directory; an old version's address is redirected to the current one.
func (s *Server) handleShareCard(w http.ResponseWriter, r *http.Request) error {
	v := mux.Vars(r)
	id, err := strconv.ParseInt(v["id"], 10, 64)
	if err != nil || s.cards == nil {
		http.NotFound(w, r)
		return nil
	}
	lang := Lang(v["lang"])
	kind := "profile"
	if strings.HasPrefix(r.URL.Path, ogBlogCardPrefix) {
		kind = "blog"
	}
	var spec *cardSpec
	if kind == "profile" {
		p, err := s.store.Profile(r.Context(), id)
		if err != nil || !p.Visible() {
			http.NotFound(w, r)
			return nil
		}
		form, err := s.profileForm(r.Context(), p, nil)
		if err != nil {
			return err
		}
		spec = s.profileCardSpec(r.Context(), p, form, lang)
	} else {
		b, err := s.store.Blog(r.Context(), id)
		if err != nil || !b.Published(s.store.Now().Unix()) {
			http.NotFound(w, r)
			return nil
		}
		writers, err := s.store.ProfileOwners(r.Context(), []int64{b.WriterID})
		if err != nil {
			return err
		}
		spec = s.blogCardSpec(b, writers[b.WriterID].Name, lang)
	}
	version := spec.version()
	if v["version"] != version {
		w.Header().Set("Cache-Control", "no-cache")
		http.Redirect(w, r, cardURL(kind, id, spec), http.StatusFound)
		return nil
	}
	card, err := s.cards.Card(fmt.Sprintf("%s/%d-%s", kind, id, lang), version, func() ([]byte, error) {
		// Drawn once for every request waiting on it: the first asker leaving must not cut it short.
		return s.drawCard(context.WithoutCancel(r.Context()), spec)
	})
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/png")
	// The address names this version: what it answers never changes.
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	writeConditional(w, r, card)
	return nil
}
