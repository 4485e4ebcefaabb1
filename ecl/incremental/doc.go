// Package incremental maintains the connected components of a graph whose
// edges arrive in batches: Insert adds a batch of undirected edges, and
// between batches Connected and Representative answer whether two
// vertices are connected and which component a vertex is in.
//
// Connectivity is the interface a backend implements, with batched calls
// only, so that a GPU backend can take a batch per kernel launch;
// UnionFind is the CPU backend: a concurrent union-find whose batches are
// inserted by several goroutines at once with ECL-CC's hooking (the larger
// representative under the smaller, with compare-and-swap; finds halve
// their paths). Package cuda/incremental is the GPU backend, and
// cclabel.Connectivity picks one by the labeler's backend. Because the
// larger representative is always hooked under
// the smaller, a component's representative is its smallest vertex ID, on
// every backend and whatever the order of insertion: answers never depend
// on scheduling, and match a static labeling (package ecl) of all edges
// inserted so far.
package incremental
