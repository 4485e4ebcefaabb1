package band

import "unsafe"

// SentinelColumn is past every column, and so is SentinelColumn+1: the
// labelers end their lists of runs with runs there.
const SentinelColumn = 1<<31 - 2

// Fill32 sets every element of s to v, with overlapping stores of eight
// or four and no loop for the tail.
func Fill32(s []uint32, v uint32) {
	n := len(s)
	switch {
	case n >= 8:
		for i := 0; i+8 <= n; i += 8 {
			t := s[i : i+8 : i+8]
			t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7] = v, v, v, v, v, v, v, v
		}
		t := s[n-8 : n : n]
		t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7] = v, v, v, v, v, v, v, v
	case n >= 4:
		t := s[:4:4]
		t[0], t[1], t[2], t[3] = v, v, v, v
		t = s[n-4 : n : n]
		t[0], t[1], t[2], t[3] = v, v, v, v
	case n > 0:
		s[0], s[n>>1], s[n-1] = v, v, v
	}
}

// Clear32 sets every element of s to 0.
func Clear32(s []uint32) {
	if len(s) > 64 {
		clear(s)
		return
	}
	Fill32(s, 0)
}

// FillSpan writes 0 to dst[from:start] and v to dst[start:end]. It writes
// two entries a store, and may write anything into dst[end:] (never past
// dst): the caller writes spans in increasing order and ends the row with
// Clear32 from the last span's end, which overwrites the overshoot. Gaps
// of up to eight entries take one unconditional block of eight zeros, runs
// one block of eight labels per eight entries; gaps wider than eight, and
// spans within eight entries of dst's end, are written exactly.
func FillSpan(dst []uint32, from, start, end int, v uint32) {
	if end+8 > len(dst) || start-from > 8 {
		Clear32(dst[from:start])
		Fill32(dst[start:end], v)
		return
	}
	// from <= start < end and end+8 <= len(dst): every block lies in dst.
	p := unsafe.Pointer(unsafe.SliceData(dst))
	z := (*[4]uint64)(unsafe.Add(p, uintptr(from)*4))
	z[0], z[1], z[2], z[3] = 0, 0, 0, 0
	vv := uint64(v) | uint64(v)<<32
	for i := start; i < end; i += 8 {
		t := (*[4]uint64)(unsafe.Add(p, uintptr(i)*4))
		t[0], t[1], t[2], t[3] = vv, vv, vv, vv
	}
}
