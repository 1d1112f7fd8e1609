package media_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kardan/media"
)

func newProcessor(t testing.TB) (*media.Processor, *media.LocalDir) {
	t.Helper()
	dir, err := media.NewLocalDir(filepath.Join(t.TempDir(), "uploads"))
	if err != nil {
		t.Fatal(err)
	}
	return media.NewProcessor(dir, media.Options{}), dir
}

// halves is a w×h image whose left half is red and right half blue, with some noise so JPEG
// has real work to do.
func halves(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewPCG(1, 2))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			n := uint8(rng.IntN(24))
			c := color.RGBA{220 + n/2, n, n, 255}
			if x >= w/2 {
				c = color.RGBA{n, n, 220 + n/2, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

func encodeJPEG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// exifSegment is a JPEG APP1 Exif segment whose first IFD holds the orientation tag, followed by
// extra bytes standing for the rest of a camera's metadata (GPS position, serial number).
func exifSegment(orientation uint16, extra string) []byte {
	var t bytes.Buffer
	t.WriteString("MM\x00\x2a\x00\x00\x00\x08")
	binary.Write(&t, binary.BigEndian, uint16(1))      // one entry
	binary.Write(&t, binary.BigEndian, uint16(0x0112)) // Orientation
	binary.Write(&t, binary.BigEndian, uint16(3))      // SHORT
	binary.Write(&t, binary.BigEndian, uint32(1))      // one value
	binary.Write(&t, binary.BigEndian, orientation)
	binary.Write(&t, binary.BigEndian, uint16(0))
	binary.Write(&t, binary.BigEndian, uint32(0)) // no next IFD
	t.WriteString(extra)
	payload := append([]byte("Exif\x00\x00"), t.Bytes()...)
	return segment(0xE1, payload)
}

func segment(marker byte, payload []byte) []byte {
	seg := []byte{0xFF, marker, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(payload)+2))
	return append(seg, payload...)
}

// withSegments inserts segments right after a JPEG's start-of-image marker.
func withSegments(jpg []byte, segs ...[]byte) []byte {
	out := append([]byte{}, jpg[:2]...)
	for _, s := range segs {
		out = append(out, s...)
	}
	return append(out, jpg[2:]...)
}

func decodeAny(t testing.TB, b []byte) image.Image {
	t.Helper()
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode output: %v", err)
	}
	return img
}

func readKey(t testing.TB, dir *media.LocalDir, key string) []byte {
	t.Helper()
	f, err := dir.Open(context.Background(), key)
	if err != nil {
		t.Fatalf("open %s: %v", key, err)
	}
	defer f.Close()
	b, _ := io.ReadAll(f)
	return b
}

