package formats

import (
	"bytes"
	"math"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

func TestNIfTITmpWriteForNibabel(t *testing.T) {
	dir := "/tmp/niftiout/"
	for _, c := range []struct {
		name string
		spec niftiSpec
		frames int
		maxL uint32
	}{
		{"v1_3d.nii.gz", niftiSpec{version: 1, datatype: 16, dims: []int{5, 4, 3}, ext: make([]byte, 32), extender: true}, 1, 300},
		{"v2_4d.nii.gz", niftiSpec{version: 2, bigEndian: true, datatype: 4, dims: []int{5, 4, 3, 2}}, 2, 70000},
		{"v1_2d.nii", niftiSpec{version: 1, datatype: 512, dims: []int{6, 5}}, 1, 65535},
	} {
		data, _, _ := niftiBuild(t, c.spec)
		ref, err := ReadNIfTI(bytes.NewReader(data), -1)
		if err != nil {
			t.Fatal(err)
		}
		labels := make([][]uint32, c.frames)
		for f := range labels {
			labels[f] = niftiLabelsOf(ref.Frames[0].Len(), c.maxL)
		}
		if err := WriteNIfTILabels(dir+c.name, ref, labels, "auto"); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s affine %v", c.name, ref.Affine)
	}
	cs, sn := math.Cos(0.4), math.Sin(0.4)
	raster := &imagegraph.Raster{Width: 4, Height: 3, Depth: 2, Kind: imagegraph.Uint8, Data: make([]uint8, 24)}
	ref := &Volume{Frames: []*imagegraph.Raster{raster}, Spacing: [3]float64{0.5, 2, 3}, Affine: [3][4]float64{{0.5 * cs, -2 * sn, 0, 10}, {0.5 * sn, 2 * cs, 0, -20}, {0, 0, -3, 5}}, Format: "nrrd"}
	if err := WriteNIfTILabels(dir+"rot.nii.gz", ref, [][]uint32{niftiLabelsOf(24, 5)}, "auto"); err != nil {
		t.Fatal(err)
	}
	t.Logf("rot affine %v", ref.Affine)
}
