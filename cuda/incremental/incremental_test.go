package incremental

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/ecl/incremental"
)

// incOracle recomputes the components of all edges so far from scratch.
type incOracle struct {
	n      int
	us, vs []int32
}

// reps returns each vertex's representative by ecl.ComponentsSerial.
func (o *incOracle) reps(t *testing.T) []int32 {
	t.Helper()
	g, err := ecl.FromEdges(o.n, o.us, o.vs)
	if err != nil {
		t.Fatal(err)
	}
	return ecl.ComponentsSerial(g)
}

// randomBatch returns m edges of [0, n) with self-loops and repeats.
func randomBatch(rng *rand.Rand, n, m int, prev []int32) (us, vs []int32) {
	us, vs = make([]int32, m), make([]int32, m)
	for i := range m {
		us[i], vs[i] = int32(rng.IntN(n)), int32(rng.IntN(n))
		switch rng.IntN(10) {
		case 0:
			vs[i] = us[i] // self-loop
		case 1:
			if i > 0 { // repeat, reversed
				us[i], vs[i] = vs[i-1], us[i-1]
			}
		case 2:
			if len(prev) > 0 { // an endpoint of an earlier batch
				us[i] = prev[rng.IntN(len(prev))]
			}
		}
	}
	return us, vs
}

// compareAll checks components, every representative, and random
// queries of gpu against the oracle and the CPU union-find.
func compareAll(t *testing.T, rng *rand.Rand, gpu *Incremental, cpu *incremental.UnionFind, o *incOracle, what string) {
	t.Helper()
	want := o.reps(t)
	if got, w := gpu.Components(), ecl.NewResult(slices.Clone(want), 1).Count; got != w || cpu.Components() != w {
		t.Fatalf("%s: %d components on the GPU, %d on the CPU, want %d", what, got, cpu.Components(), w)
	}
	q := 1 + rng.IntN(300)
	vs := make([]int32, q)
	for i := range vs {
		vs[i] = int32(rng.IntN(o.n))
	}
	got := make([]int32, q)
	if err := gpu.RepresentativesBatch(vs, got); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for i, v := range vs {
		if got[i] != want[v] {
			t.Fatalf("%s: representative of %d is %d on the GPU, want %d", what, v, got[i], want[v])
		}
	}
	us := make([]int32, q)
	for i := range us {
		us[i] = int32(rng.IntN(o.n))
		if i%3 == 0 { // often in one component
			us[i] = want[vs[i]]
		}
	}
	conn, cpuConn := make([]bool, q), make([]bool, q)
	if err := gpu.ConnectedBatch(us, vs, conn); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := cpu.ConnectedBatch(us, vs, cpuConn); err != nil {
		t.Fatal(err)
	}
	for i := range us {
		if w := want[us[i]] == want[vs[i]]; conn[i] != w || cpuConn[i] != w {
			t.Fatalf("%s: connected(%d, %d) is %v on the GPU, %v on the CPU, want %v", what, us[i], vs[i], conn[i], cpuConn[i], w)
		}
	}
	if rng.IntN(3) == 0 {
		all, err := gpu.Representatives()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(all, want) {
			t.Fatalf("%s: GPU representatives differ from recomputing", what)
		}
	}
}

