package bigslice_test

import (
	"fmt"

	"github.com/cclabel/cclabel/internal/bigslice"
)

// A label array for a 4096² image: 64 MiB, backed by huge pages where the
// kernel allows, its pages touched on two goroutines.
func ExampleMake() {
	labels := bigslice.Make[uint32](4096*4096, 2)
	fmt.Println(len(labels), labels[len(labels)-1])
	// Output: 16777216 0
}
