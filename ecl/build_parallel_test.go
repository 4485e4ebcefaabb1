package ecl

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// randomEdgeList returns m random edges on n vertices, with self-loops and
// repeats.
func randomEdgeList(r *rand.Rand, n, m int) (us, vs []int32) {
	us, vs = make([]int32, m), make([]int32, m)
	for i := range us {
		us[i] = int32(r.IntN(n))
		vs[i] = us[i]
		if r.IntN(8) != 0 {
			vs[i] = int32(r.IntN(n))
		}
		if r.IntN(16) == 0 && i > 0 {
			us[i], vs[i] = vs[i-1], us[i-1]
		}
	}
	return us, vs
}

func TestFromEdgesParallelMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	sizes := []struct{ n, m int }{{1, 0}, {0, 0}, {5, 3}, {1000, 20000}, {30000, 40000}, {7000, 1 << 15}, {200, 1 << 14}, {1 << 18, 1 << 12}, {1<<18 - 1, 1 << 12}, {1, 1 << 12}, {3, 1 << 12}, {2, 300}}
	for _, s := range sizes {
		us, vs := randomEdgeList(r, max(s.n, 1), s.m)
		if s.n == 0 {
			us, vs = nil, nil
		}
		want, err := FromEdges(s.n, us, vs)
		if err != nil {
			t.Fatal(err)
		}
		for _, threads := range []int{1, 2, 3, 8} {
			got, err := fromEdgesParallel(s.n, us, vs, threads, 64)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Offsets, want.Offsets) || !slices.Equal(got.Neighbors, want.Neighbors) ||
				cap(got.Neighbors) != len(got.Neighbors) {
				t.Fatalf("n %d, m %d, %d threads: graph differs from FromEdges", s.n, s.m, threads)
			}
		}
	}
	// The public entry point, with its own thread floor.
	us, vs := randomEdgeList(r, 5000, 3*minEdgesPerThread)
	want, _ := FromEdges(5000, us, vs)
	if got, err := FromEdgesParallel(5000, us, vs, 3); err != nil || !slices.Equal(got.Neighbors, want.Neighbors) {
		t.Fatalf("FromEdgesParallel: %v", err)
	}
}

func TestFromEdgesParallelErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n := 1000
	us, vs := randomEdgeList(r, n, 30000)
	cases := map[string]func(us, vs []int32) ([]int32, []int32, int){
		"late out of range":  func(us, vs []int32) ([]int32, []int32, int) { vs[29000] = int32(n); return us, vs, n },
		"two out of range":   func(us, vs []int32) ([]int32, []int32, int) { us[20000], vs[100] = -1, -5; return us, vs, n },
		"lengths":            func(us, vs []int32) ([]int32, []int32, int) { return us, vs[1:], n },
		"vertex count":       func(us, vs []int32) ([]int32, []int32, int) { return us, vs, -1 },
		"all out of range":   func(us, vs []int32) ([]int32, []int32, int) { return us, vs, 0 },
		"first out of range": func(us, vs []int32) ([]int32, []int32, int) { us[0] = 5000; return us, vs, n },
	}
	for name, mod := range cases {
		u, v, nn := mod(slices.Clone(us), slices.Clone(vs))
		_, want := FromEdges(nn, u, v)
		_, err := fromEdgesParallel(nn, u, v, 4, 64)
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("%s: %v, FromEdges %v", name, err, want)
		}
	}
}

// TestFromEdgesParallelMemory checks that building a graph allocates the graph's arrays,
// one offset a vertex, and besides them at most a sort key per arc (few
// edges) or nothing that grows with the graph (many edges, on any number
// of goroutines).
func TestFromEdgesParallelMemory(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	const n = 1 << 20
	for _, c := range []struct {
		m, threads  int
		extraPerArc uint64 // bytes a self-loop-free arc may cost beyond its neighbour entry
	}{{1 << 12, 4, 8}, {1 << 12, 1, 8}, {1 << 17, 4, 0}, {1 << 17, 1, 0}} {
		t.Run(fmt.Sprintf("m%d_threads%d", c.m, c.threads), func(t *testing.T) {
			us, vs := randomEdgeList(r, n, c.m)
			var g *Graph
			var err error
			alloc := allocatedBy(func() { g, err = fromEdgesParallel(n, us, vs, c.threads, 64) })
			if err != nil {
				t.Fatal(err)
			}
			arcs := uint64(2 * c.m)
			want := 8*uint64(n+1) + (4+c.extraPerArc)*arcs + 64<<10
			if alloc > want {
				t.Errorf("allocated %d bytes for %d vertices and %d arcs (%d kept); want at most %d", alloc, n, arcs, len(g.Neighbors), want)
			}
		})
	}
}

// allocated returns the bytes allocated while f runs.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
