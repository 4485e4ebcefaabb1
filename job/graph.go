package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats/graphio"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/labelfile"
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
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "algo", Value: "auto", Usage: "auto (the fastest measured for the graph's shape on the backend that runs), ecl (CAS hooking), eclaf (atomic-free; no --forest) or afforest (sampling), on the CPU and the GPU"},
			&cli.StringFlag{Name: "backend", Value: "auto", Usage: "auto (GPU for large graphs when one is usable), gpu, cpu (parallel) or serial"},
			&cli.IntFlag{Name: "threads", Usage: "goroutines for the cpu backend (0: all cores)"},
			&cli.StringFlag{Name: "labels", Usage: "write labels: .txt ('id label' lines), .npy (int32), or '-' for text on stdout", TakesFile: true},
			&cli.StringFlag{Name: "format", Usage: "input format instead of the extension: egr, egr64, mtx, gr or edgelist"},
			&cli.BoolFlag{Name: "drop-zeros", Usage: "Matrix Market: explicit zero entries are not edges"},
			maxVerticesFlag(),
			&cli.BoolFlag{Name: "verify", Usage: "check the result against an independent breadth-first search (and a --forest file read back)"},
			&cli.StringFlag{Name: "forest", Usage: "write a spanning forest's edges: .txt ('u v' lines in the file's IDs) or .npy (int64, shape (m, 2))", TakesFile: true},
			&cli.StringFlag{Name: "updates", Usage: "replay a file of 'i U V' (insert), 'q U V' (connected?) and 'c V' (component) lines after labeling; '-' reads stdin", TakesFile: true},
			&cli.StringFlag{Name: "answers", Value: "-", Usage: "where --updates prints its answers, one a line", TakesFile: true},
			&cli.BoolFlag{Name: "json", Usage: "print a JSON summary on stdout"},
			quietFlag,
		},
		Action: func(ctx context.Context, cmd *cli.Command) error { return runGraph(cmd, std) },
	}
}

// graphSummary is the --json object of "cclabel graph".
type graphSummary struct {
	Input      string          `json:"input"`
	Vertices   int             `json:"vertices"`
	Edges      int             `json:"edges"`
	Components int             `json:"components"`
	Largest    int64           `json:"largest"`
	Backend    string          `json:"backend"`
	Algorithm  string          `json:"algorithm"`
	Threads    int             `json:"threads"`
	Verified   bool            `json:"verified"`
	Forest     *forestSummary  `json:"forest,omitempty"`
	Updates    *updatesSummary `json:"updates,omitempty"`
	Warnings   []string        `json:"warnings,omitempty"`
	Seconds    stageTimes      `json:"seconds"`
	GPU        *gpuTimes       `json:"gpu_seconds,omitempty"`
	Read       graphRead       `json:"read"`
}

// runGraph reads, labels and writes one graph.
func runGraph(cmd *cli.Command, std stdio) error {
	if cmd.NArg() != 1 {
		return usagef("graph: want exactly one GRAPH argument, got %d", cmd.NArg())
	}
	input := cmd.Args().First()
	labeler, err := newLabeler(cmd, std.Err)
	if err != nil {
		return err
	}
	defer labeler.Close()
	labelsPath := cmd.String("labels")
	if err := checkLabelsPath(labelsPath); err != nil {
		return err
	}
	if labelsPath == "-" && cmd.Bool("json") {
		return usagef("graph: --labels - and --json both want stdout")
	}
	readOpts := graphReadOptions(cmd, labeler.Threads())
	extras, err := graphExtrasFrom(cmd, input)
	if err != nil {
		return err
	}
	outputs := []atomicfile.Named{outputFile("--labels", labelsPath), outputFile("--forest", extras.forest)}
	if extras.updates != "" {
		outputs = append(outputs, outputFile("--answers", extras.answers))
	}
	if err := checkClobber("graph", inputFiles(input, extras.updates), outputs); err != nil {
		return err
	}
	var paths []string
	for _, o := range outputs {
		paths = append(paths, o.Path)
	}
	return allOrNothing(paths, func() error { return labelGraph(cmd, std, input, labeler, readOpts, extras) })
}

