package ecl_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/gen"
)

// mustEdges builds a graph from (u, v) pairs.
func mustEdges(t testing.TB, n int, edges ...[2]int32) *ecl.Graph {
	t.Helper()
	us := make([]int32, len(edges))
	vs := make([]int32, len(edges))
	for i, e := range edges {
		us[i], vs[i] = e[0], e[1]
	}
	g, err := ecl.FromEdges(n, us, vs)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// every runs all implementations on g and returns their representatives
// by name.
func every(t testing.TB, g *ecl.Graph, threads int) map[string][]int32 {
	t.Helper()
	out := map[string][]int32{
		"serial":    ecl.ComponentsSerial(g),
		"parallel":  ecl.ComponentsParallel(g, threads),
		"eclaf":     ecl.ComponentsAtomicFree(g, threads),
		"bfs":       ecl.ComponentsBFS(g),
		"afforest":  ecl.ComponentsAfforest(g, threads, 0),
		"afforest1": ecl.ComponentsAfforest(g, threads, 1),
		"afforest4": ecl.ComponentsAfforest(g, threads, 4),
	}
	for _, opts := range []ecl.Options{
		{Algorithm: ecl.ECL, Threads: threads},
		{Algorithm: ecl.ECLaf, Threads: threads},
		{Algorithm: ecl.Afforest, Threads: threads},
		{Algorithm: ecl.Afforest, Threads: threads, SampleRounds: 3},
		{Algorithm: ecl.Auto, Threads: threads},
		{Algorithm: ecl.Afforest, Serial: true},
		{Serial: true},
	} {
		r, err := ecl.Components(g, opts)
		if err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("Components%+v", opts)] = r.Parent
	}
	return out
}

func TestHandMadeGraphs(t *testing.T) {
	tests := []struct {
		name   string
		g      *ecl.Graph
		parent []int32
		labels []uint32
		count  int
	}{
		{"empty", &ecl.Graph{}, []int32{}, []uint32{}, 0},
		{"single", mustEdges(t, 1), []int32{0}, []uint32{1}, 1},
		{"isolated", mustEdges(t, 3), []int32{0, 1, 2}, []uint32{1, 2, 3}, 3},
		{"self-loop", mustEdges(t, 2, [2]int32{1, 1}), []int32{0, 1}, []uint32{1, 2}, 2},
		{"path reversed", mustEdges(t, 5, [2]int32{4, 3}, [2]int32{3, 2}, [2]int32{2, 1}, [2]int32{1, 0}),
			[]int32{0, 0, 0, 0, 0}, []uint32{1, 1, 1, 1, 1}, 1},
		{"two triangles interleaved", mustEdges(t, 6,
			[2]int32{0, 2}, [2]int32{2, 4}, [2]int32{4, 0}, [2]int32{1, 3}, [2]int32{3, 5}, [2]int32{5, 1}),
			[]int32{0, 1, 0, 1, 0, 1}, []uint32{1, 2, 1, 2, 1, 2}, 2},
		{"star to last", mustEdges(t, 5, [2]int32{0, 4}, [2]int32{1, 4}, [2]int32{3, 4}),
			[]int32{0, 0, 2, 0, 0}, []uint32{1, 1, 2, 1, 1}, 2},
		{"first occurrence order", mustEdges(t, 6, [2]int32{5, 1}, [2]int32{4, 0}, [2]int32{2, 3}),
			[]int32{0, 1, 2, 2, 0, 1}, []uint32{1, 2, 3, 3, 1, 2}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for name, parent := range every(t, tc.g, 3) {
				if !slices.Equal(parent, tc.parent) {
					t.Errorf("%s: parent = %v, want %v", name, parent, tc.parent)
				}
			}
			r, err := ecl.Components(tc.g, ecl.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Count != tc.count {
				t.Errorf("count = %d, want %d", r.Count, tc.count)
			}
			if got := r.Labels(2); !slices.Equal(got, tc.labels) {
				t.Errorf("labels = %v, want %v", got, tc.labels)
			}
		})
	}
}