func TestSniff(t *testing.T) {
	webp, _ := os.ReadFile("testdata/blue-purple-pink.lossy.webp")
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"jpeg", encodeJPEG(t, halves(8, 8)), "jpeg"},
		{"png", encodePNG(t, halves(8, 8)), "png"},
		{"gif", []byte("GIF89a\x01\x00\x01\x00"), "gif"},
		{"webp", webp, "webp"},
		{"html", []byte("<!doctype html><script>alert(1)</script>"), ""},
		{"svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), ""},
		{"riff-not-webp", []byte("RIFF\x00\x00\x00\x00WAVEfmt "), ""},
		{"empty", nil, ""},
	} {
		if got := media.Sniff(tt.data); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestProcess(t *testing.T) {
	ctx := context.Background()
	t.Run("JPEG", func(t *testing.T) {
		p, dir := newProcessor(t)
		im, err := p.Process(ctx, encodeJPEG(t, halves(2000, 1000)))
		if err != nil {
			t.Fatal(err)
		}
		if im.Width != 1600 || im.Height != 800 || im.Mime != "image/jpeg" {
			t.Fatalf("got %dx%d %s, want 1600x800 image/jpeg", im.Width, im.Height, im.Mime)
		}
		if !strings.HasPrefix(im.Key, im.SHA256[:2]+"/"+im.SHA256) || !strings.HasSuffix(im.Key, ".jpg") {
			t.Fatalf("got key %q, want ab/<sha256>.jpg", im.Key)
		}
		main := readKey(t, dir, im.Key)
		if sum := sha256.Sum256(main); hex.EncodeToString(sum[:]) != im.SHA256 || int64(len(main)) != im.Size {
			t.Fatal("the stored file is not the one its name and size describe")
		}
		thumb := decodeAny(t, readKey(t, dir, im.ThumbKey))
		if b := thumb.Bounds(); b.Dx() != 400 || b.Dy() != 200 {
			t.Fatalf("thumbnail: got %v, want 400x200", b)
		}
	})
	t.Run("SmallStaysSmall", func(t *testing.T) {
		p, _ := newProcessor(t)
		im, err := p.Process(ctx, encodePNG(t, halves(300, 200)))
		if err != nil {
			t.Fatal(err)
		}
		if im.Width != 300 || im.Height != 200 || im.Mime != "image/jpeg" {
			t.Fatalf("got %dx%d %s, want an opaque PNG stored as a 300x200 JPEG", im.Width, im.Height, im.Mime)
		}
	})
	t.Run("SameImageSameName", func(t *testing.T) {
		p, _ := newProcessor(t)
		data := encodeJPEG(t, halves(500, 300))
		a, _ := p.Process(ctx, data)
		b, err := p.Process(ctx, data)
		if err != nil || a.Key != b.Key {
			t.Fatalf("got %q and %q (%v), want one name", a.Key, b.Key, err)
		}
	})
	t.Run("TransparentPNG", func(t *testing.T) {
		p, dir := newProcessor(t)
		img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
		for i := 0; i < 64; i++ {
			img.SetNRGBA(i, i, color.NRGBA{0, 128, 0, 255})
		}
		im, err := p.Process(ctx, encodePNG(t, img))
		if err != nil {
			t.Fatal(err)
		}
		if im.Mime != "image/png" || !strings.HasSuffix(im.Key, ".png") || !strings.HasSuffix(im.ThumbKey, ".png") {
			t.Fatalf("got %s %s, want PNG for an image with transparency", im.Mime, im.Key)
		}
		out := decodeAny(t, readKey(t, dir, im.Key))
		if _, _, _, a := out.At(5, 0).RGBA(); a != 0 {
			t.Fatalf("got alpha %d, want the transparency kept", a)
		}
	})
	t.Run("GIF", func(t *testing.T) {
		p, _ := newProcessor(t)
		pal := image.NewPaletted(image.Rect(0, 0, 40, 30), []color.Color{color.White, color.Black})
		var buf bytes.Buffer
		gif.Encode(&buf, pal, nil)
		im, err := p.Process(ctx, buf.Bytes())
		if err != nil || im.Width != 40 || im.Height != 30 {
			t.Fatalf("got %+v %v, want 40x30", im, err)
		}
	})
	t.Run("WebP", func(t *testing.T) {
		p, _ := newProcessor(t)
		data, err := os.ReadFile("testdata/blue-purple-pink.lossy.webp")
		if err != nil {
			t.Fatal(err)
		}
		im, err := p.Process(ctx, data)
		if err != nil || im.Mime != "image/jpeg" || im.Width == 0 {
			t.Fatalf("got %+v %v, want a JPEG", im, err)
		}
	})
}

func TestOrientation(t *testing.T) {
	ctx := context.Background()
	src := encodeJPEG(t, halves(80, 40)) // stored sideways: red left, blue right
	isRed := func(c color.Color) bool { r, _, b, _ := c.RGBA(); return r > 3*b }
	isBlue := func(c color.Color) bool { r, _, b, _ := c.RGBA(); return b > 3*r }
	for _, tt := range []struct {
		o             uint16
		w, h          int
		redAt, blueAt image.Point
	}{
		{1, 80, 40, image.Pt(10, 20), image.Pt(70, 20)},
		{3, 80, 40, image.Pt(70, 20), image.Pt(10, 20)}, // turned half way: red right
		{6, 40, 80, image.Pt(20, 10), image.Pt(20, 70)}, // 90° clockwise: red on top
		{8, 40, 80, image.Pt(20, 70), image.Pt(20, 10)}, // 90° counter-clockwise: red at the bottom
		{2, 80, 40, image.Pt(70, 20), image.Pt(10, 20)}, // mirrored
	} {
		p, dir := newProcessor(t)
		im, err := p.Process(ctx, withSegments(src, exifSegment(tt.o, "")))
		if err != nil {
			t.Fatalf("orientation %d: %v", tt.o, err)
		}
		if im.Width != tt.w || im.Height != tt.h {
			t.Fatalf("orientation %d: got %dx%d, want %dx%d", tt.o, im.Width, im.Height, tt.w, tt.h)
		}
		out := decodeAny(t, readKey(t, dir, im.Key))
		if !isRed(out.At(tt.redAt.X, tt.redAt.Y)) || !isBlue(out.At(tt.blueAt.X, tt.blueAt.Y)) {
			t.Fatalf("orientation %d: red at %v is %v, blue at %v is %v", tt.o, tt.redAt, out.At(tt.redAt.X, tt.redAt.Y),
				tt.blueAt, out.At(tt.blueAt.X, tt.blueAt.Y))
		}
	}
}

func TestMetadataGone(t *testing.T) {
	ctx := context.Background()
	const secret = "GPS 35.6892N 51.3890E serial SN-4242"
	data := withSegments(encodeJPEG(t, halves(300, 200)),
		exifSegment(1, secret),
		segment(0xE1, []byte("http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta>"+secret+"</x:xmpmeta>")),
		segment(0xED, []byte("Photoshop 3.0\x00"+secret)),
		segment(0xFE, []byte("comment: "+secret)),
	)
	p, dir := newProcessor(t)
	im, err := p.Process(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{im.Key, im.ThumbKey} {
		out := readKey(t, dir, key)
		for _, bad := range []string{"Exif", "GPS", "SN-4242", "xmpmeta", "Photoshop", "comment"} {
			if bytes.Contains(out, []byte(bad)) {
				t.Errorf("%s still holds %q", key, bad)
			}
		}
		// Walk the output's markers up to the image data: only JFIF (APP0), tables and frame.
		for i := 2; i+4 <= len(out) && out[i+1] != 0xDA; {
			m := out[i+1]
			if m >= 0xE1 && m <= 0xEF || m == 0xFE {
				t.Errorf("%s has metadata marker %#x", key, m)
			}
			i += 2 + int(binary.BigEndian.Uint16(out[i+2:]))
		}
	}
}

// pngHeader is a PNG signature and IHDR chunk claiming w×h RGBA pixels, followed by a small
// compressed stream: the shape of a decompression bomb.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	chunk(&b, "IHDR", ihdr)
	chunk(&b, "IDAT", []byte{0x78, 0x9c, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01})
	chunk(&b, "IEND", nil)
	return b.Bytes()
}

func chunk(b *bytes.Buffer, typ string, data []byte) {
	binary.Write(b, binary.BigEndian, uint32(len(data)))
	b.WriteString(typ)
	b.Write(data)
	crc := crc32.ChecksumIEEE(append([]byte(typ), data...))
	binary.Write(b, binary.BigEndian, crc)
}

func TestBadInputs(t *testing.T) {
	ctx := context.Background()
	jpg := encodeJPEG(t, halves(400, 300))
	pngData := encodePNG(t, halves(400, 300))
	for _, tt := range []struct {
		name string
		data []byte
		want error
	}{
		{"ErrText", []byte("just some text, not a picture"), media.ErrNotImage},
		{"ErrEmpty", nil, media.ErrNotImage},
		{"ErrHTML", []byte("<html><body><img src=x onerror=alert(1)></body></html>"), media.ErrNotImage},
		{"ErrHTMLWithPNGInside", append([]byte("<html><!--"), pngData...), media.ErrNotImage},
		{"ErrTruncatedJPEG", jpg[:len(jpg)/2], media.ErrCorrupt},
		{"ErrTruncatedJPEGHeader", jpg[:40], media.ErrCorrupt},
		{"ErrTruncatedPNG", pngData[:len(pngData)/2], media.ErrCorrupt},
		{"ErrPNGPixelBomb", pngHeader(100_000, 100_000), media.ErrTooManyPixels},
		{"ErrPNGJustOverLimit", pngHeader(8000, 5001), media.ErrTooManyPixels},
		{"ErrGIFPixelBomb", []byte("GIF89a\xff\xff\xff\xff\x00\x00\x00;"), media.ErrTooManyPixels},
		{"ErrGIFHeaderThenScript", []byte("GIF89a<script>alert(1)</script>"), media.ErrTooManyPixels},
		{"ErrTooLarge", append(append([]byte{}, jpg...), make([]byte, 10<<20)...), media.ErrTooLarge},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, dir := newProcessor(t)
			_, err := p.Process(ctx, tt.data)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			// Nothing is left behind, not even a temporary file.
			var files []string
			filepath.WalkDir(dir.Root(), func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					files = append(files, p)
				}
				return nil
			})
			if len(files) != 0 {
				t.Fatalf("got files %v after a refused upload, want none", files)
			}
		})
	}
	t.Run("PolyglotJPEGWithScript", func(t *testing.T) {
		// A real JPEG with HTML and a ZIP directory appended: accepted as the image it is, and the
		// stored file holds only pixels.
		data := append(append([]byte{}, jpg...), []byte("<html><script>alert(document.cookie)</script>PK\x05\x06")...)
		p, dir := newProcessor(t)
		im, err := p.Process(ctx, data)
		if err != nil {
			t.Fatal(err)
		}
		out := readKey(t, dir, im.Key)
		if bytes.Contains(out, []byte("<script")) || bytes.Contains(out, []byte("PK\x05\x06")) {
			t.Fatal("the appended payload survived")
		}
	})
}