func TestIncrementalMatchesCPU(t *testing.T) {
	c := gpuContext(t)
	rng := rand.New(rand.NewPCG(14, 4))
	for trial, n := range []int{1, 2, 17, 1000, 5000, 1 << 16, 1 << 20} {
		for variant := range 3 {
			gpu, err := New(c, n)
			if err != nil {
				t.Fatal(err)
			}
			switch variant {
			case 1: // several uploads per batch (host check), many passes
				gpu.maxChunk, gpu.passEdges = 1000, 300
			case 2: // one pass, never compressed mid-batch, no giant bitmap
				gpu.passEdges, gpu.giantFilter = 0, false
			}
			cpu, err := incremental.New(n, 0)
			if err != nil {
				t.Fatal(err)
			}
			o := &incOracle{n: n}
			for batch := range 8 {
				var m int
				switch rng.IntN(4) {
				case 0:
					m = 0
				case 1:
					m = 1
				default:
					m = rng.IntN(2*n + 10)
				}
				us, vs := randomBatch(rng, n, m, o.us)
				if err := gpu.Insert(us, vs); err != nil {
					t.Fatal(err)
				}
				if err := cpu.Insert(us, vs); err != nil {
					t.Fatal(err)
				}
				o.us, o.vs = append(o.us, us...), append(o.vs, vs...)
				compareAll(t, rng, gpu, cpu, o, fmt.Sprintf("n %d variant %d trial %d batch %d (%d edges)", n, variant, trial, batch, m))
			}
			if err := gpu.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestIncrementalFromRepresentatives(t *testing.T) {
	c := gpuContext(t)
	rng := rand.New(rand.NewPCG(14, 5))
	for _, n := range []int{0, 1, 300, 1 << 18} {
		us, vs := randomBatch(rng, max(n, 1), n/2, nil)
		if n == 0 {
			us, vs = nil, nil
		}
		o := &incOracle{n: n, us: us, vs: vs}
		start := o.reps(t)
		gpu, err := From(c, start)
		if err != nil {
			t.Fatal(err)
		}
		cpu, err := incremental.FromRepresentatives(slices.Clone(start), 0)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			if gpu.Components() != 0 || gpu.Insert(nil, nil) != nil {
				t.Fatal("empty graph")
			}
			gpu.Close()
			continue
		}
		for batch := range 4 {
			us, vs := randomBatch(rng, n, rng.IntN(n/4+2), o.us)
			if err := gpu.Insert(us, vs); err != nil {
				t.Fatal(err)
			}
			if err := cpu.Insert(us, vs); err != nil {
				t.Fatal(err)
			}
			o.us, o.vs = append(o.us, us...), append(o.vs, vs...)
			compareAll(t, rng, gpu, cpu, o, fmt.Sprintf("from n %d batch %d", n, batch))
		}
		gpu.Close()
	}
	if _, err := From(c, []int32{0, 2, 1}); err == nil {
		t.Error("a vertex pointing at a larger one: no error")
	}
}

func TestIncrementalErrors(t *testing.T) {
	c := gpuContext(t)
	for _, chunk := range []int{incMaxChunk, 3} {
		gpu, err := New(c, 10)
		if err != nil {
			t.Fatal(err)
		}
		gpu.maxChunk = chunk
		if err := gpu.Insert([]int32{1, 2}, []int32{2, 3}); err != nil {
			t.Fatal(err)
		}
		before, _ := gpu.Representatives()
		for _, bad := range []struct{ us, vs []int32 }{
			{[]int32{0, 1, 2, 3, 10, 5}, []int32{9, 9, 9, 9, 0, 4}},
			{[]int32{0, 1, 2, 3, 4, 5}, []int32{9, 9, 9, -1, 0, 10}},
		} {
			err := gpu.Insert(bad.us, bad.vs)
			if !errors.Is(err, incremental.ErrVertexRange) {
				t.Fatalf("chunk %d: insert of a vertex out of range: %v", chunk, err)
			}
			after, _ := gpu.Representatives()
			if !slices.Equal(before, after) || gpu.Components() != 8 {
				t.Fatalf("chunk %d: a failed insert changed the components (%d): %v", chunk, gpu.Components(), err)
			}
		}
		if err := gpu.ConnectedBatch([]int32{1, 11}, []int32{2, 0}, make([]bool, 2)); !errors.Is(err, incremental.ErrVertexRange) {
			t.Errorf("connected out of range: %v", err)
		}
		if err := gpu.RepresentativesBatch([]int32{1, -5}, make([]int32, 2)); !errors.Is(err, incremental.ErrVertexRange) {
			t.Errorf("representatives out of range: %v", err)
		}
		if err := gpu.Insert([]int32{1}, nil); err == nil {
			t.Error("lengths differ: no error")
		}
		if err := gpu.ConnectedBatch([]int32{1}, []int32{2}, nil); err == nil {
			t.Error("no room for answers: no error")
		}
		// still usable after the errors
		got := make([]bool, 1)
		if err := gpu.ConnectedBatch([]int32{1}, []int32{3}, got); err != nil || !got[0] {
			t.Errorf("connected(1, 3) after errors: %v %v", got[0], err)
		}
		gpu.Close()
		if err := gpu.Insert([]int32{1}, []int32{2}); err == nil {
			t.Error("insert after close: no error")
		}
	}
}

// gpuContext opens device 0, skipping the test without a GPU.
func gpuContext(t testing.TB) *cuda.Context {
	t.Helper()
	if s := cuda.Available(); !s.Available {
		t.Skipf("no GPU: %s", s.Reason)
	}
	d, err := cuda.Open()
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
