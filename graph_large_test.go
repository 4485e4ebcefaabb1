package cclabel_test

import (
	"math"
	"os"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/ecl"
)

// TestLabelGraphBeyond2to31Arcs labels a graph of more than 2^31 arcs
// (about 9 GB: two complete bipartite blocks and isolated vertices) on
// every backend that is present, only with CCLABEL_LARGE_TESTS=1. The
// representatives are known in closed form.
func TestLabelGraphBeyond2to31Arcs(t *testing.T) {
	if os.Getenv("CCLABEL_LARGE_TESTS") != "1" {
		t.Skip("set CCLABEL_LARGE_TESTS=1 (needs about 10 GB of memory)")
	}
	// Block b of vertices [b*2k, (b+1)*2k) joins its first k vertices to
	// its last k; vertex 4k is isolated.
	const k = 23171 // 4k vertices of degree k: 4k^2 = 2,147,580,964 arcs > 2^31
	n := 4*k + 1
	g := &ecl.Graph{Offsets: make([]int64, n+1), Neighbors: make([]int32, 0, 4*k*k)}
	for v := range n {
		if v < 4*k {
			base, half := v/(2*k)*2*k, v/(2*k)*2*k+k
			lo := half
			if v >= half {
				lo = base
			}
			for u := lo; u < lo+k; u++ {
				g.Neighbors = append(g.Neighbors, int32(u))
			}
		}
		g.Offsets[v+1] = int64(len(g.Neighbors))
	}
	if g.NumEdges() <= math.MaxInt32 {
		t.Fatalf("only %d arcs", g.NumEdges())
	}
	backends := []cclabel.Backend{cclabel.BackendCPU}
	if cclabel.Devices().Available {
		backends = append(backends, cclabel.BackendGPU)
	}
	for _, b := range backends {
		lab, err := cclabel.New(cclabel.Options{Backend: b})
		if err != nil {
			t.Fatal(err)
		}
		res, err := lab.LabelGraph(g)
		lab.Close()
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if res.Result.Count != 3 {
			t.Errorf("%s: %d components, want 3", b, res.Result.Count)
		}
		for v, p := range res.Result.Parent {
			want := int32(v / (2 * k) * 2 * k)
			if v == 4*k {
				want = int32(v)
			}
			if p != want {
				t.Fatalf("%s: vertex %d has representative %d, want %d", b, v, p, want)
			}
		}
		t.Logf("%s: %d arcs, %+v", b, g.NumEdges(), res.Timing)
	}
}
