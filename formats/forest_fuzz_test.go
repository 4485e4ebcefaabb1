package formats

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel/ecl"
)

// FuzzReadForestFile reads arbitrary bytes as a forest file, text and .npy:
// an error or a forest whose every vertex is one of the graph's 16,
// never a panic.
func FuzzReadForestFile(f *testing.F) {
	var npyForest bytes.Buffer
	if err := WriteForestNPY(&npyForest, &ecl.Forest{U: []int32{1, 2}, V: []int32{0, 1}}, func(v int) int64 { return int64(v) }); err != nil {
		f.Fatal(err)
	}
	for _, s := range [][]byte{[]byte("1 0\n2 1\n"), []byte("1 0 3\n"), []byte("1 x\n"), []byte("99 0\n"), npyForest.Bytes()} {
		f.Add(s)
	}
	vertex := func(id int64) (int32, bool) { return int32(id), id >= 0 && id < 16 }
	dir := f.TempDir() // one per worker process, whose inputs run one at a time
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"f.txt", "f.npy"} {
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			forest, err := ReadForestFile(path, vertex)
			if err != nil {
				continue
			}
			if len(forest.U) != len(forest.V) {
				t.Fatalf("%s: %d sources, %d targets", name, len(forest.U), len(forest.V))
			}
			for i := range forest.U {
				if forest.U[i] < 0 || forest.U[i] >= 16 || forest.V[i] < 0 || forest.V[i] >= 16 {
					t.Fatalf("%s: edge %d (%d, %d) outside the graph", name, i, forest.U[i], forest.V[i])
				}
			}
		}
	})
}
