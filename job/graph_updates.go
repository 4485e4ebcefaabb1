package main

import (
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/ecl/incremental"
	"github.com/cclabel/cclabel/formats/forestio"
	"github.com/cclabel/cclabel/formats/graphio"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/urfave/cli/v3"
)

// graphExtras are graph's --forest, --updates and --answers.
type graphExtras struct {
	forest, updates, answers string
	ids                      *vertexIDs // built on first use
}

// updatesSummary is the "updates" object of graph's --json summary.
type updatesSummary struct {
	File string `json:"file"`
	// Backend is where the insertions and queries ran (at the end: under
	// auto a replay may move to the GPU on a large batch).
	Backend string `json:"backend"`
	incremental.ReplayStats
}

// forestSummary is the "forest" object of graph's --json summary.
type forestSummary struct {
	File     string `json:"file"`
	Edges    int    `json:"edges"`
	Verified bool   `json:"verified"`
}

// graphExtrasFrom reads and checks the flags.
func graphExtrasFrom(cmd *cli.Command, input string) (*graphExtras, error) {
	x := &graphExtras{forest: cmd.String("forest"), updates: cmd.String("updates"), answers: cmd.String("answers")}
	if err := checkForestPath(x.forest); err != nil {
		return nil, err
	}
	if x.updates == "" {
		return x, nil
	}
	if x.updates == "-" && input == "-" {
		return nil, usagef("graph: the graph and --updates cannot both read stdin")
	}
	if x.answers == "-" && (cmd.Bool("json") || cmd.String("labels") == "-") {
		return nil, usagef("graph: --updates answers and --json or --labels - all want stdout (give --answers FILE)")
	}
	return x, nil
}

// label labels g, recording a spanning forest when --forest asks for one.
func (x *graphExtras) label(l *cclabel.Labeler, g *ecl.Graph) (*cclabel.GraphResult, *ecl.Forest, error) {
	if x.forest == "" {
		gr, err := l.LabelGraph(g)
		return gr, nil, err
	}
	return l.SpanningForest(g)
}

// vertexIDs returns the map from file IDs to vertices.
func (x *graphExtras) vertexIDs(lg *graphio.LoadedGraph) *vertexIDs {
	if x.ids == nil {
		x.ids = newVertexIDs(lg)
	}
	return x.ids
}

// writeForest writes the forest, and with verify reads it back and checks
// it.
func (x *graphExtras) writeForest(f *ecl.Forest, lg *graphio.LoadedGraph, verify bool) error {
	if x.forest == "" {
		return nil
	}
	if err := forestio.WriteFile(x.forest, f, lg.ID); err != nil {
		return fmt.Errorf("--forest %s: %w", x.forest, err)
	}
	if verify { // the file as written, before its group renames it into place
		return verifyForestFile(atomicfile.Written(x.forest), lg.Graph, x.vertexIDs(lg))
	}
	return nil
}

// replay replays --updates on the labeler's backend (cclabel.Connectivity:
// the CPU union-find, or the GPU's under --backend gpu, or auto when the
// GPU labeled the graph and the batches are large), started from the
// labeling's representatives, printing the answers on --answers.
func (x *graphExtras) replay(l *cclabel.Labeler, res *ecl.Result, lg *graphio.LoadedGraph, std stdio) (*updatesSummary, error) {
	if x.updates == "" {
		return nil, nil
	}
	conn, err := l.ConnectivityFrom(slices.Clone(res.Parent))
	if err != nil {
		return nil, fmt.Errorf("--updates: %w", err)
	}
	defer conn.Close()
	in := std.In
	if x.updates != "-" {
		f, err := os.Open(x.updates)
		if err != nil {
			return nil, fmt.Errorf("--updates: %w", err)
		}
		defer f.Close()
		in = f
	}
	opts := incremental.ReplayOptions{Vertex: x.vertexIDs(lg).vertex, ID: lg.ID}
	var stats *incremental.ReplayStats
	replay := func(w io.Writer) (err error) {
		stats, err = incremental.Replay(in, conn, w, opts)
		return err
	}
	if x.answers == "-" {
		err = replay(std.Out)
	} else {
		err = atomicfile.WriteFile(x.answers, replay)
	}
	if err != nil {
		return nil, fmt.Errorf("--updates %s: %w", x.updates, err)
	}
	if err := conn.Close(); err != nil {
		return nil, fmt.Errorf("--updates %s: %w", x.updates, err)
	}
	return &updatesSummary{File: x.updates, Backend: string(conn.Backend()), ReplayStats: *stats}, nil
}

// summary returns the "forest" object of the JSON summary, nil without
// --forest.
func (x *graphExtras) summary(f *ecl.Forest, verified bool) *forestSummary {
	if f == nil {
		return nil
	}
	return &forestSummary{File: x.forest, Edges: f.Len(), Verified: verified}
}

// printSummary adds the forest's and the updates' lines to the human
// summary.
func (x *graphExtras) printSummary(w io.Writer, s graphSummary) {
	if f := s.Forest; f != nil {
		note := ""
		if f.Verified {
			note = ", verified (edges of the graph, acyclic, n - components)"
		}
		fmt.Fprintf(w, "forest: %d edges to %s%s\n", f.Edges, f.File, note)
	}
	if u := s.Updates; u != nil {
		rate := 0.0
		if u.InsertSeconds > 0 {
			rate = float64(u.Inserts) / u.InsertSeconds
		}
		fmt.Fprintf(w, "updates: %d insertions in %d batches (%.3fs, %.3g edges/s), %d queries; %d components after; %.3fs in all [%s]\n",
			u.Inserts, u.Batches, u.InsertSeconds, rate, u.Queries, u.Components, u.Seconds, u.Backend)
	}
}
