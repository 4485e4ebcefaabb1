package raster_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/job/raster"
)

// TestWriteVolumeFromNarrowLabels checks that labels held as uint16
// (VolumeLabels.Narrow, as the GPU gives them for uint16 writers) write
// the same bytes as the same labels held as uint32: label volumes served
// to the writer, and a preview and statistics from widened labels.
func TestWriteVolumeFromNarrowLabels(t *testing.T) {
	r, err := gen.RandomRaster(129, 67, 71, 0.3, 1) // over 1 MiB of uint16: several gzip blocks
	if err != nil {
		t.Fatal(err)
	}
	vol := imagegraph.NewVolume(r, "nifti1")
	s := raster.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Binary}, DType: "auto"}
	vl, err := raster.LabelVolume(newLabeler(t), vol, s, 6)
	if err != nil {
		t.Fatal(err)
	}
	if vl.Total < 2 || vl.Total > 65535 {
		t.Fatalf("%d components: want several, under 65536", vl.Total)
	}
	narrow := make([]uint16, len(vl.Frames[0]))
	for i, v := range vl.Frames[0] {
		narrow[i] = uint16(v)
	}
	nl := *vl
	nl.Frames, nl.Narrow = [][]uint32{nil}, narrow
	last := *vl.Last
	last.Data = nil
	nl.Last = &last
	dir := t.TempDir()
	outputs := func(name string) []raster.VolumeOutputs {
		p := filepath.Join(dir, name)
		return []raster.VolumeOutputs{
			{Input: "v", Output: p + ".nii.gz"},
			{Input: "v", Output: p + ".nii", Labels: p + "-l.npy"},
			{Input: "v", Output: p + "-p.nii.gz", Preview: p + ".png", Stats: p + ".csv"},
			{Input: "v", Output: p + ".nrrd"},
		}
	}
	for i, want := range outputs("wide") {
		got := outputs("narrow")[i]
		for _, dtype := range []string{"auto", "uint16", "uint32"} {
			if err := raster.WriteVolume(want, vol, vl, raster.Settings{DType: dtype}); err != nil {
				t.Fatal(err)
			}
			if err := raster.WriteVolume(got, vol, &nl, raster.Settings{DType: dtype}); err != nil {
				t.Fatal(err)
			}
			pairs := [][2]string{{want.Output, got.Output}, {want.Labels, got.Labels}, {want.Preview, got.Preview}, {want.Stats, got.Stats}}
			for _, p := range pairs {
				if p[0] == "" {
					continue
				}
				a, errA := os.ReadFile(p[0])
				b, errB := os.ReadFile(p[1])
				if errA != nil || errB != nil || !bytes.Equal(a, b) {
					t.Errorf("%s %s: %d bytes from uint32 labels, %d from uint16 (%v, %v)", filepath.Base(p[1]), dtype, len(a), len(b), errA, errB)
				}
			}
		}
		if raster.NarrowWrites(got, "auto") != (i < 2) {
			t.Errorf("NarrowWrites(%+v) = %v", got, !(i < 2))
		}
	}
}
