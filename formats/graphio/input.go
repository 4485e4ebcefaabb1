package graphio

import (
	"fmt"
	"io"
	"os"
)

// ReadFileAs reads a graph file in format f, whatever its extension
// (f 0 takes the format from the extension, as ReadFile does); path "-"
// reads stdin, which needs f.
func ReadFileAs(path string, f Format, opts ReadOptions, stdin io.Reader) (*LoadedGraph, error) {
	switch {
	case path == "-" && f == 0:
		return nil, fmt.Errorf("formats: stdin: the graph format must be given")
	case path == "-":
		lg, err := Read(stdin, -1, f, opts)
		if err != nil {
			return nil, fmt.Errorf("stdin: %w", err)
		}
		return lg, nil
	case f == 0:
		return ReadFile(path, opts)
	}
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		return nil, err
	}
	lg, err := Read(file, st.Size(), f, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return lg, nil
}
