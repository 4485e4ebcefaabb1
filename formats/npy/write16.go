package npy

import (
	"encoding/binary"
	"fmt"
	"io"
	"unsafe"

	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/internal/fileprogress"
)

// PutLabels16 writes labels into a .npy array being written by
// [WriteLabels16File], from index on (in memory order).
type PutLabels16 func(index int64, labels []uint16) error

// WriteLabels16File writes a .npy array of uint16 labels of the given shape
// and axis order (see [WriteLabelsOrder]) to the file at path, its labels
// handed over by write: write calls put, from as many goroutines at once as
// it likes, with disjoint ranges that together cover every label once. The
// labels go straight from put's argument into the file, which is written
// atomically (a failure leaves none behind and an existing one unchanged);
// its bytes are counted on the meter watching path ([fileprogress.ForFile]),
// if any. An error of write is returned as it is.
func WriteLabels16File(path string, shape []int, fortran bool, write func(put PutLabels16) error) error {
	n, err := checkShape(shape)
	if err != nil {
		return err
	}
	head := npyHeader(npyDtypes["uint16"].descr, shape, fortran)
	size := int64(len(head)) + 2*n
	m := fileprogress.ForFile(path)
	m.Expect(size, fileprogress.Bytes)
	return atomicfile.WriteFileWith(path, size, func(w io.WriterAt) error {
		if _, err := w.WriteAt(head, 0); err != nil {
			return fmt.Errorf("npy: %w", err)
		}
		m.Add(int64(len(head)))
		return write(func(index int64, labels []uint16) error {
			if index < 0 || index > n-int64(len(labels)) {
				return fmt.Errorf("npy: labels %d..%d of an array of %d", index, index+int64(len(labels)), n)
			}
			if len(labels) == 0 {
				return nil
			}
			if _, err := w.WriteAt(bytes16(labels), int64(len(head))+2*index); err != nil {
				return fmt.Errorf("npy: %w", err)
			}
			m.Add(2 * int64(len(labels)))
			return nil
		})
	})
}

// checkShape returns the number of values shape holds, failing for a
// negative dimension or more values than an int64 counts in bytes.
func checkShape(shape []int) (int64, error) {
	n := int64(1)
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("npy: negative dimension in shape %v", shape)
		}
		if d > 0 && n > (1<<62)/int64(d) {
			return 0, fmt.Errorf("npy: shape %v holds too many values", shape)
		}
		n *= int64(d)
	}
	return n, nil
}

// bytes16 returns labels as little-endian bytes: their own memory on a
// little-endian machine, else a converted copy.
func bytes16(labels []uint16) []byte {
	if littleEndian() {
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(labels))), 2*len(labels))
	}
	b := make([]byte, 2*len(labels))
	for i, v := range labels {
		binary.LittleEndian.PutUint16(b[2*i:], v)
	}
	return b
}
