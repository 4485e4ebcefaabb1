package imageio

import (
	"encoding/binary"
	"fmt"
)

// PNG filter types.
const (
	ftNone    = 0
	ftSub     = 1
	ftUp      = 2
	ftAverage = 3
	ftPaeth   = 4
)

// unfilter reconstructs one row: out gets the filtered bytes in undone
// against prev, the reconstructed row above (zeros for the first row);
// bpp is the filter's bytes per pixel. out, in and prev have one length
// and out may not overlap in or prev.
func unfilter(filter byte, out, in, prev []byte, bpp int) error {
	if len(in) != len(out) || len(prev) != len(out) {
		return fmt.Errorf("png: row lengths %d, %d, %d differ", len(out), len(in), len(prev))
	}
	switch filter {
	case ftNone:
		copy(out, in)
	case ftSub:
		unfilterSub(out, in, bpp)
	case ftUp:
		unfilterUp(out, in, prev)
	case ftAverage:
		unfilterAverage(out, in, prev, bpp)
	case ftPaeth:
		if bpp == 1 {
			unfilterPaeth1(out, in, prev)
		} else {
			unfilterPaeth(out, in, prev, bpp)
		}
	default:
		return errPNGNotFast // image/png: "bad filter type"
	}
	return nil
}

// unfilterSub undoes the Sub filter: each byte adds the byte bpp before.
func unfilterSub(out, in []byte, bpp int) {
	n := min(bpp, len(in))
	copy(out[:n], in[:n])
	for i := n; i < len(in); i++ {
		out[i] = in[i] + out[i-bpp]
	}
}

// unfilterUp undoes the Up filter: each byte adds the byte above, eight
// bytes at a time with the carries kept inside each byte.
func unfilterUp(out, in, prev []byte) {
	const lo7, hi1 = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	i := 0
	for ; i+8 <= len(in); i += 8 {
		a := binary.LittleEndian.Uint64(in[i:])
		b := binary.LittleEndian.Uint64(prev[i:])
		binary.LittleEndian.PutUint64(out[i:], ((a&lo7)+(b&lo7))^((a^b)&hi1))
	}
	for ; i < len(in); i++ {
		out[i] = in[i] + prev[i]
	}
}

// unfilterAverage undoes the Average filter: each byte adds the mean,
// rounded down, of the byte bpp before and the byte above.
func unfilterAverage(out, in, prev []byte, bpp int) {
	n := min(bpp, len(in))
	for i := range n {
		out[i] = in[i] + prev[i]/2
	}
	for i := n; i < len(in); i++ {
		out[i] = in[i] + uint8((int(out[i-bpp])+int(prev[i]))/2)
	}
}

// unfilterPaeth undoes the Paeth filter for any bpp.
func unfilterPaeth(out, in, prev []byte, bpp int) {
	n := min(bpp, len(in))
	for i := range n {
		out[i] = in[i] + prev[i] // the predictor of the first pixel is the byte above
	}
	for i := n; i < len(in); i++ {
		out[i] = in[i] + paeth(out[i-bpp], prev[i], prev[i-bpp])
	}
}

// unfilterPaeth1 is unfilterPaeth for one byte a pixel. Where the row
// above is flat and the residuals are zero, as in the large uniform areas
// of masks and label images, the predictor is the left byte, so eight
// bytes at a time are checked and copied; elsewhere the reconstructed left
// byte stays in a register and the predictor is skipped when the bytes
// above are equal (it is then the left byte).
func unfilterPaeth1(out, in, prev []byte) {
	n := len(out)
	if n == 0 {
		return
	}
	in, prev = in[:n], prev[:n]
	const ones = 0x0101010101010101
	a, c := int(in[0]+prev[0]), int(prev[0])
	out[0] = uint8(a)
	for j := 1; j < n; {
		if j+8 <= n && binary.LittleEndian.Uint64(prev[j:]) == uint64(c)*ones && binary.LittleEndian.Uint64(in[j:]) == 0 {
			binary.LittleEndian.PutUint64(out[j:], uint64(a)*ones)
			j += 8
			continue
		}
		for end := min(j+8, n); j < end; j++ {
			b := int(prev[j])
			if b != c {
				a = paethInt(a, b, c)
			}
			a = (a + int(in[j])) & 0xff
			out[j] = uint8(a)
			c = b
		}
	}
}

// paeth returns the Paeth predictor of left a, above b and upper left c:
// the one of a, b, c nearest to a+b-c, preferring a, then b.
func paeth(a, b, c uint8) uint8 {
	return uint8(paethInt(int(a), int(b), int(c)))
}

// paethInt is paeth on ints.
func paethInt(a, b, c int) int {
	pa := b - c // |p-a| with p = a+b-c
	pb := a - c // |p-b|
	pc := abs(pa + pb)
	pa, pb = abs(pa), abs(pb)
	if pa <= pb && pa <= pc {
		return a
	}
	if pb <= pc {
		return b
	}
	return c
}

// abs returns |x|.
func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
