package testkit

import "github.com/cclabel/cclabel/imagegraph/gridcc/grid"

// SliceKeys serves keys from a whole array, x fastest: as keys
// (grid.KeyRows) and as runs of equal keys (grid.RunRows).
type SliceKeys struct {
	Width  int
	Values []uint32
}

// Keys copies the keys of a row.
func (s SliceKeys) Keys(row int, dst []uint32) {
	copy(dst, s.Values[row*s.Width:(row+1)*s.Width])
}

// AppendRuns serves the runs of equal nonzero keys of a row.
func (s SliceKeys) AppendRuns(row int, dst []grid.KeyRun[uint32]) []grid.KeyRun[uint32] {
	keys := s.Values[row*s.Width : (row+1)*s.Width]
	for x := 0; x < len(keys); {
		k, start := keys[x], x
		for x < len(keys) && keys[x] == k {
			x++
		}
		if k != 0 {
			dst = append(dst, grid.KeyRun[uint32]{Start: int32(start), End: int32(x), Key: k})
		}
	}
	return dst
}
