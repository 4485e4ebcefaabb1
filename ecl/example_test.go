package ecl_test

import (
	"fmt"

	"github.com/cclabel/cclabel/ecl"
)

func ExampleComponents() {
	// Two components: {0, 2, 3} and {1, 4}.
	g, _ := ecl.FromEdges(5, []int32{3, 2, 4}, []int32{2, 0, 1})
	r, _ := ecl.Components(g, ecl.Options{Threads: 2})
	fmt.Println(r.Count, r.Parent, r.Labels(2))
	// Output: 2 [0 1 0 0 1] [1 2 1 1 2]
}
