package band

import (
	"fmt"
	"math"
)

// maxPixels bounds the pixels of a grid: parents are stored as
// index+1 in 32 bits, with room to spare.
const maxPixels = 1 << 31

// Validate checks the shape (width x height x depth, depth 1 for 2D) and
// connectivity of a grid labeling into dst.
func Validate(width, height, depth, connectivity int, dst []uint32) error {
	if width < 1 || height < 1 || depth < 1 {
		return fmt.Errorf("ecl: grid %dx%dx%d: sides must be positive", width, height, depth)
	}
	n := int64(width) * int64(height) * int64(depth)
	if n >= maxPixels || n > math.MaxInt {
		return fmt.Errorf("ecl: grid %dx%dx%d has %d pixels, more than 2^31-1", width, height, depth, n)
	}
	if len(dst) != int(n) {
		return fmt.Errorf("ecl: grid of %d pixels but %d labels", n, len(dst))
	}
	switch {
	case depth == 1 && (connectivity == 4 || connectivity == 8):
	case depth > 1 && (connectivity == 6 || connectivity == 18 || connectivity == 26):
	default:
		return fmt.Errorf("ecl: connectivity %d is not valid for a %s grid (2D: 4 or 8; 3D: 6, 18 or 26)",
			connectivity, map[bool]string{true: "2D", false: "3D"}[depth == 1])
	}
	return nil
}
