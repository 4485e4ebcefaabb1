package graphio

import (
	"strings"
	"testing"

	"github.com/cclabel/cclabel/internal/testkit"
)

// smallGR is a PACE graph: path 1-2-3, isolated 4, edge 5-6, a repeat.
const smallGR = `c PACE 2016
p tw 6 4
1 2
c mid-file comment
2 3

3 2
5 6
`

func TestReadDIMACS(t *testing.T) {
	lg, err := ReadDIMACS(strings.NewReader(smallGR), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkLoaded(t, lg, 6, 6, 3)
	if lg.Base != 1 || lg.ID(5) != 6 || lg.IDs != nil {
		t.Errorf("Base %d, ID(5) %d, IDs %v", lg.Base, lg.ID(5), lg.IDs)
	}
}

func TestReadDIMACSShortestPaths(t *testing.T) {
	text := "c 9th DIMACS\np sp 4 3\na 1 2 10\na 2 1 10\na 3 3 1\n"
	lg, err := ReadDIMACS(strings.NewReader(text), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkLoaded(t, lg, 4, 2, 3)
	text = "p edge 3 2\ne 1 2\ne 2 3\n"
	if lg, err = ReadDIMACS(strings.NewReader(text), ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	checkLoaded(t, lg, 3, 4, 1)
}

func TestReadDIMACSErrors(t *testing.T) {
	cases := []struct {
		name, text string
		parts      []string
	}{
		{"empty", "", []string{"empty input", "p KIND n m"}},
		{"no p line", "c only\n", []string{"line 1:", "no \"p KIND n m\" line"}},
		{"edge before p", "1 2\np tw 2 1\n", []string{"line 1:", "before the p line"}},
		{"second p", "p tw 2 0\np tw 2 0\n", []string{"line 2:", "second p line"}},
		{"short p", "p tw 2\n", []string{"line 1:", "is not \"p KIND n m\""}},
		{"bad p", "p tw x 1\n", []string{"line 1:", "non-negative integers"}},
		{"too many edges", "p tw 3 1\n1 2\n2 3\n", []string{"line 3:", "more edges than the 1"}},
		{"too few edges", "p tw 3 3\n1 2\n2 3\n", []string{"line 3:", "found 2 edges", "promised 3"}},
		{"out of range", "p tw 3 1\n1 4\n", []string{"line 2:", "(1, 4) out of range [1, 3]"}},
		{"zero vertex", "p sp 3 1\na 0 1 5\n", []string{"line 2:", "(0, 1) out of range"}},
		{"garbage", "p tw 3 1\nx y\n", []string{"line 2:", "not integers"}},
		{"one field", "p tw 3 1\n1\n", []string{"line 2:", "is not \"u v\""}},
		{"short arc", "p sp 3 1\na 1\n", []string{"line 2:", "is not \"a u v\""}},
		{"too large", "p tw 4000000000 0\n", []string{"line 1:", "limit"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadDIMACS(strings.NewReader(c.text), ReadOptions{})
			testkit.WantError(t, err, c.parts...)
		})
	}
}
