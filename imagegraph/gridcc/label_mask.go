package gridcc

import (
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph"
)

// intCut is a threshold rule on integer samples reduced to one comparison
// with a sample value: the scaled value of an integer sample is a
// monotone function of it, so the foreground is every sample from cut up
// (up) or every sample up to cut (down), or none, or all.
type intCut struct {
	kind cutKind
	cut  int64 // uint64 samples compare as uint64(cut)
}

type cutKind uint8

const (
	cutNone cutKind = iota
	cutAll
	cutUp   // v >= cut
	cutDown // v <= cut
)

// newIntCut finds the cut of a threshold rule for samples of type T by
// binary search with the rule's own (exact) test. The search runs over
// uint64 keys that keep the order of T.
func newIntCut[T integer](rule imagegraph.Rule) intCut {
	signed := minOf[T]() != 0
	key := func(v T) uint64 {
		if signed {
			return uint64(int64(v)) ^ 1<<63
		}
		return uint64(v)
	}
	value := func(k uint64) T {
		if signed {
			return T(int64(k ^ 1<<63))
		}
		return T(k)
	}
	fg := func(k uint64) bool { return rule.Foreground(float64(value(k))) }
	lo, hi := key(minOf[T]()), key(maxOf[T]())
	switch a, b := fg(lo), fg(hi); {
	case a && b:
		return intCut{kind: cutAll}
	case !a && !b:
		// A monotone test that is false at both ends is false everywhere.
		return intCut{kind: cutNone}
	case b:
		// Up-set: the first foreground value in (lo, hi].
		for lo+1 < hi {
			if mid := lo + (hi-lo)/2; fg(mid) {
				hi = mid
			} else {
				lo = mid
			}
		}
		return intCut{kind: cutUp, cut: int64(value(hi))}
	default:
		// Down-set: the last foreground value in [lo, hi). It is below
		// the largest value, so cut+1 does not wrap around.
		for lo+1 < hi {
			if mid := lo + (hi-lo)/2; fg(mid) {
				lo = mid
			} else {
				hi = mid
			}
		}
		return intCut{kind: cutDown, cut: int64(value(lo))}
	}
}

func minOf[T integer]() T {
	var z T
	if z-1 > 0 { // unsigned
		return 0
	}
	// The most negative value: the top bit alone.
	return T(1) << (8*sizeOf[T]() - 1)
}

func maxOf[T integer]() T { return ^minOf[T]() }

func sizeOf[T integer]() int {
	var z T
	return int(unsafe.Sizeof(z))
}

// maskInt sets the bits of the foreground samples of an integer row under
// a binary rule (cut nil) or a threshold reduced to c, 64 samples at a
// time.
func maskInt[T integer](src []T, dst []uint64, binary bool, c intCut) {
	words := len(src) / 64
	switch {
	case binary:
		for i := range words {
			dst[i] = nonzeroWord(src[i*64 : i*64+64])
		}
	case c.kind == cutUp:
		for i := range words {
			dst[i] = atLeastWord(src[i*64:i*64+64], T(c.cut))
		}
	case c.kind == cutDown:
		for i := range words {
			dst[i] = ^atLeastWord(src[i*64:i*64+64], T(c.cut)+1)
		}
	case c.kind == cutAll:
		for i := range words {
			dst[i] = ^uint64(0)
		}
	default:
		clear(dst[:words])
	}
	if tail := src[words*64:]; len(tail) > 0 {
		var w uint64
		for x, v := range tail {
			var fg bool
			switch {
			case binary:
				fg = v != 0
			case c.kind == cutUp:
				fg = v >= T(c.cut)
			case c.kind == cutDown:
				fg = v <= T(c.cut)
			default:
				fg = c.kind == cutAll
			}
			w |= b2u(fg) << (x & 63)
		}
		dst[words] = w
	}
}

// nonzeroWord returns the bits of the nonzero samples of c (64).
//
//go:noinline
func nonzeroWord[T integer](c []T) uint64 {
	c = c[:64]
	var w uint64
	for k := 0; k < 64; k += 8 {
		s := c[k : k+8 : k+8]
		w |= (b2u(s[0] != 0) | b2u(s[1] != 0)<<1 | b2u(s[2] != 0)<<2 | b2u(s[3] != 0)<<3 |
			b2u(s[4] != 0)<<4 | b2u(s[5] != 0)<<5 | b2u(s[6] != 0)<<6 | b2u(s[7] != 0)<<7) << k
	}
	return w
}

// atLeastWord returns the bits of the samples of c (64) that are at least
// cut.
//
//go:noinline
func atLeastWord[T integer](c []T, cut T) uint64 {
	c = c[:64]
	var w uint64
	for k := 0; k < 64; k += 8 {
		s := c[k : k+8 : k+8]
		w |= (b2u(s[0] >= cut) | b2u(s[1] >= cut)<<1 | b2u(s[2] >= cut)<<2 | b2u(s[3] >= cut)<<3 |
			b2u(s[4] >= cut)<<4 | b2u(s[5] >= cut)<<5 | b2u(s[6] >= cut)<<6 | b2u(s[7] >= cut)<<7) << k
	}
	return w
}
