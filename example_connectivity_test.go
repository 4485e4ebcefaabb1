package cclabel_test

import (
	"fmt"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/ecl"
)

func ExampleLabeler_ConnectivityFrom() {
	// Label a graph, then insert edges and ask between batches. Under
	// BackendGPU (or auto, once the work pays) the same calls run on the
	// GPU with the same answers.
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer lab.Close()
	g, _ := ecl.FromEdges(6, []int32{0, 3}, []int32{1, 4})
	res, err := lab.LabelGraph(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	conn, err := lab.ConnectivityFrom(res.Result.Parent)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer conn.Close()
	fmt.Println("components:", conn.Components())
	_ = conn.Insert([]int32{1, 5}, []int32{4, 5}) // joins {0,1} and {3,4}; a self-loop
	connected := make([]bool, 2)
	_ = conn.ConnectedBatch([]int32{0, 2}, []int32{3, 0}, connected)
	reps := make([]int32, 1)
	_ = conn.RepresentativesBatch([]int32{4}, reps)
	fmt.Println("components:", conn.Components(), "connected:", connected, "representative of 4:", reps[0])
	// Output:
	// components: 4
	// components: 3 connected: [true false] representative of 4: 0
}
