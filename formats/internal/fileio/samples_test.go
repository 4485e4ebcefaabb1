package fileio

import (
	"encoding/binary"
	"slices"
	"testing"
)

// TestToHost checks that samples put in the machine's order read back as
// encoding/binary reads them in the file's order, and SwapBytes against
// reversing each sample's bytes.
func TestToHost(t *testing.T) {
	src := make([]byte, 64)
	for i := range src {
		src[i] = byte(i*37 + 11)
	}
	for _, big := range []bool{false, true} {
		var order binary.ByteOrder = binary.LittleEndian
		if big {
			order = binary.BigEndian
		}
		b16, b32, b64 := slices.Clone(src), slices.Clone(src), slices.Clone(src)
		ToHost(b16, 2, big)
		ToHost(b32, 4, big)
		ToHost(b64, 8, big)
		for i := range 8 {
			if binary.NativeEndian.Uint16(b16[2*i:]) != order.Uint16(src[2*i:]) ||
				binary.NativeEndian.Uint32(b32[4*i:]) != order.Uint32(src[4*i:]) ||
				binary.NativeEndian.Uint64(b64[8*i:]) != order.Uint64(src[8*i:]) {
				t.Fatalf("big-endian %v: sample %d differs from encoding/binary", big, i)
			}
		}
		b8 := slices.Clone(src)
		if ToHost(b8, 1, big); !slices.Equal(b8, src) {
			t.Fatalf("big-endian %v: bytes changed", big)
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
