package gridcc

import (
	"math/bits"
	"slices"
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/internal/band"
)

// appendIntRuns appends the runs of equal nonzero values of src; the key
// of a value is its conversion to K, which keeps distinct values distinct
// and 0 at 0 for types no wider than K. It goes run by run, comparing
// eight samples at a time, until short runs (a few runs shorter than
// shortLen samples) hand the rest of the row to appendShortRuns; 4-byte
// samples go there at once where band.ChangeMasks32 has its kernel.
func appendIntRuns[T integer, K grid.GridKey](src []T, dst []grid.KeyRun[K]) []grid.KeyRun[K] {
	if len(src) > 0 && unsafe.Sizeof(src[0]) == 4 && band.ChangeMasks32(nil, nil) {
		// Change masks cost less than run ends whatever the runs.
		return appendShortRuns(src, 0, dst)
	}
	short := 0
	for x := 0; x < len(src); {
		if short >= shortRuns {
			return appendShortRuns(src, x, dst)
		}
		v, start := src[x], x
		x = runEnd(src, x+1, v)
		if v != 0 {
			dst = append(dst, grid.KeyRun[K]{Start: int32(start), End: int32(x), Key: K(v)})
		}
		short += int(b2u(x-start < shortLen))
	}
	return dst
}

// shortRuns is the number of runs (background ones included) shorter than
// shortLen samples after which appendIntRuns splits the rest of a row 64
// samples at a time: where runs are that short, a mispredicted branch at
// every run's end costs more than comparing every sample.
const shortRuns, shortLen = 4, 32

// runEnd returns the first index from x on whose sample differs from v,
// or len(src): eight samples at a time, with one branch for the eight,
// comparing whole words (eight bytes) of samples with v repeated where
// samples are narrower than words (on little-endian machines, where a
// word's lowest bits hold its first sample; elsewhere sample by sample).
func runEnd[T integer](src []T, x int, v T) int {
	size := unsafe.Sizeof(v)
	if !littleEndian {
		size = 0
	}
	switch size {
	case 1:
		vv := uint64(uint8(v)) * 0x0101010101010101
		for ; x+8 <= len(src); x += 8 {
			if d := *(*uint64)(unsafe.Pointer(&src[x])) ^ vv; d != 0 {
				return x + bits.TrailingZeros64(d)>>3
			}
		}
	case 2:
		vv := uint64(uint16(v)) * 0x0001000100010001
		for ; x+8 <= len(src); x += 8 {
			w := (*[2]uint64)(unsafe.Pointer(&src[x]))
			if (w[0]^vv)|(w[1]^vv) != 0 {
				return x + firstWordLane(w[:], vv, 4)
			}
		}
	case 4:
		vv := uint64(uint32(v)) * 0x0000000100000001
		for ; x+8 <= len(src); x += 8 {
			w := (*[4]uint64)(unsafe.Pointer(&src[x]))
			if (w[0]^vv)|(w[1]^vv)|(w[2]^vv)|(w[3]^vv) != 0 {
				return x + firstWordLane(w[:], vv, 5)
			}
		}
	default:
		for ; x+8 <= len(src); x += 8 {
			c := src[x : x+8 : x+8]
			if (c[0]^v)|(c[1]^v)|(c[2]^v)|(c[3]^v)|(c[4]^v)|(c[5]^v)|(c[6]^v)|(c[7]^v) != 0 {
				return x + firstOf8(c, v)
			}
		}
	}
	for x < len(src) && src[x] == v {
		x++
	}
	return x
}

// firstWordLane returns the index of the first sample, among the words of
// w holding samples of 1<<laneLog bits each (little endian), that differs
// from the sample repeated in vv; one must. The first such word is found
// without branching, then the lane from its lowest differing bit.
func firstWordLane(w []uint64, vv uint64, laneLog uint) int {
	var m uint64
	for k, word := range w {
		m |= b2u(word != vv) << k
	}
	k := bits.TrailingZeros64(m)
	return k<<(6-laneLog) + bits.TrailingZeros64(w[k]^vv)>>laneLog
}

