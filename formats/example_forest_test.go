package formats_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats"
)

func ExampleWriteForestText() {
	g, _ := ecl.FromEdges(4, []int32{0, 1, 2}, []int32{1, 2, 0})
	_, f, _ := ecl.SpanningForest(g, ecl.Options{Serial: true})
	// Vertex v has file ID v+1, as in Matrix Market and DIMACS files.
	_ = formats.WriteForestText(os.Stdout, f, func(v int) int64 { return int64(v) + 1 })
	// Output:
	// 1 2
	// 1 3
}

func ExampleReadForestFile() {
	path := filepath.Join(os.TempDir(), "forest-example.npy")
	defer os.Remove(path)
	f := &ecl.Forest{U: []int32{0, 2}, V: []int32{1, 3}}
	_ = formats.WriteForestFile(path, f, func(v int) int64 { return int64(v) })
	back, err := formats.ReadForestFile(path, func(id int64) (int32, bool) { return int32(id), id >= 0 && id < 4 })
	fmt.Println(back.U, back.V, err)
	// Output: [0 2] [1 3] <nil>
}
