package npy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/internal/parallel"
)

// npyDtype is a label dtype's NumPy descriptor, item size and largest
// value.
type npyDtype struct {
	descr string
	size  int
	max   uint64
}

// npyDtypes maps the label dtypes WriteLabels accepts to their descriptions.
var npyDtypes = map[string]npyDtype{
	"uint8":  {"|u1", 1, math.MaxUint8},
	"uint16": {"<u2", 2, math.MaxUint16},
	"int32":  {"<i4", 4, math.MaxInt32},
	"uint32": {"<u4", 4, math.MaxUint32},
}

// npyHeader returns a NumPy format 1.0 header for an array of the given
// descriptor and shape, padded to a multiple of 64 bytes: C order, or
// Fortran order (first axis fastest) when fortran is set.
func npyHeader(descr string, shape []int, fortran bool) []byte {
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = strconv.Itoa(d)
	}
	tuple := strings.Join(dims, ", ")
	if len(shape) == 1 {
		tuple += ","
	}
	order := "False"
	if fortran {
		order = "True"
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }", descr, order, tuple)
	const preamble = 10 // magic (6) + version (2) + header length (2)
	pad := 64 - (preamble+len(dict)+1)%64
	if pad == 64 {
		pad = 0
	}
	h := make([]byte, 0, preamble+len(dict)+pad+1)
	h = append(h, "\x93NUMPY\x01\x00"...)
	h = binary.LittleEndian.AppendUint16(h, uint16(len(dict)+pad+1))
	h = append(h, dict...)
	h = append(h, strings.Repeat(" ", pad)...)
	return append(h, '\n')
}

// WriteLabels writes labels as a NumPy .npy array of the given shape. The
// array is in C order, so the last axis varies fastest, and dtype is "uint8",
// "uint16", "int32" or "uint32". It fails before writing anything when a
// label does not fit the dtype or the shape does not match the number of
// labels.
func WriteLabels(w io.Writer, labels []uint32, shape []int, dtype string) error {
	return WriteLabelsOrder(w, labels, shape, dtype, false)
}

// WriteLabelsOrder is [WriteLabels] with a choice of axis order. With fortran
// set the shape's first axis varies fastest, so a volume whose memory order
// is x fastest has shape (X, Y, Z), as nibabel gives NIfTI data.
func WriteLabelsOrder(w io.Writer, labels []uint32, shape []int, dtype string, fortran bool) error {
	lf, err := labelFile([][]uint32{labels}, shape, dtype, fortran)
	if err != nil {
		return err
	}
	if err := checkRange(labels, npyDtypes[dtype].max, dtype, 0); err != nil {
		return err
	}
	if _, err := w.Write(lf.Head); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	if err := writeSamples(w, labels, lf.Size); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	return nil
}

// WriteLabelsFile writes frames of labels as one .npy array to the file at
// path. The array has the given shape (frames after one another in memory),
// axis order (see [WriteLabelsOrder]) and dtype; the checks are
// [WriteLabels]'. The file is written atomically (a failure leaves none
// behind and an existing one unchanged), its pieces filled on all cores,
// and its bytes are counted on the meter watching path
// ([fileprogress.ForFile]), if any.
func WriteLabelsFile(path string, frames [][]uint32, shape []int, dtype string, fortran bool) error {
	lf, err := labelFile(frames, shape, dtype, fortran)
	if err != nil {
		return err
	}
	// Narrow samples are checked as the pieces are packed, with no pass of
	// their own; int32 first.
	lf.Check = true
	if lf.Size == 4 {
		for i, f := range frames {
			if err := checkRange(f, npyDtypes[dtype].max, dtype, i*len(f)); err != nil {
				return err
			}
		}
	}
	m := fileprogress.ForFile(path)
	m.Expect(lf.Len(), fileprogress.Bytes)
	return atomicfile.WriteFileAt(path, lf.Len(), 0, func(dst []byte, off int64) error {
		if err := lf.Fill(dst, off); err != nil {
			var re *fileio.LabelRangeError
			if errors.As(err, &re) {
				return fmt.Errorf("npy: label %d at index %d does not fit %s", re.Label, re.Index, dtype)
			}
			return err
		}
		m.Add(int64(len(dst)))
		return nil
	})
}

// labelFile checks frames of labels against shape and dtype and lays them
// out as a .npy file.
func labelFile(frames [][]uint32, shape []int, dtype string, fortran bool) (fileio.LabelBytes, error) {
	dt, ok := npyDtypes[dtype]
	if !ok {
		return fileio.LabelBytes{}, fmt.Errorf("npy: unsupported label dtype %q (want uint8, uint16, int32 or uint32)", dtype)
	}
	count := 1
	for _, d := range shape {
		if d < 0 {
			return fileio.LabelBytes{}, fmt.Errorf("npy: negative dimension in shape %v", shape)
		}
		count *= d
	}
	have := 0
	for _, f := range frames {
		if len(f) != len(frames[0]) {
			return fileio.LabelBytes{}, fmt.Errorf("npy: label frames of %d and %d labels", len(frames[0]), len(f))
		}
		have += len(f)
	}
	if count != have {
		return fileio.LabelBytes{}, fmt.Errorf("npy: shape %v holds %d values, have %d labels", shape, count, have)
	}
	return fileio.LabelBytes{Head: npyHeader(dt.descr, shape, fortran), Frames: frames, Size: dt.size}, nil
}

