package driver

import (
	"math"
	"math/big"
	"testing"
)

// TestUnkey: Unkey inverts the kernels' order-keeping map of doubles.
func TestUnkey(t *testing.T) {
	for _, v := range []float64{0, math.Copysign(0, -1), 1.5, -1.5, math.MaxFloat64, -math.SmallestNonzeroFloat64, math.Inf(-1)} {
		b := math.Float64bits(v)
		k := b | 1<<63
		if b>>63 != 0 {
			k = ^b
		}
		if got := Unkey(k); math.Float64bits(got) != b {
			t.Errorf("Unkey(key(%v)) = %v", v, got)
		}
	}
}

// TestLimbs: Limbs adds limb words of weight 2^(32k) and a signed last word.
func TestLimbs(t *testing.T) {
	for _, c := range []struct {
		ws   []uint64
		want string
	}{
		{[]uint64{5, 0}, "5"},
		{[]uint64{1 << 33, 1}, "12884901888"}, // a limb word past 32 bits carries
		{[]uint64{0, ^uint64(0)}, "-4294967296"},
		{[]uint64{3, 2, 1}, "18446744082299486211"},
	} {
		want, _ := new(big.Int).SetString(c.want, 10)
		if got := Limbs(c.ws); got.Cmp(want) != 0 {
			t.Errorf("Limbs(%v) = %v, want %v", c.ws, got, want)
		}
	}
}
