package ecl

import (
	"fmt"
	"sync"
	"testing"
)

// TestVertexRanges checks that the ranges cover every vertex once, in
// order, and that a graph whose arcs sit in one vertex is still split by
// arcs rather than by vertex count.
func TestVertexRanges(t *testing.T) {
	star := &Graph{Offsets: []int64{0}}
	const n = 1000
	// Vertex 0 holds most arcs; the others one each.
	for v := range n {
		deg := int64(1)
		if v == 0 {
			deg = 5 * n
		}
		star.Offsets = append(star.Offsets, star.Offsets[v]+deg)
	}
	star.Neighbors = make([]int32, star.Offsets[n])
	for _, g := range []*Graph{{}, {Offsets: []int64{0}}, {Offsets: []int64{0, 0, 0}}, star} {
		for _, threads := range []int{1, 2, 3, 8, 5000} {
			t.Run(fmt.Sprintf("%d vertices, %d threads", g.NumVertices(), threads), func(t *testing.T) {
				var mu sync.Mutex
				seen := make([]int, g.NumVertices())
				var ranges [][2]int
				g.VertexRanges(threads, func(_, lo, hi int) {
					mu.Lock()
					defer mu.Unlock()
					ranges = append(ranges, [2]int{lo, hi})
					for v := lo; v < hi; v++ {
						seen[v]++
					}
				})
				for v, c := range seen {
					if c != 1 {
						t.Fatalf("vertex %d visited %d times", v, c)
					}
				}
				if g == star && threads == 2 {
					// Half the arcs are in vertex 0 alone: the first range
					// must stop right after it.
					for _, r := range ranges {
						if r[0] == 0 && r[1] > 2 {
							t.Errorf("first range %v: want vertex 0 nearly alone", r)
						}
					}
				}
			})
		}
	}
}
