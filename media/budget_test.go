package media_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"runtime"
	"sync"
	"testing"

	"kardan/media"
)

// progressiveJPEG is the audit's M1 file (gen_images.go): a w×h progressive JPEG, three
// components without subsampling, one DC-only scan of all-zero data. Without eoi the end marker
// is left off, the "damaged" variant that was decoded in full and then refused.
func progressiveJPEG(w, h int, eoi bool) []byte {
	var b bytes.Buffer
	b.Write([]byte{0xFF, 0xD8})
	seg := func(m byte, data []byte) {
		b.Write([]byte{0xFF, m})
		binary.Write(&b, binary.BigEndian, uint16(len(data)+2))
		b.Write(data)
	}
	seg(0xDB, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...))
	seg(0xC2, []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0})
	seg(0xC4, []byte{0x00, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	seg(0xDA, []byte{3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 0, 0})
	blocks := ((w + 7) / 8) * ((h + 7) / 8) * 3
	b.Write(make([]byte, (blocks+7)/8+16))
	if eoi {
		b.Write([]byte{0xFF, 0xD9})
	}
	return b.Bytes()
}

func gradient(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, color.RGBA{uint8(x), uint8(y), uint8(x + y), 255})
		}
	}
	return img
}

// allocated answers the bytes the Go runtime counts as allocated while fn runs: the decoder's
// own accounting of what it asked for, unlike RSS, which depends on the collector's timing.
func allocated(fn func()) uint64 {
	runtime.GC()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestDecodeCostBoundsWhatDecodingAllocates checks the cost model against the runtime: for
// every kind of image the decoders treat differently, the whole pipeline allocates no more
// than DecodeCost said before anything was decoded.
func TestDecodeCostBoundsWhatDecodingAllocates(t *testing.T) {
	rgba := gradient(1800, 1200)
	rgba64 := image.NewRGBA64(rgba.Bounds())
	gray := image.NewGray(rgba.Bounds())
	pal := image.NewPaletted(rgba.Bounds(), palette.Plan9)
	var gifBuf bytes.Buffer
	gif.Encode(&gifBuf, pal, nil)
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"baseline JPEG 4:2:0", encodeJPEG(t, rgba)},
		{"gray JPEG", encodeJPEG(t, gray)},
		{"progressive JPEG 4:4:4", progressiveJPEG(1800, 1200, true)},
		{"8-bit RGBA PNG", encodePNG(t, rgba)},
		{"16-bit RGBA PNG", encodePNG(t, rgba64)},
		{"gray PNG", encodePNG(t, gray)},
		{"GIF", gifBuf.Bytes()},
	} {
		p := media.NewProcessor(nil, media.Options{})
		format, cfg, err := p.Check(tt.data)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		cost, err := media.DecodeCost(format, tt.data, cfg, p.Options().MaxSide)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var terr error
		got := allocated(func() { _, terr = p.Transform(context.Background(), tt.data) })
		if terr != nil {
			t.Fatalf("%s: %v", tt.name, terr)
		}
		t.Logf("%-24s cost %6.1f MiB, allocated %6.1f MiB", tt.name, float64(cost)/(1<<20), float64(got)/(1<<20))
		if got > uint64(cost) {
			t.Errorf("%s: allocated %d bytes, more than the %d the budget reserved", tt.name, got, cost)
		}
	}
}

// TestProgressive40MPRefusedBeforeDecoding is audit M1: a 235 KB progressive 6324×6324 JPEG
// (inside the 40-megapixel limit) took 470-590 MB to decode. Now its cost is reckoned from the
// header and it is refused before a byte of pixels is allocated, with or without its end marker.
func TestProgressive40MPRefusedBeforeDecoding(t *testing.T) {
	for _, eoi := range []bool{true, false} {
		data := progressiveJPEG(6324, 6324, eoi)
		p := media.NewProcessor(nil, media.Options{})
		format, cfg, err := p.Check(data)
		if err != nil {
			t.Fatal(err)
		}
		cost, _ := media.DecodeCost(format, data, cfg, p.Options().MaxSide)
		var terr error
		got := allocated(func() { _, terr = p.Transform(context.Background(), data) })
		t.Logf("M1: %d KB progressive 40 MP JPEG (end marker %v): decoding would take %d MiB; refused after allocating %d KiB; decode budget peak %d",
			len(data)>>10, eoi, cost>>20, got>>10, p.Stats().Peak)
		if !errors.Is(terr, media.ErrTooCostly) {
			t.Fatalf("got %v, want ErrTooCostly", terr)
		}
		if cost < 500<<20 {
			t.Errorf("cost %d MiB: the model misses the progressive coefficients", cost>>20)
		}
		if got > 1<<20 || p.Stats().Peak != 0 {
			t.Fatalf("allocated %d bytes and granted %d: it was decoded", got, p.Stats().Peak)
		}
	}
	// A baseline JPEG of the same size still fits: the limit is on memory, not pixels. (Its
	// header is enough; the model is checked against real decodes above.)
	baseline := progressiveJPEG(6324, 6324, true)
	baseline[bytes.Index(baseline, []byte{0xFF, 0xC2})+1] = 0xC0
	p := media.NewProcessor(nil, media.Options{})
	format, cfg, err := p.Check(baseline)
	if err != nil {
		t.Fatal(err)
	}
	if cost, err := media.DecodeCost(format, baseline, cfg, p.Options().MaxSide); err != nil || cost > p.Options().DecodeMemory {
		t.Fatalf("a 40 MP baseline JPEG: cost %d MiB (%v), want within the %d MiB budget", cost>>20, err, p.Options().DecodeMemory>>20)
	}
}

// TestDecodesStayWithinTheBudget: eight uploads at once, each costing more than a third of the
// budget, never hold more than the budget between them, and all finish.
func TestDecodesStayWithinTheBudget(t *testing.T) {
	data := encodeJPEG(t, gradient(1800, 1200))
	p := media.NewProcessor(nil, media.Options{Jobs: 4, DecodeMemory: 64 << 20})
	format, cfg, _ := p.Check(data)
	cost, _ := media.DecodeCost(format, data, cfg, p.Options().MaxSide)
	if cost*2 > 64<<20 || cost*3 <= 64<<20 {
		t.Fatalf("cost %d: the test wants two and not three to fit", cost)
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := p.Transform(context.Background(), data)
			errs <- err
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if st := p.Stats(); st.Peak > st.Budget || st.Peak < cost || st.Used != 0 || st.Running != 0 {
		t.Fatalf("got %+v, want a peak within the budget and nothing left held", st)
	}
}
