package ecl

// MaskRows produces a binary image one row at a time as a bit mask: bit x%64
// of word x/64 is set when pixel x is foreground. It must be safe for
// concurrent use on different rows.
type MaskRows interface {
	Mask(row int, dst []uint64)
}

// maskWords returns the number of 64-bit words of a row of width pixels.
func maskWords(width int) int { return (width + 63) / 64 }
