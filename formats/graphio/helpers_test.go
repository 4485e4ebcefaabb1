package graphio

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/cclabel/cclabel/ecl"
)

// components returns the number of components of g and the size of the
// largest.
func components(t *testing.T, g *ecl.Graph) (count int, largest int64) {
	t.Helper()
	r, err := ecl.Components(g, ecl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, largest = ecl.Largest(ecl.ComponentSizes(r.Labels(0), r.Count))
	return r.Count, largest
}

// checkLoaded checks a loaded graph's vertex count, arc count and number
// of components, and that it is valid and symmetric.
func checkLoaded(t *testing.T, lg *LoadedGraph, vertices, arcs, comps int) {
	t.Helper()
	g := lg.Graph
	if err := g.Validate(); err != nil {
		t.Fatalf("invalid graph: %v", err)
	}
	if !g.IsSymmetric(1) {
		t.Fatal("graph is not symmetric")
	}
	if got := g.NumVertices(); got != vertices {
		t.Errorf("vertices = %d, want %d", got, vertices)
	}
	if got := g.NumEdges(); got != arcs {
		t.Errorf("arcs = %d, want %d", got, arcs)
	}
	if got, _ := components(t, g); got != comps {
		t.Errorf("components = %d, want %d", got, comps)
	}
}

// egrBytes encodes int32 values little-endian, for hand-made .egr inputs.
func egrBytes(vals ...int32) []byte {
	var b bytes.Buffer
	for _, v := range vals {
		binary.Write(&b, binary.LittleEndian, v)
	}
	return b.Bytes()
}

// egr64Bytes encodes an .egr64 file: vals[0] nodes and vals[1] edges as
// int64s, then nodes+1 int64 offsets (as many as vals holds), then the
// rest as int32 neighbours.
func egr64Bytes(vals ...int64) []byte {
	var b bytes.Buffer
	wide := 2
	if len(vals) > 0 && vals[0] >= 0 && vals[0] < 1<<20 {
		wide += int(vals[0]) + 1
	}
	for i, v := range vals {
		if i < wide {
			binary.Write(&b, binary.LittleEndian, v)
		} else {
			binary.Write(&b, binary.LittleEndian, int32(v))
		}
	}
	return b.Bytes()
}
