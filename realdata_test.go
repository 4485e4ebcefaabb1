package cclabel_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats/nifti"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/internal/testkit"
)

// TestRealSegmentations labels the real electron-microscopy segmentations
// of testdata/em (testdata/README.md says where they come from) as label
// maps, on every CPU backend, as stored and with x and z swapped (the
// layout of a C-order array read x-fastest), and checks them against the
// breadth-first oracle and the component counts scipy.ndimage.label gives.
func TestRealSegmentations(t *testing.T) {
	cases := []struct {
		file  string
		count map[int]int // scipy's multilabel component count per connectivity
	}{
		{"snemi-mini.nii.gz", map[int]int{6: 483, 18: 221, 26: 204}},
		{"fib25-64.nii.gz", map[int]int{6: 88, 18: 78, 26: 78}},
	}
	for _, c := range cases {
		vol, err := nifti.ReadFile(filepath.Join("testdata", "em", c.file))
		if err != nil {
			t.Fatal(err)
		}
		r := vol.Frames[0]
		keys := make([]uint32, r.Len())
		for i := range keys {
			keys[i] = uint32(r.Value(i))
		}
		layouts := map[string]*imagegraph.Raster{"stored": mustRaster(t, r.Width, r.Height, r.Depth, keys)}
		swapped := make([]uint32, len(keys))
		w, h, d := r.Width, r.Height, r.Depth
		for z := range d {
			for y := range h {
				for x := range w {
					swapped[z+y*d+x*d*h] = keys[x+y*w+z*w*h]
				}
			}
		}
		layouts["x and z swapped"] = mustRaster(t, d, h, w, swapped)
		for name, lr := range layouts {
			for _, conn := range []int{6, 18, 26} {
				shape := grid.GridShape{Width: lr.Width, Height: lr.Height, Depth: lr.Depth}
				want, n := testkit.BFSLabels(shape, conn, []uint32(lr.Data.(imagegraph.Samples[uint32])))
				if n != c.count[conn] {
					t.Fatalf("%s, %s, %d: the oracle finds %d components, scipy %d", c.file, name, conn, n, c.count[conn])
				}
				for _, opts := range []cclabel.Options{
					{Backend: cclabel.BackendSerial},
					{Backend: cclabel.BackendCPU, Threads: 1},
					{Backend: cclabel.BackendCPU, Threads: 2},
					{Backend: cclabel.BackendCPU, Threads: 5},
				} {
					t.Run(fmt.Sprintf("%s/%s/%d/%s/%d", c.file, name, conn, opts.Backend, opts.Threads), func(t *testing.T) {
						l, err := cclabel.New(opts)
						if err != nil {
							t.Fatal(err)
						}
						res, err := l.LabelRaster(lr, imagegraph.Rule{Mode: imagegraph.Multilabel}, conn, nil)
						if err != nil {
							t.Fatal(err)
						}
						if res.Labels.Count != n || !slices.Equal(res.Labels.Data, want) {
							t.Fatalf("%d components, labels equal to the oracle's: %v; want %d", res.Labels.Count, slices.Equal(res.Labels.Data, want), n)
						}
					})
				}
			}
		}
	}
}

// mustRaster wraps keys as a w x h x d raster.
func mustRaster(t *testing.T, w, h, d int, keys []uint32) *imagegraph.Raster {
	t.Helper()
	r, err := imagegraph.NewRaster(w, h, d, keys)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
