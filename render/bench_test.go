package render

import (
	"bytes"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/cclabel/cclabel/formats/imageio"
)

// benchSide is the side of the benchmark images.
const benchSide = 4096

// blobLabels returns a benchSide^2 label map of square blobs on a black
// background, like a segmentation: 65535 labels.
func blobLabels() []uint32 {
	labels := make([]uint32, benchSide*benchSide)
	for y := range benchSide {
		for x := range benchSide {
			if x%16 < 12 && y%16 < 12 {
				labels[y*benchSide+x] = uint32((y/16)*(benchSide/16)+x/16)%65535 + 1
			}
		}
	}
	return labels
}

// benchPNG returns an 8-bit greyscale benchSide^2 PNG of noisy blobs.
func benchPNG(b *testing.B) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	img := image.NewGray(image.Rect(0, 0, benchSide, benchSide))
	for i := range img.Pix {
		if (i%benchSide)%16 < 12 && (i/benchSide)%16 < 12 {
			img.Pix[i] = uint8(150 + rng.IntN(100))
		} else {
			img.Pix[i] = uint8(rng.IntN(40))
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

func BenchmarkColorLabels4096(b *testing.B) {
	labels := blobLabels()
	b.SetBytes(benchSide * benchSide)
	for b.Loop() {
		if _, err := ColorLabels(labels, benchSide, benchSide); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWritePNGColour4096(b *testing.B) {
	img, err := ColorLabels(blobLabels(), benchSide, benchSide)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(benchSide * benchSide)
	for b.Loop() {
		if err := WritePNG(io.Discard, img); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteLabelsPNG16_4096(b *testing.B) {
	labels := blobLabels()
	b.SetBytes(benchSide * benchSide)
	for b.Loop() {
		if err := WriteLabelsPNG16(io.Discard, labels, benchSide, benchSide); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOverlay4096(b *testing.B) {
	labels := blobLabels()
	base, err := imageio.Decode(bytes.NewReader(benchPNG(b)), "bench")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(benchSide * benchSide)
	for b.Loop() {
		if _, err := Overlay(base, labels, 0.5); err != nil {
			b.Fatal(err)
		}
	}
}
