// Package ecl implements the ECL-CC connected-components algorithm
// (Jaiganesh and Burtscher, HPDC'18) on the CPU.
//
// A graph is given in compressed sparse row form (Graph). Components
// computes, for every vertex, its representative: the smallest vertex ID of
// its component. ECL-CC runs in three phases:
//
//   - init: each vertex points at its first neighbour (in adjacency order)
//     with a smaller ID, or at itself;
//   - compute: every undirected edge is visited once, from its larger
//     endpoint, and the two representatives are hooked, larger under
//     smaller, with a compare-and-swap; find uses intermediate pointer
//     jumping (path halving);
//   - finalize: single pointer jumping makes every vertex point straight at
//     its representative.
//
// Serial and parallel (goroutines over contiguous vertex ranges) versions
// are provided, plus ECLaf, the atomic-free variant that repeats the compute
// phase with plain stores until nothing changes, and Afforest (sampling:
// link a few neighbours per vertex, find the largest intermediate
// component, skip the edges inside it; see ComponentsAfforest). Every
// algorithm returns the same representatives; Auto picks the one measured
// fastest for a graph's shape (ChooseAlgorithm).
//
// SpanningForest also returns a spanning forest, recorded as the hooks
// happen, and VerifyForest checks one independently. Package
// ecl/incremental keeps components up to date under batches of edge
// insertions.
//
// Because ECL-CC processes each edge from one side only, the graph must be
// symmetric: every arc (u,v) needs its reverse (v,u). FromEdges builds such
// graphs, IsSymmetric and Symmetrize check and repair others.
//
// Images and volumes are labeled as implicit grid graphs by package
// imagegraph/gridcc, with this package's hooking rule on runs of pixels.
package ecl
