package gridcc

import (
	"math"
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
)

// source serves a raster's rows under a rule to the labelers: as bit
// masks (binary and threshold rules), as 32-bit keys, and as runs of equal
// multilabel keys. Row r is y + z*Height. Its implementations are
// generic over the sample type, so that each type's loops are compiled
// for it.
type source interface {
	grid.MaskRows
	grid.KeyRows[uint32]
	// runs returns the rows as runs of equal multilabel keys: 32-bit
	// keys, or for 64-bit samples 64-bit keys (the other is nil).
	runs() (grid.RunRows[uint32], grid.RunRows[uint64])
	// swappedRuns returns, for a volume of height rows a plane and depth
	// planes, readers of its rows with x and y swapped in every plane, as
	// runs of keys as runs does, when labeling those costs less; else
	// nil, nil.
	swappedRuns(height, depth int) (func() grid.RunRows[uint32], func() grid.RunRows[uint64])
	// single reports whether every foreground sample (nonzero, not NaN)
	// holds the same value, scanning with up to threads goroutines.
	single(threads int) bool
	// scan returns a scan of the samples as they arrive.
	scan() *singleScan
	// key returns sample i's multilabel key ([Grid.Key]).
	key(i int) uint64
}

// newSource returns the rows of r under rule. It is the one place that
// dispatches on the sample type; nil Data gives nil.
func newSource(r *imagegraph.Raster, rule imagegraph.Rule) source {
	w := r.Width
	switch d := r.Data.(type) {
	case imagegraph.Samples[uint8]:
		return newIntRows(d, w, rule)
	case imagegraph.Samples[uint16]:
		return newIntRows(d, w, rule)
	case imagegraph.Samples[uint32]:
		return newIntRows(d, w, rule)
	case imagegraph.Samples[uint64]:
		return newIntRows(d, w, rule)
	case imagegraph.Samples[int8]:
		return newIntRows(d, w, rule)
	case imagegraph.Samples[int16]:
		return newIntRows(d, w, rule)
	case imagegraph.Samples[int32]:
		return newIntRows(d, w, rule)
	case imagegraph.Samples[int64]:
		return newIntRows(d, w, rule)
	case imagegraph.Samples[float32]:
		return &floatRows[float32]{rows: rows[float32]{s: d, width: w, rule: rule}, f32: d}
	case imagegraph.Samples[float64]:
		return &floatRows[float64]{rows: rows[float64]{s: d, width: w, rule: rule}}
	}
	return nil
}

// integer is the sample types whose multilabel key is the value itself.
type integer interface {
	uint8 | uint16 | uint32 | uint64 | int8 | int16 | int32 | int64
}

// rows holds what the row sources of every sample type share.
type rows[T imagegraph.Sample] struct {
	s     []T
	width int
	rule  imagegraph.Rule
}

// row returns the samples of a row.
func (s *rows[T]) row(row int) []T {
	return s.s[row*s.width : (row+1)*s.width]
}

// scanBy returns a singleScan of the samples by scan (see singleParallel).
func (s *rows[T]) scanBy(scan func([]T) (T, bool, bool)) *singleScan {
	return scanParts(s.s, scan)
}

// intRows serves the rows of a raster of integer samples.
type intRows[T integer] struct {
	rows[T]
	cut   intCut  // a threshold reduced to the samples' type
	bytes []uint8 // the samples, when they are uint8
}

// newIntRows returns the rows of integer samples d, width a row, under
// rule.
func newIntRows[T integer](d []T, width int, rule imagegraph.Rule) *intRows[T] {
	s := &intRows[T]{rows: rows[T]{s: d, width: width, rule: rule}}
	if rule.Mode == imagegraph.Threshold {
		s.cut = newIntCut[T](rule)
	}
	s.bytes, _ = any(d).([]uint8)
	return s
}

// Keys writes the 32-bit keys of a row (grid.KeyRows[uint32]).
func (s *intRows[T]) Keys(row int, dst []uint32) { keys32(s.row(row), dst, s.rule) }

// Mask writes a row's foreground bit mask (grid.MaskRows) for the binary
// and threshold rules.
func (s *intRows[T]) Mask(row int, dst []uint64) {
	binary := s.rule.Mode == imagegraph.Binary
	if s.bytes != nil && binary {
		clear(dst)
		grid.PackNonzeroBytes(s.bytes[row*s.width:(row+1)*s.width], dst)
		return
	}
	maskInt(s.row(row), dst, binary, s.cut)
}

// AppendRuns appends the runs of equal nonzero 32-bit multilabel keys of a
// row (grid.RunRows[uint32]); the keys are those of Keys.
func (s *intRows[T]) AppendRuns(row int, dst []grid.KeyRun[uint32]) []grid.KeyRun[uint32] {
	return appendIntRuns(s.row(row), dst)
}

