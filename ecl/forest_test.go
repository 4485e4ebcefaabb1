package ecl_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/gen"
)

// forestOptions are the runs that can record a spanning forest.
func forestOptions(threads int) []ecl.Options {
	return []ecl.Options{
		{Serial: true},
		{Algorithm: ecl.ECL, Threads: threads},
		{Algorithm: ecl.Afforest, Threads: threads},
		{Algorithm: ecl.Afforest, Threads: threads, SampleRounds: 1},
		{Algorithm: ecl.Afforest, Serial: true},
		{Algorithm: ecl.Auto, Threads: threads},
	}
}

// checkForest runs SpanningForest with every option set on g and checks
// the forest with VerifyForest and the representatives against BFS.
func checkForest(t *testing.T, name string, g *ecl.Graph, threads int) {
	t.Helper()
	want := ecl.ComponentsBFS(g)
	for _, opts := range forestOptions(threads) {
		res, f, err := ecl.SpanningForest(g, opts)
		if err != nil {
			t.Fatalf("%s %+v: %v", name, opts, err)
		}
		if !slices.Equal(res.Parent, want) {
			t.Fatalf("%s %+v: representatives differ from BFS", name, opts)
		}
		if err := ecl.VerifyForest(g, f); err != nil {
			t.Fatalf("%s %+v: %v", name, opts, err)
		}
		for i := range f.Len() {
			if f.U[i] >= f.V[i] {
				t.Fatalf("%s %+v: edge %d (%d, %d) not ordered", name, opts, i, f.U[i], f.V[i])
			}
		}
	}
}

func TestSpanningForestRandomGraphs(t *testing.T) {
	seeds := 100
	if testing.Short() {
		seeds = 20
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 11))
		checkForest(t, fmt.Sprintf("seed %d", seed), randomGraph(rng), 1+seed%5)
	}
}

func TestSpanningForestGeneratedGraphs(t *testing.T) {
	grid, err := gen.GridGraph(200, 150)
	if err != nil {
		t.Fatal(err)
	}
	random, err := gen.RandomGraph(30000, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	rmat, err := gen.RMATGraph(13, 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	for name, g := range map[string]*ecl.Graph{"grid": grid, "random": random, "rmat": rmat} {
		checkForest(t, name, g, 4)
	}
}

func TestSpanningForestDeterministicSerial(t *testing.T) {
	g, err := gen.RandomGraph(5000, 2, 9)
	if err != nil {
		t.Fatal(err)
	}
	_, a, _ := ecl.SpanningForest(g, ecl.Options{Serial: true})
	_, b, _ := ecl.SpanningForest(g, ecl.Options{Serial: true})
	if !slices.Equal(a.U, b.U) || !slices.Equal(a.V, b.V) {
		t.Fatal("serial forests differ between runs")
	}
}

func TestSpanningForestRejectsECLaf(t *testing.T) {
	g := mustEdges(t, 3, [2]int32{0, 1})
	if _, _, err := ecl.SpanningForest(g, ecl.Options{Algorithm: ecl.ECLaf}); err == nil {
		t.Fatal("ECLaf forest accepted")
	}
}

func TestVerifyForestCatchesBadForests(t *testing.T) {
	// Triangle 0-1-2 plus the isolated vertex 3.
	g := mustEdges(t, 4, [2]int32{0, 1}, [2]int32{1, 2}, [2]int32{0, 2})
	tests := []struct {
		name string
		f    ecl.Forest
		ok   bool
	}{
		{"valid", ecl.Forest{U: []int32{0, 1}, V: []int32{1, 2}}, true},
		{"too few", ecl.Forest{U: []int32{0}, V: []int32{1}}, false},
		{"too many", ecl.Forest{U: []int32{0, 1, 0}, V: []int32{1, 2, 2}}, false},
		{"not an edge", ecl.Forest{U: []int32{0, 2}, V: []int32{1, 3}}, false},
		{"cycle", ecl.Forest{U: []int32{0, 1}, V: []int32{1, 0}}, false},
		{"out of range", ecl.Forest{U: []int32{0, 1}, V: []int32{1, 7}}, false},
		{"ragged", ecl.Forest{U: []int32{0, 1}, V: []int32{1}}, false},
	}
	for _, tc := range tests {
		err := ecl.VerifyForest(g, &tc.f)
		if (err == nil) != tc.ok {
			t.Errorf("%s: VerifyForest = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

// shuffled returns a copy of g with every adjacency list shuffled and
// some arcs repeated (both directions, so it stays symmetric): the
// algorithms must not rely on sorted or simple lists.
func shuffled(g *ecl.Graph, rng *rand.Rand) *ecl.Graph {
	n := g.NumVertices()
	adj := make([][]int32, n)
	for v := range n {
		adj[v] = slices.Clone(g.Adjacent(v))
	}
	for v := range n {
		for _, u := range g.Adjacent(v) {
			if int(u) < v && rng.IntN(5) == 0 {
				adj[v] = append(adj[v], u)
				adj[u] = append(adj[u], int32(v))
			}
		}
	}
	out := &ecl.Graph{Offsets: make([]int64, n+1)}
	for v := range n {
		rng.Shuffle(len(adj[v]), func(i, j int) { adj[v][i], adj[v][j] = adj[v][j], adj[v][i] })
		out.Neighbors = append(out.Neighbors, adj[v]...)
		out.Offsets[v+1] = int64(len(out.Neighbors))
	}
	return out
}

func TestUnsortedMultigraphs(t *testing.T) {
	seeds := 60
	if testing.Short() {
		seeds = 15
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 13))
		g := shuffled(randomGraph(rng), rng)
		if !g.IsSymmetric(2) {
			t.Fatal("shuffled graph not symmetric")
		}
		threads := 1 + seed%4
		want := ecl.ComponentsBFS(g)
		for name, parent := range every(t, g, threads) {
			if !slices.Equal(parent, want) {
				t.Fatalf("seed %d: %s differs from BFS on an unsorted multigraph", seed, name)
			}
		}
		checkForest(t, fmt.Sprintf("seed %d", seed), g, threads)
	}
}
