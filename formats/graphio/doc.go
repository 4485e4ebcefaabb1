// Package graphio reads and writes graph files as [ecl.Graph]s. It knows .egr
// and .egr64, Matrix Market, edge lists and DIMACS, plain or compressed with
// gzip, zstd, xz or bzip2 (the last extension names the compression, the one
// before it the format). Text formats are parsed in parallel, with exactly
// the graph, vertex IDs and errors of a line-by-line read, and every header
// is checked before its graph is allocated.
package graphio
