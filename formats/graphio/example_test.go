package graphio_test

import (
	"bytes"
	"fmt"
	"log"
	"strings"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats/graphio"
	"github.com/klauspost/compress/gzip"
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

func ExampleRead_compressed() {
	// Text formats compressed with gzip, zstd, xz or bzip2 are recognized by
	// their first bytes; ReadFile also goes by a .gz, .zst, .xz or .bz2
	// extension ("roads.gr.xz" is a DIMACS file compressed with xz).
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write([]byte("p tw 4 2\n1 2\n3 4\n"))
	w.Close()
	lg, err := graphio.Read(&z, -1, graphio.FormatDIMACS, graphio.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("vertices:", lg.Graph.NumVertices(), "compression:", lg.Stats.Compression, "bytes:", lg.Stats.Bytes)
	// Output:
	// vertices: 4 compression: gzip bytes: 17
}
