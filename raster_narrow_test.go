package cclabel_test

import (
	"slices"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestGPULabelRasterNarrow checks LabelRasterNarrow: the CPU gives
// LabelRaster's labels (as uint16 when it narrows them); on a machine with
// a GPU, the GPU's uint16 labels (when it gives them) are the CPU's.
func TestGPULabelRasterNarrow(t *testing.T) {
	cpu, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	defer cpu.Close()
	r, err := gen.RandomRaster(64, 33, 17, 0.3, 5)
	if err != nil {
		t.Fatal(err)
	}
	rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
	want, err := cpu.LabelRaster(r, rule, 26, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := cpu.LabelRasterNarrow(r, rule, 26, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	gotData := got.Labels.Data
	if got.Narrow != nil { // one foreground value: labeled as binary
		gotData = make([]uint32, len(got.Narrow))
		for i, v := range got.Narrow {
			gotData[i] = uint32(v)
		}
	}
	if got.Labels.Count != want.Labels.Count || !slices.Equal(gotData, want.Labels.Data) {
		t.Fatalf("CPU: %d uint16 labels, %d components (want %d)", len(got.Narrow), got.Labels.Count, want.Labels.Count)
	}
	gpu := gpuLabeler(t, cclabel.Options{})
	g, err := gpu.LabelRasterNarrow(r, rule, 26, nil, make([]uint16, r.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if g.Backend != cclabel.BackendGPU || g.Labels.Count != want.Labels.Count {
		t.Fatalf("GPU: backend %s, %d components (want %d)", g.Backend, g.Labels.Count, want.Labels.Count)
	}
	if g.Narrow == nil {
		t.Log("no uint16 download (kernels without grid_narrow_u16)")
		if !slices.Equal(g.Labels.Data, want.Labels.Data) {
			t.Fatal("GPU uint32 labels differ from the CPU's")
		}
		return
	}
	if g.Labels.Data != nil {
		t.Error("uint16 labels and uint32 labels both set")
	}
	for i, v := range g.Narrow {
		if uint32(v) != want.Labels.Data[i] {
			t.Fatalf("GPU uint16 label %d at %d, CPU %d", v, i, want.Labels.Data[i])
		}
	}
}

// TestLabelRasterNarrowCPU checks that the CPU backends give uint16 labels
// of a binary labeling, equal to LabelRaster's, in dst16 when it fits.
func TestLabelRasterNarrowCPU(t *testing.T) {
	for _, backend := range []cclabel.Backend{cclabel.BackendCPU, cclabel.BackendSerial} {
		l, err := cclabel.New(cclabel.Options{Backend: backend, Threads: 3})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		for _, d := range []int{1, 17} {
			r, err := gen.RandomRaster(64, 33, d, 0.5, 5)
			if err != nil {
				t.Fatal(err)
			}
			rule := imagegraph.Rule{Mode: imagegraph.Binary}
			want, err := l.LabelRaster(r, rule, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			dst16 := make([]uint16, r.Len())
			got, err := l.LabelRasterNarrow(r, rule, 0, nil, dst16)
			if err != nil {
				t.Fatal(err)
			}
			if got.Narrow == nil || &got.Narrow[0] != &dst16[0] || got.Labels.Data != nil || got.Labels.Count != want.Labels.Count {
				t.Fatalf("%s depth %d: uint16 labels %d (in dst16 %v), %d components (want %d)", backend, d, len(got.Narrow), got.Narrow != nil && &got.Narrow[0] == &dst16[0], got.Labels.Count, want.Labels.Count)
			}
			for i, v := range got.Narrow {
				if uint32(v) != want.Labels.Data[i] {
					t.Fatalf("%s depth %d: uint16 label %d at %d, want %d", backend, d, v, i, want.Labels.Data[i])
				}
			}
		}
	}
}
