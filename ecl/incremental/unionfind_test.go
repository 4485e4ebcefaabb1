package incremental_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/ecl/incremental"
)

// bfsReps recomputes the representatives from scratch: a breadth-first
// search of the graph of all edges inserted so far.
func bfsReps(t *testing.T, n int, us, vs []int32) []int32 {
	t.Helper()
	g, err := ecl.FromEdges(n, us, vs)
	if err != nil {
		t.Fatal(err)
	}
	return ecl.ComponentsBFS(g)
}

func TestRandomBatchesMatchBFS(t *testing.T) {
	seeds := 60
	if testing.Short() {
		seeds = 15
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 3))
		n := 1 + rng.IntN(5000)
		threads := 1 + seed%6
		uf, err := incremental.New(n, threads)
		if err != nil {
			t.Fatal(err)
		}
		uf.SetScalar(seed%2 == 1)
		var allU, allV []int32
		for batch := range 1 + rng.IntN(8) {
			size := rng.IntN(n)
			// Clustered edges: mostly within a few groups, so components
			// stay many and merge over the batches.
			groups := 1 + rng.IntN(50)
			us, vs := make([]int32, size), make([]int32, size)
			for i := range size {
				a := rng.IntN(n)
				b := a - a%groups + rng.IntN(groups)
				if b >= n || rng.IntN(20) == 0 {
					b = rng.IntN(n)
				}
				us[i], vs[i] = int32(a), int32(b)
			}
			if err := uf.Insert(us, vs); err != nil {
				t.Fatal(err)
			}
			allU, allV = append(allU, us...), append(allV, vs...)
			want := bfsReps(t, n, allU, allV)
			checkAgainst(t, uf, want, rng, seed, batch)
		}
	}
}

// checkAgainst compares every query of uf with the BFS representatives.
func checkAgainst(t *testing.T, uf *incremental.UnionFind, want []int32, rng *rand.Rand, seed, batch int) {
	t.Helper()
	n := len(want)
	all := make([]int32, n)
	for i := range all {
		all[i] = int32(i)
	}
	reps := make([]int32, n)
	if err := uf.RepresentativesBatch(all, reps); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(reps, want) {
		t.Fatalf("seed %d batch %d: representatives differ from BFS", seed, batch)
	}
	count := 0
	for v, r := range want {
		if r == int32(v) {
			count++
		}
	}
	if uf.Components() != count {
		t.Fatalf("seed %d batch %d: %d components, BFS says %d", seed, batch, uf.Components(), count)
	}
	if r := uf.Result(); !slices.Equal(r.Parent, want) || r.Count != count {
		t.Fatalf("seed %d batch %d: Result differs from BFS", seed, batch)
	}
	qs := 200
	us, vs, got := make([]int32, qs), make([]int32, qs), make([]bool, qs)
	for i := range qs {
		us[i], vs[i] = int32(rng.IntN(n)), int32(rng.IntN(n))
		if i%2 == 0 { // make some pairs connected
			vs[i] = want[us[i]]
		}
	}
	if err := uf.ConnectedBatch(us, vs, got); err != nil {
		t.Fatal(err)
	}
	for i := range qs {
		w := want[us[i]] == want[vs[i]]
		one, err := uf.Connected(us[i], vs[i])
		if err != nil {
			t.Fatal(err)
		}
		if got[i] != w || one != w {
			t.Fatalf("seed %d batch %d: Connected(%d, %d) = %v/%v, BFS says %v", seed, batch, us[i], vs[i], got[i], one, w)
		}
		if r, _ := uf.Representative(us[i]); r != want[us[i]] {
			t.Fatalf("seed %d batch %d: Representative(%d) = %d, BFS says %d", seed, batch, us[i], r, want[us[i]])
		}
	}
}

func TestFromRepresentatives(t *testing.T) {
	g, err := ecl.FromEdges(6, []int32{0, 2, 5}, []int32{4, 3, 1})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ecl.Components(g, ecl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	uf, err := incremental.FromRepresentatives(slices.Clone(res.Parent), 2)
	if err != nil {
		t.Fatal(err)
	}
	if uf.Components() != 3 {
		t.Fatalf("components = %d, want 3", uf.Components())
	}
	if err := uf.Insert([]int32{4}, []int32{3}); err != nil {
		t.Fatal(err)
	}
	if ok, _ := uf.Connected(0, 2); !ok || uf.Components() != 2 {
		t.Fatalf("after insert: connected %v, %d components", ok, uf.Components())
	}
	for _, bad := range [][]int32{{1, 0}, {-1}, {0, 2}} {
		if _, err := incremental.FromRepresentatives(bad, 1); err == nil {
			t.Errorf("FromRepresentatives(%v) accepted", bad)
		}
	}
}

func TestErrors(t *testing.T) {
	uf, err := incremental.New(4, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := uf.Insert([]int32{0, 1}, []int32{1, 4}); !errors.Is(err, incremental.ErrVertexRange) {
		t.Errorf("out-of-range insert: %v", err)
	}
	if uf.Components() != 4 {
		t.Errorf("failed insert changed the components: %d", uf.Components())
	}
	if err := uf.Insert([]int32{0}, nil); err == nil {
		t.Error("ragged insert accepted")
	}
	if _, err := uf.Connected(0, -1); !errors.Is(err, incremental.ErrVertexRange) {
		t.Errorf("Connected(0, -1): %v", err)
	}
	if _, err := uf.Representative(9); !errors.Is(err, incremental.ErrVertexRange) {
		t.Errorf("Representative(9): %v", err)
	}
	if err := uf.ConnectedBatch([]int32{0}, []int32{1}, nil); err == nil {
		t.Error("short answer slice accepted")
	}
	if err := uf.RepresentativesBatch([]int32{5}, make([]int32, 1)); err == nil {
		t.Error("out-of-range representative query accepted")
	}
	if _, err := incremental.New(-1, 1); err == nil {
		t.Error("negative vertex count accepted")
	}
	if _, err := incremental.New(1, -1); err == nil {
		t.Error("negative threads accepted")
	}
}
