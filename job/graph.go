package job

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats/graphio"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/internal/atomicfile"
)

// DefaultMaxVertices is the largest vertex count a text graph may declare:
// the header's count is bounded by it unless [GraphInput.MaxVertices] is set.
const DefaultMaxVertices = graphio.DefaultMaxVertices

// GraphInput names a graph file and how to read it.
type GraphInput struct {
	// Path is the graph file; "-" reads Stdin (give Format).
	Path string
	// Format is egr, egr64, mtx, gr or edgelist; "" takes it from the
	// extension.
	Format string
	// DropZeros drops explicit zero entries of a Matrix Market file.
	DropZeros bool
	// MaxVertices bounds the vertex count a text header may declare.
	MaxVertices int64
	// Stdin is standard input.
	Stdin io.Reader
}

// Graph labels the connected components of a graph file. It is the job of
// "cclabel graph". It may also write a spanning forest, check the result
// against a breadth-first search, and replay a file of edge insertions and
// queries after the labeling.
type Graph struct {
	GraphInput
	// Labels receives the labels: .txt ("id label" lines), .npy (int32),
	// or "-" for text on Stdout; "" writes none.
	Labels string
	// Forest receives a spanning forest's edges: .txt ("u v" lines in the
	// file's IDs) or .npy (int64, shape (m, 2)); "" builds none.
	Forest string
	// Updates is a file of "i U V", "q U V" and "c V" lines replayed after
	// the labeling ("-" reads Stdin); Answers receives the answers ("-"
	// for Stdout).
	Updates, Answers string
	// Verify checks the labels, and the forest file read back, against an
	// independent breadth-first search.
	Verify bool
	// Stdout is standard output; JSON reports that a summary goes there.
	Stdout io.Writer
	JSON   bool
}

// GraphSummary describes a labeled graph, as "cclabel graph --json" prints it.
type GraphSummary struct {
	Input      string          `json:"input"`
	Vertices   int             `json:"vertices"`
	Edges      int             `json:"edges"`
	Components int             `json:"components"`
	Largest    int64           `json:"largest"`
	Backend    string          `json:"backend"`
	Algorithm  string          `json:"algorithm"`
	Threads    int             `json:"threads"`
	Verified   bool            `json:"verified"`
	Forest     *ForestSummary  `json:"forest,omitempty"`
	Updates    *UpdatesSummary `json:"updates,omitempty"`
	Warnings   []string        `json:"warnings,omitempty"`
	Seconds    StageTimes      `json:"seconds"`
	// LabelStages split Seconds.Label: GPU setup, copies, the kernel (or
	// the CPU labeling) and the rest (counting component sizes).
	LabelStages LabelStages `json:"label_seconds"`
	GPU         *GPUTimes   `json:"gpu_seconds,omitempty"`
	Read        GraphRead   `json:"read"`
}

// Run reads, labels and writes the graph with l. Its outputs are all written
// or, when it fails or the process is interrupted, none.
func (j Graph) Run(ctx context.Context, l *cclabel.Labeler, p Progress) (*GraphSummary, error) {
	if err := checkGraphOutput("--labels", j.Labels, true); err != nil {
		return nil, err
	}
	if j.Labels == "-" && j.JSON {
		return nil, usagef("graph: --labels - and --json both want stdout")
	}
	if err := checkGraphOutput("--forest", j.Forest, false); err != nil {
		return nil, err
	}
	if j.Updates != "" {
		if j.Updates == "-" && j.Path == "-" {
			return nil, usagef("graph: the graph and --updates cannot both read stdin")
		}
		if j.Answers == "-" && (j.JSON || j.Labels == "-") {
			return nil, usagef("graph: --updates answers and --json or --labels - all want stdout (give --answers FILE)")
		}
	}
	outputs := []atomicfile.Named{outputFile("--labels", j.Labels), outputFile("--forest", j.Forest)}
	if j.Updates != "" {
		outputs = append(outputs, outputFile("--answers", j.Answers))
	}
	if err := checkClobber("graph", inputFiles(j.Path, j.Updates), outputs); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var paths []string
	for _, o := range outputs {
		paths = append(paths, o.Path)
	}
	var s *GraphSummary
	err := allOrNothing(paths, func() (err error) {
		s, err = j.label(l, p)
		return err
	})
	return s, err
}

