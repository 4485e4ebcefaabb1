package cclabel_test

import (
	"fmt"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/measure"
)

func ExampleLabeler_Measure() {
	// Two touching regions of a label map, on 0.5 x 2 mm pixels, with an
	// intensity image beside it.
	r, _ := imagegraph.NewRaster(4, 2, 1, []uint8{
		3, 3, 5, 0,
		3, 5, 5, 5,
	})
	intensity, _ := imagegraph.NewRaster(4, 2, 1, []float32{
		1, 2, 10, 0,
		3, 20, 30, 40,
	})
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer lab.Close()
	res, err := lab.LabelRaster(r, imagegraph.Rule{Mode: imagegraph.Multilabel}, 4, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	t, err := lab.Measure(res, measure.Options{
		Intensity: intensity,
		Spacing:   [3]float64{0.5, 2},
		Surface:   true,
		Contacts:  true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, c := range t.Components {
		fmt.Printf("label %d: size %d, mean %g, max %g, perimeter %g mm\n", k+1, c.Size, c.Mean, c.IMax, c.Surface)
	}
	for _, c := range t.Contacts {
		fmt.Printf("%d-%d: %d edges, %g mm\n", c.A, c.B, c.Faces, c.Area)
	}
	// Number by size: the larger region becomes 1.
	if err := lab.OrderBySize(res, t); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Labels.Data, t.Components[0].Size)
	// Output:
	// label 1: size 3, mean 2, max 3, perimeter 10 mm
	// label 2: size 4, mean 25, max 40, perimeter 11 mm
	// 1-2: 3 edges, 4.5 mm
	// [2 2 1 0 2 1 1 1] 4
}
