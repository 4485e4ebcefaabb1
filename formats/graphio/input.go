package graphio

import (
	"errors"
	"fmt"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"io"
)

// ReadFileAs reads a graph file in format f, whatever its extension. f 0
// takes the format from the extension, as [ReadFile] does; a last extension
// .gz, .xz, .zst or .bz2 still decompresses it. Path "-" reads stdin, which
// needs f; compressed text on stdin is recognized as [Read] does.
func ReadFileAs(path string, f Format, opts ReadOptions, stdin io.Reader) (*LoadedGraph, error) {
	switch {
	case path == "-" && f == 0:
		return nil, &fileio.UnsupportedError{Path: "stdin", Err: errors.New("the graph format must be given")}
	case path == "-":
		lg, err := Read(stdin, -1, f, opts)
		if err != nil {
			return nil, fmt.Errorf("stdin: %w", err)
		}
		return lg, nil
	case f == 0:
		return ReadFile(path, opts)
	}
	lg, err := readFile(path, f, opts)
	if err != nil {
		return nil, err
	}
	return lg, nil
}
