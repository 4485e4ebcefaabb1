package cclabel_test

import (
	"fmt"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/imagegraph"
)

func ExampleLabeler_LabelRaster() {
	// A 5x3 label map: two regions of value 7 and one of value 2.
	r, _ := imagegraph.NewRaster(5, 3, 1, []uint8{
		7, 7, 0, 2, 2,
		0, 0, 0, 2, 0,
		7, 0, 0, 0, 0,
	})
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU, Threads: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer lab.Close()
	res, err := lab.LabelRaster(r, imagegraph.Rule{Mode: imagegraph.Multilabel}, 8, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Backend, res.Labels.Count)
	fmt.Println(res.Labels.Data)
	// Output:
	// cpu 3
	// [1 1 0 2 2 0 0 0 2 0 3 0 0 0 0]
}

func ExampleLabeler_LabelGraph() {
	// Two components: {0, 2, 3} and {1, 4}.
	g, _ := ecl.FromEdges(5, []int32{3, 2, 4}, []int32{2, 0, 1})
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendSerial})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer lab.Close()
	res, err := lab.LabelGraph(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Backend, res.Result.Count, res.Result.Labels(lab.Threads()))
	// Output: serial 2 [1 2 1 1 2]
}
