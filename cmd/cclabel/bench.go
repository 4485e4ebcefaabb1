package main

import (
	"context"
	"strings"

	"github.com/cclabel/cclabel/bench"
	"github.com/urfave/cli/v3"
)

// benchCommand is "cclabel bench".
func benchCommand(std stdio) *cli.Command {
	return &cli.Command{
		Name:  "bench",
		Usage: "measure labeling throughput per backend on synthetic inputs",
		Description: "Generates a random graph (k=4), a random image (p=0.6) and a random volume (p=0.3) and labels " +
			"each on every backend given, reporting the median kernel time (the labeling itself, data resident) and " +
			"end-to-end time (with the copies to and from the GPU). By default images and volumes are labeled binary at " +
			"8 and 26; --modes and --connectivity choose others, and --modes all measures every rule at every " +
			"connectivity in one table. --inputs adds blobs (smoothed noise, p=0.5) and cells (about 4,000 Voronoi cells " +
			"with distinct uint32 values). " +
			"--full uses the acceptance sizes: 2^22 vertices, 8192², 512³.",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "backends", Value: "serial,cpu,gpu", Usage: "comma-separated: serial, cpu, gpu (gpu is skipped with the reason when none is usable)"},
			&cli.StringFlag{Name: "workloads", Value: "graph,image,volume", Usage: "comma-separated: graph, image, volume"},
			&cli.StringFlag{Name: "modes", Value: "binary", Usage: "comma-separated rules for images and volumes: binary, multilabel, threshold:T[:invert]; all: binary and multilabel at every connectivity"},
			&cli.StringFlag{Name: "connectivity", Usage: "comma-separated connectivities (4, 8 for images; 6, 18, 26 for volumes) or all (default: 8 and 26; all with --modes all)"},
			&cli.StringFlag{Name: "inputs", Value: "random", Usage: "comma-separated synthetic images and volumes: random, blobs, cells (a dense uint32 segmentation)"},
			&cli.BoolFlag{Name: "full", Usage: "acceptance sizes (slower, needs several GiB)"},
			&cli.IntFlag{Name: "repeat", Value: 5, Usage: "runs per measurement (the median is reported)"},
			&cli.IntFlag{Name: "threads", Usage: "goroutines for the cpu backend (0: all cores)"},
			&cli.BoolFlag{Name: "json", Usage: "print the results as a JSON array on stdout"},
		},
		Action: func(_ context.Context, cmd *cli.Command) error { return runBench(cmd, std) },
	}
}

// runBench runs every workload on every backend.
func runBench(cmd *cli.Command, std stdio) error {
	results, err := bench.Run(bench.Options{Backends: strings.Split(cmd.String("backends"), ","),
		Workloads: strings.Split(cmd.String("workloads"), ","), Modes: cmd.String("modes"),
		Connectivity: cmd.String("connectivity"), Inputs: cmd.String("inputs"), Full: cmd.Bool("full"),
		Repeat: cmd.Int("repeat"), Threads: cmd.Int("threads")})
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		return writeJSON(std.Out, results)
	}
	bench.WriteTable(std.Out, results)
	return nil
}
