package gridcc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// checkMask compares maskInt under rule with Rule.Foreground on samples.
func checkMask[T integer](t *testing.T, rule imagegraph.Rule, samples []T) {
	t.Helper()
	c := newIntRows(samples, len(samples), rule).cut
	dst := make([]uint64, (len(samples)+63)/64)
	maskInt(samples, dst, rule.Mode == imagegraph.Binary, c)
	for x, v := range samples {
		want := rule.Foreground(float64(v))
		if got := dst[x/64]>>(x%64)&1 == 1; got != want {
			t.Fatalf("%T %v (slope %g inter %g): sample %v foreground %v, want %v (cut %+v)", v, rule, rule.Slope, rule.Inter, v, got, want, c)
		}
	}
}

func TestMaskIntMatchesForeground(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	all8 := make([]int8, 256)
	allu8 := make([]uint8, 256)
	for i := range 256 {
		all8[i], allu8[i] = int8(i), uint8(i)
	}
	all16 := make([]int16, 1<<16)
	allu16 := make([]uint16, 1<<16)
	for i := range 1 << 16 {
		all16[i], allu16[i] = int16(i), uint16(i)
	}
	some32, someu32 := make([]int32, 4099), make([]uint32, 4099)
	some64, someu64 := make([]int64, 4099), make([]uint64, 4099)
	for i := range some32 {
		some32[i], someu32[i] = int32(rng.Uint32()), rng.Uint32()>>rng.IntN(32)
		some64[i], someu64[i] = int64(rng.Uint64())>>rng.IntN(64), rng.Uint64()>>rng.IntN(64)
	}
	// Samples next to the cuts matter most: add values around thresholds.
	for i, v := range []int64{0, 1, -1, 2, 127, 128, -128, 255, 1 << 31, -1 << 31, math.MaxInt64, math.MinInt64} {
		some32[i], someu32[i], some64[i], someu64[i] = int32(v), uint32(v), v, uint64(v)
	}
	rules := []imagegraph.Rule{{Mode: imagegraph.Binary}}
	for _, th := range []float64{-1e30, -200, -1.5, 0, 0.5, 1, 2, 127.5, 128, 300, 70000, 3e9, 1e30} {
		for _, inv := range []bool{false, true} {
			rules = append(rules, imagegraph.Rule{Mode: imagegraph.Threshold, Threshold: th, Invert: inv})
			for _, sc := range [][2]float64{{2, -3}, {-1, 5}, {0.1, -0.30000000000000004}, {1e-300, 0}, {-7.5, 1e6}} {
				rules = append(rules, imagegraph.Rule{Mode: imagegraph.Threshold, Threshold: th, Invert: inv, Slope: sc[0], Inter: sc[1]})
			}
		}
	}
	for _, rule := range rules {
		checkMask(t, rule, all8)
		checkMask(t, rule, allu8)
		checkMask(t, rule, all16)
		checkMask(t, rule, allu16)
		checkMask(t, rule, some32)
		checkMask(t, rule, someu32)
		checkMask(t, rule, some64)
		checkMask(t, rule, someu64)
	}
}