func TestLocalDir(t *testing.T) {
	ctx := context.Background()
	dir, err := media.NewLocalDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Run("PutOpenDelete", func(t *testing.T) {
		if err := dir.Put(ctx, "ab/abc.jpg", strings.NewReader("pixels")); err != nil {
			t.Fatal(err)
		}
		if got := readKey(t, dir, "ab/abc.jpg"); string(got) != "pixels" {
			t.Fatalf("got %q", got)
		}
		if err := dir.Delete(ctx, "ab/abc.jpg"); err != nil {
			t.Fatal(err)
		}
		if err := dir.Delete(ctx, "ab/abc.jpg"); err != nil {
			t.Fatalf("second delete: %v", err)
		}
		if _, err := dir.Open(ctx, "ab/abc.jpg"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("got %v, want not exist", err)
		}
	})
	t.Run("ErrBadKey", func(t *testing.T) {
		for _, key := range []string{"", "../x.jpg", "/etc/passwd", "ab/../../x", "ab//x.jpg", `ab\x.jpg`, "./x"} {
			if err := dir.Put(ctx, key, strings.NewReader("x")); !errors.Is(err, media.ErrBadKey) {
				t.Errorf("Put(%q): got %v, want ErrBadKey", key, err)
			}
			if _, err := dir.Open(ctx, key); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Open(%q): got %v, want not exist", key, err)
			}
		}
	})
	t.Run("FailedWriteLeavesNothing", func(t *testing.T) {
		err := dir.Put(ctx, "cd/half.jpg", io.MultiReader(strings.NewReader("half an ima"), errReader{}))
		if err == nil {
			t.Fatal("got nil, want the reader's error")
		}
		entries, _ := os.ReadDir(filepath.Join(dir.Root(), "cd"))
		if len(entries) != 0 {
			t.Fatalf("got %d entries, want none: no half-written file, no temporary file", len(entries))
		}
	})
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

// BenchmarkProcessJPEG12MP runs a 4000×3000 camera-sized JPEG through the whole pipeline:
// check, decode, resize to 1600 px, thumbnail, encode, hash and store. Run with -cpu 1 for the
// one-core figure.
func BenchmarkProcessJPEG12MP(b *testing.B) {
	data := encodeJPEG(b, halves(4000, 3000))
	p, _ := newProcessor(b)
	ctx := context.Background()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := p.Process(ctx, data); err != nil {
			b.Fatal(err)
		}
	}
}
