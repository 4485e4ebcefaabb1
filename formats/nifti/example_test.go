package nifti_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/cclabel/cclabel/formats/nifti"
	"github.com/cclabel/cclabel/imagegraph"
)

func ExampleWriteLabels() {
	dir, err := os.MkdirTemp("", "nifti-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	// A 4x3x2 mask with two separate blobs, 2 mm voxels.
	mask := []uint8{
		1, 1, 0, 0,
		0, 0, 0, 1,
		0, 0, 0, 1,

		1, 0, 0, 0,
		0, 0, 0, 0,
		0, 0, 0, 1,
	}
	raster, err := imagegraph.NewRaster(4, 3, 2, mask)
	if err != nil {
		log.Fatal(err)
	}
	spacing := [3]float64{2, 2, 2}
	vol := &imagegraph.Volume{Frames: []*imagegraph.Raster{raster}, Slope: 1,
		Geometry: imagegraph.Geometry{Spacing: spacing, Affine: imagegraph.IdentityAffine(spacing)}, Format: "npy"}

	labels, err := imagegraph.Label(raster, imagegraph.Rule{Mode: imagegraph.Binary}, imagegraph.Options{Connectivity: 6}, nil)
	if err != nil {
		log.Fatal(err)
	}
	path := filepath.Join(dir, "labels.nii.gz")
	if err := nifti.WriteLabels(path, vol, [][]uint32{labels.Data}, "auto"); err != nil {
		log.Fatal(err)
	}

	back, err := nifti.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	h := back.Header.(*nifti.Header)
	f := back.Frames[0]
	fmt.Println("components:", labels.Count)
	fmt.Printf("%s %dx%dx%d %v, sform_code %d, spacing %v\n", back.Format, f.Width, f.Height, f.Depth, f.Kind, h.SformCode, back.Spacing)
	fmt.Println("labels of the first row:", f.Data.([]uint16)[:4])
	// Output:
	// components: 2
	// nifti1 4x3x2 uint16, sform_code 1, spacing [2 2 2]
	// labels of the first row: [1 1 0 0]
}
