package graphio

import (
	"testing"

	"github.com/cclabel/cclabel/internal/testkit"
)

func TestGraphFormatFromPath(t *testing.T) {
	cases := map[string]Format{
		"a.egr": FormatEGR, "dir.x/A.EGR": FormatEGR, "m.mtx": FormatMatrixMarket,
		"e.txt": FormatEdgeList, "e.CSV": FormatEdgeList, "e.tsv": FormatEdgeList,
		"e.el": FormatEdgeList, "e.edges": FormatEdgeList, "ny.gr": FormatDIMACS,
	}
	for path, want := range cases {
		got, err := FormatFromPath(path)
		if err != nil || got != want {
			t.Errorf("FormatFromPath(%q) = %v, %v; want %v", path, got, err, want)
		}
	}
	_, err := FormatFromPath("graph.png")
	testkit.WantError(t, err, "graph.png", `".png"`, ".egr", ".mtx", ".gr")
	_, err = FormatFromPath("graph")
	testkit.WantError(t, err, "no file extension", ".edges")
}

func TestGraphFormatString(t *testing.T) {
	for f, want := range map[Format]string{
		FormatEGR: "egr", FormatMatrixMarket: "matrixmarket", FormatEdgeList: "edgelist",
		FormatDIMACS: "dimacs", 0: "GraphFormat(0)",
	} {
		if got := f.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(f), got, want)
		}
	}
}
