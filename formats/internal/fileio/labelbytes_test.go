package fileio

import (
	"bytes"
	"encoding/binary"
	"errors"
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

// TestLabelBytesCheck checks that with Check a range holding a label too
// large for the samples fails with its index among all labels, and one
// without such a label does not.
func TestLabelBytesCheck(t *testing.T) {
	for _, size := range []int{1, 2} {
		frames := [][]uint32{make([]uint32, 50), make([]uint32, 50)}
		big := int64(73)
		frames[1][big-50] = 1 << (8 * size)
		s := LabelBytes{Head: []byte("HEAD"), Frames: frames, Size: size, Check: true}
		at := int64(4) + big*int64(size) // the big label's first byte
		for _, r := range [][2]int64{{0, s.Len()}, {at, at + 1}, {at - 3, at + 5}, {at + int64(size) - 1, at + int64(size)}, {0, at}, {at + int64(size), s.Len()}} {
			err := s.Fill(make([]byte, r[1]-r[0]), r[0])
			holds := r[0] < at+int64(size) && r[1] > at
			var re *LabelRangeError
			switch {
			case holds && (!errors.As(err, &re) || re.Index != big || re.Label != 1<<(8*size)):
				t.Errorf("size %d, bytes %d..%d: err %v, want label %d at index %d", size, r[0], r[1], err, 1<<(8*size), big)
			case !holds && err != nil:
				t.Errorf("size %d, bytes %d..%d: err %v, want none", size, r[0], r[1], err)
			}
		}
	}
}

// TestLabelFuncFill checks that a label file served by a function is the
// one packed from the same labels in memory, for whole-sample ranges, and
// that a failing read's error comes back.
func TestLabelFuncFill(t *testing.T) {
	labels := make([]uint32, 1000)
	for i := range labels {
		labels[i] = uint32(i * 2654435761)
	}
	for _, size := range []int{1, 2, 4} {
		mem := LabelBytes{Head: []byte("HEADER16HEADER16"), Frames: [][]uint32{labels}, Size: size}
		want := make([]byte, mem.Len())
		mem.Fill(want, 0)
		f := &LabelFunc{Head: mem.Head, N: int64(len(labels)), Size: size, Read: func(dst []uint32, i int64) error {
			copy(dst, labels[i:])
			return nil
		}}
		if f.Len() != mem.Len() {
			t.Fatalf("Len %d, want %d", f.Len(), mem.Len())
		}
		for _, r := range [][2]int64{{0, f.Len()}, {0, 5}, {16, 16 + int64(size)*10}, {16 + int64(size)*300, f.Len()}} {
			got := make([]byte, r[1]-r[0])
			if err := f.Fill(got, r[0]); err != nil || !bytes.Equal(got, want[r[0]:r[1]]) {
				t.Errorf("size %d, bytes %d..%d: err %v or bytes differ", size, r[0], r[1], err)
			}
		}
		if size > 1 {
			if err := f.Fill(make([]byte, size), 17); err == nil {
				t.Errorf("size %d: no error for a range off the samples", size)
			}
		}
	}
	boom := errors.New("boom")
	f := &LabelFunc{N: 10, Size: 2, Read: func([]uint32, int64) error { return boom }}
	if err := f.Fill(make([]byte, 20), 0); !errors.Is(err, boom) {
		t.Errorf("err %v, want the read's", err)
	}
}
