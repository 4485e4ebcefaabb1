package imagegraph

import (
	"math"

	"github.com/cclabel/cclabel/ecl"
)

// AppendRuns appends the runs of equal nonzero 32-bit multilabel keys of a
// row (ecl.RunRows[uint32]); the keys are those of Keys.
func (s rasterRows) AppendRuns(row int, dst []ecl.KeyRun[uint32]) []ecl.KeyRun[uint32] {
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
// row (ecl.RunRows[uint64]) for int64, uint64 and float64 rasters.
func (s wideRows) AppendRuns(row int, dst []ecl.KeyRun[uint64]) []ecl.KeyRun[uint64] {
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
// and 0 at 0 for types no wider than K. Long runs are skipped eight
// samples at a time.
func appendIntRuns[T integer, K ecl.GridKey](src []T, dst []ecl.KeyRun[K]) []ecl.KeyRun[K] {
	n := len(src)
	for x := 0; x < n; {
		v, start := src[x], x
		x++
		for x+8 <= n {
			c := src[x : x+8 : x+8]
			if (c[0]^v)|(c[1]^v)|(c[2]^v)|(c[3]^v)|(c[4]^v)|(c[5]^v)|(c[6]^v)|(c[7]^v) != 0 {
				break
			}
			x += 8
		}
		for x < n && src[x] == v {
			x++
		}
		if v != 0 {
			dst = append(dst, ecl.KeyRun[K]{Start: int32(start), End: int32(x), Key: K(v)})
		}
	}
	return dst
}

// appendFloat32Runs appends the runs of equal float32 keys (the bit
// pattern; 0, -0 and NaN are background).
func appendFloat32Runs(src []float32, dst []ecl.KeyRun[uint32]) []ecl.KeyRun[uint32] {
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
			dst = append(dst, ecl.KeyRun[uint32]{Start: int32(start), End: int32(x), Key: k})
		}
	}
	return dst
}

// appendFloat64Runs is appendFloat32Runs for float64.
func appendFloat64Runs(src []float64, dst []ecl.KeyRun[uint64]) []ecl.KeyRun[uint64] {
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
			dst = append(dst, ecl.KeyRun[uint64]{Start: int32(start), End: int32(x), Key: k})
		}
	}
	return dst
}
