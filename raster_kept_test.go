package cclabel_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestLabelSlabsKeptOnGPU runs on a machine with a GPU: a raster labeled in
// slabs whose labels the GPU keeps until they are final (one labeler, and
// spread over two contexts of the first GPU) has the CPU's labels, bit for
// bit, for slabs of 2 planes to all of them and every 3D connectivity;
// the CPU backend keeps nothing.
func TestLabelSlabsKeptOnGPU(t *testing.T) {
	gpu := gpuLabeler(t, cclabel.Options{})
	peer := gpuLabeler(t, cclabel.Options{})
	cpu, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	rules := []imagegraph.Rule{{Mode: imagegraph.Multilabel}, {Mode: imagegraph.Binary}}
	for _, r := range append(slabRasters(t), randomMap(t, 300, 200, 60, 8)) {
		plane := r.Width * r.Height
		for _, conn := range []int{6, 18, 26} {
			for _, rule := range rules {
				want, err := cpu.LabelRaster(r, rule, conn, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, thick := range []int{2, 3, r.Depth} {
					name := fmt.Sprintf("%dx%dx%d %v c%d slabs of %d", r.Width, r.Height, r.Depth, rule, conn, thick)
					cclabel.SetSlabVoxels(gpu, thick*plane+plane/2)
					cclabel.SetSlabVoxels(peer, thick*plane+plane/2)
					if !cclabel.KeepsSlabs(gpu, r, rule, thick, false) {
						t.Fatalf("%s: the GPU keeps no slabs", name)
					}
					if cclabel.KeepsSlabs(cpu, r, rule, thick, false) {
						t.Fatalf("%s: the CPU backend keeps slabs", name)
					}
					var got *cclabel.RasterResult
					if thick < r.Depth {
						got, err = gpu.LabelRaster(r, rule, conn, nil)
					} else {
						got, err = cclabel.LabelSpread(gpu, []*cclabel.Labeler{peer}, r, rule, conn)
						name += " over two labelers"
					}
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if got.Backend != cclabel.BackendGPU || got.Labels.Count != want.Labels.Count || !slices.Equal(got.Labels.Data, want.Labels.Data) {
						t.Fatalf("%s: %d components on %s, CPU %d", name, got.Labels.Count, got.Backend, want.Labels.Count)
					}
				}
			}
		}
	}
}
