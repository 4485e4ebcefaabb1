package grid

import "encoding/binary"

// MaskRows produces a binary grid's rows as bit masks. Bit x%64 of word
// x/64 is set when pixel x is foreground. It must be safe for concurrent
// use on different rows.
type MaskRows interface {
	Mask(row int, dst []uint64)
}

// maskWords returns the number of 64-bit words of a row of width pixels.
func maskWords(width int) int { return (width + 63) / 64 }

// PackNonzeroBytes writes the bit mask of the nonzero bytes of src. It
// sets bit x of dst (x%64 of word x/64) for every nonzero src[x], the mask
// of a uint8 row under the binary rule; dst must be zeroed and have
// (len(src)+63)/64 words. It works on 64 bytes at a time.
func PackNonzeroBytes(src []uint8, dst []uint64) {
	whole := len(src) / 64
	for i := range whole {
		chunk := src[i*64 : i*64+64]
		var word uint64
		for k := 0; k < 64; k += 8 {
			word |= nonzeroBytes(binary.LittleEndian.Uint64(chunk[k:k+8])) << k
		}
		dst[i] = word
	}
	for x := whole * 64; x < len(src); x++ {
		if src[x] != 0 {
			dst[x>>6] |= 1 << (x & 63)
		}
	}
}

// nonzeroBytes returns the bits of the nonzero bytes of v (bit k for byte
// k): adding 0x7f to the low seven bits of a byte carries into its top bit
// unless they are all zero, then the top bits are gathered by a multiply.
func nonzeroBytes(v uint64) uint64 {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	v = (v&low7 + low7 | v) & high
	return (v >> 7) * 0x0102040810204080 >> 56
}
