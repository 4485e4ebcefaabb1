package cclabel_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/fileprogress"
)

// TestLabelRasterReportsProgress: a raster watched by a progress meter is
// labeled on the CPU with its bands counted there, and with the labels it
// gets unwatched.
func TestLabelRasterReportsProgress(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	data := make([]uint8, 300*200*8)
	for i := range data {
		data[i] = uint8(rng.IntN(3))
	}
	r, err := imagegraph.NewRaster(300, 200, 8, data)
	if err != nil {
		t.Fatal(err)
	}
	l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	want, err := l.LabelRaster(r, imagegraph.Rule{Mode: imagegraph.Multilabel}, 26, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := &fileprogress.Meter{}
	stop := fileprogress.Watch(r, m)
	defer stop()
	got, err := l.LabelRaster(r, imagegraph.Rule{Mode: imagegraph.Multilabel}, 26, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Labels.Count != want.Labels.Count || !slices.Equal(got.Labels.Data, want.Labels.Data) {
		t.Fatalf("watched: %d components, want %d", got.Labels.Count, want.Labels.Count)
	}
	if done, total, unit := m.Progress(); total == 0 || done != total || unit != fileprogress.Steps {
		t.Errorf("progress %d of %d %s, want every step", done, total, unit)
	}
}