// checkRange fails when a label exceeds limit, the largest of dtype; base
// is the index of labels[0] in the array.
func checkRange(labels []uint32, limit uint64, dtype string, base int) error {
	if limit < math.MaxUint32 && uint64(parallel.Max(labels)) > limit {
		for i, l := range labels {
			if uint64(l) > limit {
				return fmt.Errorf("npy: label %d at index %d does not fit %s", l, base+i, dtype)
			}
		}
	}
	return nil
}

// writeSamples writes labels as little-endian samples of size bytes (1,
// 2 or 4). 4-byte samples on a little-endian machine are the labels'
// own memory, written in one call (a buffered writer passes it through);
// others are converted 1 MiB at a time.
func writeSamples(w io.Writer, labels []uint32, size int) error {
	if size == 4 && littleEndian() && len(labels) > 0 {
		_, err := w.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(labels))), 4*len(labels)))
		return err
	}
	chunk := (1 << 20) / size
	buf := make([]byte, chunk*size)
	for lo := 0; lo < len(labels); lo += chunk {
		part := labels[lo:min(lo+chunk, len(labels))]
		b := buf[:fileio.PutLabels(buf, part, size)]
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// littleEndian reports whether the machine stores integers little-endian.
func littleEndian() bool {
	var probe [2]byte
	binary.NativeEndian.PutUint16(probe[:], 1)
	return probe[0] == 1
}

// WriteBytes writes uint8 samples as a C-order .npy array of the given
// shape.
func WriteBytes(w io.Writer, data []uint8, shape []int) error {
	count := 1
	for _, d := range shape {
		count *= d
	}
	if count != len(data) || count < 0 {
		return fmt.Errorf("npy: shape %v holds %d values, have %d", shape, count, len(data))
	}
	if _, err := w.Write(npyHeader("|u1", shape, false)); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	return nil
}

// WriteLabelsFunc writes n labels served by read as a .npy array. read serves
// them in memory order, one chunk at a time; the array has the given shape,
// axis order (see [WriteLabelsOrder]) and dtype. maxLabel is the largest
// label, checked against the dtype before anything is written.
func WriteLabelsFunc(w io.Writer, n int64, shape []int, dtype string, fortran bool, maxLabel uint32, read func(dst []uint32, index int64) error) error {
	dt, err := checkLabelsFunc(n, shape, dtype, maxLabel)
	if err != nil {
		return err
	}
	if _, err := w.Write(npyHeader(dt.descr, shape, fortran)); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	const chunk = 1 << 20
	labels := make([]uint32, min(n, chunk))
	buf := make([]byte, len(labels)*dt.size)
	for lo := int64(0); lo < n; lo += chunk {
		part := labels[:min(chunk, n-lo)]
		if err := read(part, lo); err != nil {
			return fmt.Errorf("npy: %w", err)
		}
		if _, err := w.Write(buf[:fileio.PutLabels(buf, part, dt.size)]); err != nil {
			return fmt.Errorf("npy: %w", err)
		}
	}
	return nil
}

// checkLabelsFunc checks the arguments of [WriteLabelsFunc] before anything
// is written and returns the dtype's description.
func checkLabelsFunc(n int64, shape []int, dtype string, maxLabel uint32) (npyDtype, error) {
	dt, ok := npyDtypes[dtype]
	if !ok {
		return npyDtype{}, fmt.Errorf("npy: unsupported label dtype %q (want uint8, uint16, int32 or uint32)", dtype)
	}
	count := int64(1)
	for _, d := range shape {
		if d < 0 {
			return npyDtype{}, fmt.Errorf("npy: negative dimension in shape %v", shape)
		}
		count *= int64(d)
	}
	if count != n {
		return npyDtype{}, fmt.Errorf("npy: shape %v holds %d values, have %d labels", shape, count, n)
	}
	if uint64(maxLabel) > dt.max {
		return npyDtype{}, fmt.Errorf("npy: label %d does not fit %s", maxLabel, dtype)
	}
	return dt, nil
}

// WriteLabelsFuncFile is [WriteLabelsFunc] writing the file at path as
// [WriteLabelsFile] does: atomically, its pieces filled on all cores (read
// is then called from several goroutines at once, on disjoint ranges), and
// counted on the meter watching path, if any.
func WriteLabelsFuncFile(path string, n int64, shape []int, dtype string, fortran bool, maxLabel uint32, read func(dst []uint32, index int64) error) error {
	dt, err := checkLabelsFunc(n, shape, dtype, maxLabel)
	if err != nil {
		return err
	}
	lf := &fileio.LabelFunc{Head: npyHeader(dt.descr, shape, fortran), N: n, Size: dt.size, Read: read}
	m := fileprogress.ForFile(path)
	m.Expect(lf.Len(), fileprogress.Bytes)
	return atomicfile.WriteFileAt(path, lf.Len(), 0, func(dst []byte, off int64) error {
		if err := lf.Fill(dst, off); err != nil {
			return fmt.Errorf("npy: %w", err)
		}
		m.Add(int64(len(dst)))
		return nil
	})
}

// WriteHeader writes the header of a C-order .npy array of dtype and shape.
// dtype is as [WriteLabels] takes it; the caller writes the samples.
func WriteHeader(w io.Writer, dtype string, shape []int) error {
	dt, ok := npyDtypes[dtype]
	if !ok {
		return fmt.Errorf("npy: unsupported dtype %q (want uint8, uint16, int32 or uint32)", dtype)
	}
	if _, err := w.Write(npyHeader(dt.descr, shape, false)); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	return nil
}
