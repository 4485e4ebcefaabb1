package job_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/job"
)

func ExampleVolume_Run() {
	dir, err := os.MkdirTemp("", "cclabel-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	// A 4x3x2 mask: a bar along x in the first plane, and a column through
	// both planes that touches it only at a corner.
	mask, _ := imagegraph.NewRaster(4, 3, 2, []uint8{
		1, 1, 1, 0,
		0, 0, 0, 0,
		0, 0, 0, 1,

		0, 0, 0, 0,
		0, 0, 0, 0,
		0, 0, 0, 1,
	})
	in := filepath.Join(dir, "mask.npy")
	if err := formats.WriteRasterFile(in, mask); err != nil {
		fmt.Println(err)
		return
	}
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer lab.Close()
	j := job.Volume{
		Inputs:       []string{in},
		Output:       filepath.Join(dir, "labels.nii.gz"), // with the input's geometry
		Stats:        filepath.Join(dir, "stats.csv"),
		Settings:     job.Settings{Rule: cclabel.Rule{Mode: cclabel.Binary}, DType: "auto"},
		Connectivity: 6,
	}
	s, err := j.Run(context.Background(), lab, job.Progress{}) // nothing reported
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%dx%dx%d, %d components\n", s[0].Width, s[0].Height, s[0].Depth, s[0].Components)
	// Output:
	// 4x3x2, 2 components
}

func ExampleGraph_Run() {
	dir, err := os.MkdirTemp("", "cclabel-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	// An edge list of two components: {1, 2, 3} and {7, 9}.
	in := filepath.Join(dir, "g.txt")
	if err := os.WriteFile(in, []byte("1 2\n2 3\n7 9\n"), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendSerial})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer lab.Close()
	j := job.Graph{GraphInput: job.GraphInput{Path: in}, Labels: "-", Stdout: os.Stdout, Verify: true}
	s, err := j.Run(context.Background(), lab, job.Progress{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Components, "components, largest", s.Largest, "verified", s.Verified)
	// Output:
	// 1 1
	// 2 1
	// 3 1
	// 7 2
	// 9 2
	// 2 components, largest 3 verified true
}
