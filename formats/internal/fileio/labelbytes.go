package fileio

import (
	"fmt"
	"sync"
)

// LabelBytes is a label file as a sequence of bytes: a header, then the
// labels of every frame packed by [PutLabels] into little-endian samples of
// Size bytes. Its [LabelBytes.Fill] serves any range of it, from several
// goroutines at once, so that writers fill a file's pieces in parallel.
type LabelBytes struct {
	// Head is the header, written before the samples.
	Head []byte
	// Frames holds the labels, one slice per frame, all of one length.
	Frames [][]uint32
	// Size is the bytes per sample: 1, 2 or 4.
	Size int
	// Check makes Fill fail with a [*LabelRangeError] when a label of its
	// range does not fit the samples; otherwise labels are truncated.
	Check bool
}

// LabelRangeError is the error of a label too large for a file's samples.
type LabelRangeError struct {
	// Label is the label and Index its position among all the labels.
	Label uint32
	Index int64
}

func (e *LabelRangeError) Error() string {
	return fmt.Sprintf("label %d at index %d does not fit the samples", e.Label, e.Index)
}

// Len returns the length of the file in bytes.
func (s LabelBytes) Len() int64 {
	n := int64(len(s.Head))
	for _, f := range s.Frames {
		n += int64(len(f)) * int64(s.Size)
	}
	return n
}

// Fill writes the file's bytes off..off+len(dst) into dst. The range must
// lie within [0, Len()); it need not be aligned to the samples. It returns
// nil, or with Check a [*LabelRangeError] for the first label of the range
// that does not fit.
func (s LabelBytes) Fill(dst []byte, off int64) error {
	if off < int64(len(s.Head)) {
		k := copy(dst, s.Head[off:])
		dst, off = dst[k:], off+int64(k)
	}
	if len(dst) == 0 || len(s.Frames) == 0 {
		return nil
	}
	first := (off - int64(len(s.Head))) / int64(s.Size) // the first sample of the range
	size := int64(s.Size)
	e := (off - int64(len(s.Head))) / size // the sample holding off
	skip0 := (off - int64(len(s.Head))) % size
	if skip := skip0; skip != 0 {
		dst = dst[s.partial(dst, e, int(skip)):]
		e++
	}
	perFrame := int64(len(s.Frames[0]))
	for len(dst) >= s.Size {
		frame := s.Frames[e/perFrame][e%perFrame:]
		part := frame[:min(int64(len(frame)), int64(len(dst))/size)]
		n, or := packLabels(dst, part, s.Size)
		if s.Check && s.Size < 4 && or>>(8*s.Size) != 0 {
			return s.rangeError(first, e+int64(len(part)))
		}
		dst = dst[n:]
		e += int64(len(part))
	}
	if len(dst) > 0 {
		s.partial(dst, e, 0)
		e++
	}
	if s.Check && s.Size < 4 && (skip0 != 0 || len(dst) > 0) {
		// The partial samples at the ends were not checked above.
		return s.rangeError(first, e)
	}
	return nil
}

// rangeError returns the error for the first label of samples first..end
// that does not fit the samples, or nil when all fit.
func (s LabelBytes) rangeError(first, end int64) error {
	perFrame := int64(len(s.Frames[0]))
	limit := uint32(1)<<(8*s.Size) - 1
	for e := first; e < end; e++ {
		if l := s.Frames[e/perFrame][e%perFrame]; l > limit {
			return &LabelRangeError{Label: l, Index: e}
		}
	}
	return nil
}

// partial writes the bytes of sample e from byte skip on into dst, as many
// as fit, and returns their count.
func (s LabelBytes) partial(dst []byte, e int64, skip int) int {
	perFrame := int64(len(s.Frames[0]))
	var b [4]byte
	PutLabels(b[:], s.Frames[e/perFrame][e%perFrame:e%perFrame+1], s.Size)
	return copy(dst, b[skip:s.Size])
}

// LabelFunc is a label file whose labels are served by a function: a
// header, then N labels packed by [PutLabels] into little-endian samples of
// Size bytes. Its [LabelFunc.Fill] serves ranges of it from several
// goroutines at once.
type LabelFunc struct {
	// Head is the header, written before the samples; its length is a
	// multiple of Size.
	Head []byte
	// N is the number of labels and Size the bytes per sample: 1, 2 or 4.
	N    int64
	Size int
	// Read fills dst with the labels from index on. It may be called
	// from several goroutines at once.
	Read func(dst []uint32, index int64) error

	scratch sync.Pool // of *[]uint32
}

// Len returns the length of the file in bytes.
func (s *LabelFunc) Len() int64 { return int64(len(s.Head)) + s.N*int64(s.Size) }

// Fill writes the file's bytes off..off+len(dst) into dst. The range must
// lie within [0, Len()), and past the header start and end on whole
// samples. It returns Read's error.
func (s *LabelFunc) Fill(dst []byte, off int64) error {
	if off < int64(len(s.Head)) {
		k := copy(dst, s.Head[off:])
		dst, off = dst[k:], off+int64(k)
	}
	if len(dst) == 0 {
		return nil
	}
	size := int64(s.Size)
	if (off-int64(len(s.Head)))%size != 0 || int64(len(dst))%size != 0 {
		return fmt.Errorf("label bytes %d..%d do not start and end on whole samples", off, off+int64(len(dst)))
	}
	n := len(dst) / s.Size
	buf, _ := s.scratch.Get().(*[]uint32)
	if buf == nil || cap(*buf) < n {
		b := make([]uint32, n)
		buf = &b
	}
	defer s.scratch.Put(buf)
	labels := (*buf)[:n]
	if err := s.Read(labels, (off-int64(len(s.Head)))/size); err != nil {
		return err
	}
	PutLabels(dst, labels, s.Size)
	return nil
}
