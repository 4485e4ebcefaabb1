package toolcmd

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/bench"
	"github.com/cclabel/cclabel/cmd/cclabel/internal/clix"
	"github.com/urfave/cli/v3"
)

// Bench is "cclabel bench".
func Bench(std clix.Stdio) *cli.Command {
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
		OnUsageError: clix.OnUsageError,
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
func runBench(cmd *cli.Command, std clix.Stdio) error {
	repeat := cmd.Int("repeat")
	if repeat < 1 {
		return clix.Usagef("bench: --repeat %d: must be at least 1", repeat)
	}
	backends := strings.Split(cmd.String("backends"), ",")
	workloads := strings.Split(cmd.String("workloads"), ",")
	for _, b := range backends {
		if !slices.Contains([]string{"serial", "cpu", "gpu"}, b) {
			return clix.Usagef("bench: unknown backend %q (want serial, cpu or gpu)", b)
		}
	}
	for _, w := range workloads {
		if !slices.Contains([]string{"graph", "image", "volume"}, w) {
			return clix.Usagef("bench: unknown workload %q (want graph, image or volume)", w)
		}
	}
	threads := cmd.Int("threads")
	labelers := map[string]*cclabel.Labeler{}
	skipped := map[string]string{} // backend -> why it is skipped
	for _, b := range backends {
		l, err := cclabel.New(cclabel.Options{Backend: cclabel.Backend(b), Threads: threads})
		switch {
		case err != nil && b == "gpu":
			skipped[b] = err.Error()
		case err != nil:
			return clix.UsageError{Err: err}
		default:
			defer l.Close()
			labelers[b] = l
		}
	}
	plan, err := bench.ParsePlan(cmd.String("modes"), cmd.String("connectivity"), cmd.String("inputs"))
	if err != nil {
		return clix.UsageError{Err: err}
	}
	var jobs []*bench.Job
	for _, w := range workloads {
		js, err := plan.Jobs(w, cmd.Bool("full"))
		if err != nil {
			return err
		}
		jobs = append(jobs, js...)
	}
	var results []bench.Result
	for _, job := range jobs {
		for _, b := range backends {
			if why, skip := skipped[b]; skip {
				results = append(results, job.Skipped(b, why))
				continue
			}
			r, err := job.Measure(labelers[b], b, repeat)
			if err != nil {
				return err
			}
			results = append(results, r)
		}
	}
	if cmd.Bool("json") {
		return clix.WriteJSON(std.Out, results)
	}
	fmt.Fprintf(std.Out, "%-50s %-7s %12s %14s %12s\n", "workload", "backend", "kernel ms", "end-to-end ms", "M/s (kernel)")
	for _, r := range results {
		if r.Note != "" {
			fmt.Fprintf(std.Out, "%-50s %-7s %s\n", r.Workload, r.Backend, r.Note)
			continue
		}
		fmt.Fprintf(std.Out, "%-50s %-7s %12.3f %14.3f %12.1f %s\n", r.Workload, r.Backend, r.KernelMS, r.TotalMS, r.PerSec, r.Unit)
	}
	return nil
}
