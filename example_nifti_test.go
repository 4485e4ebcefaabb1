package cclabel_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats/nifti"
	"github.com/cclabel/cclabel/imagegraph"
)

// writeExampleMask writes a 4x3x2 mask with two blobs (26-connected) as
// brain_mask.nii.gz in dir.
func writeExampleMask(dir string) error {
	mask := []uint32{
		1, 1, 0, 0,
		0, 0, 0, 1,
		0, 0, 0, 1,

		0, 0, 0, 0,
		0, 1, 0, 0,
		0, 0, 0, 1,
	}
	r, err := imagegraph.NewRaster(4, 3, 2, mask)
	if err != nil {
		return err
	}
	return nifti.WriteLabels(filepath.Join(dir, "brain_mask.nii.gz"), imagegraph.NewVolume(r, "npy"), [][]uint32{mask}, "uint8")
}

// The program of the README's Go API section: label a NIfTI file on the
// best backend and write the labels with its geometry.
func ExampleLabeler_LabelRaster_nifti() {
	dir, err := os.MkdirTemp("", "cclabel-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := writeExampleMask(dir); err != nil {
		log.Fatal(err)
	}

	vol, err := nifti.ReadFile(filepath.Join(dir, "brain_mask.nii.gz"))
	if err != nil {
		log.Fatal(err)
	}
	lab, err := cclabel.New(cclabel.Options{}) // BackendAuto, all cores
	if err != nil {
		log.Fatal(err)
	}
	defer lab.Close()
	res, err := lab.LabelRaster(vol.Frames[0], imagegraph.Rule{Mode: imagegraph.Binary}, 26, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Labels.Count, "components on", res.Backend)
	err = nifti.WriteLabels(filepath.Join(dir, "components.nii.gz"), vol, [][]uint32{res.Labels.Data}, "auto")
	if err != nil {
		log.Fatal(err)
	}
	back, err := nifti.ReadFile(filepath.Join(dir, "components.nii.gz"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(back.Frames[0].Data)
	// Output:
	// 2 components on cpu
	// [1 1 0 0 0 0 0 2 0 0 0 2 0 0 0 0 0 1 0 0 0 0 0 2]
}
