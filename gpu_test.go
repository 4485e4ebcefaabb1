package cclabel_test

import (
	"slices"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestGPUMatchesCPU runs on a machine with a GPU: the GPU backend gives
// the CPU's labels, reuses one context across calls, and reports its
// stages.
func TestGPUMatchesCPU(t *testing.T) {
	gpu := gpuLabeler(t, cclabel.Options{})
	cpu, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	if !gpu.MayUseGPU() {
		t.Error("MayUseGPU is false under BackendGPU")
	}
	for _, shape := range [][4]int{{257, 311, 1, 8}, {4097, 3, 1, 4}, {64, 33, 17, 26}, {31, 29, 23, 6}} {
		r := randomMap(t, shape[0], shape[1], shape[2], 5)
		for _, rule := range []imagegraph.Rule{{Mode: imagegraph.Multilabel}, {Mode: imagegraph.Binary}} {
			g, err := gpu.LabelRaster(r, rule, shape[3], nil)
			if err != nil {
				t.Fatal(err)
			}
			c, err := cpu.LabelRaster(r, rule, shape[3], nil)
			if err != nil {
				t.Fatal(err)
			}
			if g.Backend != cclabel.BackendGPU || g.Timing.Kernel <= 0 || g.Timing.Total < g.Timing.Kernel {
				t.Errorf("%v: backend %s, timing %+v", shape, g.Backend, g.Timing)
			}
			if g.Labels.Count != c.Labels.Count || !slices.Equal(g.Labels.Data, c.Labels.Data) {
				t.Errorf("%v %s: GPU %d components, CPU %d", shape, rule, g.Labels.Count, c.Labels.Count)
			}
		}
	}
	us, vs := []int32{0, 5, 9, 3}, []int32{5, 9, 2, 7}
	graph, err := ecl.FromEdges(12, us, vs)
	if err != nil {
		t.Fatal(err)
	}
	res, err := gpu.LabelGraph(graph)
	if err != nil {
		t.Fatal(err)
	}
	if res.Backend != cclabel.BackendGPU || !slices.Equal(res.Result.Parent, ecl.ComponentsBFS(graph)) {
		t.Errorf("graph on %s: %v", res.Backend, res.Result.Parent)
	}
}

func TestPrepareOpensTheContextOnce(t *testing.T) {
	if !cclabel.Devices().Available {
		t.Skip("no GPU")
	}
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendGPU})
	if err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	if err := lab.Prepare(); err != nil {
		t.Fatal(err)
	}
	r := randomMap(t, 64, 48, 1, 2)
	res, err := lab.LabelRaster(r, imagegraph.Rule{Mode: imagegraph.Binary}, 8, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Backend != cclabel.BackendGPU || res.Timing.Setup != 0 {
		t.Errorf("after Prepare: backend %s, setup %v; want gpu and no setup", res.Backend, res.Timing.Setup)
	}
}

// TestGPUSpreadMatchesOneGPU runs on a machine with a GPU: a volume
// spread over two contexts (GPUs [0, 0]: both on the first GPU, standing
// in for two GPUs) has the labels of one.
func TestGPUSpreadMatchesOneGPU(t *testing.T) {
	if s := cclabel.Devices(); !s.Available {
		t.Skip("no GPU: " + s.Reason)
	}
	one, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendGPU})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	two, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendGPU, GPUs: []int{0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	defer two.Close()
	for _, shape := range [][4]int{{64, 33, 17, 26}, {31, 29, 23, 6}, {128, 128, 128, 18}, {5, 3, 2, 26}} {
		r := randomMap(t, shape[0], shape[1], shape[2], 8)
		for _, rule := range []imagegraph.Rule{{Mode: imagegraph.Multilabel}, {Mode: imagegraph.Binary}} {
			want, err := one.LabelRaster(r, rule, shape[3], nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := two.LabelRaster(r, rule, shape[3], nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.Backend != cclabel.BackendGPU || got.Labels.Count != want.Labels.Count || !slices.Equal(got.Labels.Data, want.Labels.Data) {
				t.Errorf("%v %s: two contexts %d components on %s, one GPU %d", shape, rule, got.Labels.Count, got.Backend, want.Labels.Count)
			}
		}
	}
}

// TestGPUGraphAlgorithms runs every graph algorithm and the spanning
// forest on the GPU backend through the facade.
func TestGPUGraphAlgorithms(t *testing.T) {
	if s := cclabel.Devices(); !s.Available {
		t.Skip("no GPU: " + s.Reason)
	}
	g, err := gen.RandomGraph(1<<16, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	want := ecl.ComponentsBFS(g)
	for _, alg := range []ecl.Algorithm{ecl.ECL, ecl.ECLaf, ecl.Afforest, ecl.Auto} {
		lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendGPU, Algorithm: alg})
		if err != nil {
			t.Fatal(err)
		}
		res, err := lab.LabelGraph(g)
		if err != nil {
			t.Fatalf("%v: %v", alg, err)
		}
		if res.Backend != cclabel.BackendGPU || !slices.Equal(res.Result.Parent, want) {
			t.Errorf("%v: backend %s, representatives equal to BFS: %v", alg, res.Backend, slices.Equal(res.Result.Parent, want))
		}
		if res.Algorithm == ecl.Auto || (alg != ecl.Auto && res.Algorithm != alg) {
			t.Errorf("%v: GraphResult.Algorithm %v", alg, res.Algorithm)
		}
		res, f, err := lab.SpanningForest(g)
		switch {
		case alg == ecl.ECLaf:
			if err == nil {
				t.Error("ECLaf forest accepted")
			}
		case err != nil:
			t.Errorf("%v forest: %v", alg, err)
		case res.Backend != cclabel.BackendGPU || !slices.Equal(res.Result.Parent, want):
			t.Errorf("%v forest: backend %s or representatives wrong", alg, res.Backend)
		default:
			if err := ecl.VerifyForest(g, f); err != nil {
				t.Errorf("%v: %v", alg, err)
			}
		}
		lab.Close()
	}
}

// gpuLabeler returns a labeler of opts on the GPU backend, closed when
// the test ends, and skips the test where no GPU can be used.
func gpuLabeler(t *testing.T, opts cclabel.Options) *cclabel.Labeler {
	t.Helper()
	if s := cclabel.Devices(); !s.Available {
		t.Skip("no GPU: " + s.Reason)
	}
	opts.Backend = cclabel.BackendGPU
	l, err := cclabel.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}