func (s *intRows[T]) runs() (grid.RunRows[uint32], grid.RunRows[uint64]) {
	if unsafe.Sizeof(T(0)) == 8 {
		return nil, wideIntRows[T]{s}
	}
	return s, nil
}

func (s *intRows[T]) single(threads int) bool {
	if s.bytes != nil {
		return singleParallel(s.bytes, threads, scanByte)
	}
	return singleParallel(s.s, threads, scanInt[T])
}

func (s *intRows[T]) scan() *singleScan {
	if s.bytes != nil {
		return scanParts(s.bytes, scanByte)
	}
	return s.scanBy(scanInt[T])
}

func (s *intRows[T]) key(i int) uint64 {
	if unsafe.Sizeof(T(0)) == 8 {
		return uint64(s.s[i])
	}
	return uint64(int64(s.s[i]))
}

// wideIntRows serves the 64-bit multilabel keys of int64 and uint64
// samples (grid.RunRows[uint64]).
type wideIntRows[T integer] struct{ *intRows[T] }

// AppendRuns appends the runs of equal nonzero 64-bit keys of a row.
func (s wideIntRows[T]) AppendRuns(row int, dst []grid.KeyRun[uint64]) []grid.KeyRun[uint64] {
	return appendIntRuns(s.row(row), dst)
}

// floatRows serves the rows of a raster of float samples; a multilabel
// key is the bit pattern, with both zeros and NaN as background.
type floatRows[T float32 | float64] struct {
	rows[T]
	f32 []float32 // the samples, when they are float32
}

// Keys writes the 32-bit keys of a row (grid.KeyRows[uint32]).
func (s *floatRows[T]) Keys(row int, dst []uint32) {
	if s.f32 != nil && s.rule.Mode == imagegraph.Multilabel {
		floatKeys32(s.f32[row*s.width:(row+1)*s.width], dst)
		return
	}
	keys32(s.row(row), dst, s.rule)
}

// Mask writes a row's foreground bit mask (grid.MaskRows).
func (s *floatRows[T]) Mask(row int, dst []uint64) {
	clear(dst)
	mask(s.row(row), dst, s.rule)
}

func (s *floatRows[T]) runs() (grid.RunRows[uint32], grid.RunRows[uint64]) {
	if unsafe.Sizeof(T(0)) == 8 {
		return nil, float64Runs[T]{s}
	}
	return float32Runs[T]{s}, nil
}

func (s *floatRows[T]) swappedRuns(height, depth int) (func() grid.RunRows[uint32], func() grid.RunRows[uint64]) {
	return nil, nil
}

func (s *floatRows[T]) single(threads int) bool {
	return singleParallel(s.s, threads, scanFloat[T])
}

func (s *floatRows[T]) scan() *singleScan { return s.scanBy(scanFloat[T]) }

func (s *floatRows[T]) key(i int) uint64 { return floatKey[T, uint64](s.s[i]) }

// float32Runs serves the runs of 32-bit keys of float32 samples.
type float32Runs[T float32 | float64] struct{ *floatRows[T] }

// AppendRuns appends the runs of equal nonzero keys of a row.
func (s float32Runs[T]) AppendRuns(row int, dst []grid.KeyRun[uint32]) []grid.KeyRun[uint32] {
	return appendFloatRuns(s.row(row), dst)
}

// float64Runs serves the runs of 64-bit keys of float64 samples.
type float64Runs[T float32 | float64] struct{ *floatRows[T] }

// AppendRuns appends the runs of equal nonzero keys of a row.
func (s float64Runs[T]) AppendRuns(row int, dst []grid.KeyRun[uint64]) []grid.KeyRun[uint64] {
	return appendFloatRuns(s.row(row), dst)
}

// floatKey returns the multilabel key of a float sample: its bit pattern
// (float32 bits for float32), 0 for both zeros and NaN.
func floatKey[T float32 | float64, K grid.GridKey](v T) K {
	if v == 0 || v != v {
		return 0
	}
	if unsafe.Sizeof(v) == 4 {
		return K(math.Float32bits(float32(v)))
	}
	return K(math.Float64bits(float64(v)))
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

// KeyRow32 returns a row's samples as its 32-bit multilabel keys when
// samples are 4 bytes wide (their bits are their keys: runs.LabelRuns
// links volumes from them), else nil.
func (s *intRows[T]) KeyRow32(row int) []uint32 {
	if unsafe.Sizeof(T(0)) != 4 {
		return nil
	}
	r := s.row(row)
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(r))), len(r))
}
