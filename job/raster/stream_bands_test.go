package raster_test

import (
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/job/raster"
)

// streamBands reads path through a VolumeStream labeling band by band.
func streamBands(l *cclabel.Labeler, path string, s raster.Settings, conn, bands int) (*raster.VolumeLabels, error) {
	vs := raster.NewVolumeStream(l, s, conn)
	vs.SetBands(1, bands)
	vol, err := formats.ReadVolumeFileStreaming(path, nil, vs.Samples)
	return vs.Finish(vol, err)
}

// TestVolumeStreamBandsMatchLabelVolume: labels made band by band while
// the file is read are LabelVolume's, filters included, on every rule and
// connectivity, 1 to 3 threads, band counts that do not divide the planes,
// a 2D file, one plane, a single voxel and thin volumes.
func TestVolumeStreamBandsMatchLabelVolume(t *testing.T) {
	type shape struct{ w, h, d int }
	shapes := []shape{{37, 23, 300}, {50, 40, 1}, {1, 1, 1}, {3, 2, 9}, {64, 1, 17}, {1, 70, 5}}
	threadCounts := []int{1, 2, 3}
	if testing.Short() {
		threadCounts = []int{2}
	}
	for i, sh := range shapes {
		path := writeTestVolume(t, sh.w, sh.h, sh.d, uint64(10+i))
		vol, err := formats.ReadVolumeFile(path, nil)
		if err != nil {
			t.Fatal(err)
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
				{Rule: imagegraph.Rule{Mode: imagegraph.Threshold, Threshold: 2, Invert: true}},
			} {
				for _, conn := range []int{6, 18, 26} {
					want, err := raster.LabelVolume(l, vol, s, conn)
					if err != nil {
						t.Fatal(err)
					}
					for _, bands := range []int{0, 1, 7, 64} {
						got, err := streamBands(l, path, s, conn, bands)
						if err != nil {
							t.Fatal(err)
						}
						if got.Total != want.Total || !slices.Equal(got.Frames[0], want.Frames[0]) || got.Backend != want.Backend || got.Conn != want.Conn {
							t.Fatalf("%v, %d threads, %v c%d, %d bands: %d components on %s c%d, want %d on %s c%d (labels equal: %v)",
								sh, threads, s.Rule, conn, bands, got.Total, got.Backend, got.Conn, want.Total, want.Backend, want.Conn,
								slices.Equal(got.Frames[0], want.Frames[0]))
						}
					}
				}
			}
			l.Close()
		}
	}
}

// TestVolumeStreamBandsReadError: a read that fails after samples arrived
// returns its error once the labeling goroutine has stopped, whether the
// failure comes from the reader or from a gzip file cut in the middle.
func TestVolumeStreamBandsReadError(t *testing.T) {
	l := newLabeler(t)
	s := raster.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Binary}}
	path := writeTestVolume(t, 16, 16, 64, 4)
	vol, err := formats.ReadVolumeFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	vs := raster.NewVolumeStream(l, s, 26)
	vs.SetBands(1, 8)
	vs.Samples(vol, 0)
	vs.Samples(vol, 16*16*10)
	bad := errors.New("truncated")
	if _, err := vs.Finish(nil, bad); err != bad {
		t.Fatalf("Finish returned %v, want the read's error", err)
	}

	// A gzip stream cut in its middle: samples arrive, then the read fails.
	big := writeTestVolume(t, 128, 128, 256, 5) // 8 MiB of samples: several callbacks
	data, err := os.ReadFile(big)
	if err != nil {
		t.Fatal(err)
	}
	cut := big + ".cut.nii.gz"
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	vs = raster.NewVolumeStream(l, s, 26)
	vs.SetBands(1, 8)
	arrived := 0
	v, err := formats.ReadVolumeFileStreaming(cut, nil, func(v *imagegraph.Volume, done int) {
		arrived = done
		vs.Samples(v, done)
	})
	if err == nil {
		t.Fatal("a cut gzip file read without error")
	}
	if arrived == 0 {
		t.Fatal("no samples arrived before the error: the read did not stream")
	}
	if _, got := vs.Finish(v, err); got != err {
		t.Fatalf("Finish returned %v, want the read's error %v", got, err)
	}
}

// TestVolumeStreamProgress: a streamed labeling, in slabs or band by band,
// counts its work on the meter watching the volume, up to its total: the
// planes of the slabs, the bands of both passes.
func TestVolumeStreamProgress(t *testing.T) {
	path := writeTestVolume(t, 37, 23, 40, 77)
	l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, c := range []struct {
		name  string
		setup func(*raster.VolumeStream)
		total int64 // negative: at most its opposite, even
		unit  fileprogress.Unit
	}{
		{"slabs", func(vs *raster.VolumeStream) { vs.SetSlabVoxels(37 * 23 * 7) }, 40, fileprogress.Planes},
		{"bands", func(vs *raster.VolumeStream) { vs.SetBands(1, 6) }, -12, fileprogress.Steps}, // up to 6 bands, twice
	} {
		t.Run(c.name, func(t *testing.T) {
			vs := raster.NewVolumeStream(l, raster.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Binary}}, 26)
			c.setup(vs)
			var m fileprogress.Meter
			stop := func() {}
			vol, err := formats.ReadVolumeFileStreaming(path, nil, func(v *imagegraph.Volume, done int) {
				if done == 0 {
					stop = fileprogress.Watch(v, &m)
				}
				vs.Samples(v, done)
			})
			_, err = vs.Finish(vol, err)
			stop()
			if err != nil {
				t.Fatal(err)
			}
			done, total, unit := m.Progress()
			if c.total < 0 && total%2 == 0 && total >= 2 && total <= -c.total {
				c.total = total // two passes over the bands the plan made
			}
			if done != c.total || total != c.total || unit != c.unit {
				t.Errorf("counted %d of %d %s, want %d of %d %s", done, total, unit, c.total, c.total, c.unit)
			}
		})
	}
}