// randomGraph makes a graph with clustered components: vertices are split
// into random groups, each group gets random internal edges, and a few
// arcs may go across; IDs are shuffled so components interleave.
func randomGraph(rng *rand.Rand) *ecl.Graph {
	n := 1 + rng.IntN(3000)
	groups := 1 + rng.IntN(40)
	perm := rng.Perm(n)
	var us, vs []int32
	edges := rng.IntN(3 * n)
	for range edges {
		g := rng.IntN(groups)
		// pick two members of group g: indices congruent to g modulo groups
		size := (n - g + groups - 1) / groups
		if size <= 0 {
			continue
		}
		a := g + groups*rng.IntN(size)
		b := g + groups*rng.IntN(size)
		us = append(us, int32(perm[a]))
		vs = append(vs, int32(perm[b]))
	}
	g, err := ecl.FromEdges(n, us, vs)
	if err != nil {
		panic(err)
	}
	return g
}

func TestRandomGraphsAllImplementationsAgree(t *testing.T) {
	seeds := 200
	if testing.Short() {
		seeds = 40
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		g := randomGraph(rng)
		threads := 1 + seed%8
		want := ecl.ComponentsBFS(g)
		for name, parent := range every(t, g, threads) {
			if !slices.Equal(parent, want) {
				t.Fatalf("seed %d threads %d: %s differs from BFS", seed, threads, name)
			}
		}
		if err := ecl.Verify(g, want); err != nil {
			t.Fatal(err)
		}
		r, _ := ecl.Components(g, ecl.Options{Threads: threads})
		labels := r.Labels(threads)
		if !slices.Equal(labels, r.Labels(1)) {
			t.Fatalf("seed %d: labels depend on thread count", seed)
		}
		checkFirstOccurrence(t, labels, r.Count)
	}
}

// checkFirstOccurrence asserts that labels run 1..count in order of first
// appearance.
func checkFirstOccurrence(t *testing.T, labels []uint32, count int) {
	t.Helper()
	next := uint32(1)
	for i, l := range labels {
		if l > next || l == 0 {
			t.Fatalf("label %d at %d breaks first-occurrence order (next new label %d)", l, i, next)
		}
		if l == next {
			next++
		}
	}
	if int(next-1) != count {
		t.Fatalf("%d labels, count %d", next-1, count)
	}
}

