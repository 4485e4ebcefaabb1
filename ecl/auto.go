package ecl

// AutoMinDegree is the average degree (stored arcs per vertex) from which
// Auto runs Afforest rather than ECL-CC: below it (sparse random graphs,
// road networks) Afforest's sampling finds no giant component to skip and
// ECL-CC is faster; from it (grids, denser random and R-MAT graphs)
// adaptive Afforest is. docs/cli.md has the measurements.
const AutoMinDegree = 3

// ChooseAlgorithm returns the algorithm Auto runs on g: ECL-CC for graphs
// of average degree below AutoMinDegree, Afforest with adaptive k above.
func ChooseAlgorithm(g *Graph) Algorithm {
	if n := g.NumVertices(); n == 0 || g.NumEdges() < AutoMinDegree*n {
		return ECL
	}
	return Afforest
}
