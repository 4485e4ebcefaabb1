package job

import (
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/ecl/incremental"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/formats/graphio"
	"github.com/cclabel/cclabel/internal/atomicfile"
)

// graphExtras write a graph job's spanning forest and replay its updates.
type graphExtras struct {
	Graph
	lg  *graphio.LoadedGraph
	ids *vertexIDs // built on first use
}

// UpdatesSummary is the "updates" object of a [GraphSummary].
type UpdatesSummary struct {
	File string `json:"file"`
	// Backend is where the insertions and queries ran (at the end: under
	// auto a replay may move to the GPU on a large batch).
	Backend string `json:"backend"`
	incremental.ReplayStats
}

// ForestSummary is the "forest" object of a [GraphSummary].
type ForestSummary struct {
	File     string `json:"file"`
	Edges    int    `json:"edges"`
	Verified bool   `json:"verified"`
}

// label labels g, recording a spanning forest when the job writes one.
func (x *graphExtras) label(l *cclabel.Labeler, g *ecl.Graph) (*cclabel.GraphResult, *ecl.Forest, error) {
	if x.Forest == "" {
		gr, err := l.LabelGraph(g)
		return gr, nil, err
	}
	return l.SpanningForest(g)
}

// vertexIDs returns the map from file IDs to vertices.
func (x *graphExtras) vertexIDs() *vertexIDs {
	if x.ids == nil {
		x.ids = newVertexIDs(x.lg)
	}
	return x.ids
}

// writeForest writes the forest, and with Verify reads it back and checks it.
func (x *graphExtras) writeForest(f *ecl.Forest) error {
	if x.Forest == "" {
		return nil
	}
	if err := formats.WriteForestFile(x.Forest, f, x.lg.ID); err != nil {
		return fmt.Errorf("--forest %s: %w", x.Forest, err)
	}
	if x.Verify { // the file as written, before its group renames it into place
		return verifyForestFile(atomicfile.Written(x.Forest), x.lg.Graph, x.vertexIDs())
	}
	return nil
}

// replay replays the updates on the labeler's backend (cclabel.Connectivity:
// the CPU union-find, or the GPU's under BackendGPU, or under BackendAuto
// when the GPU labeled the graph and the batches are large), started from
// the labeling's representatives, writing the answers to Answers.
func (x *graphExtras) replay(l *cclabel.Labeler, res *ecl.Result) (*UpdatesSummary, error) {
	if x.Updates == "" {
		return nil, nil
	}
	conn, err := l.ConnectivityFrom(slices.Clone(res.Parent))
	if err != nil {
		return nil, fmt.Errorf("--updates: %w", err)
	}
	defer conn.Close()
	in := x.Stdin
	if x.Updates != "-" {
		f, err := os.Open(x.Updates)
		if err != nil {
			return nil, fmt.Errorf("--updates: %w", err)
		}
		defer f.Close()
		in = f
	}
	opts := incremental.ReplayOptions{Vertex: x.vertexIDs().vertex, ID: x.lg.ID}
	var stats *incremental.ReplayStats
	replay := func(w io.Writer) (err error) {
		stats, err = incremental.Replay(in, conn, w, opts)
		return err
	}
	if x.Answers == "-" {
		err = replay(x.Stdout)
	} else {
		err = atomicfile.WriteFile(x.Answers, replay)
	}
	if err != nil {
		return nil, fmt.Errorf("--updates %s: %w", x.Updates, err)
	}
	if err := conn.Close(); err != nil {
		return nil, fmt.Errorf("--updates %s: %w", x.Updates, err)
	}
	return &UpdatesSummary{File: x.Updates, Backend: string(conn.Backend()), ReplayStats: *stats}, nil
}

// summary returns the "forest" object of the summary, nil without a forest.
func (x *graphExtras) summary(f *ecl.Forest) *ForestSummary {
	if f == nil {
		return nil
	}
	return &ForestSummary{File: x.Forest, Edges: f.Len(), Verified: x.Verify}
}

// printSummary adds the forest's and the updates' lines to the human summary.
func (x *graphExtras) printSummary(w io.Writer, s *GraphSummary) {
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
