package raster_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/job/raster"
)

func newLabeler(t *testing.T) *cclabel.Labeler {
	t.Helper()
	l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func TestImageLabeledFilteredAndWritten(t *testing.T) {
	// Two 4-components of 1 and 3 pixels that touch diagonally.
	r, err := imagegraph.NewRaster(3, 2, 1, []uint8{1, 0, 1, 0, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	img := &formats.Image{Raster: r}
	s := raster.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Binary}, MinSize: 2, DType: "auto"}
	res, err := raster.LabelImage(newLabeler(t), img, s, 4)
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint32{0, 0, 1, 0, 1, 1}; res.Labels.Count != 1 || !slices.Equal(res.Labels.Data, want) {
		t.Fatalf("labels %v (%d), want %v after --min-size 2", res.Labels.Data, res.Labels.Count, want)
	}
	dir := t.TempDir()
	out := raster.ImageOutputs{Input: "x", Output: filepath.Join(dir, "c.png"), Labels: filepath.Join(dir, "l.npy"), Stats: filepath.Join(dir, "s.csv")}
	if err := raster.WriteImage(out, img, res.Labels, s, nil); err != nil {
		t.Fatal(err)
	}
	back, err := npy.ReadFile(out.Labels)
	if err != nil || back.Kind != imagegraph.Uint16 || !slices.Equal(back.Data.(imagegraph.Samples[uint16]), []uint16{0, 0, 1, 0, 1, 1}) {
		t.Fatalf("label array read back: %+v, %v", back, err)
	}
	for _, p := range []string{out.Output, out.Stats} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
}

func TestVolumeFramesAndFamily(t *testing.T) {
	// A 2D file read as a volume: 26 becomes the in-plane 8.
	r, err := imagegraph.NewRaster(2, 2, 1, []uint8{1, 0, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	vol := imagegraph.NewVolume(r, "npy")
	vl, err := raster.LabelVolume(newLabeler(t), vol, raster.Settings{DType: "auto"}, 26)
	if err != nil {
		t.Fatal(err)
	}
	if vl.Conn != 8 || vl.Total != 1 || vl.GPU != nil || vl.Backend != cclabel.BackendCPU {
		t.Fatalf("2D volume at 26: conn %d, %d components, backend %s", vl.Conn, vl.Total, vl.Backend)
	}
	dir := t.TempDir()
	out := raster.VolumeOutputs{Input: "v", Output: filepath.Join(dir, "v.npy")}
	if err := raster.WriteVolume(out, vol, vl, raster.Settings{DType: "auto"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "v.npy")); err != nil {
		t.Errorf("no label volume: %v", err)
	}
}

// TestVolumeFramesProgress: the frames of a 4D volume are counted on the
// meter watching it as they are labeled; a 3D volume counts nothing (one
// labeling call tells no progress).
func TestVolumeFramesProgress(t *testing.T) {
	frame := func(v uint8) *imagegraph.Raster {
		r, err := imagegraph.NewRaster(4, 3, 2, slices.Repeat([]uint8{v, 0}, 12))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	four := imagegraph.NewVolume(frame(1), "npy")
	four.Frames = append(four.Frames, frame(2), frame(0))
	three := imagegraph.NewVolume(frame(1), "npy")
	l := newLabeler(t)
	for _, c := range []struct {
		vol         *imagegraph.Volume
		done, total int64
		unit        fileprogress.Unit
	}{{four, 3, 3, fileprogress.Frames}, {three, 0, 0, ""}} {
		var m, other fileprogress.Meter
		stop := fileprogress.Watch(c.vol, &m)
		stopOther := fileprogress.Watch(imagegraph.NewVolume(frame(1), "npy"), &other)
		_, err := raster.LabelVolume(l, c.vol, raster.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Binary}, DType: "auto"}, 6)
		stop()
		stopOther()
		if err != nil {
			t.Fatal(err)
		}
		if done, total, unit := m.Progress(); done != c.done || total != c.total || unit != c.unit {
			t.Errorf("%d frames: counted %d/%d %q, want %d/%d %q", len(c.vol.Frames), done, total, unit, c.done, c.total, c.unit)
		}
		if _, total, _ := other.Progress(); total != 0 {
			t.Error("another volume's meter counted")
		}
	}
}
