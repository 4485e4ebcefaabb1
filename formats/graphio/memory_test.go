package graphio

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/internal/testkit"
)

// TestDeclaredVerticesMemory checks that a text header declaring many
// vertices with one edge costs the graph's offsets (8 bytes a vertex) and
// little else, warns, and keeps every vertex (isolated ones label
// themselves), and that an .egr header promising more than its input
// holds is refused before its arrays are allocated.
func TestDeclaredVerticesMemory(t *testing.T) {
	const n = 2_000_000
	cases := []struct {
		name    string
		f       Format
		text    string
		warning string
	}{
		{"mtx", FormatMatrixMarket, fmt.Sprintf("%%%%MatrixMarket matrix coordinate pattern symmetric\n%d %d 1\n1 2\n", n, n),
			"size line declares 2000000 vertices, but only 2 of them appear in its 1 entry: the other 1999998 are isolated"},
		{"gr", FormatDIMACS, fmt.Sprintf("p sp %d 1\na 1 2 7\n", n),
			"p line declares 2000000 vertices, but only 2 of them appear in its 1 edge: the other 1999998 are isolated"},
	}
	for _, c := range cases {
		for _, threads := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/%d", c.name, threads), func(t *testing.T) {
				var lg *LoadedGraph
				var err error
				alloc := allocated(func() {
					lg, err = Read(strings.NewReader(c.text), int64(len(c.text)), c.f, ReadOptions{Threads: threads})
				})
				if err != nil {
					t.Fatal(err)
				}
				checkLoaded(t, lg, n, 2, n-1)
				if len(lg.Warnings) != 1 || lg.Warnings[0] != c.warning {
					t.Errorf("warnings %q, want %q", lg.Warnings, c.warning)
				}
				if perVertex := float64(alloc) / n; perVertex > 10 {
					t.Errorf("allocated %d bytes, %.1f a declared vertex; want at most 10", alloc, perVertex)
				}
			})
		}
	}
	for _, size := range []int64{16, -1} {
		t.Run(fmt.Sprintf("egr/size%d", size), func(t *testing.T) {
			data := egrBytes(200_000_000, 1, 0, 1)
			alloc := allocated(func() {
				_, err := ReadEGR(bytes.NewReader(data), size, ReadOptions{})
				testkit.WantError(t, err, "truncated: header says 200000000 nodes and 1 edges", "file has 16")
			})
			if alloc > 2<<20 {
				t.Errorf("allocated %d bytes for a 16-byte input", alloc)
			}
		})
	}
}

// TestIsolatedWarning checks when a text header's vertex count draws the
// warning (beyond twice its entries plus isolatedSlack), and the count of
// vertices its edges touch, self-loops and repeats included.
func TestIsolatedWarning(t *testing.T) {
	const limit = 2*3 + isolatedSlack // the most vertices 3 entries may declare quietly
	mtx := func(n int) string {
		return fmt.Sprintf("%%%%MatrixMarket matrix coordinate pattern general\n%d %d 3\n4 4\n3 5\n5 3\n", n, n)
	}
	gr := func(n int) string { return fmt.Sprintf("c three edges\np tw %d 3\n4 4\n3 5\ne 5 3\n", n) }
	cases := []struct {
		name, text string
		f          Format
		want       string
	}{
		{"mtx at the limit", mtx(limit), FormatMatrixMarket, ""},
		{"mtx over the limit", mtx(limit + 1), FormatMatrixMarket,
			"size line declares 65543 vertices, but only 3 of them appear in its 3 entries: the other 65540 are isolated"},
		{"gr at the limit", gr(limit), FormatDIMACS, ""},
		{"gr over the limit", gr(limit + 1), FormatDIMACS,
			"p line declares 65543 vertices, but only 3 of them appear in its 3 edges: the other 65540 are isolated"},
		{"gr empty", "p tw 70000 0\n", FormatDIMACS,
			"p line declares 70000 vertices, but only 0 of them appear in its 0 edges: the other 70000 are isolated"},
		{"gr small", "p tw 9 0\n", FormatDIMACS, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lg, err := Read(strings.NewReader(c.text), -1, c.f, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			if c.want != "" {
				want = []string{c.want}
			}
			if !slices.Equal(lg.Warnings, want) {
				t.Errorf("warnings %q, want %q", lg.Warnings, want)
			}
		})
	}
}
