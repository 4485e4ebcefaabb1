package slabs

import (
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
)

// BenchmarkJoin joins four slabs of two 2048x2048 planes each (random
// p=0.3, 26-connectivity, the slabs labeled beforehand): three seams, each
// labeled on the CPU and joined.
//
//	go test ./slabs -run '^$' -bench Join
func BenchmarkJoin(b *testing.B) {
	const w, h, depth, thick = 2048, 2048, 8, 2
	r, err := gen.RandomRaster(w, h, depth, 0.3, 1)
	if err != nil {
		b.Fatal(err)
	}
	rule := imagegraph.Rule{Mode: imagegraph.Binary}
	label := cpuLabel(rule, 26, 0)
	type labeled struct {
		r      *imagegraph.Raster
		labels []uint32
		count  int
	}
	var slabs []labeled
	for z := 0; z < depth; z += thick {
		s, err := Planes(r, z, z+thick)
		if err != nil {
			b.Fatal(err)
		}
		labels := make([]uint32, s.Len())
		n, err := label(s, labels)
		if err != nil {
			b.Fatal(err)
		}
		slabs = append(slabs, labeled{s, labels, n})
	}
	b.SetBytes(int64(r.Len()))
	for b.Loop() {
		j, err := newJoiner(w, h, 0, label)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range slabs {
			if err := j.Add(s.r, s.labels, s.count); err != nil {
				b.Fatal(err)
			}
		}
		j.Finish()
	}
}
