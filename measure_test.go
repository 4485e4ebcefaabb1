package cclabel_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/measure"
)

// TestMeasureAndOrder checks the facade: the uint32 and the uint16 labels
// of one raster measure alike, and numbering by size renumbers labels and
// table together, with or without a table, on 1 and 3 threads.
func TestMeasureAndOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	w, h, d := 40, 30, 6
	mask := make([]uint8, w*h*d)
	for i := range mask {
		if rng.IntN(3) == 0 {
			mask[i] = 1
		}
	}
	r := mustRasterOf(t, w, h, d, mask)
	rule := imagegraph.Rule{Mode: imagegraph.Binary}
	for _, threads := range []int{1, 3} {
		lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU, Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		defer lab.Close()
		wide, err := lab.LabelRaster(r, rule, 6, nil)
		if err != nil {
			t.Fatal(err)
		}
		narrow, err := lab.LabelRasterNarrow(r, rule, 6, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if narrow.Narrow == nil {
			t.Fatal("no uint16 labels")
		}
		opt := measure.Options{Intensity: r, Surface: true, Contacts: true}
		tw, err := lab.Measure(wide, opt)
		if err != nil {
			t.Fatal(err)
		}
		tn, err := lab.Measure(narrow, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(tw.Components, tn.Components) || len(tw.Contacts) != 0 {
			t.Fatalf("threads %d: uint32 and uint16 labels measure differently, or binary components touch", threads)
		}

		// Order with the table and without: the same labels.
		if err := lab.OrderBySize(wide, tw); err != nil {
			t.Fatal(err)
		}
		if err := lab.OrderBySize(narrow, nil); err != nil {
			t.Fatal(err)
		}
		for i, v := range narrow.Narrow {
			if uint32(v) != wide.Labels.Data[i] {
				t.Fatalf("threads %d: voxel %d: %d with a table, %d without", threads, i, wide.Labels.Data[i], v)
			}
		}
		again, _ := lab.Measure(wide, opt)
		if !slices.Equal(again.Components, tw.Components) {
			t.Fatalf("threads %d: the renumbered table is not the table of the renumbered labels", threads)
		}
		for k := 1; k < len(tw.Components); k++ {
			if tw.Components[k].Size > tw.Components[k-1].Size {
				t.Fatalf("threads %d: label %d larger than label %d", threads, k+1, k)
			}
		}
	}
}

func TestMeasureErrors(t *testing.T) {
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	if _, err := lab.Measure(&cclabel.RasterResult{}, measure.Options{}); err == nil {
		t.Error("measured no labels")
	}
	res := &cclabel.RasterResult{Labels: &imagegraph.Labels{Width: 3, Height: 1, Depth: 1, Data: []uint32{1, 0, 2}, Count: 2}}
	short := &measure.Table{Components: make([]measure.Component, 1)}
	if err := lab.OrderBySize(res, short); err == nil || !slices.Equal(res.Labels.Data, []uint32{1, 0, 2}) {
		t.Errorf("a table of the wrong count: error %v, labels %v", err, res.Labels.Data)
	}
	bad := &cclabel.RasterResult{Labels: &imagegraph.Labels{Width: 3, Height: 1, Depth: 1, Data: []uint32{1, 0, 5}, Count: 2}}
	if err := lab.OrderBySize(bad, nil); err == nil || !slices.Equal(bad.Labels.Data, []uint32{1, 0, 5}) {
		t.Errorf("a label above the count: error %v, labels %v", err, bad.Labels.Data)
	}
}

// mustRasterOf wraps data as a raster.
func mustRasterOf[T imagegraph.Sample](t *testing.T, w, h, d int, data []T) *imagegraph.Raster {
	t.Helper()
	r, err := imagegraph.NewRaster(w, h, d, data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
