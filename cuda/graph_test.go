package cuda

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/gen"
)

// gpuContext opens device 0, skipping the test without a GPU.
func gpuContext(t testing.TB) *Context {
	t.Helper()
	if s := Available(); !s.Available {
		t.Skipf("no GPU: %s", s.Reason)
	}
	d, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.NewContext(0)
	if err != nil {
		d.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); d.Close() })
	return c
}

func TestGraphComponentsMatchCPU(t *testing.T) {
	c := gpuContext(t)
	graphs := map[string]func() (*ecl.Graph, error){
		"grid 1x1":      func() (*ecl.Graph, error) { return gen.GridGraph(1, 1) },
		"grid 97x13":    func() (*ecl.Graph, error) { return gen.GridGraph(97, 13) },
		"random 5000 1": func() (*ecl.Graph, error) { return gen.RandomGraph(5000, 1, 3) },
		"random 2^18 4": func() (*ecl.Graph, error) { return gen.RandomGraph(1<<18, 4, 1) },
		"rmat 16 8":     func() (*ecl.Graph, error) { return gen.RMATGraph(16, 8, 1) },
		"rmat 18 16":    func() (*ecl.Graph, error) { return gen.RMATGraph(18, 16, 2) },
		"isolated": func() (*ecl.Graph, error) {
			return ecl.FromEdges(1000, []int32{3, 999}, []int32{998, 0})
		},
	}
	for name, mk := range graphs {
		g, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		want := ecl.ComponentsSerial(g)
		for run := range 3 {
			got, _, err := c.GraphComponents(g)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s run %d: GPU result differs from the CPU", name, run)
			}
		}
	}
}

// BenchmarkGPUGraph times the kernels (data resident, upload and download
// excluded) on the ECL-CC paper's graph shapes.
func BenchmarkGPUGraph(b *testing.B) {
	c := gpuContext(b)
	for _, tc := range []struct {
		name string
		mk   func() (*ecl.Graph, error)
	}{
		{"grid1024", func() (*ecl.Graph, error) { return gen.GridGraph(1024, 1024) }},
		{"random2e23k4", func() (*ecl.Graph, error) { return gen.RandomGraph(1<<23, 4, 1) }},
		{"rmat22ef8", func() (*ecl.Graph, error) { return gen.RMATGraph(22, 8, 1) }},
	} {
		g, err := tc.mk()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name, func(b *testing.B) {
			var kernel []float64
			var last Timing
			var err error
			for b.Loop() {
				_, t, err := c.GraphComponents(g)
				if err != nil {
					b.Fatal(err)
				}
				kernel = append(kernel, t.Kernel.Seconds()*1e3)
				last = t
			}
			c.PerKernel = true // one more run for the breakdown
			_, last, err = c.GraphComponents(g)
			c.PerKernel = false
			if err != nil {
				b.Fatal(err)
			}
			for _, k := range last.Kernels {
				fmt.Printf("  %s %.3f ms\n", k.Name, k.Duration.Seconds()*1e3)
			}
			slices.Sort(kernel)
			b.ReportMetric(kernel[len(kernel)/2], "kernel-ms")
			fmt.Printf("%s: %d vertices, %d arcs, median kernel %.3f ms over %d runs\n",
				tc.name, g.NumVertices(), g.NumEdges(), kernel[len(kernel)/2], len(kernel))
		})
	}
}
