package imagegraph

import (
	"fmt"
	"math"
	"math/bits"
	"unsafe"
)

// Sample is the set of Go types a raster can hold.
type Sample interface {
	uint8 | uint16 | uint32 | uint64 | int8 | int16 | int32 | int64 | float32 | float64
}

// Data holds the samples of a raster: a [Samples] of one [Sample] type.
// Code that needs the Go type asserts it, as in
// r.Data.(Samples[uint16]); the methods serve code that does not.
type Data interface {
	// Kind returns the kind of the sample type (Uint32 for packed colour).
	Kind() SampleKind
	// Len returns the number of samples.
	Len() int
	// At returns sample i exactly. It is meant for statistics and tests,
	// not for hot loops.
	At(i int) SampleValue
	// Slice returns samples [lo, hi), sharing their memory, with no
	// capacity past hi.
	Slice(lo, hi int) Data
	// Bytes returns the memory of the samples, in the machine's byte
	// order: Len() times Kind().Size() bytes.
	Bytes() []byte
	// slice returns the samples as a plain Go slice, []T; only Samples
	// implement Data.
	slice() any
}

// Samples is a slice of samples of type T: the [Data] of a raster of T.
type Samples[T Sample] []T

// Kind returns the kind of T.
func (s Samples[T]) Kind() SampleKind { return kindOf[T]() }

// Len returns the number of samples.
func (s Samples[T]) Len() int { return len(s) }

// At returns sample i exactly.
func (s Samples[T]) At(i int) SampleValue { return valueOf(s[i]) }

// Slice returns samples [lo, hi), sharing their memory.
func (s Samples[T]) Slice(lo, hi int) Data { return s[lo:hi:hi] }

// Bytes returns the memory of the samples, in the machine's byte order.
func (s Samples[T]) Bytes() []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

func (s Samples[T]) slice() any { return []T(s) }

// NewSamples allocates n zero samples of kind (Samples[uint32] for RGB).
func NewSamples(kind SampleKind, n int) (Data, error) {
	if !kind.valid() {
		return nil, fmt.Errorf("imagegraph: unsupported sample kind %v", kind)
	}
	size := kind.Size()
	if n < 0 || n > math.MaxInt/size-1 {
		return nil, fmt.Errorf("imagegraph: %d samples of %v out of range", n, kind)
	}
	words := make([]uint64, (n*size+7)/8) // aligned for every sample type
	return ViewBytes(kind, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), n*size))
}

// ViewBytes returns the samples of kind held in b, sharing its memory.
// They are len(b)/kind.Size() samples in the machine's byte order, as in
// a memory-mapped file; b must start at a multiple of the sample size and
// hold whole samples.
func ViewBytes(kind SampleKind, b []byte) (Data, error) {
	if !kind.valid() {
		return nil, fmt.Errorf("imagegraph: unsupported sample kind %v", kind)
	}
	if len(b)%kind.Size() != 0 {
		return nil, fmt.Errorf("imagegraph: %d bytes are not whole %v samples", len(b), kind)
	}
	if uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(kind.Size()) != 0 {
		return nil, fmt.Errorf("imagegraph: %v samples at an address that is not a multiple of %d", kind, kind.Size())
	}
	switch kind {
	case Uint8:
		return Samples[uint8](b[:len(b):len(b)]), nil
	case Uint16:
		return view[uint16](b), nil
	case Uint32, RGB:
		return view[uint32](b), nil
	case Uint64:
		return view[uint64](b), nil
	case Int8:
		return view[int8](b), nil
	case Int16:
		return view[int16](b), nil
	case Int32:
		return view[int32](b), nil
	case Int64:
		return view[int64](b), nil
	case Float32:
		return view[float32](b), nil
	}
	return view[float64](b), nil
}

// view returns the samples of type T in b.
func view[T Sample](b []byte) Samples[T] {
	var z T
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b))/unsafe.Sizeof(z))
}

// The kinds of the sample types by the base-2 logarithm of their size.
var (
	unsignedKinds = [4]SampleKind{Uint8, Uint16, Uint32, Uint64}
	signedKinds   = [4]SampleKind{Int8, Int16, Int32, Int64}
	floatKinds    = [4]SampleKind{2: Float32, 3: Float64}
)

// kindOf returns the kind of the sample type T, told by whether it holds
// fractions, its sign and its size.
func kindOf[T Sample]() SampleKind {
	var one T = 1
	size := bits.TrailingZeros(uint(unsafe.Sizeof(one)))
	switch {
	case one/2 != 0:
		return floatKinds[size]
	case one-2 < 0:
		return signedKinds[size]
	}
	return unsignedKinds[size]
}

// valueOf returns v as a SampleValue of T's kind.
func valueOf[T Sample](v T) SampleValue {
	var one T = 1
	kind := kindOf[T]()
	switch {
	case one/2 != 0:
		return SampleValue{kind, math.Float64bits(float64(v))}
	case one-2 < 0:
		return SampleValue{kind, uint64(int64(v))}
	}
	return SampleValue{kind, uint64(v)}
}
