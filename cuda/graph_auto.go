package cuda

import (
	"runtime"
	"sync"

	"github.com/cclabel/cclabel/ecl"
)

// AutoMinDegree is the average degree from which [ecl.Auto] runs Afforest
// on the GPU.
//
// The degree counts stored arcs per vertex. Below it (road networks) there
// is no giant component for Afforest to skip, and ECL-CC is faster; from
// it (grids, random and R-MAT graphs) Afforest is (docs/gpu.md).
const AutoMinDegree = 3

// ChooseGraphAlgorithm returns the algorithm [ecl.Auto] runs on the GPU for
// g.
//
// It is ECL-CC below [AutoMinDegree], Afforest from it.
func ChooseGraphAlgorithm(g *ecl.Graph) ecl.Algorithm {
	if n := g.NumVertices(); n == 0 || g.NumEdges() < AutoMinDegree*n {
		return ecl.ECL
	}
	return ecl.Afforest
}

// hubFactor is how many times the average degree a vertex's degree must
// reach for Afforest's round 0 to link first neighbours rather than run
// ECL-CC's init: on graphs with hubs (R-MAT) the first neighbour is
// usually a hub and the link gives shallow trees, while on graphs without
// (grids, uniform random graphs) the init's runs of predecessors collapse
// per warp.
const hubFactor = 16

// afforestRound0 picks Afforest's round 0 for a graph of shape d:
// round0Link when it has hubs, else round0Init.
func afforestRound0(d degreeShape) int {
	if d.hubs {
		return round0Link
	}
	return round0Init
}

// threadDegree is the largest degree a thread handles alone in ECL-CC's
// compute1 and Afforest's finish1; larger ones go to the worklists of the
// warp and block kernels (kernels/ecl_graph.cu).
const threadDegree = 16

// degreeShape is what the GPU graph paths ask of a graph's degrees.
type degreeShape struct {
	// hubs: some vertex has hubFactor times the average degree (R-MAT
	// graphs, not grids, uniform random graphs or road networks). It
	// picks Afforest's round 0, and whether ECL-CC compresses its init's
	// trees before compute1: deep init trees (roads, grids) gain, hub
	// graphs lose (docs/gpu.md).
	hubs bool
	// listed: some vertex has more than threadDegree neighbours, so the
	// warp and block kernels may have work; without, they are not
	// launched.
	listed bool
	// sparse: fewer than AutoMinDegree arcs per vertex (road networks),
	// where ECL-CC hooks by priority (hookByPriority).
	sparse bool
}

// shapeOf scans the degrees of g on all cores.
func shapeOf(g *ecl.Graph) degreeShape {
	n := g.NumVertices()
	if n == 0 {
		return degreeShape{sparse: true}
	}
	limit := min(int64(hubFactor)*int64(g.NumEdges())/int64(n), 1<<30)
	workers := min(runtime.NumCPU(), max(1, n>>18))
	shapes := make([]degreeShape, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			off := g.Offsets
			var d degreeShape
			for v := w * n / workers; v < (w+1)*n/workers; v++ {
				deg := off[v+1] - off[v]
				d.hubs = d.hubs || deg > limit
				d.listed = d.listed || deg > threadDegree
			}
			shapes[w] = d
		}()
	}
	wg.Wait()
	d := degreeShape{sparse: g.NumEdges() < AutoMinDegree*n}
	for _, s := range shapes {
		d.hubs = d.hubs || s.hubs
		d.listed = d.listed || s.listed
	}
	return d
}
