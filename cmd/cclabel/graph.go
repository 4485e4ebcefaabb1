package main

import (
	"context"

	"github.com/cclabel/cclabel/job"
	"github.com/urfave/cli/v3"
)

// graphCommand is "cclabel graph".
func graphCommand(std stdio) *cli.Command {
	return &cli.Command{
		Name:      "graph",
		Usage:     "label the connected components of a graph file",
		ArgsUsage: "GRAPH",
		Description: "GRAPH is .egr (ECL binary CSR), .mtx (Matrix Market), .gr (DIMACS/PACE) or an edge list " +
			"(.txt .csv .tsv .el .edges), each optionally compressed (.gz .xz .zst .bz2: g.gr.xz is DIMACS); " +
			"'-' reads stdin (give --format; compressed text is recognized). Edge lists and Matrix Market files " +
			"are taken as undirected; an asymmetric .egr is symmetrized with a warning.",
		OnUsageError: onUsageError,
		Flags: append(append([]cli.Flag{
			&cli.StringFlag{Name: "algo", Value: "auto", Usage: "auto (the fastest measured for the graph's shape on the backend that runs), ecl (CAS hooking), eclaf (atomic-free; no --forest) or afforest (sampling), on the CPU and the GPU"},
			&cli.StringFlag{Name: "backend", Value: "auto", Usage: "auto (the GPU when one is usable and expected to be faster), gpu, cpu (parallel) or serial"},
			&cli.IntFlag{Name: "threads", Usage: "goroutines for the cpu backend (0: all cores)"},
			&cli.StringFlag{Name: "labels", Usage: "write labels: .txt ('id label' lines), .npy (int32), or '-' for text on stdout", TakesFile: true},
		}, graphFlags()...),
			&cli.BoolFlag{Name: "verify", Usage: "check the result against an independent breadth-first search (and a --forest file read back)"},
			&cli.StringFlag{Name: "forest", Usage: "write a spanning forest's edges: .txt ('u v' lines in the file's IDs) or .npy (int64, shape (m, 2))", TakesFile: true},
			&cli.StringFlag{Name: "updates", Usage: "replay a file of 'i U V' (insert), 'q U V' (connected?) and 'c V' (component) lines after labeling; '-' reads stdin", TakesFile: true},
			&cli.StringFlag{Name: "answers", Value: "-", Usage: "where --updates prints its answers, one a line", TakesFile: true},
			&cli.BoolFlag{Name: "json", Usage: "print a JSON summary on stdout"},
			quietFlag,
		),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 1 {
				return usagef("graph: want exactly one GRAPH argument, got %d", cmd.NArg())
			}
			labeler, err := newLabeler(cmd, std.Err)
			if err != nil {
				return err
			}
			defer labeler.Release() // in the background: the exit does not wait for it
			j := job.Graph{GraphInput: graphInput(cmd, cmd.Args().First(), std), Labels: cmd.String("labels"),
				Forest: cmd.String("forest"), Updates: cmd.String("updates"), Answers: cmd.String("answers"),
				Verify: cmd.Bool("verify"), Stdout: std.Out, JSON: cmd.Bool("json")}
			s, err := j.Run(ctx, labeler, std.progress(cmd))
			if err != nil || !j.JSON {
				return err
			}
			return writeJSON(std.Out, s)
		},
	}
}

// graphFlags returns the reader flags of the commands that read graphs.
func graphFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Usage: "input format instead of the extension: egr, egr64, mtx, gr or edgelist"},
		&cli.BoolFlag{Name: "drop-zeros", Usage: "Matrix Market: explicit zero entries are not edges"},
		&cli.Int64Flag{Name: "max-vertices", Value: job.DefaultMaxVertices,
			Usage: "largest vertex count a text graph header may declare"},
	}
}

// graphInput reads the reader flags for the graph file path.
func graphInput(cmd *cli.Command, path string, std stdio) job.GraphInput {
	return job.GraphInput{Path: path, Format: cmd.String("format"), DropZeros: cmd.Bool("drop-zeros"),
		MaxVertices: cmd.Int64("max-vertices"), Stdin: std.In}
}

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
		Flags:        graphFlags(),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 2 {
				return usagef("convert: want IN and OUT, got %d arguments", cmd.NArg())
			}
			j := job.Convert{GraphInput: graphInput(cmd, cmd.Args().Get(0), std), Output: cmd.Args().Get(1)}
			return j.Run(ctx, job.Progress{W: std.Err})
		},
	}
}
