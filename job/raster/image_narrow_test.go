package raster_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/job/raster"
)

// TestImageNarrowLabels checks that an image labeled as uint16 labels
// (LabelImageNarrow) writes the same .npy bytes as one labeled as uint32,
// under every dtype the narrow path takes, and that NarrowImageWrites
// takes only outputs that uint16 labels serve.
func TestImageNarrowLabels(t *testing.T) {
	r, err := gen.RandomRaster(301, 203, 1, 0.5, 3)
	if err != nil {
		t.Fatal(err)
	}
	img := &formats.Image{Raster: r}
	l := newLabeler(t)
	dir := t.TempDir()
	for _, dtype := range []string{"auto", "uint16"} {
		s := raster.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Binary}, DType: dtype}
		want := raster.ImageOutputs{Input: "i", Labels: filepath.Join(dir, dtype+"-wide.npy")}
		got := raster.ImageOutputs{Input: "i", Labels: filepath.Join(dir, dtype+"-narrow.npy")}
		if !raster.NarrowImageWrites(got, s) {
			t.Fatalf("dtype %s: a .npy label array not taken", dtype)
		}
		wide, err := raster.LabelImageIn(l, img, s, 8, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := raster.WriteImage(want, img, wide.Labels, s, nil); err != nil {
			t.Fatal(err)
		}
		res, err := raster.LabelImageNarrow(l, img, s, 8, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Narrow == nil || res.Labels.Count != wide.Labels.Count {
			t.Fatalf("dtype %s: uint16 labels %v, %d components (want %d)", dtype, res.Narrow != nil, res.Labels.Count, wide.Labels.Count)
		}
		if err := raster.WriteImageNarrow(got, res.Labels, res.Narrow, s); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(want.Labels)
		b, _ := os.ReadFile(got.Labels)
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("dtype %s: narrow .npy differs (%d and %d bytes)", dtype, len(a), len(b))
		}
	}
	s := raster.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Binary}, DType: "auto"}
	for _, tc := range []struct {
		out  raster.ImageOutputs
		s    raster.Settings
		want bool
	}{
		{raster.ImageOutputs{Labels: "l.NPY"}, s, true},
		{raster.ImageOutputs{Labels: "l.npy", Output: "o.png"}, s, false},
		{raster.ImageOutputs{Labels: "l.npy", Stats: "s.csv"}, s, false},
		{raster.ImageOutputs{Labels: "l.png"}, s, false},
		{raster.ImageOutputs{Labels: "-"}, s, false},
		{raster.ImageOutputs{}, s, false},
		{raster.ImageOutputs{Labels: "l.npy"}, raster.Settings{DType: "uint32"}, false},
		{raster.ImageOutputs{Labels: "l.npy"}, raster.Settings{DType: "int32"}, false},
		{raster.ImageOutputs{Labels: "l.npy"}, raster.Settings{DType: "auto", MinSize: 5}, false},
		{raster.ImageOutputs{Labels: "l.npy"}, raster.Settings{DType: "auto", Largest: 2}, false},
	} {
		if got := raster.NarrowImageWrites(tc.out, tc.s); got != tc.want {
			t.Errorf("NarrowImageWrites(%+v, %+v) = %v", tc.out, tc.s, got)
		}
	}
	if err := raster.WriteImageNarrow(raster.ImageOutputs{Labels: filepath.Join(dir, "x.npy"), Stats: "s.csv"}, &imagegraph.Labels{}, nil, s); err == nil {
		t.Error("WriteImageNarrow wrote outputs uint16 labels do not serve")
	}
}
