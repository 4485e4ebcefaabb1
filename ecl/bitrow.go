package ecl

import "math/bits"

// MaskRows produces a binary image one row at a time as a bit mask: bit x%64
// of word x/64 is set when pixel x is foreground. It must be safe for
// concurrent use on different rows.
type MaskRows interface {
	Mask(row int, dst []uint64)
}

// maskWords returns the number of 64-bit words of a row of width pixels.
func maskWords(width int) int { return (width + 63) / 64 }

// maskBit reports bit x of m as 0 or 1.
func maskBit(m []uint64, x int) uint64 { return m[x>>6] >> (x & 63) & 1 }

// nextSet returns the first set bit of m at or after x, or limit when there
// is none before limit.
func nextSet(m []uint64, x, limit int) int {
	for x < limit {
		w := m[x>>6] >> (x & 63)
		if w != 0 {
			return min(x+bits.TrailingZeros64(w), limit)
		}
		x = (x | 63) + 1
	}
	return limit
}

// nextClear returns the first clear bit of m at or after x, or limit when
// there is none before limit.
func nextClear(m []uint64, x, limit int) int {
	for x < limit {
		w := ^m[x>>6] >> (x & 63)
		if w != 0 {
			return min(x+bits.TrailingZeros64(w), limit)
		}
		x = (x | 63) + 1
	}
	return limit
}

// dilateAnd sets dst to (t dilated by one pixel left and right) AND p.
func dilateAnd(dst, t, p []uint64) {
	n := len(t)
	var carry uint64 // top bit of the previous word
	for i := range n {
		w := t[i]
		var next uint64
		if i+1 < n {
			next = t[i+1] & 1
		}
		dst[i] = (w | w<<1 | carry | w>>1 | next<<63) & p[i]
		carry = w >> 63
	}
}
