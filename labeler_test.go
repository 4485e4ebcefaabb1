package cclabel_test

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// bfsLabels labels r under rule and conn by breadth-first search on the
// materialized grid graph, numbering components by first occurrence.
func bfsLabels(t *testing.T, r *imagegraph.Raster, rule imagegraph.Rule, conn int) ([]uint32, int) {
	t.Helper()
	grid, err := gridcc.NewGrid(r, rule, conn)
	if err != nil {
		t.Fatal(err)
	}
	g, err := grid.Materialize()
	if err != nil {
		t.Fatal(err)
	}
	parent := ecl.ComponentsBFS(g)
	labels := make([]uint32, len(parent))
	next := map[int32]uint32{}
	for v, p := range parent {
		if grid.Key(v) == 0 {
			continue
		}
		if _, ok := next[p]; !ok {
			next[p] = uint32(len(next) + 1)
		}
		labels[v] = next[p]
	}
	return labels, len(next)
}

// randomMap is a w x h x d raster of values 0..3, a quarter of them 0.
func randomMap(t *testing.T, w, h, d int, seed uint64) *imagegraph.Raster {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	data := make([]uint16, w*h*d)
	for i := range data {
		data[i] = uint16(rng.IntN(4))
	}
	r, err := imagegraph.NewRaster(w, h, d, data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLabelRasterMatchesBFS(t *testing.T) {
	rules := []imagegraph.Rule{{Mode: imagegraph.Multilabel}, {Mode: imagegraph.Binary}, {Mode: imagegraph.Threshold, Threshold: 2}}
	for _, backend := range []cclabel.Backend{cclabel.BackendAuto, cclabel.BackendCPU, cclabel.BackendSerial} {
		lab, err := cclabel.New(cclabel.Options{Backend: backend, Threads: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, shape := range [][4]int{{1, 1, 1, 8}, {37, 29, 1, 4}, {64, 3, 1, 8}, {13, 11, 7, 6}, {9, 17, 5, 18}, {8, 8, 8, 26}} {
			r := randomMap(t, shape[0], shape[1], shape[2], uint64(shape[0]*shape[1]))
			for _, rule := range rules {
				want, n := bfsLabels(t, r, rule, shape[3])
				res, err := lab.LabelRaster(r, rule, shape[3], nil)
				if err != nil {
					t.Fatal(err)
				}
				if res.Labels.Count != n || !slices.Equal(res.Labels.Data, want) {
					t.Errorf("%s %v %s c%d: %d components, want %d (labels differ: %v)",
						backend, shape, rule, shape[3], res.Labels.Count, n, !slices.Equal(res.Labels.Data, want))
				}
				wantBackend := cclabel.BackendCPU
				if backend == cclabel.BackendSerial {
					wantBackend = cclabel.BackendSerial
				}
				if res.Backend != wantBackend && res.Backend != cclabel.BackendGPU {
					t.Errorf("%s: labeled on %s", backend, res.Backend)
				}
				if res.Timing.Total <= 0 || res.Timing.Kernel > res.Timing.Total {
					t.Errorf("%s: implausible timing %+v", backend, res.Timing)
				}
			}
		}
		if err := lab.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLabelRasterReusesDestination(t *testing.T) {
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	r := randomMap(t, 20, 10, 1, 3)
	dst := make([]uint32, r.Len())
	res, err := lab.LabelRaster(r, imagegraph.Rule{Mode: imagegraph.Binary}, 0, dst)
	if err != nil {
		t.Fatal(err)
	}
	if &res.Labels.Data[0] != &dst[0] {
		t.Error("labels not written into dst")
	}
	if want, n := bfsLabels(t, r, imagegraph.Rule{Mode: imagegraph.Binary}, 8); res.Labels.Count != n || !slices.Equal(dst, want) {
		t.Errorf("connectivity 0 in 2D: %d components, want %d at 8-connectivity", res.Labels.Count, n)
	}
	if res.Timing.Allocate != 0 {
		t.Errorf("Timing.Allocate = %v with a buffer passed in, want 0", res.Timing.Allocate)
	}
	// Without a buffer (or with one of the wrong length) the labeler
	// allocates one: same labels, a new array.
	for _, bad := range [][]uint32{nil, make([]uint32, r.Len()-1)} {
		fresh, err := lab.LabelRaster(r, imagegraph.Rule{Mode: imagegraph.Binary}, 8, bad)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(fresh.Labels.Data, dst) || len(bad) > 0 && &fresh.Labels.Data[0] == &bad[0] {
			t.Errorf("with a %d-entry buffer: labels differ or were written into it", len(bad))
		}
	}
}

func TestLabelRasterRefusesBadShapeBeforeAllocating(t *testing.T) {
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	r := &imagegraph.Raster{Width: -5, Height: 1 << 40, Depth: 1, Kind: imagegraph.Uint8, Data: imagegraph.Samples[uint8]([]uint8{})}
	if _, err := lab.LabelRaster(r, imagegraph.Rule{Mode: imagegraph.Binary}, 8, nil); err == nil {
		t.Error("a raster with a negative width was labeled")
	}
}

func TestLabelGraphMatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const n = 2000
	var us, vs []int32
	for range 1500 {
		us, vs = append(us, int32(rng.IntN(n))), append(vs, int32(rng.IntN(n)))
	}
	g, err := ecl.FromEdges(n, us, vs)
	if err != nil {
		t.Fatal(err)
	}
	want := ecl.ComponentsBFS(g)
	for _, opts := range []cclabel.Options{
		{}, {Backend: cclabel.BackendCPU, Threads: 2}, {Backend: cclabel.BackendSerial},
		{Backend: cclabel.BackendCPU, Algorithm: ecl.ECLaf},
		{Backend: cclabel.BackendCPU, Algorithm: ecl.Afforest},
		{Backend: cclabel.BackendSerial, Algorithm: ecl.Auto},
	} {
		lab, err := cclabel.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		res, err := lab.LabelGraph(g)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Result.Parent, want) {
			t.Errorf("%+v: representatives differ from BFS", opts)
		}
		lab.Close()
	}
}

func TestNewRefusesBadOptions(t *testing.T) {
	for _, tc := range []struct {
		opts cclabel.Options
		want string
	}{
		{cclabel.Options{Backend: "tpu"}, `unknown backend "tpu"`},
		{cclabel.Options{Threads: -1}, "-1 threads"},
		{cclabel.Options{GPU: -2}, "GPU ordinal -2"},
		{cclabel.Options{Algorithm: ecl.Algorithm(9)}, "unknown algorithm"},
	} {
		if _, err := cclabel.New(tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want it to contain %q", tc.opts, err, tc.want)
		}
	}
	if _, err := cclabel.ParseBackend("serial"); err != nil {
		t.Error(err)
	}
}

func TestBackendsWithoutGPU(t *testing.T) {
	s := cclabel.Devices()
	if s.Available {
		t.Skipf("a GPU is present: %+v", s.Devices)
	}
	if _, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendGPU}); err == nil || !strings.Contains(err.Error(), s.Reason) {
		t.Errorf("BackendGPU without a GPU: error %v, want the reason %q", err, s.Reason)
	}
	var warnings bytes.Buffer
	lab, err := cclabel.New(cclabel.Options{Warnings: &warnings})
	if err != nil {
		t.Fatal(err)
	}
	if lab.MayUseGPU() {
		t.Error("MayUseGPU without a GPU")
	}
	if lab.Backend() != cclabel.BackendAuto {
		t.Errorf("default backend %s", lab.Backend())
	}
	// Prepare under auto without a GPU does nothing and fails nothing.
	if err := lab.Prepare(); err != nil {
		t.Errorf("Prepare under auto without a GPU: %v", err)
	}
	if warnings.Len() != 0 {
		t.Errorf("warnings: %q", warnings.String())
	}
}

func TestLabelerConcurrentUse(t *testing.T) {
	lab, err := cclabel.New(cclabel.Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	r := randomMap(t, 61, 47, 3, 11)
	rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
	want, n := bfsLabels(t, r, rule, 26)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Go(func() {
			res, err := lab.LabelRaster(r, rule, 26, nil)
			if err != nil {
				errs <- err.Error()
				return
			}
			if res.Labels.Count != n || !slices.Equal(res.Labels.Data, want) {
				errs <- "labels differ from BFS"
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestShareSplitsThreads(t *testing.T) {
	for _, c := range []struct {
		opts                 cclabel.Options
		workers              int
		wantLabelers, wantTh int
	}{
		{cclabel.Options{Backend: cclabel.BackendCPU, Threads: 8}, 4, 4, 2},
		{cclabel.Options{Backend: cclabel.BackendCPU, Threads: 2}, 4, 4, 1},
		{cclabel.Options{Backend: cclabel.BackendSerial}, 4, 1, 1},
	} {
		l, err := cclabel.New(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if n := l.Share(c.workers); n != c.wantLabelers || l.Threads() != c.wantTh {
			t.Errorf("%s, %d threads, %d workers: %d labelers of %d threads, want %d of %d",
				c.opts.Backend, c.opts.Threads, c.workers, n, l.Threads(), c.wantLabelers, c.wantTh)
		}
		l.Close()
	}
}
