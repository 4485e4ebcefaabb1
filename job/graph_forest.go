package job

import (
	"fmt"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/formats/graphio"
)

// verifyForestFile reads the forest written to path back, maps its IDs to
// vertices and checks it with ecl.VerifyForest, so the check covers the
// file as a user gets it, independently of how the forest was built.
func verifyForestFile(path string, g *ecl.Graph, ids *vertexIDs) error {
	f, err := formats.ReadForestFile(path, ids.vertex)
	if err == nil {
		err = ecl.VerifyForest(g, f)
	}
	if err != nil {
		return fmt.Errorf("--forest %s: %w", path, err)
	}
	return nil
}

// vertexIDs maps the file's vertex IDs back to the graph's vertices.
type vertexIDs struct {
	lg   *graphio.LoadedGraph
	byID map[int64]int32 // when the reader compacted IDs (edge lists)
}

// newVertexIDs returns the inverse of lg.ID.
func newVertexIDs(lg *graphio.LoadedGraph) *vertexIDs {
	m := &vertexIDs{lg: lg}
	if lg.IDs != nil {
		m.byID = make(map[int64]int32, len(lg.IDs))
		for v, id := range lg.IDs {
			m.byID[id] = int32(v)
		}
	}
	return m
}

// vertex returns the vertex with file ID id, and whether there is one.
func (m *vertexIDs) vertex(id int64) (int32, bool) {
	if m.byID != nil {
		v, ok := m.byID[id]
		return v, ok
	}
	v := id - m.lg.Base
	if v < 0 || v >= int64(m.lg.Graph.NumVertices()) {
		return 0, false
	}
	return int32(v), true
}
