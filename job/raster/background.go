package raster

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/parallel"
)

// BackgroundError reports a background value (Settings.Background) that no
// sample of a raster's type can hold, or that a rule other than multilabel
// was asked to take.
type BackgroundError struct {
	Value float64
	Kind  imagegraph.SampleKind // 0 for a rule that is not multilabel
}

func (e *BackgroundError) Error() string {
	if math.IsNaN(e.Value) {
		return "--background NaN: NaN samples are background always"
	}
	if e.Kind == 0 {
		return fmt.Sprintf("--background %g: only multilabel mode takes a background value (not --binary or --threshold)", e.Value)
	}
	return fmt.Sprintf("--background %g: not a %v sample value", e.Value, e.Kind)
}

// withBackground returns the raster that labels r under s as if the sample
// value v, s.Background, were background instead of 0. Multilabel rules
// compare samples only for equality and with zero, so exchanging v and 0
// (and -0 for floats) in a copy of the samples gives the partition that v
// as background gives; r is left as it is, so statistics read its values.
// With v 0 it returns r.
func withBackground(r *imagegraph.Raster, s Settings, threads int) (*imagegraph.Raster, error) {
	v := s.Background
	if v == 0 {
		return r, nil
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	bits, zero, negZero, ok := backgroundBits(r.Kind, v)
	if !ok {
		return nil, &BackgroundError{Value: v, Kind: r.Kind}
	}
	data, err := imagegraph.NewSamples(r.Kind, r.Len())
	if err != nil {
		return nil, err
	}
	src, dst := r.Data.Bytes(), data.Bytes()
	switch r.Kind.Size() {
	case 1:
		swapZero(words[uint8](src), words[uint8](dst), uint8(bits), uint8(zero), uint8(negZero), threads)
	case 2:
		swapZero(words[uint16](src), words[uint16](dst), uint16(bits), uint16(zero), uint16(negZero), threads)
	case 4:
		swapZero(words[uint32](src), words[uint32](dst), uint32(bits), uint32(zero), uint32(negZero), threads)
	default:
		swapZero(words[uint64](src), words[uint64](dst), bits, zero, negZero, threads)
	}
	return &imagegraph.Raster{Width: r.Width, Height: r.Height, Depth: r.Depth, Kind: r.Kind, Data: data}, nil
}

// backgroundBits returns the bit pattern of the sample value v of kind and
// those of its zeros (+0 and -0 for floats, 0 twice for integers); ok is
// false when no sample of kind holds v exactly.
func backgroundBits(kind imagegraph.SampleKind, v float64) (bits, zero, negZero uint64, ok bool) {
	size := kind.Size()
	switch {
	case math.IsNaN(v):
		return 0, 0, 0, false
	case kind == imagegraph.Float32:
		f := float32(v)
		return uint64(math.Float32bits(f)), 0, 1 << 31, float64(f) == v
	case kind == imagegraph.Float64:
		return math.Float64bits(v), 0, 1 << 63, true
	case v != math.Trunc(v) || math.IsInf(v, 0):
		return 0, 0, 0, false
	case kind.IsSigned():
		limit := math.Ldexp(1, 8*size-1)
		if v < -limit || v >= limit {
			return 0, 0, 0, false
		}
		return uint64(int64(v)) & (math.MaxUint64 >> (64 - 8*size)), 0, 0, true
	}
	if v < 0 || v >= math.Ldexp(1, 8*size) {
		return 0, 0, 0, false
	}
	return uint64(v), 0, 0, true
}

// word is an unsigned integer of a sample's size.
type word interface {
	uint8 | uint16 | uint32 | uint64
}

// words returns the samples in b, the memory of a raster's samples
// ([imagegraph.Data.Bytes]: aligned for their type, whole), as unsigned
// integers of their size.
func words[T word](b []byte) []T {
	var z T
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b))/unsafe.Sizeof(z))
}

// swapZero copies src to dst with the value v and the zeros exchanged: v
// becomes zero, zero and negZero become v.
func swapZero[T word](src, dst []T, v, zero, negZero T, threads int) {
	parallel.Ranges(len(src), threads, func(lo, hi int) {
		for i, s := range src[lo:hi] {
			switch s {
			case v:
				s = zero
			case zero, negZero:
				s = v
			}
			dst[lo+i] = s
		}
	})
}
