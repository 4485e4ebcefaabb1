// Package incremental maintains connected components while edges arrive in
// batches.
//
// [Connectivity] is the interface a backend implements and [UnionFind] the
// CPU backend; package [github.com/cclabel/cclabel/cuda/incremental] is the
// GPU backend. [Replay] applies a file of updates and queries to any backend.
package incremental