// labelGraph reads, labels and writes the graph input.
func labelGraph(cmd *cli.Command, std stdio, input string, labeler *cclabel.Labeler, readOpts graphio.ReadOptions, extras *graphExtras) error {
	labelsPath := cmd.String("labels")
	var times stageTimes
	clock := newStopwatch()
	lg, err := readGraphInput(input, cmd.String("format"), readOpts, std.In)
	if err != nil {
		return err
	}
	for _, w := range lg.Warnings {
		fmt.Fprintf(std.Err, "cclabel: warning: %s: %s\n", input, w)
	}
	times.Read = clock.lap()

	g := lg.Graph
	gr, forest, err := extras.label(labeler, g)
	if err != nil {
		return fmt.Errorf("%s: %w", input, err)
	}
	res := gr.Result
	labels, largest := labelsAndLargest(res, labeler.Threads())
	times.Label = clock.lap()

	if cmd.Bool("verify") {
		if err := ecl.Verify(g, res.Parent); err != nil {
			return fmt.Errorf("%s: %w", input, err)
		}
	}
	if err := extras.writeForest(forest, lg, cmd.Bool("verify")); err != nil {
		return err
	}
	updates, err := extras.replay(labeler, res, lg, std)
	if err != nil {
		return err
	}
	res.Parent = nil // no longer needed: let the collector take it
	if labelsPath != "" {
		if err := writeGraphLabels(labelsPath, labels, lg.ID, std.Out); err != nil {
			return err
		}
	}
	times.Write = clock.lap()
	times.Total = clock.total()

	summary := graphSummary{
		Input: input, Vertices: g.NumVertices(), Edges: g.NumEdges(),
		Components: res.Count, Largest: largest,
		Backend: string(gr.Backend), Algorithm: gr.Algorithm.String(), Threads: labeler.Threads(),
		Verified: cmd.Bool("verify"), Warnings: lg.Warnings, Seconds: times, GPU: gpuTimesOf(gr.Backend, gr.Timing),
		Forest: extras.summary(forest, cmd.Bool("verify")), Updates: updates,
		Read: graphReadOf(lg.Stats),
	}
	if !cmd.Bool("quiet") {
		fmt.Fprintf(std.Err, "%s: %d vertices, %d edges, %d components (largest %d); read %.3fs%s, label %.3fs [%s %s, %d threads]%s\n",
			input, summary.Vertices, summary.Edges, summary.Components, largest, times.Read, summary.Read.note(), times.Label,
			summary.Backend, summary.Algorithm, summary.Threads, verifiedNote(summary.Verified))
		extras.printSummary(std.Err, summary)
		if labelsPath == "" && extras.forest == "" && extras.updates == "" {
			fmt.Fprintln(std.Err, "cclabel: graph: nothing was written (give --labels or --forest)")
		}
	}
	if cmd.Bool("json") {
		return writeJSON(std.Out, summary)
	}
	return nil
}

// verifiedNote is the human summary's note on --verify.
func verifiedNote(verified bool) string {
	if verified {
		return ", verified by BFS"
	}
	return ""
}

// readGraphInput reads a graph file, or stdin for "-", in the --format
// given (else by the extension).
func readGraphInput(input, format string, opts graphio.ReadOptions, stdin io.Reader) (*graphio.LoadedGraph, error) {
	var f graphio.Format
	if input == "-" || format != "" {
		var err error
		if f, err = parseGraphFormat(format, input); err != nil {
			return nil, err
		}
	}
	return graphio.ReadFileAs(input, f, opts, stdin)
}

// maxVerticesFlag returns the --max-vertices flag of the commands that read graphs.
func maxVerticesFlag() cli.Flag {
	return &cli.Int64Flag{Name: "max-vertices", Value: graphio.DefaultMaxVertices,
		Usage: "largest vertex count a text graph header may declare"}
}

// graphReadOptions collects the reader flags.
func graphReadOptions(cmd *cli.Command, threads int) graphio.ReadOptions {
	return graphio.ReadOptions{DropZeros: cmd.Bool("drop-zeros"), Threads: threads,
		MaxVertices: cmd.Int64("max-vertices")}
}

// parseGraphFormat maps a --format value to a graph format.
func parseGraphFormat(format, input string) (graphio.Format, error) {
	if format == "" {
		return 0, usagef("graph: reading %s needs --format (egr, egr64, mtx, gr or edgelist)", input)
	}
	f, err := graphio.ParseFormat(format)
	if err != nil {
		return 0, usagef("graph: unknown --format %q (want egr, egr64, mtx, gr or edgelist)", format)
	}
	return f, nil
}

// checkLabelsPath rejects label outputs cclabel cannot write, before any
// work is done.
func checkLabelsPath(path string) error {
	if path == "" || path == "-" {
		return nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".txt", ".npy":
	default:
		return usagef("--labels %s: unknown extension (want .txt or .npy)", path)
	}
	return labelfile.CheckOutputDir(path)
}

// writeGraphLabels writes per-vertex labels as text or .npy.
func writeGraphLabels(path string, labels []uint32, id func(int) int64, stdout io.Writer) error {
	if path == "-" {
		return graphio.WriteLabelsText(stdout, labels, id)
	}
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		if strings.ToLower(filepath.Ext(path)) == ".npy" {
			return npy.WriteLabels(w, labels, []int{len(labels)}, "int32")
		}
		return graphio.WriteLabelsText(w, labels, id)
	})
}

// stopwatch measures the stages of a command.
type stopwatch struct{ start, last time.Time }

func newStopwatch() *stopwatch {
	now := time.Now()
	return &stopwatch{start: now, last: now}
}

// lap returns the seconds since the previous lap.
func (s *stopwatch) lap() float64 {
	now := time.Now()
	d := now.Sub(s.last).Seconds()
	s.last = now
	return d
}

// total returns the seconds since the stopwatch started.
func (s *stopwatch) total() float64 { return time.Since(s.start).Seconds() }