// label reads, labels and writes the graph.
func (j Graph) label(labeler *cclabel.Labeler, p Progress) (*GraphSummary, error) {
	input := j.Path
	var times StageTimes
	clock := newStopwatch()
	lg, err := j.read(labeler.Threads())
	if err != nil {
		return nil, err
	}
	defer lg.Close()
	for _, w := range lg.Warnings {
		p.warnf("cclabel: warning: %s: %s\n", input, w)
	}
	times.Read = clock.lap()

	g := lg.Graph
	x := &graphExtras{Graph: j, lg: lg}
	gr, forest, err := x.label(labeler, g)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", input, err)
	}
	// The GPU closes while the sizes are counted and the outputs written
	// (the replay of updates may label on it).
	releaseAfter(labeler, j.Updates == "")
	res := gr.Result
	labels, largest := res.LabelsAndLargest(labeler.Threads())
	times.Label = clock.lap()

	if j.Verify {
		if err := ecl.Verify(g, res.Parent); err != nil {
			return nil, fmt.Errorf("%s: %w", input, err)
		}
	}
	if err := x.writeForest(forest); err != nil {
		return nil, err
	}
	updates, err := x.replay(labeler, res)
	if err != nil {
		return nil, err
	}
	res.Parent = nil // no longer needed: let the collector take it
	if j.Labels != "" {
		if err := writeGraphLabels(j.Labels, labels, lg.ID, j.Stdout); err != nil {
			return nil, err
		}
	}
	times.Write = clock.lap()
	times.Total = clock.total()

	s := &GraphSummary{
		Input: input, Vertices: g.NumVertices(), Edges: g.NumEdges(),
		Components: res.Count, Largest: largest,
		Backend: string(gr.Backend), Algorithm: gr.Algorithm.String(), Threads: labeler.Threads(),
		Verified: j.Verify, Warnings: lg.Warnings, Seconds: times, LabelStages: labelStagesOf(times.Label, gr.Timing),
		GPU:    gpuTimesOf(gr.Backend, gr.Timing),
		Forest: x.summary(forest), Updates: updates,
		Read: graphReadOf(lg.Stats),
	}
	verified := ""
	if s.Verified {
		verified = ", verified by BFS"
	}
	p.printf("%s: %d vertices, %d edges, %d components (largest %d); read %.3fs%s, label %.3fs [%s %s, %d threads]%s\n",
		input, s.Vertices, s.Edges, s.Components, largest, times.Read, s.Read.note(), times.Label,
		s.Backend, s.Algorithm, s.Threads, verified)
	if !p.Quiet {
		x.printSummary(p.out(), s)
	}
	if j.Labels == "" && j.Forest == "" && j.Updates == "" {
		p.printf("cclabel: graph: nothing was written (give --labels or --forest)\n")
	}
	return s, nil
}

// read reads the graph file, or stdin for "-", in the format given (else
// by the extension), parsing on threads goroutines.
func (in GraphInput) read(threads int) (*graphio.LoadedGraph, error) {
	var f graphio.Format
	if in.Path == "-" || in.Format != "" {
		var err error
		if f, err = parseGraphFormat(in.Format, in.Path); err != nil {
			return nil, err
		}
	}
	opts := graphio.ReadOptions{DropZeros: in.DropZeros, Threads: threads, MaxVertices: in.MaxVertices, Map: true}
	return graphio.ReadFileAs(in.Path, f, opts, in.Stdin)
}

// parseGraphFormat maps a format name to a graph format.
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

// checkGraphOutput rejects an output (named flag in errors) that cannot
// be written, before any work is done: it must be .txt or .npy in an
// existing folder, or "-" where stdout allows standard output.
func checkGraphOutput(flag, path string, stdout bool) error {
	if path == "" || path == "-" && stdout {
		return nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".txt", ".npy":
	default:
		return usagef("%s %s: unknown extension (want .txt or .npy)", flag, path)
	}
	return CheckOutputDir(path)
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
