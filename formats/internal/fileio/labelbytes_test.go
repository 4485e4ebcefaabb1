package fileio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"
)

// TestLabelBytesFill checks that any range of a label file, aligned to the
// samples or not, is the same range of the file packed sample by sample.
func TestLabelBytesFill(t *testing.T) {
	frames := [][]uint32{{1, 0x0203, 0x04050607, 9, 0xFFFFFFFF}, {10, 11, 0x1213, 14, 15}}
	for _, size := range []int{1, 2, 4} {
		for _, head := range []string{"", "HDR", "HEADER64"} {
			t.Run(fmt.Sprintf("size%d-head%d", size, len(head)), func(t *testing.T) {
				// The oracle: the header, then each label's low bytes.
				want := []byte(head)
				for _, f := range frames {
					for _, l := range f {
						var b [4]byte
						binary.LittleEndian.PutUint32(b[:], l)
						want = append(want, b[:size]...)
					}
				}
				s := LabelBytes{Head: []byte(head), Frames: frames, Size: size}
				if s.Len() != int64(len(want)) {
					t.Fatalf("Len = %d, want %d", s.Len(), len(want))
				}
				for lo := 0; lo < len(want); lo++ {
					for hi := lo; hi <= len(want); hi++ {
						got := make([]byte, hi-lo)
						s.Fill(got, int64(lo))
						if !bytes.Equal(got, want[lo:hi]) {
							t.Fatalf("Fill(%d..%d) = %x, want %x", lo, hi, got, want[lo:hi])
						}
					}
				}
			})
		}
	}
}
