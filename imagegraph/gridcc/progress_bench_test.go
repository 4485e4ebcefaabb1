package gridcc_test

import (
	"math/rand/v2"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// BenchmarkLabelProgress labels a 4096² and a 256³ random mask with and
// without a progress report: what a progress display costs the labeling.
func BenchmarkLabelProgress(b *testing.B) {
	for _, g := range []struct {
		name    string
		w, h, d int
		conn    int
	}{{"4096x4096", 4096, 4096, 1, 8}, {"256^3", 256, 256, 256, 26}} {
		b.Run(g.name, func(b *testing.B) { benchmarkLabelProgress(b, g.w, g.h, g.d, g.conn) })
	}
}

func benchmarkLabelProgress(b *testing.B, w, h, d, conn int) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]uint8, w*h*d)
	for i := range data {
		data[i] = uint8(rng.IntN(2))
	}
	r, err := imagegraph.NewRaster(w, h, d, data)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]uint32, r.Len())
	for _, c := range []struct {
		name     string
		progress func(done, total int)
	}{{"none", nil}, {"reported", func(int, int) {}}} {
		b.Run(c.name, func(b *testing.B) {
			opts := gridcc.Options{Connectivity: conn, Threads: 2, Progress: c.progress}
			for b.Loop() {
				if _, err := gridcc.Label(r, imagegraph.Rule{Mode: imagegraph.Multilabel}, opts, dst); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
