package cuda

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/gen"
)

// gpuGraphVariant is one algorithm configuration the GPU tests run.
type gpuGraphVariant struct {
	name string
	opts GraphOptions
}

// gpuGraphVariants are every GPU algorithm and the Afforest settings the
// benchmarks compare.
func gpuGraphVariants() []gpuGraphVariant {
	return []gpuGraphVariant{
		{"ecl", GraphOptions{Algorithm: ecl.ECL}},
		{"eclaf", GraphOptions{Algorithm: ecl.ECLaf}},
		{"afforest", GraphOptions{Algorithm: ecl.Afforest}},
		{"afforest-init", GraphOptions{Algorithm: ecl.Afforest, round0: round0Init}},
		{"afforest-link", GraphOptions{Algorithm: ecl.Afforest, round0: round0Link}},
		{"afforest-init-k2", GraphOptions{Algorithm: ecl.Afforest, SampleRounds: 2, round0: round0Init}},
		{"afforest-link-k1", GraphOptions{Algorithm: ecl.Afforest, SampleRounds: 1, round0: round0Link}},
		{"afforest-link-k3", GraphOptions{Algorithm: ecl.Afforest, SampleRounds: 3, round0: round0Link}},
		{"auto", GraphOptions{Algorithm: ecl.Auto}},
		// ECL-CC with and without its init's trees compressed (ecl
		// compresses on graphs without hubs), Afforest without the
		// links of the init's roots.
		{"ecl-compress", GraphOptions{Algorithm: ecl.ECL, compress0: 1}},
		{"ecl-nocompress", GraphOptions{Algorithm: ecl.ECL, compress0: -1}},
		// ECL-CC hooking by priority on every graph (hubs and vertices
		// above 16 included), and never.
		{"ecl-prio", GraphOptions{Algorithm: ecl.ECL, prio: 1}},
		{"ecl-noprio", GraphOptions{Algorithm: ecl.ECL, prio: -1}},
		{"afforest-init-nolinks", GraphOptions{Algorithm: ecl.Afforest, round0: round0Init, rootLinks: -1}},
		{"afforest-init-k1", GraphOptions{Algorithm: ecl.Afforest, SampleRounds: 1, round0: round0Init}},
		// The 64-bit-offset kernels of graphs past 2^31 arcs, on small
		// graphs (they run ECL-CC whatever the algorithm asked for).
		{"ecl-wide", GraphOptions{Algorithm: ecl.ECL, wide: true}},
	}
}

