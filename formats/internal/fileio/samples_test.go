package fileio

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
)

func TestSubSamplesShares(t *testing.T) {
	for _, data := range []any{make([]uint8, 6), make([]int8, 6), make([]uint16, 6), make([]int16, 6),
		make([]uint32, 6), make([]int32, 6), make([]uint64, 6), make([]int64, 6), make([]float32, 6), make([]float64, 6)} {
		sub := SubSamples(data, 2, 5)
		if got := reflectLen(sub); got != [2]int{3, 3} {
			t.Errorf("%T: len, cap %v, want 3, 3", data, got)
		}
	}
	s := []uint16{0, 1, 2, 3}
	SubSamples(s, 1, 3).([]uint16)[0] = 9
	if s[1] != 9 {
		t.Error("SubSamples copied the samples")
	}
	if got := SubSamples("x", 0, 1); got != "x" {
		t.Errorf("a string: %v", got)
	}
}

// reflectLen returns the length and capacity of a sample slice.
func reflectLen(s any) [2]int {
	switch s := s.(type) {
	case []uint8:
		return [2]int{len(s), cap(s)}
	case []int8:
		return [2]int{len(s), cap(s)}
	case []uint16:
		return [2]int{len(s), cap(s)}
	case []int16:
		return [2]int{len(s), cap(s)}
	case []uint32:
		return [2]int{len(s), cap(s)}
	case []int32:
		return [2]int{len(s), cap(s)}
	case []uint64:
		return [2]int{len(s), cap(s)}
	case []int64:
		return [2]int{len(s), cap(s)}
	case []float32:
		return [2]int{len(s), cap(s)}
	case []float64:
		return [2]int{len(s), cap(s)}
	}
	return [2]int{-1, -1}
}

// TestDecodeLittleEndian checks the converters against encoding/binary,
// and SwapBytes against reading big-endian.
func TestDecodeLittleEndian(t *testing.T) {
	src := make([]byte, 64)
	for i := range src {
		src[i] = byte(i*37 + 11)
	}
	i8 := make([]int8, 64)
	DecodeInt8(i8, src)
	u16, i32, u64 := make([]uint16, 32), make([]int32, 16), make([]uint64, 8)
	f32, f64 := make([]float32, 16), make([]float64, 8)
	DecodeLE16(u16, src)
	DecodeLE32(i32, src)
	DecodeLE64(u64, src)
	DecodeLEFloat32(f32, src)
	DecodeLEFloat64(f64, src)
	for i := range 8 {
		if i8[i] != int8(src[i]) || u16[i] != binary.LittleEndian.Uint16(src[2*i:]) ||
			i32[i] != int32(binary.LittleEndian.Uint32(src[4*i:])) || u64[i] != binary.LittleEndian.Uint64(src[8*i:]) ||
			math.Float32bits(f32[i]) != binary.LittleEndian.Uint32(src[4*i:]) || math.Float64bits(f64[i]) != binary.LittleEndian.Uint64(src[8*i:]) {
			t.Fatalf("sample %d differs from encoding/binary", i)
		}
	}
	for _, size := range []int{2, 4, 8} {
		b := slices.Clone(src)
		SwapBytes(b, size)
		for i := 0; i < len(b); i += size {
			want := slices.Clone(src[i : i+size])
			slices.Reverse(want)
			if !slices.Equal(b[i:i+size], want) {
				t.Fatalf("size %d: sample at %d: % x from % x", size, i, b[i:i+size], src[i:i+size])
			}
		}
	}
}
