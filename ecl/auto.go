package ecl

// AutoMinDegree is the average degree from which [Auto] runs Afforest
// rather than ECL-CC.
//
// The degree counts stored arcs per vertex. Below it (sparse random graphs,
// road networks) Afforest's sampling finds no giant component to skip and
// ECL-CC is faster; from it (grids, denser random and R-MAT graphs)
// adaptive Afforest is. docs/benchmarks.md has the measurements.
const AutoMinDegree = 3

// ChooseAlgorithm returns the algorithm [Auto] runs on g.
//
// It is [ECL] for graphs of average degree below [AutoMinDegree], and
// [Afforest] with adaptive k from it.
func ChooseAlgorithm(g *Graph) Algorithm {
	if n := g.NumVertices(); n == 0 || g.NumEdges() < AutoMinDegree*n {
		return ECL
	}
	return Afforest
}
