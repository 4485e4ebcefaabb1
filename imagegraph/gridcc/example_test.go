package gridcc_test

import (
	"fmt"
	"log"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// A 4x3 label map: under the multilabel rule, neighbours join only when
// they hold the same value; under the binary rule, any nonzero ones join.
func ExampleLabel() {
	data := []uint8{
		1, 1, 0, 2,
		0, 0, 0, 2,
		3, 0, 1, 1,
	}
	r, err := imagegraph.NewRaster(4, 3, 1, data)
	if err != nil {
		log.Fatal(err)
	}
	for _, rule := range []imagegraph.Rule{{Mode: imagegraph.Multilabel}, {Mode: imagegraph.Binary}} {
		l, err := gridcc.Label(r, rule, gridcc.Options{Connectivity: 8}, nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(rule, l.Count, l.Data)
	}
	// Output:
	// multilabel 4 [1 1 0 2 0 0 0 2 3 0 4 4]
	// binary 3 [1 1 0 2 0 0 0 2 3 0 2 2]
}
