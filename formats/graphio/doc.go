// Package graphio reads and writes graph files for connected-components
// labeling.
//
// Supported inputs are ECL-CC's binary CSR format (.egr) and its 64-bit
// variant for 2^31 arcs or more (.egr64, see docs/cli.md), Matrix Market
// coordinate files (.mtx), edge lists (.txt, .csv, .tsv, .el, .edges) and
// DIMACS/PACE graphs (.gr), each also compressed with gzip (.gz), zstd
// (.zst), xz (.xz) or bzip2 (.bz2): the last extension names the
// compression, the one before it the format ("roads.gr.xz" is DIMACS).
// Text formats compressed without saying so, and compressed text on
// stdin, are recognized by their first bytes, which no text graph starts
// with; .egr data is never guessed at, since any bytes can start one.
// Every reader returns a valid, symmetric ecl.Graph together with the
// mapping from vertices back to the IDs used in the file (see
// LoadedGraph) and ReadStats (bytes parsed, parse and build times).
// ReadFile picks the reader from the extension (FormatFromPath), Read
// from a Format. Graphs can be written as .egr or .egr64 only,
// uncompressed (WriteEGR, WriteEGR64, WriteFile); per-vertex labels as
// "id label" text lines
// (WriteLabelsText).
//
// Text formats are parsed in parallel: after the header lines, which are
// read one by one, one goroutine reads (and decompresses) the input and
// cuts it into chunks of whole lines, ReadOptions.Threads goroutines
// parse them into per-chunk edge arrays, and the chunks are committed in
// input order, so the graph, the IDs and every error (with its line
// number) are exactly those of reading line by line. Plain lines take a
// fast path; anything else goes through the line-by-line code.
//
// Readers stream their input and check headers before allocating, so a
// damaged or hostile file yields an error, never a panic or an allocation
// far beyond the input's size, except for the vertices a text header
// declares: 8 bytes each (the graph's offsets), up to
// ReadOptions.MaxVertices, with a warning when the entries cannot touch
// most of them. Every error is a single line that starts
// with "formats: "; errors of text formats name the line
// ("formats: line 12: ..."), and ReadFile adds the path
// ("formats: PATH: line 12: ..."). Errors of a compressed stream name the
// method ("formats: PATH: line 9: read: gzip stream: truncated: ...").
package graphio
