package parallel_test

import (
	"fmt"

	"github.com/cclabel/cclabel/internal/parallel"
)

// A label array for a 4096² image that one goroutine fills: 64 MiB in huge
// pages where the kernel allows, faulted in by a background goroutine
// while the labeler writes it.
func ExampleAllocFor() {
	labels, filled := parallel.AllocFor[uint32](4096*4096, 1)
	for i := range labels {
		labels[i] = uint32(i % 3)
	}
	filled()
	fmt.Println(len(labels), labels[len(labels)-1])
	// Output: 16777216 0
}
