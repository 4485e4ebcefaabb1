package raster_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/job/raster"
)

// writeTestVolume writes a random volume of values 0..3 in patches as a
// gzipped NIfTI of uint16 samples and returns its path.
func writeTestVolume(t *testing.T, w, h, d int, seed uint64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	values := make([]uint32, w*h*d)
	for i := range values {
		if rng.IntN(10) < 4 {
			values[i] = uint32(1 + (i/w/3+i%w/2)%3)
		}
	}
	ref, err := imagegraph.NewRaster(w, h, d, make([]uint8, w*h*d))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("v%d.nii.gz", seed))
	if err := formats.WriteVolumeLabels(path, imagegraph.NewVolume(ref, "nifti1"), [][]uint32{values}, "uint16"); err != nil {
		t.Fatal(err)
	}
	return path
}

// streamVolume reads path through a VolumeStream with slabs of at least
// slabVoxels voxels.
func streamVolume(t *testing.T, l *cclabel.Labeler, path string, s raster.Settings, conn, slabVoxels int) (*raster.VolumeLabels, error) {
	t.Helper()
	vs := raster.NewVolumeStream(l, s, conn)
	vs.SetSlabVoxels(slabVoxels)
	vol, err := formats.ReadVolumeFileStreaming(path, nil, vs.Samples)
	return vs.Finish(vol, err)
}

// TestVolumeStreamMatchesLabelVolume: labels made while the file is read,
// in slabs of one to several planes, are LabelVolume's, filters included,
// on every rule and connectivity and on 1, 2 and 3 threads.
func TestVolumeStreamMatchesLabelVolume(t *testing.T) {
	path := writeTestVolume(t, 37, 23, 300, 1)
	vol, err := formats.ReadVolumeFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	plane := 37 * 23
	threadCounts := []int{1, 2, 3}
	if testing.Short() {
		threadCounts = []int{2}
	}
	for _, threads := range threadCounts {
		l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU, Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []raster.Settings{
			{Rule: imagegraph.Rule{Mode: imagegraph.Multilabel}},
			{Rule: imagegraph.Rule{Mode: imagegraph.Binary}, MinSize: 3},
			{Rule: imagegraph.Rule{Mode: imagegraph.Threshold, Threshold: 2}, Largest: 5},
			{Rule: imagegraph.Rule{Mode: imagegraph.Binary}, MinSize: 2, Order: raster.BySize},
			{Rule: imagegraph.Rule{Mode: imagegraph.Multilabel}, Background: 1},
		} {
			for _, conn := range []int{6, 18, 26} {
				want, err := raster.LabelVolume(l, vol, s, conn)
				if err != nil {
					t.Fatal(err)
				}
				for _, slab := range []int{1, plane, 7*plane - 5, 60 * plane} {
					got, err := streamVolume(t, l, path, s, conn, slab)
					if err != nil {
						t.Fatal(err)
					}
					if got.Total != want.Total || !slices.Equal(got.Frames[0], want.Frames[0]) || got.Backend != want.Backend {
						t.Fatalf("%d threads, %v c%d, slabs of %d voxels: %d components on %s, want %d on %s (labels equal: %v)",
							threads, s.Rule, conn, slab, got.Total, got.Backend, want.Total, want.Backend, slices.Equal(got.Frames[0], want.Frames[0]))
					}
				}
			}
		}
		l.Close()
	}
}

// TestVolumeStreamFallsBack: a volume of too few slabs and a file that
// does not stream (.npy) are labeled after the read, the same way.
func TestVolumeStreamFallsBack(t *testing.T) {
	l := newLabeler(t)
	s := raster.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Binary}}
	path := writeTestVolume(t, 16, 16, 6, 2)
	got, err := streamVolume(t, l, path, s, 26, 16*16*2) // 3 slabs: too few
	if err != nil {
		t.Fatal(err)
	}
	vol, err := formats.ReadVolumeFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := raster.LabelVolume(l, vol, s, 26)
	if err != nil {
		t.Fatal(err)
	}
	if got.Total != want.Total || !slices.Equal(got.Frames[0], want.Frames[0]) || got.WhileReading != 0 {
		t.Fatalf("%d components (%v while reading), want %d", got.Total, got.WhileReading, want.Total)
	}
}

// TestVolumeStreamReadError: a read that fails after samples arrived
// returns its error once the labeling goroutine has stopped.
func TestVolumeStreamReadError(t *testing.T) {
	l := newLabeler(t)
	path := writeTestVolume(t, 16, 16, 64, 3)
	vol, err := formats.ReadVolumeFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	vs := raster.NewVolumeStream(l, raster.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Binary}}, 26)
	vs.SetSlabVoxels(256)
	vs.Samples(vol, 0)
	vs.Samples(vol, 16*16*10)
	bad := errors.New("truncated")
	if _, err := vs.Finish(nil, bad); err != bad {
		t.Fatalf("Finish returned %v, want the read's error", err)
	}
}
