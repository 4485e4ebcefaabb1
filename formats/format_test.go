package formats

import "testing"

func TestGraphFormatFromPath(t *testing.T) {
	cases := map[string]GraphFormat{
		"a.egr": FormatEGR, "dir.x/A.EGR": FormatEGR, "m.mtx": FormatMatrixMarket,
		"e.txt": FormatEdgeList, "e.CSV": FormatEdgeList, "e.tsv": FormatEdgeList,
		"e.el": FormatEdgeList, "e.edges": FormatEdgeList, "ny.gr": FormatDIMACS,
	}
	for path, want := range cases {
		got, err := GraphFormatFromPath(path)
		if err != nil || got != want {
			t.Errorf("GraphFormatFromPath(%q) = %v, %v; want %v", path, got, err, want)
		}
	}
	_, err := GraphFormatFromPath("graph.png")
	wantError(t, err, "graph.png", `".png"`, ".egr", ".mtx", ".gr")
	_, err = GraphFormatFromPath("graph")
	wantError(t, err, "no file extension", ".edges")
}

func TestGraphFormatString(t *testing.T) {
	for f, want := range map[GraphFormat]string{
		FormatEGR: "egr", FormatMatrixMarket: "matrixmarket", FormatEdgeList: "edgelist",
		FormatDIMACS: "dimacs", 0: "GraphFormat(0)",
	} {
		if got := f.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(f), got, want)
		}
	}
}
