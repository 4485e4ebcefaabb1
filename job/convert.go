package main

import (
	"context"
	"fmt"

	"github.com/cclabel/cclabel/formats/graphio"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/labelfile"
	"github.com/urfave/cli/v3"
)

// convertCommand is "cclabel convert".
func convertCommand(std stdio) *cli.Command {
	return &cli.Command{
		Name:      "convert",
		Usage:     "convert a graph file to another graph format",
		ArgsUsage: "IN OUT",
		Description: "IN is any graph format cclabel reads ('-' for stdin, with --format); OUT's extension picks the " +
			"output format (.egr, or .egr64 for 2^31 arcs or more). The output is symmetric, without self-loops or repeated edges; edge-list IDs are " +
			"compacted to 0..n-1 in ascending order.",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Usage: "input format instead of the extension: egr, egr64, mtx, gr or edgelist"},
			&cli.BoolFlag{Name: "drop-zeros", Usage: "Matrix Market: explicit zero entries are not edges"},
			maxVerticesFlag(),
		},
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 2 {
				return usagef("convert: want IN and OUT, got %d arguments", cmd.NArg())
			}
			in, out := cmd.Args().Get(0), cmd.Args().Get(1)
			if _, err := graphio.FormatFromPath(out); err != nil {
				return usageError{Err: err}
			}
			if err := labelfile.CheckOutputDir(out); err != nil {
				return err
			}
			if err := checkClobber("convert", inputFiles(in), []atomicfile.Named{outputFile("OUT", out)}); err != nil {
				return err
			}
			lg, err := readGraphInput(in, cmd.String("format"), graphReadOptions(cmd, 0), std.In)
			if err != nil {
				return err
			}
			for _, w := range lg.Warnings {
				fmt.Fprintf(std.Err, "cclabel: warning: %s: %s\n", in, w)
			}
			if err := graphio.WriteFile(out, lg.Graph); err != nil {
				return err
			}
			fmt.Fprintf(std.Err, "%s -> %s: %d vertices, %d edges\n", in, out, lg.Graph.NumVertices(), lg.Graph.NumEdges())
			return nil
		},
	}
}
