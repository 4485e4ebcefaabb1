package job

import (
	"context"

	"github.com/cclabel/cclabel/formats/graphio"
	"github.com/cclabel/cclabel/internal/atomicfile"
)

// Convert writes a graph file in another graph format. It is the job of
// "cclabel convert". The output is symmetric, without self-loops or repeated
// edges; edge-list IDs are compacted to 0..n-1 in ascending order.
type Convert struct {
	GraphInput
	// Output is the graph written: .egr, or .egr64 for 2^31 arcs or more.
	Output string
}

// Run reads the input and writes Output. It reports the graph's size on p.
func (j Convert) Run(ctx context.Context, p Progress) error {
	in, out := j.Path, j.Output
	if _, err := graphio.FormatFromPath(out); err != nil {
		return UsageError{Err: err}
	}
	if err := CheckOutputDir(out); err != nil {
		return err
	}
	if err := checkClobber("convert", inputFiles(in), []atomicfile.Named{outputFile("OUT", out)}); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	lg, err := j.read(0)
	if err != nil {
		return err
	}
	for _, w := range lg.Warnings {
		p.warnf("cclabel: warning: %s: %s\n", in, w)
	}
	if err := graphio.WriteFile(out, lg.Graph); err != nil {
		return err
	}
	p.printf("%s -> %s: %d vertices, %d edges\n", in, out, lg.Graph.NumVertices(), lg.Graph.NumEdges())
	return nil
}
