package npy

import (
	"encoding/binary"
	"fmt"
	"io"
)

// WriteInt64 writes data as a C-order .npy array of little-endian int64. The
// dtype is '<i8' and the shape is given, such as the (m, 2) edge arrays of a
// spanning forest.
func WriteInt64(w io.Writer, data []int64, shape []int) error {
	count := 1
	for _, d := range shape {
		if d < 0 {
			return fmt.Errorf("npy: negative dimension in shape %v", shape)
		}
		count *= d
	}
	if count != len(data) {
		return fmt.Errorf("npy: shape %v holds %d values, have %d", shape, count, len(data))
	}
	if _, err := w.Write(npyHeader("<i8", shape, false)); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	buf := make([]byte, 0, 1<<16)
	for _, x := range data {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(x))
		if len(buf) == cap(buf) {
			if _, err := w.Write(buf); err != nil {
				return fmt.Errorf("npy: %w", err)
			}
			buf = buf[:0]
		}
	}
	if _, err := w.Write(buf); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	return nil
}