func TestGeneratedGraphsAgree(t *testing.T) {
	// -short (the race detector's run) takes quarter-size graphs.
	scale := 1
	if testing.Short() {
		scale = 2
	}
	grid, err := gen.GridGraph(300/scale, 200/scale)
	if err != nil {
		t.Fatal(err)
	}
	random, err := gen.RandomGraph(50000/(scale*scale), 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	rmat, err := gen.RMATGraph(16-2*scale, 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	for name, g := range map[string]*ecl.Graph{"grid": grid, "random": random, "rmat": rmat} {
		want := ecl.ComponentsBFS(g)
		threadCounts := []int{1, 2, 3, 4, 5, 6, 7, 8}
		if testing.Short() {
			threadCounts = []int{1, 3, 8}
		}
		for _, threads := range threadCounts {
			for impl, parent := range every(t, g, threads) {
				if !slices.Equal(parent, want) {
					t.Fatalf("%s threads %d: %s differs from BFS", name, threads, impl)
				}
			}
		}
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		g    ecl.Graph
		ok   bool
	}{
		{"empty", ecl.Graph{}, true},
		{"valid", ecl.Graph{Offsets: []int64{0, 1, 2}, Neighbors: []int32{1, 0}}, true},
		{"neighbours without offsets", ecl.Graph{Neighbors: []int32{0}}, false},
		{"offset zero nonzero", ecl.Graph{Offsets: []int64{1, 1}, Neighbors: []int32{0}}, false},
		{"non-monotone", ecl.Graph{Offsets: []int64{0, 2, 1, 2}, Neighbors: []int32{1, 2}}, false},
		{"last offset short", ecl.Graph{Offsets: []int64{0, 1}, Neighbors: []int32{0, 0}}, false},
		{"neighbour too big", ecl.Graph{Offsets: []int64{0, 1, 1}, Neighbors: []int32{2}}, false},
		{"neighbour negative", ecl.Graph{Offsets: []int64{0, 1, 1}, Neighbors: []int32{-1}}, false},
	}
	for _, tc := range tests {
		err := tc.g.Validate()
		if (err == nil) != tc.ok {
			t.Errorf("%s: Validate() = %v, want ok=%v", tc.name, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ecl.ErrInvalidGraph) {
			t.Errorf("%s: error %v does not wrap ErrInvalidGraph", tc.name, err)
		}
	}
}

func TestSymmetry(t *testing.T) {
	sym := mustEdges(t, 4, [2]int32{0, 1}, [2]int32{2, 3}, [2]int32{1, 3})
	if !sym.IsSymmetric(2) {
		t.Fatal("FromEdges graph reported asymmetric")
	}
	// 0->1 and 0->2 stored one way only, plus a repeated arc.
	asym := &ecl.Graph{Offsets: []int64{0, 3, 4, 4}, Neighbors: []int32{2, 1, 1, 0}}
	if asym.IsSymmetric(1) {
		t.Fatal("asymmetric graph reported symmetric")
	}
	fixed, err := asym.Symmetrize()
	if err != nil {
		t.Fatal(err)
	}
	if !fixed.IsSymmetric(1) || fixed.NumEdges() != 4 {
		t.Fatalf("Symmetrize gave %+v", fixed)
	}
	// Symmetric with repeats and unsorted lists.
	rep := &ecl.Graph{Offsets: []int64{0, 3, 5, 6}, Neighbors: []int32{2, 1, 1, 0, 0, 0}}
	if !rep.IsSymmetric(2) {
		t.Fatal("symmetric multigraph reported asymmetric")
	}
	rep.SortAdjacency(2)
	if !slices.Equal(rep.Neighbors, []int32{1, 1, 2, 0, 0, 0}) {
		t.Fatalf("SortAdjacency gave %v", rep.Neighbors)
	}
	// Large sorted lists use binary search; drop one reverse arc.
	n := 100
	var us, vs []int32
	for v := 1; v < n; v++ {
		us, vs = append(us, 0), append(vs, int32(v))
	}
	star := mustEdges(t, n, func() [][2]int32 {
		e := make([][2]int32, len(us))
		for i := range us {
			e[i] = [2]int32{us[i], vs[i]}
		}
		return e
	}()...)
	if !star.IsSymmetric(4) {
		t.Fatal("star reported asymmetric")
	}
	star.Neighbors[len(star.Neighbors)-1] = 1 // vertex 99 now points at 1, not 0
	if star.IsSymmetric(4) {
		t.Fatal("broken star reported symmetric")
	}
}

// TestFromEdgesMatchesSets checks FromEdges against adjacency sets, with
// self-loops and repeats, on both of its methods: few edges for the
// vertices (sorted arcs) and many (counted degrees).
func TestFromEdgesMatchesSets(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct{ n, m int }{
		{0, 0}, {1, 0}, {1, 3}, {2, 1}, {5, 0}, {64, 1}, {1000, 3}, {5000, 70}, {300, 5000}, {2000, 2000}, {100, 100},
	} {
		t.Run(fmt.Sprintf("n%d_m%d", c.n, c.m), func(t *testing.T) {
			us, vs := make([]int32, c.m), make([]int32, c.m)
			sets := make([]map[int32]bool, c.n)
			for v := range sets {
				sets[v] = map[int32]bool{}
			}
			for i := range us {
				us[i], vs[i] = int32(r.IntN(c.n)), int32(r.IntN(c.n))
				if i > 0 && r.IntN(4) == 0 { // a repeat, either way round
					us[i], vs[i] = vs[i-1], us[i-1]
				}
				if r.IntN(8) == 0 {
					vs[i] = us[i]
				}
				if us[i] != vs[i] {
					sets[us[i]][vs[i]], sets[vs[i]][us[i]] = true, true
				}
			}
			g, err := ecl.FromEdges(c.n, us, vs)
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Offsets) != c.n+1 || g.Offsets[0] != 0 || cap(g.Neighbors) != len(g.Neighbors) {
				t.Fatalf("%d offsets, first %v, %d neighbours of capacity %d", len(g.Offsets), g.Offsets[:1], len(g.Neighbors), cap(g.Neighbors))
			}
			for v, set := range sets {
				want := make([]int32, 0, len(set))
				for u := range set {
					want = append(want, u)
				}
				slices.Sort(want)
				if got := g.Adjacent(v); !slices.Equal(got, want) {
					t.Fatalf("vertex %d: neighbours %v, want %v", v, got, want)
				}
			}
			if g.Offsets[c.n] != int64(len(g.Neighbors)) {
				t.Fatalf("last offset %d, %d neighbours", g.Offsets[c.n], len(g.Neighbors))
			}
		})
	}
}

func TestFromEdgesErrors(t *testing.T) {
	if _, err := ecl.FromEdges(2, []int32{0}, []int32{2}); err == nil {
		t.Error("out-of-range edge accepted")
	}
	if _, err := ecl.FromEdges(2, []int32{0}, nil); err == nil {
		t.Error("mismatched slices accepted")
	}
	if _, err := ecl.FromEdges(-1, nil, nil); err == nil {
		t.Error("negative vertex count accepted")
	}
	// The first edge out of range is named, with few edges and with many.
	for _, n := range []int{3, 1000} {
		_, err := ecl.FromEdges(n, []int32{0, 1, int32(n), -1}, []int32{1, 2, 0, 0})
		want := fmt.Sprintf("ecl: edge 2 (%d,0) out of range [0,%d)", n, n)
		if err == nil || err.Error() != want {
			t.Errorf("n %d: %v, want %s", n, err, want)
		}
	}
}

func TestVerifyCatchesWrongResult(t *testing.T) {
	g := mustEdges(t, 3, [2]int32{0, 1})
	if err := ecl.Verify(g, []int32{0, 0, 2}); err != nil {
		t.Fatalf("correct result rejected: %v", err)
	}
	if err := ecl.Verify(g, []int32{0, 1, 2}); err == nil {
		t.Fatal("split component accepted")
	}
	if err := ecl.Verify(g, []int32{0, 0}); err == nil {
		t.Fatal("short result accepted")
	}
}

func TestParseAlgorithm(t *testing.T) {
	for _, a := range []ecl.Algorithm{ecl.ECL, ecl.ECLaf, ecl.Afforest, ecl.Auto} {
		got, err := ecl.ParseAlgorithm(a.String())
		if err != nil || got != a {
			t.Errorf("ParseAlgorithm(%q) = %v, %v", a.String(), got, err)
		}
	}
	if _, err := ecl.ParseAlgorithm("dfs"); err == nil {
		t.Error("unknown algorithm accepted")
	}
	if _, err := ecl.Components(&ecl.Graph{}, ecl.Options{Algorithm: 9}); err == nil {
		t.Error("Components accepted an unknown algorithm")
	}
}

func TestComponentSizes(t *testing.T) {
	sizes := ecl.ComponentSizes([]uint32{1, 2, 2, 0, 3, 2}, 3)
	if !slices.Equal(sizes, []int64{1, 1, 3, 1}) {
		t.Fatalf("sizes = %v", sizes)
	}
	if l, s := ecl.Largest(sizes); l != 2 || s != 3 {
		t.Fatalf("Largest = %d, %d", l, s)
	}
	if l, s := ecl.Largest([]int64{5}); l != 0 || s != 0 {
		t.Fatalf("Largest of none = %d, %d", l, s)
	}
}
