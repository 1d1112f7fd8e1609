package media

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"sync"
)

// ErrTooCostly is an image within the pixel limit whose decoding would still need more memory
// than the decode budget allows (a progressive JPEG keeps 256 bytes per 8×8 block per
// component; a 16-bit PNG 8 bytes a pixel).
var ErrTooCostly = errors.New("media: image needs too much memory to decode")

// decodeSlack covers what the estimate does not itemise: the decoders' tables and row buffers,
// the two encoded variants, the thumbnail and the orientation copy of the display image.
const decodeSlack = 8 << 20

// DecodeCost answers an upper bound, in bytes, of what decoding an image of this format and
// header and fitting it into maxSide allocates, from the header alone (nothing is decoded).
// It follows the standard library's decoders: which image type each header produces, at what
// bytes per pixel, and what a progressive JPEG keeps between scans.
func DecodeCost(format string, data []byte, cfg image.Config, maxSide int) (int64, error) {
	w, h := int64(cfg.Width), int64(cfg.Height)
	var dec int64
	switch format {
	case "jpeg":
		f, err := readJPEGFrame(data)
		if err != nil {
			return 0, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		dec = f.cost(w, h)
	case "png":
		bpp, interlaced, err := pngPixelBytes(data)
		if err != nil {
			return 0, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		dec = w * h * bpp
		if interlaced {
			dec *= 2 // each of the seven passes is decoded into its own image, then copied
		}
	case "gif":
		dec = w * h // the first frame, one byte a pixel
	case "webp":
		// Lossy: Y, Cb, Cr and alpha planes in 16-pixel macroblocks; lossless: NRGBA plus the
		// decoder's 32-bit pixel arrays for its transforms.
		dec = 12 * w * h
		if len(data) >= 16 && string(data[12:16]) != "VP8L" {
			dec = 3 * (w + 15) * (h + 15)
		}
	default:
		return 0, ErrNotImage
	}
	// Fitting resizes rows first: an NRGBA as wide as the result and as tall as the source.
	dw := w
	if int64(maxSide) < max(w, h) {
		dw = max(1, w*int64(maxSide)/max(w, h))
	}
	fit := 4*dw*h + 4*int64(maxSide)*int64(maxSide)
	return dec + fit + decodeSlack, nil
}

// jpegFrame is what the decoder's memory depends on in a JPEG's header.
type jpegFrame struct {
	progressive bool
	comps       []jpegComp
	adobeRGB    bool // an Adobe APP14 segment says RGB (transform 0): decoded into an RGBA
}

type jpegComp struct{ id, h, v int }

// cost follows image/jpeg: planes as large as whole MCUs, a black plane and an RGBA or CMYK
// copy for 4 components (or an RGBA copy for RGB), and for progressive images one 64-int32
// block per 8×8 block of every component, kept until the last scan.
func (f *jpegFrame) cost(w, h int64) int64 {
	hmax, vmax := int64(1), int64(1)
	for _, c := range f.comps {
		hmax, vmax = max(hmax, int64(c.h)), max(vmax, int64(c.v))
	}
	mxx := (w + 8*hmax - 1) / (8 * hmax)
	myy := (h + 8*vmax - 1) / (8 * vmax)
	var n int64
	for _, c := range f.comps {
		blocks := mxx * myy * int64(c.h) * int64(c.v)
		n += 64 * blocks // the component's plane
		if f.progressive {
			n += 256 * blocks
		}
	}
	rgb := len(f.comps) == 3 && (f.adobeRGB || (f.comps[0].id == 'R' && f.comps[1].id == 'G' && f.comps[2].id == 'B'))
	if len(f.comps) == 4 || rgb {
		n += 4 * w * h
	}
	return n
}

// readJPEGFrame reads the markers up to the first scan: the frame header (SOFn) and any Adobe
// segment. Every length is bounds-checked.
func readJPEGFrame(b []byte) (*jpegFrame, error) {
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xD8 {
		return nil, errors.New("no SOI")
	}
	f := &jpegFrame{}
	sawFrame := false
	for i := 2; ; {
		for i < len(b) && b[i] != 0xFF { // garbage between segments, which decoders skip
			i++
		}
		for i < len(b) && b[i] == 0xFF {
			i++
		}
		if i >= len(b) {
			break
		}
		m := b[i]
		i++
		if m == 0x01 || (m >= 0xD0 && m <= 0xD7) {
			continue
		}
		if m == 0xD9 || m == 0xDA { // end of image, start of scan
			break
		}
		if i+2 > len(b) {
			break
		}
		n := int(binary.BigEndian.Uint16(b[i:]))
		if n < 2 || i+n > len(b) {
			return nil, errors.New("segment runs past the end")
		}
		seg := b[i+2 : i+n]
		i += n
		switch {
		case m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC:
			if sawFrame {
				continue
			}
			if len(seg) < 6 {
				return nil, errors.New("short frame header")
			}
			nc := int(seg[5])
			if nc < 1 || nc > 4 || len(seg) < 6+3*nc {
				return nil, errors.New("bad component count")
			}
			f.progressive = m == 0xC2 || m == 0xC6 || m == 0xCA || m == 0xCE
			for c := 0; c < nc; c++ {
				hv := seg[6+3*c+1]
				f.comps = append(f.comps, jpegComp{id: int(seg[6+3*c]), h: max(1, int(hv>>4)), v: max(1, int(hv&15))})
			}
			sawFrame = true
		case m == 0xEE && len(seg) >= 12 && string(seg[:5]) == "Adobe":
			f.adobeRGB = seg[11] == 0
		}
	}
	if !sawFrame {
		return nil, errors.New("no frame header")
	}
	return f, nil
}

// pngPixelBytes answers the bytes per pixel of the image png.Decode makes for this header
// (gray and palettes one, 8-bit colour four, 16-bit colour eight) and whether it is interlaced.
func pngPixelBytes(b []byte) (int64, bool, error) {
	if len(b) < 29 || string(b[12:16]) != "IHDR" {
		return 0, false, errors.New("no IHDR")
	}
	depth, ctype, interlace := b[24], b[25], b[28] == 1
	switch ctype {
	case 0: // gray
		if depth == 16 {
			return 2, interlace, nil
		}
		return 1, interlace, nil
	case 3: // paletted
		return 1, interlace, nil
	case 2, 4, 6: // truecolour, gray with alpha, truecolour with alpha
		if depth == 16 {
			return 8, interlace, nil
		}
		return 4, interlace, nil
	}
	return 0, false, fmt.Errorf("colour type %d", ctype)
}

// memBudget lets decodes run while the bytes they were granted stay within total, at most
// jobs of them at once. Smaller images never wait behind a larger one that does not fit: a
// waiter is woken at every release and checks again.
type memBudget struct {
	total int64
	jobs  int

	mu      sync.Mutex
	used    int64
	running int
	peak    int64
	changed chan struct{} // closed and replaced at every release
}

func newMemBudget(total int64, jobs int) *memBudget {
	return &memBudget{total: total, jobs: jobs, changed: make(chan struct{})}
}

// acquire waits until n bytes and a job fit, or ctx ends.
func (b *memBudget) acquire(ctx context.Context, n int64) error {
	for {
		b.mu.Lock()
		if b.running < b.jobs && b.used+n <= b.total {
			b.used += n
			b.running++
			b.peak = max(b.peak, b.used)
			b.mu.Unlock()
			return nil
		}
		ch := b.changed
		b.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("wait for an image job: %w", ctx.Err())
		}
	}
}

func (b *memBudget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	b.running--
	close(b.changed)
	b.changed = make(chan struct{})
	b.mu.Unlock()
}

// DecodeStats is the budget's own accounting: the bytes granted to decodes running now, and
// the most ever granted at once.
type DecodeStats struct {
	Used, Peak, Budget int64
	Running, Jobs      int
}

// Stats answers the decode budget's accounting.
func (p *Processor) Stats() DecodeStats {
	b := p.budget
	b.mu.Lock()
	defer b.mu.Unlock()
	return DecodeStats{Used: b.used, Peak: b.peak, Budget: b.total, Running: b.running, Jobs: b.jobs}
}
