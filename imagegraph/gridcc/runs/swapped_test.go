package runs

import (
	"fmt"
	"testing"
)

// TestTranspose checks transpose on planes of several shapes against the
// definition, and that it writes nothing past the plane.
func TestTranspose(t *testing.T) {
	for _, sh := range [][2]int{{1, 1}, {1, 9}, {9, 1}, {3, 5}, {8, 8}, {17, 33}, {64, 7}} {
		w, h := sh[0], sh[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			src := make([]uint32, w*h)
			for i := range src {
				src[i] = uint32(i*7 + 1)
			}
			dst := make([]uint32, w*h+1)
			dst[w*h] = 0xdead // past the plane: left alone
			transpose(dst, src, w, h)
			for y := range h {
				for x := range w {
					if got, want := dst[y*w+x], src[x*h+y]; got != want {
						t.Fatalf("dst[%d*%d+%d] = %d, want src[%d*%d+%d] = %d", y, w, x, got, x, h, y, want)
					}
				}
			}
			if dst[w*h] != 0xdead {
				t.Fatalf("transpose wrote past the plane")
			}
		})
	}
}
