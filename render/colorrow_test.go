package render

import (
	"math/rand/v2"
	"testing"
)

// TestColorRow compares the run-filled row with one colour per pixel on
// runs of every length from 1 to 40, labels that share cache slots
// included.
func TestColorRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cache := newColorCache()
	for trial := range 200 {
		var labels []uint32
		for len(labels) < 300 {
			l, n := uint32(rng.IntN(5)), 1+rng.IntN(1+trial%40)
			if trial%2 == 1 { // labels that share cache slots
				l = uint32(rng.IntN(3)) * colorCacheSize * uint32(1+rng.IntN(3))
			}
			for range n {
				labels = append(labels, l)
			}
		}
		row := make([]byte, 3*len(labels))
		cache.row(row, labels)
		for x, l := range labels {
			c := LabelColor(l)
			if row[3*x] != c.R || row[3*x+1] != c.G || row[3*x+2] != c.B {
				t.Fatalf("trial %d: pixel %d (label %d) is %v, want %v", trial, x, l, row[3*x:3*x+3], c)
			}
		}
	}
}
