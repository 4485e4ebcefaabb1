package graphio

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel/ecl"
)

// BenchmarkReadEGR reads the .egr file named by CCLABEL_BENCH_EGR (for
// example a random graph from "cclabel gen graph random"), or a generated
// random graph of 2^20 vertices and degree 8.
func BenchmarkReadEGR(b *testing.B) {
	path := os.Getenv("CCLABEL_BENCH_EGR")
	if path == "" {
		path = filepath.Join(b.TempDir(), "r.egr")
		const n, deg = 1 << 20, 8
		rng := rand.New(rand.NewPCG(1, 2))
		us, vs := make([]int32, 0, n*deg/2), make([]int32, 0, n*deg/2)
		for range n * deg / 2 {
			us, vs = append(us, rng.Int32N(n)), append(vs, rng.Int32N(n))
		}
		g, err := ecl.FromEdges(n, us, vs)
		if err != nil {
			b.Fatal(err)
		}
		if err := WriteFile(path, g); err != nil {
			b.Fatal(err)
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	for b.Loop() {
		if _, err := ReadFile(path, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
