package csrfile

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl"
)

// TestSymmetricSortedMatchesIsSymmetric checks the partitioned symmetry
// check against ecl's on random graphs, symmetric or not, with repeats and
// self-loops, cut into many blocks and rounds.
func TestSymmetricSortedMatchesIsSymmetric(t *testing.T) {
	defer func(b, r, x int64) { symBlockBytes, symMinRound, symMaxRound = b, r, x }(symBlockBytes, symMinRound, symMaxRound)
	symBlockBytes, symMinRound = 64, 7
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 400 {
		// Every other trial caps the rounds below what the arcs ask.
		symMaxRound = 1 << 24
		if trial%2 == 1 {
			symMaxRound = 9
		}
		n := 1 + rng.IntN(40)
		adj := make([][]int32, n)
		for range rng.IntN(4 * n) {
			v, u := rng.Int32N(int32(n)), rng.Int32N(int32(n))
			adj[v] = append(adj[v], u)
			if rng.IntN(8) != 0 {
				adj[u] = append(adj[u], v)
			}
		}
		g := &ecl.Graph{Offsets: []int64{0}}
		for _, a := range adj {
			if rng.IntN(2) == 0 {
				a = slices.Compact(slices.Sorted(slices.Values(a)))
			}
			slices.Sort(a)
			g.Neighbors = append(g.Neighbors, a...)
			g.Offsets = append(g.Offsets, int64(len(g.Neighbors)))
		}
		for _, threads := range []int{1, 3} {
			f, err := Validate(g, threads)
			if err != nil {
				t.Fatal(err)
			}
			want := g.IsSymmetric(1)
			if got := Symmetric(g, threads, f); got != want {
				t.Fatalf("trial %d, %d threads: symmetric %v, want %v (graph %v)", trial, threads, got, want, g)
			}
			if got := symmetricExact(g, threads, f); got != want {
				t.Fatalf("trial %d, %d threads: exact check says symmetric %v, want %v (graph %v)", trial, threads, got, want, g)
			}
			// Without repeated arcs, the fingerprint decides alone.
			if got := f.hasFP && f.Up == f.Down && f.fp.balanced(); f.Strict && got != want {
				t.Fatalf("trial %d, %d threads: fingerprint says symmetric %v, want %v (graph %v)", trial, threads, got, want, g)
			}
		}
	}
}

// TestValidateParallelErrors checks that the parallel validation reports
// what ecl.Graph.Validate reports.
func TestValidateParallelErrors(t *testing.T) {
	graphs := []*ecl.Graph{
		{Offsets: []int64{1, 1}, Neighbors: []int32{0}},
		{Offsets: []int64{0, 2, 1, 3}, Neighbors: []int32{0, 1, 9}},
		{Offsets: []int64{0, 1, 2}, Neighbors: []int32{1, 0, 0}},
		{Offsets: []int64{0, 1, 3}, Neighbors: []int32{1, 2, -1}},
		{Offsets: []int64{0, 2, 4}, Neighbors: []int32{1, 1, 0, 0}},
	}
	for _, g := range graphs {
		for _, threads := range []int{1, 2} {
			_, err := Validate(g, threads)
			want := g.Validate()
			if (err == nil) != (want == nil) || err != nil && err.Error() != want.Error() {
				t.Errorf("%v: error %v, want %v", g, err, want)
			}
		}
	}
}

// BenchmarkValidate measures the validation pass, fingerprint included, on
// a random graph of 2^20 vertices and 2^23 arcs, on one goroutine.
func BenchmarkValidate(b *testing.B) {
	const n = 1 << 20
	rng := rand.New(rand.NewPCG(1, 2))
	us, vs := make([]int32, 4*n), make([]int32, 4*n)
	for i := range us {
		us[i], vs[i] = rng.Int32N(n), rng.Int32N(n)
	}
	g, err := ecl.FromEdges(n, us, vs)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(4 * int64(len(g.Neighbors)))
	for b.Loop() {
		f, err := Validate(g, 1)
		if err != nil || !Symmetric(g, 1, f) {
			b.Fatal("not valid and symmetric", err)
		}
	}
}
