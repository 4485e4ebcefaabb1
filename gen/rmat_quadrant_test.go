package gen

import (
	"math/rand/v2"
	"testing"
)

// TestRMATQuadrantBits: the branch-free quadrant bits of RMATGraph pick
// the quadrants of the R-MAT probabilities a, b, c, d, at the boundaries
// too.
func TestRMATQuadrantBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	draws := []float64{0, rmatA - 1e-12, rmatA, rmatA + rmatB - 1e-12, rmatA + rmatB, rmatA + rmatB + rmatC - 1e-12, rmatA + rmatB + rmatC, 1 - 1e-12}
	for range 1000 {
		draws = append(draws, rng.Float64())
	}
	for _, r := range draws {
		var wantU, wantV int32
		switch {
		case r < rmatA:
		case r < rmatA+rmatB:
			wantV = 1
		case r < rmatA+rmatB+rmatC:
			wantU = 1
		default:
			wantU, wantV = 1, 1
		}
		ub := bit(r >= rmatA+rmatB)
		vb := bit(r >= rmatA) ^ ub ^ bit(r >= rmatA+rmatB+rmatC)
		if ub != wantU || vb != wantV {
			t.Fatalf("r=%v: bits (%d, %d), want (%d, %d)", r, ub, vb, wantU, wantV)
		}
	}
}
