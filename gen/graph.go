package gen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/cclabel/cclabel/ecl"
)

// GridGraph returns the 4-neighbour grid graph of width x height vertices.
//
// Vertex y*width+x is joined to its left, right, upper and lower
// neighbours.
func GridGraph(width, height int) (*ecl.Graph, error) {
	if width < 1 || height < 1 {
		return nil, fmt.Errorf("gen: grid %dx%d: sides must be positive", width, height)
	}
	n := int64(width) * int64(height)
	arcs := 2*int64(width-1)*int64(height) + 2*int64(width)*int64(height-1)
	if n >= math.MaxInt32 {
		return nil, fmt.Errorf("gen: grid %dx%d has too many vertices for 32-bit IDs", width, height)
	}
	offsets := make([]int64, n+1)
	nbrs := make([]int32, 0, arcs)
	for y := range height {
		for x := range width {
			v := int32(y*width + x)
			offsets[v] = int64(len(nbrs))
			if y > 0 {
				nbrs = append(nbrs, v-int32(width))
			}
			if x > 0 {
				nbrs = append(nbrs, v-1)
			}
			if x < width-1 {
				nbrs = append(nbrs, v+1)
			}
			if y < height-1 {
				nbrs = append(nbrs, v+int32(width))
			}
		}
	}
	offsets[n] = int64(len(nbrs))
	return &ecl.Graph{Offsets: offsets, Neighbors: nbrs}, nil
}

// RandomGraph returns a graph on n vertices with random neighbours.
//
// Every vertex picks degree neighbours uniformly at random (other than
// itself); the edges are then made undirected, so the average degree is
// about 2*degree.
func RandomGraph(n, degree int, seed uint64) (*ecl.Graph, error) {
	if n < 2 || degree < 1 {
		return nil, fmt.Errorf("gen: random graph needs at least 2 vertices and degree >= 1 (got %d, %d)", n, degree)
	}
	m := int64(n) * int64(degree)
	if n >= math.MaxInt32 {
		return nil, fmt.Errorf("gen: random graph with %d vertices: too many for 32-bit IDs", n)
	}
	if m > MaxEdges {
		return nil, fmt.Errorf("gen: random graph of %d edges: at most %d", m, int64(MaxEdges))
	}
	us := make([]int32, m)
	vs := make([]int32, m)
	fillChunks(int(m), seed, func(rng *rand.Rand, lo, hi int) {
		for i := lo; i < hi; i++ {
			u := int32(i / degree)
			v := int32(rng.IntN(n - 1))
			if v >= u {
				v++ // skip u itself, keeping the draw uniform
			}
			us[i], vs[i] = u, v
		}
	})
	return ecl.FromEdgesParallel(n, us, vs, 0)
}

// MaxEdges is the most edges [RandomGraph] and [RMATGraph] draw.
//
// 2^34 edges are 128 GiB of edge pairs before the CSR is built.
const MaxEdges = 1 << 34

// R-MAT quadrant probabilities (Chakrabarti et al.), as used for rmat22.sym.
const (
	rmatA = 0.57
	rmatB = 0.19
	rmatC = 0.19
)

// RMATGraph returns an R-MAT graph with 2^scale vertices.
//
// Its edgeFactor*2^scale edges are drawn with probabilities a=0.57,
// b=0.19, c=0.19, d=0.05, and made undirected, without self-loops and
// repeated edges.
func RMATGraph(scale, edgeFactor int, seed uint64) (*ecl.Graph, error) {
	if scale < 1 || scale > 30 || edgeFactor < 1 {
		return nil, fmt.Errorf("gen: R-MAT needs 1 <= scale <= 30 and edge factor >= 1 (got %d, %d)", scale, edgeFactor)
	}
	n := 1 << scale
	m := int64(n) * int64(edgeFactor)
	if m > MaxEdges {
		return nil, fmt.Errorf("gen: R-MAT scale %d edge factor %d draws %d edges: at most %d", scale, edgeFactor, m, int64(MaxEdges))
	}
	us := make([]int32, m)
	vs := make([]int32, m)
	fillChunks(int(m), seed, func(rng *rand.Rand, lo, hi int) {
		for i := lo; i < hi; i++ {
			var u, v int32
			for range scale {
				// The quadrant of one draw, most significant bit first,
				// without branches (the draws are random): below a none;
				// a to a+b v; a+b to a+b+c u; above both.
				r := rng.Float64()
				ub := bit(r >= rmatA+rmatB)
				u = u<<1 | ub
				v = v<<1 | bit(r >= rmatA) ^ ub ^ bit(r >= rmatA+rmatB+rmatC)
			}
			us[i], vs[i] = u, v
		}
	})
	return ecl.FromEdgesParallel(n, us, vs, 0)
}

// bit is 1 when b holds, else 0.
func bit(b bool) int32 {
	var x int32
	if b {
		x = 1
	}
	return x
}

// chunkSize is the number of items drawn from one random stream.
const chunkSize = 1 << 16

// fillChunks calls fill on consecutive chunks of [0, n) in parallel; chunk
// k draws from its own generator seeded with (seed, k), so the output does
// not depend on the number of goroutines.
func fillChunks(n int, seed uint64, fill func(rng *rand.Rand, lo, hi int)) {
	chunks := (n + chunkSize - 1) / chunkSize
	workers := min(runtime.GOMAXPROCS(0), chunks)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := w; k < chunks; k += workers {
				rng := rand.New(rand.NewPCG(seed, uint64(k)))
				fill(rng, k*chunkSize, min((k+1)*chunkSize, n))
			}
		})
	}
	wg.Wait()
}
