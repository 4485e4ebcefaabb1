package raster

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestLabelerLabelsSlabs: slabs labeled through a facade Labeler
// (OutOfCoreOptions.Labeler: the CPU here, the GPU where one is usable) give the
// CPU labeler's file, and the result names the backend that labeled.
func TestLabelerLabelsSlabs(t *testing.T) {
	backends := []cclabel.Backend{cclabel.BackendCPU, cclabel.BackendSerial}
	if l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendGPU}); err == nil && l.MayUseGPU() {
		if _, err := l.LabelRaster(&imagegraph.Raster{Width: 2, Height: 1, Depth: 2, Kind: imagegraph.Uint8, Data: imagegraph.Samples[uint8]([]uint8{1, 0, 0, 1})}, imagegraph.Rule{Mode: imagegraph.Binary}, 26, nil); err == nil {
			backends = append(backends, cclabel.BackendGPU)
		}
		l.Close()
	}
	dir := t.TempDir()
	inputs, _ := writeInputs(t, dir, 41, 37, 19, 0.4, 8)
	for _, b := range backends {
		l, err := cclabel.New(cclabel.Options{Backend: b})
		if err != nil {
			t.Fatal(err)
		}
		for _, rule := range []imagegraph.Rule{{Mode: imagegraph.Multilabel}, {Mode: imagegraph.Binary}} {
			for _, conn := range []int{6, 18, 26} {
				want, got := filepath.Join(dir, "want.npy"), filepath.Join(dir, "got.npy")
				opts := OutOfCoreOptions{Rule: rule, Connectivity: conn, DType: "auto", TempDir: dir, SlabPlanes: 4}
				cpu, err := LabelOutOfCore(inputs[0], nil, want, opts)
				if err != nil {
					t.Fatal(err)
				}
				if cpu.Backend != cclabel.BackendCPU {
					t.Errorf("slabs labeled without a Labeler on %q, want %q", cpu.Backend, cclabel.BackendCPU)
				}
				opts.Labeler = l
				res, err := LabelOutOfCore(inputs[0], nil, got, opts)
				if err != nil {
					t.Fatal(err)
				}
				sameFiles(t, got, want, fmt.Sprintf("%s %v c%d", b, rule, conn))
				if res.Backend != b {
					t.Errorf("slabs labeled on %q, want %q", res.Backend, b)
				}
			}
		}
		l.Close()
	}
	t.Logf("backends checked: %v", backends)
}
