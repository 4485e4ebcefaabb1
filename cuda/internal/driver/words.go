package driver

import (
	"math"
	"math/big"
)

// The host's reading of words the kernels write in their tables.

// Limbs returns the sum held in the limb words ws of the kernels' table:
// word k below the last sums 32-bit limbs of weight 2^(32k), the last
// (signed) the rest, of weight 2^(32(len(ws)-1)).
func Limbs(ws []uint64) *big.Int {
	last := len(ws) - 1
	x := new(big.Int).Lsh(big.NewInt(int64(ws[last])), uint(32*last))
	var t big.Int
	for k := last - 1; k >= 0; k-- {
		x.Add(x, t.Lsh(t.SetUint64(ws[k]), uint(32*k)))
	}
	return x
}

// Unkey inverts the kernels' order-keeping map of doubles to uint64.
func Unkey(k uint64) float64 {
	if k>>63 != 0 {
		return math.Float64frombits(k ^ 1<<63)
	}
	return math.Float64frombits(^k)
}
