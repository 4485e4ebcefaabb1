package graphio

import (
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/internal/testkit"
)

// smallEdgeList has IDs that are sparse, negative and huge: components
// {-5, 10, 7} and {9223372036854775807, 3}, with a self-loop, a repeat and
// an isolated vertex 42 (a self-loop only).
const smallEdgeList = `# comment
% another comment
-5 10
10,7 1.5 extra
  7	-5

9223372036854775807 3
3 9223372036854775807
42 42
`

func TestReadEdgeList(t *testing.T) {
	lg, err := ReadEdgeList(strings.NewReader(smallEdgeList), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkLoaded(t, lg, 6, 8, 3)
	want := []int64{-5, 3, 7, 10, 42, 9223372036854775807}
	if !slices.Equal(lg.IDs, want) {
		t.Errorf("IDs = %v, want %v", lg.IDs, want)
	}
	if lg.ID(5) != 9223372036854775807 || len(lg.Warnings) != 0 {
		t.Errorf("ID(5) = %d, warnings %q", lg.ID(5), lg.Warnings)
	}
}

func TestReadEdgeListDense(t *testing.T) {
	// Dense IDs take the lookup-table path; the result must match.
	lg, err := ReadEdgeList(strings.NewReader("5 3\n3 4\n7 8\n"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkLoaded(t, lg, 5, 6, 2)
	if want := []int64{3, 4, 5, 7, 8}; !slices.Equal(lg.IDs, want) {
		t.Errorf("IDs = %v, want %v", lg.IDs, want)
	}
	if !slices.Equal(lg.Graph.Neighbors, []int32{1, 2, 0, 0, 4, 3}) {
		t.Errorf("neighbours = %v", lg.Graph.Neighbors)
	}
}

func TestReadEdgeListCSVHeader(t *testing.T) {
	text := "# c\nsrc,dst,weight\n1,2,0.5\n2,3,1\n"
	cfg := newConfig(ReadOptions{}, -1)
	cfg.csvHeader = true
	lg, err := readEdgeList(strings.NewReader(text), cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkLoaded(t, lg, 3, 4, 1)
	if len(lg.Warnings) != 1 || !strings.Contains(lg.Warnings[0], `line 2: skipped CSV header "src,dst,weight"`) {
		t.Errorf("warnings = %q", lg.Warnings)
	}
	// Without header detection the header is an error.
	_, err = ReadEdgeList(strings.NewReader(text), ReadOptions{})
	testkit.WantError(t, err, "line 2:", `"src"`, "not an integer")
	// A header must be the first line, and both fields non-numeric.
	for _, bad := range []string{"1,2\nsrc,dst\n", "src,2\n1,2\n", "1.5,dst\n"} {
		_, err = readEdgeList(strings.NewReader(bad), cfg)
		testkit.WantError(t, err, "not an integer")
	}
}

func TestReadEdgeListErrors(t *testing.T) {
	cases := []struct {
		name, text string
		parts      []string
	}{
		{"empty", "", []string{"empty input", "no edges"}},
		{"only comments", "# a\n\n% b\n", []string{"line 3:", "no edges"}},
		{"one field", "1 2\n3\n", []string{"line 2:", "need two vertex IDs", `"3"`}},
		{"garbage", "1 2\nfoo bar\n", []string{"line 2:", `vertex ID "foo" is not an integer`}},
		{"second field", "1 2\n3 x\n", []string{"line 2:", `"x"`}},
		{"float", "1 2.0\n", []string{"line 1:", `"2.0"`}},
		{"overflow", "1 9223372036854775808\n", []string{"line 1:", "9223372036854775808"}},
		{"long token", "1 " + strings.Repeat("y", 100) + "\n", []string{"line 1:", `"yyyy`, "..."}},
		{"control chars", "1\x00 2\n", []string{"line 1:", `"1\x00"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadEdgeList(strings.NewReader(c.text), ReadOptions{})
			testkit.WantError(t, err, c.parts...)
		})
	}
}

func TestReadEdgeListLongLine(t *testing.T) {
	// A line longer than the reader's buffer.
	text := "1 2 " + strings.Repeat("x", 200000) + "\n3 4\n"
	lg, err := ReadEdgeList(strings.NewReader(text), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkLoaded(t, lg, 4, 4, 2)
}
