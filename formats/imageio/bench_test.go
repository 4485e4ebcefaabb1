package imageio

import (
	"bytes"
	"image"
	"math/rand/v2"
	"testing"

	"github.com/cclabel/cclabel/internal/testkit"
)

// benchSide is the side of the benchmark images.
const benchSide = 4096

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
	return testkit.EncodePNG(b, img)
}

func BenchmarkDecodePNG4096(b *testing.B) {
	data := benchPNG(b)
	b.SetBytes(benchSide * benchSide)
	for b.Loop() {
		if _, err := Decode(bytes.NewReader(data), "bench"); err != nil {
			b.Fatal(err)
		}
	}
}
