package graphio_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats/graphio"
)

func ExampleRead() {
	const edges = `# from to
100 200
200 300
-7 42
`
	lg, err := graphio.Read(strings.NewReader(edges), -1, graphio.FormatEdgeList, graphio.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	res, err := ecl.Components(lg.Graph, ecl.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("vertices:", lg.Graph.NumVertices(), "components:", res.Count)
	labels := res.Labels(0)
	for v := range lg.Graph.NumVertices() {
		fmt.Printf("ID %d: component %d\n", lg.ID(v), labels[v])
	}
	// Output:
	// vertices: 5 components: 2
	// ID -7: component 1
	// ID 42: component 1
	// ID 100: component 2
	// ID 200: component 2
	// ID 300: component 2
}
