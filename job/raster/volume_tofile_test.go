package raster_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/job/raster"
)

// TestFinishToFile checks that a volume stream finished into a .npy file
// writes the bytes that labeling as uint32 and WriteVolume write: from the
// labeler when the labels fit uint16, else (several values, more than 65535
// components, several frames) not at all, leaving labels that WriteVolume
// writes as before; both axis orders (a .npy and a NIfTI reference).
func TestFinishToFile(t *testing.T) {
	dense, err := gen.RandomRaster(131, 67, 45, 0.3, 1)
	if err != nil {
		t.Fatal(err)
	}
	sparse, err := gen.RandomRaster(200, 190, 60, 0.07, 2) // > 65535 components at c6
	if err != nil {
		t.Fatal(err)
	}
	values := make([]uint8, 60*50*40)
	for i := range values {
		values[i] = uint8(i / 5 % 3)
	}
	several, _ := imagegraph.NewRaster(60, 50, 40, values)
	l := newLabeler(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		vol     *imagegraph.Volume
		mode    imagegraph.Mode
		conn    int
		written bool
	}{
		{"binary", imagegraph.NewVolume(dense, "npy"), imagegraph.Binary, 26, true},
		{"binary c18 nifti", imagegraph.NewVolume(dense, "nifti1"), imagegraph.Binary, 18, true},
		{"multilabel of one value", imagegraph.NewVolume(dense, "npy"), imagegraph.Multilabel, 6, true},
		{"multilabel", imagegraph.NewVolume(several, "npy"), imagegraph.Multilabel, 26, false},
		{"more than 65535", imagegraph.NewVolume(sparse, "npy"), imagegraph.Binary, 6, false},
		{"two frames", &imagegraph.Volume{Frames: []*imagegraph.Raster{dense, dense}, Format: "npy", Slope: 1}, imagegraph.Binary, 26, false},
	} {
		for _, dtype := range []string{"auto", "uint16"} {
			t.Run(fmt.Sprintf("%s-%s", tc.name, dtype), func(t *testing.T) {
				s := raster.Settings{Rule: imagegraph.Rule{Mode: tc.mode}, DType: dtype}
				want := raster.VolumeOutputs{Input: "v", Labels: filepath.Join(dir, "want.npy")}
				got := raster.VolumeOutputs{Input: "v", Output: filepath.Join(dir, "got.npy")}
				os.Remove(want.Labels)
				os.Remove(got.Output)
				wide, err := raster.LabelVolume(l, tc.vol, s, tc.conn)
				if err != nil {
					t.Fatal(err)
				}
				wantErr := raster.WriteVolume(want, tc.vol, wide, s)
				path := raster.NarrowFile(got, dtype)
				if path != got.Output {
					t.Fatalf("NarrowFile = %q, want %q", path, got.Output)
				}
				vs := raster.NewVolumeStream(l, s, tc.conn)
				vs.Narrow(true)
				vl, written, err := vs.FinishToFile(tc.vol, path)
				if err != nil {
					t.Fatal(err)
				}
				if written != tc.written || vl.Total != wide.Total {
					t.Fatalf("written %v (want %v), %d components (want %d)", written, tc.written, vl.Total, wide.Total)
				}
				if written && (vl.Frames[0] != nil || vl.Narrow != nil) {
					t.Fatal("labels written to the file and kept")
				}
				if !written {
					if _, err := os.Stat(path); err == nil {
						t.Fatal("a file left behind by labels not written")
					}
					if err := raster.WriteVolume(got, tc.vol, vl, s); (err == nil) != (wantErr == nil) {
						t.Fatalf("writing the labels: %v, want %v", err, wantErr)
					}
				}
				if wantErr != nil {
					if tc.name != "more than 65535" || dtype != "uint16" {
						t.Fatal(wantErr)
					}
					return
				}
				a, _ := os.ReadFile(want.Labels)
				b, _ := os.ReadFile(got.Output)
				if len(a) == 0 || !bytes.Equal(a, b) {
					t.Errorf("label files differ (%d and %d bytes)", len(a), len(b))
				}
			})
		}
	}
	for _, tc := range []struct {
		out   raster.VolumeOutputs
		dtype string
		want  string
	}{
		{raster.VolumeOutputs{Labels: "l.NPY"}, "auto", "l.NPY"},
		{raster.VolumeOutputs{Output: "o.npy"}, "uint16", "o.npy"},
		{raster.VolumeOutputs{Output: "o.npy", Labels: "l.npy"}, "auto", ""},
		{raster.VolumeOutputs{Output: "o.nii"}, "auto", ""},
		{raster.VolumeOutputs{Output: "o.npy"}, "uint32", ""},
		{raster.VolumeOutputs{Output: "o.npy", Preview: "p.png"}, "auto", ""},
		{raster.VolumeOutputs{Output: "o.npy", Stats: "s.csv"}, "auto", ""},
		{raster.VolumeOutputs{}, "auto", ""},
	} {
		if got := raster.NarrowFile(tc.out, tc.dtype); got != tc.want {
			t.Errorf("NarrowFile(%+v, %s) = %q, want %q", tc.out, tc.dtype, got, tc.want)
		}
	}
}
