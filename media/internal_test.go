package media

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
)

func TestOrientationParserSurvivesGarbage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for i := 0; i < 5000; i++ {
		b := make([]byte, rng.IntN(64))
		for j := range b {
			b[j] = byte(rng.IntN(256))
		}
		// Half of the inputs get plausible headers, so the parser goes past the first check.
		switch i % 4 {
		case 1:
			b = append([]byte{0xFF, 0xD8, 0xFF, 0xE1, 0x00, byte(rng.IntN(80)), 'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0, 42}, b...)
		case 2:
			b = append([]byte("RIFF\x00\x00\x00\x00WEBPEXIF"), b...)
		case 3:
			b = append([]byte{'I', 'I', 42, 0}, b...)
			if o := tiffOrientation(b); o < 0 || o > 8 {
				t.Fatalf("got orientation %d", o)
			}
			continue
		}
		for _, f := range []string{"jpeg", "webp"} {
			if o := orientationOf(f, b); o < 1 || o > 8 {
				t.Fatalf("got orientation %d for %x", o, b)
			}
		}
	}
}

func TestJobsAreBounded(t *testing.T) {
	p := NewProcessor(nil, Options{Jobs: 1})
	if err := p.budget.acquire(context.Background(), 1); err != nil { // another upload holds the only slot
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	data := []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;")
	if _, err := p.Transform(ctx, data); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want to wait for the slot until the request gives up", err)
	}
	p.budget.release(1)
}
