package graphio

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel/formats/internal/fileio"
)

// Format identifies a graph file format.
type Format int

const (
	// FormatEGR is ECL-CC's little-endian binary CSR format (.egr).
	FormatEGR Format = iota + 1
	// FormatMatrixMarket is the Matrix Market coordinate format (.mtx).
	FormatMatrixMarket
	// FormatEdgeList is a text list of vertex ID pairs. Its extensions are
	// .txt, .csv, .tsv, .el and .edges.
	FormatEdgeList
	// FormatDIMACS is the DIMACS/PACE graph format (.gr).
	FormatDIMACS
	// FormatEGR64 is cclabel's .egr variant for graphs of 2^31 arcs or more.
	// It has 64-bit header fields and offsets, and the extension .egr64.
	FormatEGR64
)

// supportedExtensions lists the extensions FormatFromPath knows, for
// error messages.
const supportedExtensions = ".egr, .egr64, .mtx, .txt, .csv, .tsv, .el, .edges, .gr; each may be followed by " +
	fileio.CompressedExtensions

// String returns the format's short name: "egr", "egr64",
// "matrixmarket", "edgelist" or "dimacs".
func (f Format) String() string {
	switch f {
	case FormatEGR:
		return "egr"
	case FormatEGR64:
		return "egr64"
	case FormatMatrixMarket:
		return "matrixmarket"
	case FormatEdgeList:
		return "edgelist"
	case FormatDIMACS:
		return "dimacs"
	}
	return fmt.Sprintf("GraphFormat(%d)", int(f))
}

// binary reports whether f is a binary CSR format (.egr, .egr64), whose
// bytes are never sniffed for compression.
func (f Format) binary() bool { return f == FormatEGR || f == FormatEGR64 }

// FormatFromPath picks the format from the file extension of path. It ignores
// case; a compressed file's format comes from the extension before the
// compression's (.gz, .xz, .zst, .bz2): "g.gr.xz" is DIMACS. It returns an
// error naming the extension and the supported ones when the extension is
// unknown.
func FormatFromPath(path string) (Format, error) {
	_, inner := fileio.CompressionFromName(path)
	ext := strings.ToLower(filepath.Ext(inner))
	switch ext {
	case ".egr":
		return FormatEGR, nil
	case ".egr64":
		return FormatEGR64, nil
	case ".mtx":
		return FormatMatrixMarket, nil
	case ".txt", ".csv", ".tsv", ".el", ".edges":
		return FormatEdgeList, nil
	case ".gr":
		return FormatDIMACS, nil
	case "":
		return 0, &fileio.UnsupportedError{Path: path,
			Err: fmt.Errorf("no file extension to tell the graph format (supported: %s)", supportedExtensions)}
	}
	return 0, &fileio.UnsupportedError{Path: path,
		Err: fmt.Errorf("unknown graph file extension %s (supported: %s)", quote([]byte(filepath.Ext(inner))), supportedExtensions)}
}

// isCSV reports whether path has the .csv extension, whose edge lists may
// start with a header line.
func isCSV(path string) bool {
	return strings.EqualFold(filepath.Ext(path), ".csv")
}

// ParseFormat parses a format name as users give it. The names are egr;
// egr64; mtx or mm; gr or dimacs; edgelist, txt, el, edges, csv or tsv (case
// ignored).
func ParseFormat(name string) (Format, error) {
	switch strings.ToLower(name) {
	case "egr":
		return FormatEGR, nil
	case "egr64":
		return FormatEGR64, nil
	case "mtx", "mm":
		return FormatMatrixMarket, nil
	case "gr", "dimacs":
		return FormatDIMACS, nil
	case "edgelist", "txt", "el", "edges", "csv", "tsv":
		return FormatEdgeList, nil
	}
	return 0, &fileio.UnsupportedError{Err: fmt.Errorf("unknown graph format %q (want egr, egr64, mtx, gr or edgelist)", name)}
}
