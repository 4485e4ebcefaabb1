package fileio

import (
	"bytes"
	"testing"
)

func TestPut(t *testing.T) {
	labels := []uint32{1, 0x0203, 0x04050607}
	for _, tc := range []struct {
		size int
		want []byte
	}{
		{1, []byte{1, 3, 7}},
		{2, []byte{1, 0, 3, 2, 7, 6}},
		{4, []byte{1, 0, 0, 0, 3, 2, 0, 0, 7, 6, 5, 4}},
	} {
		dst := make([]byte, len(tc.want)+2)
		if n := PutLabels(dst, labels, tc.size); n != len(tc.want) || !bytes.Equal(dst[:n], tc.want) || dst[n] != 0 {
			t.Errorf("size %d: wrote %d bytes % x, want % x", tc.size, n, dst[:n], tc.want)
		}
	}
}