// edgeGraph builds a graph from edge pairs.
func edgeGraph(t testing.TB, n int, pairs ...int32) *ecl.Graph {
	t.Helper()
	var us, vs []int32
	for i := 0; i+1 < len(pairs); i += 2 {
		us, vs = append(us, pairs[i]), append(vs, pairs[i+1])
	}
	g, err := ecl.FromEdges(n, us, vs)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// randomShapes are small graphs of the shapes the kernels treat apart:
// empty, isolated vertices, self loops, stars (hubs on the warp and block
// worklists), paths in order and shuffled, many small components, one
// giant component, grids, R-MAT.
func randomShapes(t testing.TB, seed uint64) map[string]*ecl.Graph {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	shapes := map[string]*ecl.Graph{
		"empty":    {Offsets: []int64{0}},
		"isolated": edgeGraph(t, 5000),
		// A self loop stored in the lists (FromEdges drops them).
		"self loops": {Offsets: []int64{0, 1, 3, 4, 5}, Neighbors: []int32{0, 1, 2, 1, 3}},
	}
	for _, n := range []int{3000, 100000} {
		var pairs []int32
		hub := int32(rng.IntN(n))
		for v := range n {
			pairs = append(pairs, hub, int32(v))
		}
		shapes[fmt.Sprintf("star %d", n)] = edgeGraph(t, n, pairs...)
		pairs = pairs[:0]
		perm := rng.Perm(n)
		for i := 1; i < n; i++ {
			pairs = append(pairs, int32(perm[i-1]), int32(perm[i]))
		}
		shapes[fmt.Sprintf("shuffled path %d", n)] = edgeGraph(t, n, pairs...)
		pairs = pairs[:0]
		for i := 1; i < n; i++ {
			pairs = append(pairs, int32(i-1), int32(i))
		}
		shapes[fmt.Sprintf("path %d", n)] = edgeGraph(t, n, pairs...)
	}
	for _, c := range []struct{ n, m int }{{20000, 6000}, {20000, 19000}, {50000, 400000}, {3000, 200000}} {
		var pairs []int32
		for range c.m {
			pairs = append(pairs, int32(rng.IntN(c.n)), int32(rng.IntN(c.n)))
		}
		// hubs of several degrees
		for h := range 5 {
			hub := int32(rng.IntN(c.n))
			for range 20 << (2 * h) {
				pairs = append(pairs, hub, int32(rng.IntN(c.n)))
			}
		}
		shapes[fmt.Sprintf("random %d/%d", c.n, c.m)] = edgeGraph(t, c.n, pairs...)
	}
	for _, mk := range []struct {
		name string
		f    func() (*ecl.Graph, error)
	}{
		{"grid 1x5000", func() (*ecl.Graph, error) { return gen.GridGraph(1, 5000) }},
		{"grid 513x401", func() (*ecl.Graph, error) { return gen.GridGraph(513, 401) }},
		{"random 2^17 k1", func() (*ecl.Graph, error) { return gen.RandomGraph(1<<17, 1, seed) }},
		{"random 2^17 k4", func() (*ecl.Graph, error) { return gen.RandomGraph(1<<17, 4, seed) }},
		{"rmat 16 8", func() (*ecl.Graph, error) { return gen.RMATGraph(16, 8, seed) }},
	} {
		g, err := mk.f()
		if err != nil {
			t.Fatal(err)
		}
		shapes[mk.name] = g
	}
	return shapes
}

// checkGPUGraph runs every variant on g, with and without a forest, and
// compares with ecl.ComponentsSerial and ecl.VerifyForest.
func checkGPUGraph(t *testing.T, c *Context, name string, g *ecl.Graph) {
	t.Helper()
	want := ecl.ComponentsSerial(g)
	for _, v := range gpuGraphVariants() {
		for _, forest := range []bool{false, true} {
			if forest && v.opts.Algorithm == ecl.ECLaf {
				continue
			}
			opts := v.opts
			opts.Forest = forest
			run, err := c.LabelGraph(g, opts)
			if err != nil {
				t.Fatalf("%s %s forest=%v: %v", name, v.name, forest, err)
			}
			if !slices.Equal(run.Parent, want) {
				t.Errorf("%s %s forest=%v: GPU representatives differ from ecl.ComponentsSerial", name, v.name, forest)
				continue
			}
			if opts.Algorithm != ecl.Auto && run.Algorithm != opts.Algorithm {
				t.Errorf("%s %s: ran %v", name, v.name, run.Algorithm)
			}
			if forest {
				if err := ecl.VerifyForest(g, run.Forest); err != nil {
					t.Errorf("%s %s: %v", name, v.name, err)
				}
			} else if run.Forest != nil {
				t.Errorf("%s %s: a forest nobody asked for", name, v.name)
			}
		}
	}
}

func TestGraphAlgorithmsMatchCPU(t *testing.T) {
	c := gpuContext(t)
	for _, seed := range []uint64{1, 2} {
		for name, g := range randomShapes(t, seed) {
			checkGPUGraph(t, c, fmt.Sprintf("%s (seed %d)", name, seed), g)
		}
	}
}

func TestGraphECLafRejectsForest(t *testing.T) {
	c := gpuContext(t)
	g := edgeGraph(t, 4, 0, 1, 2, 3)
	if _, err := c.LabelGraph(g, GraphOptions{Algorithm: ecl.ECLaf, Forest: true}); err == nil {
		t.Fatal("ECLaf recorded a forest")
	}
}

func TestChooseGraphAlgorithmAndRound0(t *testing.T) {
	grid, err := gen.GridGraph(64, 64)
	if err != nil {
		t.Fatal(err)
	}
	path := edgeGraph(t, 4, 0, 1, 1, 2, 2, 3)
	rmat, err := gen.RMATGraph(14, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	if a := ChooseGraphAlgorithm(grid); a != ecl.Afforest {
		t.Errorf("grid: %v", a)
	}
	if a := ChooseGraphAlgorithm(path); a != ecl.ECL {
		t.Errorf("path: %v", a)
	}
	if a := ChooseGraphAlgorithm(&ecl.Graph{Offsets: []int64{0}}); a != ecl.ECL {
		t.Errorf("empty: %v", a)
	}
	if r := afforestRound0(shapeOf(grid)); r != round0Init {
		t.Errorf("grid round 0: %d", r)
	}
	if r := afforestRound0(shapeOf(rmat)); r != round0Link {
		t.Errorf("R-MAT round 0: %d", r)
	}
	// The warp and block kernels run only where a degree exceeds 16.
	if shapeOf(grid).listed || shapeOf(path).listed || !shapeOf(rmat).listed {
		t.Errorf("listed: grid %v, path %v, R-MAT %v", shapeOf(grid).listed, shapeOf(path).listed, shapeOf(rmat).listed)
	}
	star := func(leaves int32) *ecl.Graph {
		var pairs []int32
		for v := int32(1); v <= leaves; v++ {
			pairs = append(pairs, 0, v)
		}
		return edgeGraph(t, int(leaves)+1, pairs...)
	}
	if !shapeOf(star(17)).listed || shapeOf(star(16)).listed {
		t.Errorf("listed: a star of 17 leaves is listed (%v), of 16 not (%v)", shapeOf(star(17)).listed, shapeOf(star(16)).listed)
	}
}
