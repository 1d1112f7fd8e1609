package media_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"testing"

	"kardan/media"
)

// FuzzUpload feeds arbitrary bytes to the upload pipeline with small bounds (so each run decodes
// little) and checks its promises: the format comes from the first bytes only, every refusal is
// one of the four known reasons, nothing over the pixel bound is decoded, and what is accepted
// comes out as a clean JPEG or PNG within the size bounds.
func FuzzUpload(f *testing.F) {
	small := halves(24, 16)
	var jb, pb, gb bytes.Buffer
	jpeg.Encode(&jb, small, &jpeg.Options{Quality: 80})
	png.Encode(&pb, small)
	pal := image.NewPaletted(image.Rect(0, 0, 8, 8), []color.Color{color.Black, color.White})
	gif.Encode(&gb, pal, nil)
	transparent := image.NewNRGBA(image.Rect(0, 0, 10, 10))
	var tb bytes.Buffer
	png.Encode(&tb, transparent)
	webp, _ := os.ReadFile("testdata/blue-purple-pink.lossy.webp")
	for _, seed := range [][]byte{
		jb.Bytes(), pb.Bytes(), gb.Bytes(), tb.Bytes(), webp,
		jb.Bytes()[:jb.Len()/2], pb.Bytes()[:40], webp[:30],
		pngHeader(100_000, 100_000), pngHeader(1, 1), pngHeader(0, 5),
		[]byte("GIF89a\xff\xff\xff\xff\x00\x00\x00;"), []byte("GIF89a<script>alert(1)</script>"),
		append(append([]byte{}, jb.Bytes()...), []byte("<html><script>x</script>PK\x05\x06")...),
		append([]byte("<html><!--"), pb.Bytes()...),
		[]byte("\xff\xd8\xff"), []byte("RIFF\x00\x00\x00\x00WEBPVP8 "), nil,
	} {
		f.Add(seed)
	}
	opts := media.Options{MaxBytes: 1 << 20, MaxPixels: 1 << 16, MaxSide: 32, ThumbSide: 8, Quality: 60, Jobs: 1}
	p := media.NewProcessor(nil, opts)
	known := []error{media.ErrNotImage, media.ErrTooLarge, media.ErrTooManyPixels, media.ErrCorrupt}
	isKnown := func(err error) bool {
		for _, k := range known {
			if errors.Is(err, k) {
				return true
			}
		}
		return false
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		format := media.Sniff(data)
		switch format {
		case "", "jpeg", "png", "gif", "webp":
		default:
			t.Fatalf("Sniff answered %q", format)
		}
		if head := data[:min(16, len(data))]; media.Sniff(head) != format {
			t.Fatalf("Sniff looked past the first 16 bytes")
		}
		got, cfg, err := p.Check(data)
		if err != nil {
			if !isKnown(err) {
				t.Fatalf("Check: unknown refusal %v", err)
			}
		} else {
			if got != format || cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > opts.MaxPixels {
				t.Fatalf("Check accepted %s %dx%d (sniffed %q)", got, cfg.Width, cfg.Height, format)
			}
		}
		v, terr := p.Transform(context.Background(), data)
		if terr != nil {
			if !isKnown(terr) {
				t.Fatalf("Transform: unknown refusal %v", terr)
			}
			return
		}
		if err != nil {
			t.Fatalf("Transform accepted what Check refused (%v)", err)
		}
		for _, out := range []struct {
			b    []byte
			side int
		}{{v.Main, opts.MaxSide}, {v.Thumb, opts.ThumbSide}} {
			var img image.Image
			var derr error
			switch v.Mime {
			case "image/jpeg":
				img, derr = jpeg.Decode(bytes.NewReader(out.b))
			case "image/png":
				img, derr = png.Decode(bytes.NewReader(out.b))
			default:
				t.Fatalf("output type %q", v.Mime)
			}
			if derr != nil {
				t.Fatalf("the output does not decode as %s: %v", v.Mime, derr)
			}
			if b := img.Bounds(); b.Dx() > out.side || b.Dy() > out.side || b.Dx() < 1 || b.Dy() < 1 {
				t.Fatalf("output %dx%d, bound %d", b.Dx(), b.Dy(), out.side)
			}
		}
	})
}
