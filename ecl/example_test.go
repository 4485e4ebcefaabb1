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

func ExampleSpanningForest() {
	// A triangle {0, 1, 2} and an edge {3, 4}: 5 - 2 = 3 forest edges.
	g, _ := ecl.FromEdges(5, []int32{0, 1, 2, 3}, []int32{1, 2, 0, 4})
	r, f, _ := ecl.SpanningForest(g, ecl.Options{Serial: true})
	fmt.Println(r.Count, f.U, f.V, ecl.VerifyForest(g, f))
	// Output: 2 [0 0 3] [1 2 4] <nil>
}

func ExampleComponentsAfforest() {
	// Two components: {0, 2, 3} and {1, 4}; k = 2 sampling rounds.
	g, _ := ecl.FromEdges(5, []int32{3, 2, 4}, []int32{2, 0, 1})
	fmt.Println(ecl.ComponentsAfforest(g, 2, 2))
	// Output: [0 1 0 0 1]
}
