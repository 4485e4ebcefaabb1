package ecl

// AutoMinDegree is the average degree (stored arcs per vertex) from which
// Auto runs Afforest rather than ECL-CC. Measured on 2 cores (README):
// below it (uniform random graphs of average degree 2, the NY road
// network at 2.8) ECL-CC was 10-30% faster, Afforest's sampling finding no
// giant to skip; from it (grids at 4, random graphs at 8, R-MAT at 15-30)
// adaptive Afforest was 1.6-3x faster.
const AutoMinDegree = 3

// ChooseAlgorithm returns the algorithm Auto runs on g: ECL-CC for graphs
// of average degree below AutoMinDegree, Afforest with adaptive k above.
func ChooseAlgorithm(g *Graph) Algorithm {
	if n := g.NumVertices(); n == 0 || g.NumEdges() < AutoMinDegree*n {
		return ECL
	}
	return Afforest
}