// firstOf8 returns the index of the first of the eight samples of c that
// differs from v; one must.
func firstOf8[T integer](c []T, v T) int {
	c = c[:8]
	m := b2u(c[0] != v) | b2u(c[1] != v)<<1 | b2u(c[2] != v)<<2 | b2u(c[3] != v)<<3 |
		b2u(c[4] != v)<<4 | b2u(c[5] != v)<<5 | b2u(c[6] != v)<<6 | b2u(c[7] != v)<<7
	return bits.TrailingZeros64(m)
}

// appendShortRuns is appendIntRuns for the rest of a row of short runs,
// from a run starting at x0. The places where the value changes are found
// 64 samples at a time as a bit mask, without branching on the data (for
// 4-byte samples by band.ChangeMasks32 where it can, up to 1024 samples a
// call, and the rest of a row from its last 64 samples);
// each run is written past the end of dst and kept (counted) when its
// value is nonzero, without a branch either.
func appendShortRuns[T integer, K grid.GridKey](src []T, x0 int, dst []grid.KeyRun[K]) []grid.KeyRun[K] {
	n := len(src)
	// A row of n-x0 samples holds at most n-x0 runs; one more is written
	// and not kept.
	dst = slices.Grow(dst, n-x0+1)
	e := runEmitter[T, K]{src: src, buf: dst[:cap(dst)], k: len(dst), start: x0, v: src[x0]}
	lo := x0 + 1
	if unsafe.Sizeof(src[0]) == 4 && band.ChangeMasks32(nil, nil) {
		var masks [16]uint64
		for lo+64 <= n {
			m := masks[:min((n-lo)/64, len(masks))]
			band.ChangeMasks32(unsafe.Pointer(&src[lo]), m)
			for _, changes := range m {
				e.emit(changes, lo)
				lo += 64
			}
		}
		if lo < n && n > 64 {
			// The rest, from the block of the row's last 64 samples.
			m := masks[:1]
			band.ChangeMasks32(unsafe.Pointer(&src[n-64]), m)
			e.emit(m[0]>>uint(lo-(n-64)), lo)
			lo = n
		}
	}
	for prev := src[lo-1]; lo < n; lo += 64 {
		chunk := src[lo:min(lo+64, n)]
		e.emit(band.ChangeMask(chunk, prev), lo)
		prev = chunk[len(chunk)-1]
	}
	e.emit(0, n)
	return e.buf[:e.k]
}

// runEmitter writes the runs of a row into buf from k on, from the
// positions where the value changes: the run in progress starts at start
// and holds v.
type runEmitter[T integer, K grid.GridKey] struct {
	src   []T
	buf   []grid.KeyRun[K]
	k     int
	start int
	v     T
}

// emit ends a run at every set bit of changes (bit i: sample lo+i), and,
// when lo is the row's end, the last run.
func (e *runEmitter[T, K]) emit(changes uint64, lo int) {
	buf, k, start, v := e.buf, e.k, e.start, e.v
	for ; changes != 0; changes &= changes - 1 {
		x := lo + bits.TrailingZeros64(changes)
		buf[k] = grid.KeyRun[K]{Start: int32(start), End: int32(x), Key: K(v)}
		k += int(b2u(v != 0))
		start, v = x, e.src[x]
	}
	if lo == len(e.src) {
		buf[k] = grid.KeyRun[K]{Start: int32(start), End: int32(lo), Key: K(v)}
		k += int(b2u(v != 0))
	}
	e.k, e.start, e.v = k, start, v
}

// b2u returns 1 for true and 0 for false.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// appendFloatRuns appends the runs of equal float keys (floatKey: the
// bit pattern; 0, -0 and NaN are background).
func appendFloatRuns[T float32 | float64, K grid.GridKey](src []T, dst []grid.KeyRun[K]) []grid.KeyRun[K] {
	for x := 0; x < len(src); {
		k, start := floatKey[T, K](src[x]), x
		for x++; x < len(src) && floatKey[T, K](src[x]) == k; x++ {
		}
		if k != 0 {
			dst = append(dst, grid.KeyRun[K]{Start: int32(start), End: int32(x), Key: k})
		}
	}
	return dst
}
