package cclabel

import (
	"testing"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/imagegraph"
)

func TestLabelDeviceNeedsGPUBackend(t *testing.T) {
	for _, b := range []Backend{BackendAuto, BackendCPU, BackendSerial} {
		t.Run(string(b), func(t *testing.T) {
			l, err := New(Options{Backend: b})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			g := cuda.DeviceGrid{Samples: 256, Kind: imagegraph.Uint8, Width: 4, Height: 4, Depth: 1, Labels: 512}
			if _, err := l.LabelDevice(g, imagegraph.Rule{Mode: imagegraph.Binary}, 4); err == nil {
				t.Fatal("labeled device memory without the gpu backend")
			}
		})
	}
}
