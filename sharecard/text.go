package sharecard

import (
	"bytes"
	"embed"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"sort"
	"sync"

	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	ot "github.com/go-text/typesetting/font/opentype"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// Vazirmatn (OFL-1.1, fonts/OFL.txt) as the web app ships it (@fontsource/vazirmatn 5.3.0): the
// Arabic-script and Latin subsets, regular and bold, as WOFF, about 97 KB in all. A card's text
// is drawn in the face whose subset holds each letter, the way the browser picks among the
// app's @font-face rules by unicode-range.
//
//go:embed fonts/*.woff
var fontFiles embed.FS

// weight is a font weight a card uses.
type weight int

const (
	regular weight = iota
	bold
)

// faces is the pair of subsets of one weight; it resolves each letter to the one that has it.
type faces struct{ arabic, latin *font.Face }

// ResolveFace implements shaping.Fontmap.
func (f faces) ResolveFace(r rune) *font.Face {
	if _, ok := f.arabic.NominalGlyph(r); ok {
		return f.arabic
	}
	return f.latin
}

// typesetter shapes and draws text. HarfBuzz's shaper and the line wrapper keep buffers between
// calls, so one typesetter draws one line at a time.
type typesetter struct {
	mu      sync.Mutex
	weights [2]faces
	shaper  shaping.HarfbuzzShaper
	seg     shaping.Segmenter
	wrapper shaping.LineWrapper
}

var (
	typesetOnce sync.Once
	typeset     *typesetter
	typesetErr  error
)

// sharedTypesetter answers the process's typesetter, parsing the embedded fonts once.
func sharedTypesetter() (*typesetter, error) {
	typesetOnce.Do(func() {
		load := func(name string) *font.Face {
			if typesetErr != nil {
				return nil
			}
			b, err := fontFiles.ReadFile("fonts/" + name)
			if err != nil {
				typesetErr = err
				return nil
			}
			f, err := font.ParseTTF(bytes.NewReader(b))
			if err != nil {
				typesetErr = fmt.Errorf("font %s: %w", name, err)
				return nil
			}
			return f
		}
		t := &typesetter{}
		t.weights[regular] = faces{load("vazirmatn-arabic-400-normal.woff"), load("vazirmatn-latin-400-normal.woff")}
		t.weights[bold] = faces{load("vazirmatn-arabic-700-normal.woff"), load("vazirmatn-latin-700-normal.woff")}
		typeset = t
	})
	return typeset, typesetErr
}

// textStyle is how one block of text is set.
type textStyle struct {
	weight   weight
	size     int // pixels per em
	rtl      bool
	maxLines int // 0: one line
	color    color.Color
}

// block is shaped text broken into lines, runs in visual order.
type block struct {
	lines  []shaping.Line
	widths []fixed.Int26_6
	ascent fixed.Int26_6
	height fixed.Int26_6 // one line's height
}

// layout shapes text in the style and breaks it into at most st.maxLines lines of maxWidth
// pixels, the last ending in an ellipsis when the text is longer. The paragraph's direction is
// the card's: a Persian card reads right to left, and an English name or Latin digits inside it
// keep their own order (Unicode's bidirectional algorithm, by the segmenter).
func (t *typesetter) layout(text string, st textStyle, maxWidth int) block {
	t.mu.Lock()
	defer t.mu.Unlock()
	dir := di.DirectionLTR
	lang := language.NewLanguage("en")
	if st.rtl {
		dir = di.DirectionRTL
		lang = language.NewLanguage("fa")
	}
	runes := []rune(text)
	size := fixed.I(st.size)
	faces := t.weights[st.weight]
	in := shaping.Input{Text: runes, RunStart: 0, RunEnd: len(runes), Direction: dir, Size: size, Language: lang}
	var outs []shaping.Output
	for _, run := range t.seg.Split(in, faces) {
		outs = append(outs, t.shaper.Shape(run))
	}
	maxLines := max(st.maxLines, 1)
	cfg := shaping.WrapConfig{Direction: dir, TruncateAfterLines: maxLines, BreakPolicy: shaping.WhenNecessary}
	ell := []rune("…")
	cfg.Truncator = t.shaper.Shape(shaping.Input{Text: ell, RunEnd: len(ell), Direction: dir, Size: size, Language: lang,
		Face: faces.ResolveFace(ell[0])})
	var b block
	if len(outs) > 0 {
		lines, _ := t.wrapper.WrapParagraph(cfg, maxWidth, runes, shaping.NewSliceIterator(outs))
		for _, l := range lines {
			// The wrapper's lines share its buffers: keep copies.
			l = append(shaping.Line(nil), l...)
			sort.Slice(l, func(i, j int) bool { return l[i].VisualIndex < l[j].VisualIndex })
			var w fixed.Int26_6
			for _, run := range l {
				w += run.Advance
			}
			b.lines = append(b.lines, l)
			b.widths = append(b.widths, w)
		}
	}
	ext, _ := faces.arabic.FontHExtents()
	scale := float32(st.size) / float32(faces.arabic.Upem())
	b.ascent = fixed.Int26_6(ext.Ascender * scale * 64)
	b.height = fixed.Int26_6((ext.Ascender - ext.Descender + ext.LineGap) * scale * 64)
	return b
}

// draw paints the block's lines into dst from the top y, each line aligned to the start edge at
// x of its direction: the right edge for right-to-left text, the left edge otherwise. It answers
// the y under the last line.
func (b block) draw(dst draw.Image, x, y int, st textStyle) int {
	var r vector.Rasterizer
	src := image.NewUniform(st.color)
	top := fixed.I(y)
	for i, line := range b.lines {
		base := top + b.ascent
		pen := fixed.I(x)
		if st.rtl {
			pen -= b.widths[i]
		}
		for _, run := range line {
			for _, g := range run.Glyphs {
				outline, ok := run.Face.GlyphData(g.GlyphID).(font.GlyphOutline)
				if ok && len(outline.Segments) > 0 {
					ox := pen + g.XOffset
					oy := base - g.YOffset
					drawGlyph(&r, dst, src, run, outline, ox, oy)
				}
				pen += g.Advance
			}
		}
		top += b.height
	}
	return top.Ceil()
}

// drawGlyph fills one glyph's outline with its origin at (ox, oy), font units scaled to the
// run's size; the rasteriser covers only the glyph's box.
func drawGlyph(r *vector.Rasterizer, dst draw.Image, src image.Image, run shaping.Output, o font.GlyphOutline, ox, oy fixed.Int26_6) {
	scale := float32(run.Size) / 64 / float32(run.Face.Upem())
	minX, minY, maxX, maxY := float32(1e9), float32(1e9), float32(-1e9), float32(-1e9)
	for _, s := range o.Segments {
		for _, p := range s.ArgsSlice() {
			minX, maxX = min(minX, p.X), max(maxX, p.X)
			minY, maxY = min(minY, p.Y), max(maxY, p.Y)
		}
	}
	fx, fy := float32(ox)/64, float32(oy)/64
	// The glyph's box in the destination, y down.
	box := image.Rect(int(fx+minX*scale)-1, int(fy-maxY*scale)-1, int(fx+maxX*scale)+2, int(fy-minY*scale)+2)
	box = box.Intersect(dst.Bounds())
	if box.Empty() {
		return
	}
	r.Reset(box.Dx(), box.Dy())
	r.DrawOp = draw.Over
	pt := func(p ot.SegmentPoint) (float32, float32) {
		return fx + p.X*scale - float32(box.Min.X), fy - p.Y*scale - float32(box.Min.Y)
	}
	started := false
	for _, s := range o.Segments {
		switch s.Op {
		case ot.SegmentOpMoveTo:
			// Each contour is closed before the next begins: the rasteriser's coverage is
			// signed area, which an open contour would leave unbalanced.
			if started {
				r.ClosePath()
			}
			started = true
			r.MoveTo(pt(s.Args[0]))
		case ot.SegmentOpLineTo:
			r.LineTo(pt(s.Args[0]))
		case ot.SegmentOpQuadTo:
			x1, y1 := pt(s.Args[0])
			x2, y2 := pt(s.Args[1])
			r.QuadTo(x1, y1, x2, y2)
		case ot.SegmentOpCubeTo:
			x1, y1 := pt(s.Args[0])
			x2, y2 := pt(s.Args[1])
			x3, y3 := pt(s.Args[2])
			r.CubeTo(x1, y1, x2, y2, x3, y3)
		}
	}
	r.ClosePath()
	r.Draw(dst, box, src, image.Point{})
}
