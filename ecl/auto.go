package ecl

// ChooseAlgorithm returns the algorithm Auto runs on g with threads
// goroutines (0 means GOMAXPROCS): the one measured fastest on the CPU
// for graphs of g's shape (see the README's measurements).
func ChooseAlgorithm(g *Graph, threads int) Algorithm {
	return Afforest
}
