package cclabel_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/ecl"
)

// checkConnectivity inserts random batches into c and compares every
// answer with recomputing the components of all edges so far, starting
// from the components of start (nil: isolated vertices).
func checkConnectivity(t *testing.T, c *cclabel.Connectivity, n int, us, vs []int32, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 14))
	for batch := range 6 {
		m := []int{0, 1, rng.IntN(n + 1), rng.IntN(3 * n)}[batch%4]
		bu, bv := make([]int32, m), make([]int32, m)
		for i := range m {
			bu[i], bv[i] = int32(rng.IntN(n)), int32(rng.IntN(n))
			if i%7 == 0 {
				bv[i] = bu[i]
			}
		}
		if err := c.Insert(bu, bv); err != nil {
			t.Fatal(err)
		}
		us, vs = append(us, bu...), append(vs, bv...)
		g, err := ecl.FromEdges(n, us, vs)
		if err != nil {
			t.Fatal(err)
		}
		want := ecl.ComponentsSerial(g)
		what := fmt.Sprintf("%s, %d vertices, batch %d", c.Backend(), n, batch)
		if got := c.Components(); got != ecl.NewResult(slices.Clone(want), 1).Count {
			t.Fatalf("%s: %d components", what, got)
		}
		all := make([]int32, n)
		for v := range all {
			all[v] = int32(v)
		}
		reps := make([]int32, n)
		if err := c.RepresentativesBatch(all, reps); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(reps, want) {
			t.Fatalf("%s: representatives differ from recomputing", what)
		}
		qu, qv, conn := make([]int32, 50), make([]int32, 50), make([]bool, 50)
		for i := range qu {
			qu[i], qv[i] = int32(rng.IntN(n)), int32(rng.IntN(n))
		}
		if err := c.ConnectedBatch(qu, qv, conn); err != nil {
			t.Fatal(err)
		}
		for i := range qu {
			if conn[i] != (want[qu[i]] == want[qv[i]]) {
				t.Fatalf("%s: connected(%d, %d) = %v", what, qu[i], qv[i], conn[i])
			}
		}
	}
	if got, err := c.Representatives(); err != nil || len(got) != n {
		t.Fatalf("Representatives: %d, %v", len(got), err)
	}
}

func TestConnectivityBackends(t *testing.T) {
	backends := []cclabel.Backend{cclabel.BackendCPU, cclabel.BackendSerial, cclabel.BackendAuto}
	if s := cclabel.Devices(); s.Available {
		backends = append(backends, cclabel.BackendGPU)
	}
	for _, b := range backends {
		l, err := cclabel.New(cclabel.Options{Backend: b, Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 2, 500} {
			c, err := l.NewConnectivity(n)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Backend(); (b == cclabel.BackendGPU) != (got == cclabel.BackendGPU) {
				t.Errorf("%s: the structure lives on %s", b, got)
			}
			checkConnectivity(t, c, n, nil, nil, uint64(n))
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
		}
		// from a labeling
		us, vs := []int32{3, 4, 9, 9}, []int32{4, 8, 1, 9}
		g, err := ecl.FromEdges(10, us, vs)
		if err != nil {
			t.Fatal(err)
		}
		gr, err := l.LabelGraph(g)
		if err != nil {
			t.Fatal(err)
		}
		c, err := l.ConnectivityFrom(slices.Clone(gr.Result.Parent))
		if err != nil {
			t.Fatal(err)
		}
		if c.Components() != 7 {
			t.Errorf("%s: from a labeling of 7 components: %d", b, c.Components())
		}
		checkConnectivity(t, c, 10, us, vs, 3)
		c.Close()
		l.Close()
	}
}

func TestConnectivityGPUWithoutGPU(t *testing.T) {
	if s := cclabel.Devices(); s.Available {
		t.Skip("a GPU is present")
	}
	if l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendGPU}); err == nil {
		l.Close()
		t.Fatal("BackendGPU without a GPU: no error")
	}
	// Under auto the structure stays on the CPU and works.
	l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendAuto})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := l.NewConnectivity(10)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Insert([]int32{1, 2}, []int32{2, 3}); err != nil {
		t.Fatal(err)
	}
	if c.Backend() != cclabel.BackendCPU || c.Components() != 8 {
		t.Errorf("auto without a GPU: backend %s, %d components (want cpu, 8)", c.Backend(), c.Components())
	}
}

// TestConnectivityAutoMoves checks that under BackendAuto the structure
// moves to an open GPU once the CPU has spent as long inserting as the
// move costs, keeping its components.
func TestConnectivityAutoMoves(t *testing.T) {
	if s := cclabel.Devices(); !s.Available {
		t.Skip("no GPU: " + s.Reason)
	}
	l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendAuto, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Prepare(); err != nil {
		t.Fatal(err)
	}
	const n = 1 << 18 // moving costs about 1.3 ms
	c, err := l.NewConnectivity(n)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	var us, vs []int32
	for batch, m := range []int{100, 1 << 18, 1000} {
		if c.Backend() != cclabel.BackendCPU {
			t.Fatalf("before batch %d: on %s", batch, c.Backend())
		}
		bu, bv := make([]int32, m), make([]int32, m)
		for i := range m {
			bu[i], bv[i] = int32(rng.IntN(n)), int32(rng.IntN(n))
		}
		if err := c.Insert(bu, bv); err != nil {
			t.Fatal(err)
		}
		us, vs = append(us, bu...), append(vs, bv...)
	}
	if c.Backend() != cclabel.BackendGPU {
		t.Fatalf("after 2^18 edges on the CPU: on %s", c.Backend())
	}
	checkConnectivity(t, c, n, us, vs, 5)
}
