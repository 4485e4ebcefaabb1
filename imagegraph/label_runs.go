package imagegraph

import (
	"math"
	"math/bits"

	"github.com/cclabel/cclabel/ecl/grid"
)

// AppendRuns appends the runs of equal nonzero 32-bit multilabel keys of a
// row (grid.RunRows[uint32]); the keys are those of Keys.
func (s rasterRows) AppendRuns(row int, dst []grid.KeyRun[uint32]) []grid.KeyRun[uint32] {
	lo, hi := s.span(row)
	switch d := s.r.Data.(type) {
	case []uint8:
		return appendIntRuns(d[lo:hi], dst)
	case []uint16:
		return appendIntRuns(d[lo:hi], dst)
	case []uint32:
		return appendIntRuns(d[lo:hi], dst)
	case []int8:
		return appendIntRuns(d[lo:hi], dst)
	case []int16:
		return appendIntRuns(d[lo:hi], dst)
	case []int32:
		return appendIntRuns(d[lo:hi], dst)
	case []float32:
		return appendFloat32Runs(d[lo:hi], dst)
	}
	return dst
}

// AppendRuns appends the runs of equal nonzero 64-bit multilabel keys of a
// row (grid.RunRows[uint64]) for int64, uint64 and float64 rasters.
func (s wideRows) AppendRuns(row int, dst []grid.KeyRun[uint64]) []grid.KeyRun[uint64] {
	lo, hi := s.span(row)
	switch d := s.r.Data.(type) {
	case []int64:
		return appendIntRuns(d[lo:hi], dst)
	case []uint64:
		return appendIntRuns(d[lo:hi], dst)
	case []float64:
		return appendFloat64Runs(d[lo:hi], dst)
	}
	return dst
}

// integer is the sample types whose multilabel key is the value itself.
type integer interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64 | ~int8 | ~int16 | ~int32 | ~int64
}

// appendIntRuns appends the runs of equal nonzero values of src; the key
// of a value is its conversion to K, which keeps distinct values distinct
// and 0 at 0 for types no wider than K. The places where the value changes
// are found 64 samples at a time as a bit mask, without branching on the
// data; only the runs cost a branch.
func appendIntRuns[T integer, K grid.GridKey](src []T, dst []grid.KeyRun[K]) []grid.KeyRun[K] {
	n := len(src)
	var prev, v T // the value before the chunk; the current run's
	start := 0
	for lo := 0; lo < n; lo += 64 {
		chunk := src[lo:min(lo+64, n)]
		changes := changeMask(chunk, prev)
		prev = chunk[len(chunk)-1]
		for ; changes != 0; changes &= changes - 1 {
			x := lo + bits.TrailingZeros64(changes)
			if v != 0 {
				dst = append(dst, grid.KeyRun[K]{Start: int32(start), End: int32(x), Key: K(v)})
			}
			start, v = x, src[x]
		}
	}
	if v != 0 {
		dst = append(dst, grid.KeyRun[K]{Start: int32(start), End: int32(n), Key: K(v)})
	}
	return dst
}

// changeMask returns the bits of the samples of chunk (at most 64) that
// differ from the one before (prev before the first). Inlined, its loop
// would share registers with its caller's and spill.
//
//go:noinline
func changeMask[T integer](chunk []T, prev T) uint64 {
	var m uint64
	k := 0
	for ; k+4 <= len(chunk); k += 4 {
		c := chunk[k : k+4 : k+4]
		m |= (b2u(c[0] != prev) | b2u(c[1] != c[0])<<1 | b2u(c[2] != c[1])<<2 | b2u(c[3] != c[2])<<3) << (k & 63)
		prev = c[3]
	}
	for ; k < len(chunk); k++ {
		m |= b2u(chunk[k] != prev) << (k & 63)
		prev = chunk[k]
	}
	return m
}

// b2u returns 1 for true and 0 for false.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// appendFloat32Runs appends the runs of equal float32 keys (the bit
// pattern; 0, -0 and NaN are background).
func appendFloat32Runs(src []float32, dst []grid.KeyRun[uint32]) []grid.KeyRun[uint32] {
	key := func(v float32) uint32 {
		if v == 0 || v != v {
			return 0
		}
		return math.Float32bits(v)
	}
	for x := 0; x < len(src); {
		k, start := key(src[x]), x
		for x++; x < len(src) && key(src[x]) == k; x++ {
		}
		if k != 0 {
			dst = append(dst, grid.KeyRun[uint32]{Start: int32(start), End: int32(x), Key: k})
		}
	}
	return dst
}

// appendFloat64Runs is appendFloat32Runs for float64.
func appendFloat64Runs(src []float64, dst []grid.KeyRun[uint64]) []grid.KeyRun[uint64] {
	key := func(v float64) uint64 {
		if v == 0 || v != v {
			return 0
		}
		return math.Float64bits(v)
	}
	for x := 0; x < len(src); {
		k, start := key(src[x]), x
		for x++; x < len(src) && key(src[x]) == k; x++ {
		}
		if k != 0 {
			dst = append(dst, grid.KeyRun[uint64]{Start: int32(start), End: int32(x), Key: k})
		}
	}
	return dst
}
