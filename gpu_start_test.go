package cclabel_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestStartGPUWithoutGPU runs on a machine without a GPU: with StartGPU,
// New does not wait for the driver, BackendGPU fails the first labeling
// with the probe's reason, BackendAuto labels on the CPU without a warning,
// and the CPU backends start nothing; Release and Close after any of them
// succeed.
func TestStartGPUWithoutGPU(t *testing.T) {
	s := cclabel.Devices()
	if s.Available {
		t.Skip("a GPU is present")
	}
	r := randomMap(t, 40, 30, 1, 3)
	rule := imagegraph.Rule{Mode: imagegraph.Binary}
	want, n := bfsLabels(t, r, rule, 8)
	for _, b := range []cclabel.Backend{cclabel.BackendGPU, cclabel.BackendAuto, cclabel.BackendCPU, cclabel.BackendSerial} {
		t.Run(string(b), func(t *testing.T) {
			var warnings strings.Builder
			lab, err := cclabel.New(cclabel.Options{Backend: b, StartGPU: true, Warnings: &warnings})
			if err != nil {
				t.Fatalf("New with StartGPU: %v", err)
			}
			lab.Start() // a second start does nothing
			res, err := lab.LabelRaster(r, rule, 8, nil)
			switch {
			case b == cclabel.BackendGPU:
				if err == nil || !strings.Contains(err.Error(), "gpu backend: ") || !strings.Contains(err.Error(), s.Reason) {
					t.Fatalf("BackendGPU without a GPU: %v, want the probe's reason %q", err, s.Reason)
				}
				if !lab.MayUseGPU() {
					t.Error("MayUseGPU is false under BackendGPU")
				}
			case err != nil:
				t.Fatal(err)
			default:
				if res.Backend == cclabel.BackendGPU || res.Labels.Count != n || !slices.Equal(res.Labels.Data, want) {
					t.Errorf("backend %s, %d components, want %d on the CPU", res.Backend, res.Labels.Count, n)
				}
				if lab.MayUseGPU() {
					t.Error("MayUseGPU without a GPU")
				}
			}
			if warnings.Len() != 0 {
				t.Errorf("warnings: %q", warnings.String())
			}
			lab.Release()
			if err := lab.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
	}
}

// TestStartReleaseReopen runs on a machine with a GPU: a labeler started
// in the background labels as the CPU does, counts as setup no more than
// the whole start, opens the GPU again after a release, and closes cleanly
// with a start or a release under way.
func TestStartReleaseReopen(t *testing.T) {
	if s := cclabel.Devices(); !s.Available {
		t.Skip("no GPU: " + s.Reason)
	}
	r := randomMap(t, 97, 61, 13, 7)
	rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
	want, n := bfsLabels(t, r, rule, 26)
	for _, b := range []cclabel.Backend{cclabel.BackendGPU, cclabel.BackendAuto} {
		t.Run(string(b), func(t *testing.T) {
			lab, err := cclabel.New(cclabel.Options{Backend: b, StartGPU: true})
			if err != nil {
				t.Fatal(err)
			}
			if err := lab.Prepare(); err != nil { // waits for the start
				t.Fatal(err)
			}
			for round := range 3 {
				res, err := lab.LabelRaster(r, rule, 26, nil)
				if err != nil {
					t.Fatal(err)
				}
				if res.Labels.Count != n || !slices.Equal(res.Labels.Data, want) {
					t.Fatalf("round %d on %s: %d components, want %d", round, res.Backend, res.Labels.Count, n)
				}
				if b == cclabel.BackendGPU && res.Backend != cclabel.BackendGPU {
					t.Fatalf("round %d on %s", round, res.Backend)
				}
				if round == 0 && res.Timing.Setup != 0 {
					t.Errorf("setup %v after Prepare, want 0", res.Timing.Setup)
				}
				lab.Release() // the next round opens the GPU again
				if round == 1 {
					lab.Start()
				}
			}
			if err := lab.Close(); err != nil {
				t.Fatal(err)
			}
			lab.Start()
			if err := lab.Close(); err != nil { // with a start under way
				t.Fatal(err)
			}
		})
	}
}
