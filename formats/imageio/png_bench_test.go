package imageio

import (
	"bytes"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"testing"
)

// benchFile returns the PNG named by $CCLABEL_PNG_BENCH_FILE, or a 4096^2
// 8-bit grey image of smooth blobs thresholded to 0/255, like the
// masks 'cclabel gen image' writes.
func pngBenchFile(b *testing.B) []byte {
	if name := os.Getenv("CCLABEL_PNG_BENCH_FILE"); name != "" {
		data, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	const side = 4096
	rng := rand.New(rand.NewPCG(1, 2))
	m := image.NewGray(image.Rect(0, 0, side, side))
	cx, cy := make([]int, 3000), make([]int, 3000)
	for i := range cx {
		cx[i], cy[i] = rng.IntN(side), rng.IntN(side)
	}
	for i := range cx {
		r := 10 + rng.IntN(40)
		for y := max(0, cy[i]-r); y < min(side, cy[i]+r); y++ {
			for x := max(0, cx[i]-r); x < min(side, cx[i]+r); x++ {
				if (x-cx[i])*(x-cx[i])+(y-cy[i])*(y-cy[i]) < r*r {
					m.Pix[y*side+x] = 255
				}
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

func BenchmarkDecodePNGData(b *testing.B) {
	data := pngBenchFile(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := decodePNGFast(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkImagePNG(b *testing.B) {
	data := pngBenchFile(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
