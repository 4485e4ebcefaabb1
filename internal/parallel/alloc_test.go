package parallel

import (
	"slices"
	"testing"
	"unsafe"
)

func TestForIsZeroedAndSized(t *testing.T) {
	for _, n := range []int{0, 1, 1000, HugeMinBytes/4 - 1, HugeMinBytes / 4, HugeMinBytes/4 + 12345} {
		for _, threads := range []int{0, 1, 3, TouchThreads, 8} {
			s, done := AllocFor[uint32](n, threads)
			defer done()
			if len(s) != n || cap(s) < n {
				t.Fatalf("AllocFor(%d, %d): len %d cap %d", n, threads, len(s), cap(s))
			}
			for i, v := range s {
				if v != 0 {
					t.Fatalf("AllocFor(%d, %d)[%d] = %d, want 0", n, threads, i, v)
				}
			}
			// The memory is ordinary and writable end to end.
			if n > 1 {
				s[0], s[n-1] = 7, 9
				if s[0] != 7 || s[n-1] != 9 {
					t.Fatalf("AllocFor(%d, %d): writes lost", n, threads)
				}
			}
		}
	}
}

func TestTouchKeepsValues(t *testing.T) {
	b := make([]byte, 3*4096+17)
	for i := range b {
		if i%4096 != 0 {
			b[i] = byte(i)
		}
	}
	Touch(b, 2)
	for i, v := range b {
		want := byte(i)
		if i%4096 == 0 {
			want = 0
		}
		if v != want {
			t.Fatalf("b[%d] = %d after Touch, want %d", i, v, want)
		}
	}
}

func TestHugeRangeIsAlignedInterior(t *testing.T) {
	b := make([]byte, 3*hugePage+12345)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	for _, off := range []int{0, 1, 4096, hugePage - 1} {
		for _, n := range []int{0, hugePage - 1, hugePage, 2*hugePage + 5} {
			if off+n > len(b) {
				continue
			}
			sub := b[off : off+n]
			r := hugeRange(sub)
			if len(r) == 0 {
				continue
			}
			lo := uintptr(unsafe.Pointer(unsafe.SliceData(r)))
			if lo%hugePage != 0 || len(r)%hugePage != 0 {
				t.Fatalf("off %d n %d: range at %#x len %d is not huge-page aligned", off, n, lo, len(r))
			}
			if lo < start+uintptr(off) || lo+uintptr(len(r)) > start+uintptr(off+n) {
				t.Fatalf("off %d n %d: range leaves the slice", off, n)
			}
			if uintptr(off+n)-uintptr(off) >= 2*hugePage && len(r) == 0 {
				t.Fatalf("off %d n %d: no huge page found in two pages' worth", off, n)
			}
		}
	}
}

func TestPopulateKeepsContents(t *testing.T) {
	b := make([]byte, HugeMinBytes+5*4096+3)
	for i := range b {
		b[i] = byte(i * 7)
	}
	stop := Populate(b)
	// Writes while the goroutine runs are not lost.
	for i := 0; i < len(b); i += 4096 {
		b[i] = byte(i * 7)
	}
	stop()
	stop() // a second stop does nothing
	for i, v := range b {
		if v != byte(i*7) {
			t.Fatalf("b[%d] = %d after Populate, want %d", i, v, byte(i*7))
		}
	}
	Populate(nil)() // too small: nothing runs
}

func TestMakePopulatedIsZeroed(t *testing.T) {
	s, stop := AllocPopulated[uint32](HugeMinBytes/4 + 1000)
	defer stop()
	for i, v := range s {
		if v != 0 {
			t.Fatalf("s[%d] = %d, want 0", i, v)
		}
	}
	s[len(s)-1] = 1
}

func TestMakeIsZeroed(t *testing.T) {
	for _, n := range []int{0, 5, HugeMinBytes + 1} {
		s := Alloc[byte](n)
		if len(s) != n || slices.ContainsFunc(s, func(v byte) bool { return v != 0 }) {
			t.Fatalf("Alloc(%d): len %d or not zeroed", n, len(s))
		}
	}
}
