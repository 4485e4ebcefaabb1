package render_test

import (
	"fmt"
	"log"

	"github.com/cclabel/cclabel/render"
)

func ExampleLabelColor() {
	for _, label := range []uint32{0, 1, 2, 3} {
		c := render.LabelColor(label)
		fmt.Printf("label %d: #%02x%02x%02x\n", label, c.R, c.G, c.B)
	}
	// A 3x2 label map as a colour image: background black, each
	// component in its label's colour.
	img, err := render.ColorLabels([]uint32{
		0, 1, 1,
		2, 0, 1,
	}, 3, 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(img.Bounds(), img.NRGBAAt(1, 0) == render.LabelColor(1))
	// Output:
	// label 0: #000000
	// label 1: #2e64eb
	// label 2: #82d60c
	// label 3: #c231b0
	// (0,0)-(3,2) true
}
