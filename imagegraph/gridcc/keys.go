package gridcc

import (
	"math"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
)

// rasterRows serves a raster's rows as connectivity keys (grid.KeyRows) and
// bit masks (grid.MaskRows) under a rule. Keys are 0 for background and
// equal for samples that connect.
type rasterRows struct {
	r    *imagegraph.Raster
	rule imagegraph.Rule
	cut  intCut // a threshold on integer samples, from rowCut
}

// wide reports whether multilabel keys need 64 bits.
func (s rasterRows) wide() bool {
	return s.rule.Mode == imagegraph.Multilabel && (s.r.Kind == imagegraph.Int64 || s.r.Kind == imagegraph.Uint64 || s.r.Kind == imagegraph.Float64)
}

// span returns the sample range of a row.
func (s rasterRows) span(row int) (lo, hi int) {
	return row * s.r.Width, (row + 1) * s.r.Width
}

// Keys writes the 32-bit keys of a row (grid.KeyRows[uint32]).
func (s rasterRows) Keys(row int, dst []uint32) {
	lo, hi := s.span(row)
	switch d := s.r.Data.(type) {
	case []uint8:
		keys32(d[lo:hi], dst, s.rule)
	case []uint16:
		keys32(d[lo:hi], dst, s.rule)
	case []uint32:
		keys32(d[lo:hi], dst, s.rule)
	case []int8:
		keys32(d[lo:hi], dst, s.rule)
	case []int16:
		keys32(d[lo:hi], dst, s.rule)
	case []int32:
		keys32(d[lo:hi], dst, s.rule)
	case []float32:
		if s.rule.Mode == imagegraph.Multilabel {
			floatKeys32(d[lo:hi], dst)
		} else {
			keys32(d[lo:hi], dst, s.rule)
		}
	case []int64:
		keys32(d[lo:hi], dst, s.rule)
	case []uint64:
		keys32(d[lo:hi], dst, s.rule)
	case []float64:
		keys32(d[lo:hi], dst, s.rule)
	}
}

// keys32 computes 32-bit keys: the value itself for multilabel (types of
// at most 32 bits: the conversion keeps distinct values distinct and 0 at
// 0), 1 or 0 otherwise.
func keys32[T imagegraph.Sample](src []T, dst []uint32, rule imagegraph.Rule) {
	dst = dst[:len(src)]
	switch rule.Mode {
	case imagegraph.Multilabel:
		for i, v := range src {
			dst[i] = uint32(v)
		}
	case imagegraph.Binary:
		for i, v := range src {
			k := uint32(0)
			if v != 0 && v == v { // v == v is false for NaN
				k = 1
			}
			dst[i] = k
		}
	case imagegraph.Threshold:
		t, inv := rule.Threshold, rule.Invert
		slope, inter := rule.Scale()
		for i, v := range src {
			f := float64(float64(v)*slope) + inter // rounded product: no fused multiply-add, as on the GPU
			k := uint32(0)
			if (f >= t) != inv && f == f {
				k = 1
			}
			dst[i] = k
		}
	}
}

// floatKeys32 computes multilabel keys of float32 samples: the bit
// pattern, with -0 and NaN as background.
func floatKeys32(src []float32, dst []uint32) {
	dst = dst[:len(src)]
	for i, v := range src {
		k := math.Float32bits(v)
		if v == 0 || v != v {
			k = 0
		}
		dst[i] = k
	}
}

// wideRows serves 64-bit multilabel keys (grid.KeyRows[uint64]) for int64,
// uint64 and float64 rasters.
type wideRows struct{ rasterRows }

// Keys writes the 64-bit keys of a row.
func (s wideRows) Keys(row int, dst []uint64) {
	lo, hi := s.span(row)
	switch d := s.r.Data.(type) {
	case []int64:
		for i, v := range d[lo:hi] {
			dst[i] = uint64(v)
		}
	case []uint64:
		copy(dst, d[lo:hi])
	case []float64:
		for i, v := range d[lo:hi] {
			k := math.Float64bits(v)
			if v == 0 || v != v {
				k = 0
			}
			dst[i] = k
		}
	}
}

// Mask writes a row's foreground bit mask (grid.MaskRows) for the binary
// and threshold rules.
func (s rasterRows) Mask(row int, dst []uint64) {
	lo, hi := s.span(row)
	binary := s.rule.Mode == imagegraph.Binary
	switch d := s.r.Data.(type) {
	case []uint8:
		if binary {
			clear(dst)
			grid.PackNonzeroBytes(d[lo:hi], dst)
		} else {
			maskInt(d[lo:hi], dst, binary, s.cut)
		}
	case []uint16:
		maskInt(d[lo:hi], dst, binary, s.cut)
	case []uint32:
		maskInt(d[lo:hi], dst, binary, s.cut)
	case []uint64:
		maskInt(d[lo:hi], dst, binary, s.cut)
	case []int8:
		maskInt(d[lo:hi], dst, binary, s.cut)
	case []int16:
		maskInt(d[lo:hi], dst, binary, s.cut)
	case []int32:
		maskInt(d[lo:hi], dst, binary, s.cut)
	case []int64:
		maskInt(d[lo:hi], dst, binary, s.cut)
	case []float32:
		clear(dst)
		mask(d[lo:hi], dst, s.rule)
	case []float64:
		clear(dst)
		mask(d[lo:hi], dst, s.rule)
	}
}

// mask sets the bits of the foreground samples of src (dst is cleared).
func mask[T imagegraph.Sample](src []T, dst []uint64, rule imagegraph.Rule) {
	if rule.Mode == imagegraph.Threshold {
		t, inv := rule.Threshold, rule.Invert
		slope, inter := rule.Scale()
		for x, v := range src {
			f := float64(float64(v)*slope) + inter // rounded product: no fused multiply-add, as on the GPU
			bit := uint64(0)
			if (f >= t) != inv && f == f {
				bit = 1
			}
			dst[x>>6] |= bit << (x & 63)
		}
		return
	}
	for x, v := range src {
		bit := uint64(0)
		if v != 0 && v == v {
			bit = 1
		}
		dst[x>>6] |= bit << (x & 63)
	}
}
