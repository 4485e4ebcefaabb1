package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"testing"
)

// TestStreamPNGSizes writes colour and 16-bit label PNGs of many shapes,
// with random labels and with runs, across the parallel compressor's
// blocks (bands of about 1 MiB, one row when a row is longer), and decodes
// them with image/png.
func TestStreamPNGSizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, size := range [][2]int{{1, 1}, {7, 3}, {1000, 1500}, {349525, 2}, {400000, 3}, {1, 600000}, {4097, 700}} {
		w, h := size[0], size[1]
		for _, kind := range []string{"random", "runs"} {
			labels := make([]uint32, w*h)
			l := uint32(0)
			for i := range labels {
				if kind == "random" || rng.IntN(300) == 0 {
					l = uint32(rng.IntN(65536))
				}
				labels[i] = l
			}
			name := fmt.Sprintf("%dx%d %s", w, h, kind)
			var b bytes.Buffer
			if err := WriteColorLabelsPNG(&b, labels, w, h); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&b)
			if err != nil {
				t.Fatalf("%s colour: %v", name, err)
			}
			want, err := ColorLabels(labels, w, h)
			if err != nil {
				t.Fatal(err)
			}
			rgba, ok := img.(*image.RGBA)
			if !ok || rgba.Rect != want.Rect || !bytes.Equal(rgba.Pix, want.Pix) {
				t.Fatalf("%s colour: decoded %T differs from ColorLabels", name, img)
			}
			b.Reset()
			if err := WriteLabelsPNG16(&b, labels, w, h); err != nil {
				t.Fatal(err)
			}
			img, err = png.Decode(&b)
			if err != nil {
				t.Fatalf("%s 16-bit: %v", name, err)
			}
			g, ok := img.(*image.Gray16)
			if !ok || g.Rect != want.Rect {
				t.Fatalf("%s 16-bit: decoded %T %v", name, img, img.Bounds())
			}
			for i, l := range labels {
				if got := uint32(g.Pix[2*i])<<8 | uint32(g.Pix[2*i+1]); got != l {
					t.Fatalf("%s 16-bit: pixel %d is %d, want %d", name, i, got, l)
				}
			}
		}
	}
}

// failAfter accepts n bytes, then fails.
type failAfter struct {
	n   int
	err error
}

func (w *failAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		return 0, w.err
	}
	w.n -= len(p)
	return len(p), nil
}

// TestStreamPNGWriteError checks that a failing writer's error comes back
// from the middle of the image data.
func TestStreamPNGWriteError(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	labels := make([]uint32, 2000*2000)
	for i := range labels {
		labels[i] = uint32(rng.IntN(1000))
	}
	boom := errors.New("disk full")
	for _, n := range []int{0, 40, 2 << 20} {
		if err := WriteColorLabelsPNG(&failAfter{n: n, err: boom}, labels, 2000, 2000); !errors.Is(err, boom) {
			t.Errorf("colour, failing after %d bytes: err = %v", n, err)
		}
		if err := WriteLabelsPNG16(&failAfter{n: n, err: boom}, labels, 2000, 2000); !errors.Is(err, boom) {
			t.Errorf("16-bit, failing after %d bytes: err = %v", n, err)
		}
	}
}
