package cuda

import "github.com/cclabel/cclabel/ecl"

// ChooseGraphAlgorithm returns the algorithm ecl.Auto runs on the GPU for
// g: the one measured fastest for the graph's shape (cuda/PERF.md).
func ChooseGraphAlgorithm(g *ecl.Graph) ecl.Algorithm {
	return ecl.Afforest
}
