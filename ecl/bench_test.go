package ecl_test

import (
	"sync"
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/gen"
)

// The benchmark graphs match the ECL-CC paper's inputs in shape:
// 2d-2e20.sym (grid 1024²), r4-2e23.sym at 2^22 vertices, rmat at scale 20.
var benchGraphs = map[string]func() (*ecl.Graph, error){
	"grid1024":   sync.OnceValues(func() (*ecl.Graph, error) { return gen.GridGraph(1024, 1024) }),
	"random2e22": sync.OnceValues(func() (*ecl.Graph, error) { return gen.RandomGraph(1<<22, 4, 1) }),
	"rmat20":     sync.OnceValues(func() (*ecl.Graph, error) { return gen.RMATGraph(20, 16, 1) }),
}

// BenchmarkComponents times the labeling kernel (representatives, count and
// sequential labels) of every implementation, including the plain BFS
// baseline. Edges/s is reported per stored arc.
func BenchmarkComponents(b *testing.B) {
	impls := []struct {
		name string
		run  func(g *ecl.Graph) []int32
	}{
		{"bfs", ecl.ComponentsBFS},
		{"serial", ecl.ComponentsSerial},
		{"parallel1", func(g *ecl.Graph) []int32 { return ecl.ComponentsParallel(g, 1) }},
		{"parallel2", func(g *ecl.Graph) []int32 { return ecl.ComponentsParallel(g, 2) }},
		{"eclaf1", func(g *ecl.Graph) []int32 { return ecl.ComponentsAtomicFree(g, 1) }},
		{"eclaf2", func(g *ecl.Graph) []int32 { return ecl.ComponentsAtomicFree(g, 2) }},
		{"afforest1", func(g *ecl.Graph) []int32 { return ecl.ComponentsAfforest(g, 1, 0) }},
		{"afforest2", func(g *ecl.Graph) []int32 { return ecl.ComponentsAfforest(g, 2, 0) }},
	}
	for _, graph := range []string{"grid1024", "random2e22", "rmat20"} {
		b.Run(graph, func(b *testing.B) {
			g, err := benchGraphs[graph]()
			if err != nil {
				b.Fatal(err)
			}
			for _, impl := range impls {
				b.Run(impl.name, func(b *testing.B) {
					for b.Loop() {
						impl.run(g)
					}
					b.ReportMetric(float64(g.NumEdges())*float64(b.N)/b.Elapsed().Seconds(), "edges/s")
				})
			}
		})
	}
}
