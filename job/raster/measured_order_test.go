package raster

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/measure"
	"github.com/cclabel/cclabel/internal/parallel"
)

// TestOrderedFromFirstVoxels gives ordered a result shaped as the GPU's
// (no labels, the first voxels instead) and checks the table and first
// voxels against those of the labels renumbered by size and measured
// again.
func TestOrderedFromFirstVoxels(t *testing.T) {
	const w, h, d = 19, 17, 13
	rng := rand.New(rand.NewPCG(28, 2))
	v := make([]uint8, w*h*d)
	for i := range v {
		v[i] = uint8(rng.IntN(3))
	}
	r, err := imagegraph.NewRaster(w, h, d, v)
	if err != nil {
		t.Fatal(err)
	}
	l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, c := range []struct {
		name  string
		order Order
		conn  int
	}{{"first", FirstOccurrence, 6}, {"size", BySize, 6}, {"size-26", BySize, 26}} {
		t.Run(c.name, func(t *testing.T) {
			res, err := l.LabelRaster(r, imagegraph.Rule{Mode: imagegraph.Multilabel}, c.conn, nil)
			if err != nil {
				t.Fatal(err)
			}
			opt := measure.Options{Surface: true, Contacts: true, Threads: 2}
			lab := res.Labels
			table, err := measure.Compute(lab.Data, w, h, d, lab.Count, opt)
			if err != nil {
				t.Fatal(err)
			}
			gpuShaped := &cclabel.MeasuredRaster{
				RasterResult: &cclabel.RasterResult{Labels: &imagegraph.Labels{Width: w, Height: h, Depth: d, Count: lab.Count}},
				Table:        table, First: parallel.FirstIndices(lab.Data, lab.Count, 2)}
			first, err := ordered(gpuShaped, c.order, 2)
			if err != nil {
				t.Fatal(err)
			}
			data := slices.Clone(lab.Data)
			s := Settings{Order: c.order}
			relabeled := &imagegraph.Labels{Width: w, Height: h, Depth: d, Data: data, Count: lab.Count}
			if err := s.finishLabels(relabeled, 2); err != nil {
				t.Fatal(err)
			}
			want, err := measure.Compute(data, w, h, d, lab.Count, opt)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprintf("%+v", *gpuShaped.Table) != fmt.Sprintf("%+v", *want) {
				t.Errorf("the table renumbered differs from the relabeled labels' table")
			}
			if wantFirst := parallel.FirstIndices(data, lab.Count, 2); !slices.Equal(first, wantFirst) {
				t.Errorf("first voxels %v, want %v", first[:min(8, len(first))], wantFirst[:min(8, len(wantFirst))])
			}
			if c.order == BySize && lab.Count > 1 && slices.IsSorted(first) {
				t.Errorf("numbering by size kept the first-occurrence order of %d components", lab.Count)
			}
		})
	}
}
