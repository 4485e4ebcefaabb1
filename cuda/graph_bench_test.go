package cuda

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats/graphio"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/internal/testkit"
)

// benchGraph is a named graph of the GPU graph benchmark.
type benchGraph struct {
	name string
	g    *ecl.Graph
}

// benchGraphs returns the graphs of BenchmarkGPUGraphAlgorithms: every
// .egr file of $CCLABEL_BENCH_GRAPHS when set (bench/graph_gpu_vs_ecl.sh
// writes the acceptance graphs there, so that the ECL-CC reference reads
// the same files), else generated stand-ins, and the shared data's NY
// road network when present.
func benchGraphs(b *testing.B) []benchGraph {
	var out []benchGraph
	if dir := os.Getenv("CCLABEL_BENCH_GRAPHS"); dir != "" {
		names, err := filepath.Glob(filepath.Join(dir, "*.egr"))
		if err != nil {
			b.Fatal(err)
		}
		slices.Sort(names)
		for _, path := range names {
			lg, err := graphio.ReadFile(path, graphio.ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			out = append(out, benchGraph{strings.TrimSuffix(filepath.Base(path), ".egr"), lg.Graph})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		mk   func() (*ecl.Graph, error)
	}{
		{"grid1024", func() (*ecl.Graph, error) { return gen.GridGraph(1024, 1024) }},
		{"random2e20k4", func() (*ecl.Graph, error) { return gen.RandomGraph(1<<20, 4, 1) }},
		{"rmat20ef8", func() (*ecl.Graph, error) { return gen.RMATGraph(20, 8, 1) }},
	} {
		g, err := tc.mk()
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, benchGraph{tc.name, g})
	}
	if path := testkit.Path("graphs/pace16_NY.gr"); path != "" {
		if lg, err := graphio.ReadFile(path, graphio.ReadOptions{}); err == nil {
			out = append(out, benchGraph{"pace16_NY", lg.Graph})
		}
	}
	return out
}

// BenchmarkGPUGraphAlgorithms times the kernels (data resident, upload
// and download excluded) of every GPU graph algorithm on each graph, and
// prints one line per graph and algorithm: the median kernel time, and
// the time of each kernel of one more run.
func BenchmarkGPUGraphAlgorithms(b *testing.B) {
	c := gpuContext(b)
	for _, bg := range benchGraphs(b) {
		for _, v := range gpuGraphVariants() {
			b.Run(bg.name+"/"+v.name, func(b *testing.B) {
				var kernel []float64
				var run *GraphRun
				var err error
				for b.Loop() {
					if run, err = c.LabelGraph(bg.g, v.opts); err != nil {
						b.Fatal(err)
					}
					kernel = append(kernel, run.Timing.Kernel.Seconds()*1e3)
				}
				c.PerKernel = true // one more run for the breakdown
				run, err = c.LabelGraph(bg.g, v.opts)
				c.PerKernel = false
				if err != nil {
					b.Fatal(err)
				}
				var parts []string
				for _, k := range run.Timing.Kernels {
					parts = append(parts, fmt.Sprintf("%s %.3f", k.Name, k.Duration.Seconds()*1e3))
				}
				slices.Sort(kernel)
				med := kernel[len(kernel)/2]
				b.ReportMetric(med, "kernel-ms")
				fmt.Printf("GRAPH %s %s ran=%v n=%d arcs=%d median_ms=%.4f runs=%d all=%.4f | %s\n",
					bg.name, v.name, run.Algorithm, bg.g.NumVertices(), bg.g.NumEdges(), med, len(kernel),
					kernel, strings.Join(parts, ", "))
			})
		}
	}
}
