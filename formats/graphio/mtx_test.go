package graphio

import (
	"strings"
	"testing"

	"github.com/cclabel/cclabel/internal/testkit"
)

// smallMTX is a 6 by 6 symmetric real matrix: triangle 1-2-3 (with an
// explicit zero on 3-1), isolated 4, edge 5-6, and a diagonal entry.
const smallMTX = `%%MatrixMarket matrix coordinate real symmetric
% a comment
%

6 6 6
2 1 1.5
3 2 -2e3
3 1 0

4 4 7
6 5 .25
1 1 1
`

func TestReadMatrixMarket(t *testing.T) {
	lg, err := ReadMatrixMarket(strings.NewReader(smallMTX), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkLoaded(t, lg, 6, 8, 3)
	if lg.Base != 1 || lg.IDs != nil || lg.ID(0) != 1 {
		t.Errorf("Base %d, IDs %v, ID(0) %d", lg.Base, lg.IDs, lg.ID(0))
	}
	// Without the zero 3-1 the triangle is a path: same components.
	lg, err = ReadMatrixMarket(strings.NewReader(smallMTX), ReadOptions{DropZeros: true})
	if err != nil {
		t.Fatal(err)
	}
	checkLoaded(t, lg, 6, 6, 3)
}

func TestReadMatrixMarketVariants(t *testing.T) {
	cases := []struct {
		name                string
		text                string
		dropZeros           bool
		vertices, arcs, ccs int
	}{
		{"pattern general", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 1\n", false, 3, 2, 2},
		{"upper case", "%%MATRIXMARKET MATRIX COORDINATE PATTERN SYMMETRIC\n3 3 1\n3 1\n", false, 3, 2, 2},
		{"integer zero", "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 0\n2 3 -00\n", false, 3, 4, 1},
		{"integer drop zeros", "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 0\n2 3 -00\n", true, 3, 0, 3},
		{"real drop zeros", "%%MatrixMarket matrix coordinate double skew-symmetric\n3 3 2\n2 1 -0.0\n3 2 1e-3\n", true, 3, 2, 2},
		{"hermitian", "%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n2 1 5\n", false, 2, 2, 1},
		{"rectangular", "%%MatrixMarket matrix coordinate pattern general\n2 5 1\n1 5\n", false, 5, 2, 4},
		{"no entries", "%%MatrixMarket matrix coordinate pattern general\n4 4 0\n", false, 4, 0, 4},
		{"crlf and tabs", "%%MatrixMarket matrix coordinate real general\r\n2\t2\t1\r\n  1\t2\t3.0\r\n", false, 2, 2, 1},
		{"no final newline", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2", false, 2, 2, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lg, err := ReadMatrixMarket(strings.NewReader(c.text), ReadOptions{DropZeros: c.dropZeros})
			if err != nil {
				t.Fatal(err)
			}
			checkLoaded(t, lg, c.vertices, c.arcs, c.ccs)
		})
	}
}

func TestReadMatrixMarketRectangularWarning(t *testing.T) {
	lg, err := ReadMatrixMarket(strings.NewReader("%%MatrixMarket matrix coordinate pattern general\n2 5 1\n1 5\n"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(lg.Warnings) != 1 || !strings.Contains(lg.Warnings[0], "2 by 5") {
		t.Errorf("warnings = %q", lg.Warnings)
	}
}

func TestReadMatrixMarketErrors(t *testing.T) {
	const h = "%%MatrixMarket matrix coordinate real general\n"
	cases := []struct{ name, text string }{
		{"empty", ""},
		{"no header", "3 3 1\n1 2 1\n"},
		{"short header", "%%MatrixMarket matrix coordinate real\n"},
		{"array", "%%MatrixMarket matrix array real general\n"},
		{"complex", "%%MatrixMarket matrix coordinate complex general\n"},
		{"bad field", "%%MatrixMarket matrix coordinate text general\n"},
		{"bad symmetry", "%%MatrixMarket matrix coordinate real upper\n"},
		{"vector", "%%MatrixMarket vector coordinate real general\n"},
		{"no size", h + "% only comments\n"},
		{"bad size", h + "3 3\n"},
		{"negative size", h + "3 -3 1\n"},
		{"too few entries", h + "3 3 2\n1 2 1\n"},
		{"too many entries", h + "3 3 1\n1 2 1\n2 3 1\n"},
		{"row out of range", h + "3 3 1\n4 1 1\n"},
		{"column zero", h + "3 3 1\n1 0 1\n"},
		{"missing value", h + "3 3 1\n1 2\n"},
		{"bad value", h + "3 3 1\n1 2 x\n"},
		{"bad integer value", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 1.5\n"},
		{"bad index", h + "3 3 1\n1 b 1\n"},
		{"too large", h + "3000000000 1 0\n"},
	}
	want := map[string][]string{
		"empty":             {"empty input"},
		"no header":         {"line 1:", "missing %%MatrixMarket header"},
		"short header":      {"line 1:", "FIELD SYMMETRY"},
		"array":             {"line 1:", "array", "not supported"},
		"complex":           {"line 1:", "complex", "not supported"},
		"bad field":         {"line 1:", `field "text"`},
		"bad symmetry":      {"line 1:", `symmetry "upper"`},
		"vector":            {"line 1:", `object "vector"`},
		"no size":           {"line 2:", "missing size line"},
		"bad size":          {"line 2:", "size line"},
		"negative size":     {"line 2:", "non-negative"},
		"too few entries":   {"line 3:", "found 1 entries", "promised 2"},
		"too many entries":  {"line 4:", "more entries than the 1"},
		"row out of range":  {"line 3:", "(4, 1) out of range", "3 by 3"},
		"column zero":       {"line 3:", "(1, 0) out of range"},
		"missing value":     {"line 3:", "has 2 fields, want 3"},
		"bad value":         {"line 3:", `"x" is not a real number`},
		"bad integer value": {"line 3:", `"1.5" is not an integer`},
		"bad index":         {"line 3:", "not integers"},
		"too large":         {"line 2:", "3000000000", "limit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadMatrixMarket(strings.NewReader(c.text), ReadOptions{})
			testkit.WantError(t, err, want[c.name]...)
		})
	}
}

// TestReadMatrixMarketHugeNNZ checks that a size line promising billions
// of entries does not make the reader allocate for them.
func TestReadMatrixMarketHugeNNZ(t *testing.T) {
	text := "%%MatrixMarket matrix coordinate pattern general\n10 10 2000000000\n1 2\n"
	alloc := allocated(func() {
		_, err := ReadMatrixMarket(strings.NewReader(text), ReadOptions{})
		testkit.WantError(t, err, "found 1 entries", "promised 2000000000")
	})
	if alloc > 32<<20 {
		t.Errorf("allocated %d bytes", alloc)
	}
}
