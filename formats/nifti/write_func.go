package nifti

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/internal/fileprogress"
)

// LabelsFunc fills dst with the labels of the voxels from voxel on. The
// voxels are in memory order, x fastest. A writer may call it from several
// goroutines at once, on ranges that may overlap (the gzip writer asks for
// each block's 32 KiB history too).
type LabelsFunc func(dst []uint32, voxel int64) error

// WriteLabelsFunc is [WriteLabels] for one frame of labels not in memory.
// read serves them (out of core, say) and maxLabel is the largest, which
// picks the "auto" type and sets cal_max. The volume may hold more than
// [imagegraph.MaxPixels] voxels (a plane may not).
func WriteLabelsFunc(path string, ref *imagegraph.Volume, maxLabel uint32, dtype string, read LabelsFunc) error {
	if ref == nil || len(ref.Frames) == 0 || ref.Frames[0] == nil {
		return fileio.WrapWrite(path, "nifti", errors.New("the reference volume has no frames"))
	}
	if f0 := ref.Frames[0]; f0.Depth < 1 {
		return fileio.WrapWrite(path, "nifti", fmt.Errorf("the reference volume is %dx%dx%d", f0.Width, f0.Height, f0.Depth))
	} else if _, err := imagegraph.PixelCount(f0.Width, f0.Height, 1); err != nil {
		return fileio.WrapWrite(path, "nifti", fmt.Errorf("the reference volume is %dx%dx%d", f0.Width, f0.Height, f0.Depth))
	}
	h, err := niftiHeaderFor(path, ref, 1, maxLabel, dtype)
	if err != nil {
		return fileio.WrapWrite(path, "nifti", err)
	}
	f0 := ref.Frames[0]
	voxels := int64(f0.Width) * int64(f0.Height) * int64(f0.Depth)
	gz := strings.HasSuffix(strings.ToLower(path), ".gz")
	m := fileprogress.ForFile(path)
	if gz {
		err = atomicfile.WriteFile(path, func(w io.Writer) error {
			return niftiWriteLabelsFunc(w, h, voxels, read, gz, m)
		})
	} else {
		err = niftiWritePlain(path, h, m, func(head []byte) (int64, atomicfile.FillFunc) {
			src := &niftiFuncBytes{head: head, read: read, size: int(h.Bitpix / 8)}
			return int64(len(head)) + voxels*int64(src.size), func(dst []byte, off int64) error {
				src.fill(dst, off)
				return src.failure()
			}
		})
	}
	if err != nil {
		return fileio.WrapWrite(path, "nifti", err)
	}
	return nil
}

// niftiWriteLabelsFunc writes the header and voxels labels from read,
// counting the bytes on m (which may be nil).
func niftiWriteLabelsFunc(w io.Writer, h *Header, voxels int64, read LabelsFunc, gz bool, m *fileprogress.Meter) error {
	head, err := h.encode(binary.LittleEndian)
	if err != nil {
		return err
	}
	src := &niftiFuncBytes{head: head, read: read, size: int(h.Bitpix / 8)}
	total := int64(len(head)) + voxels*int64(src.size)
	return niftiWriteStream(w, total, src.fill, gz, src.failure, m)
}

// niftiFuncBytes is a label file as a byte stream, its labels from a
// LabelsFunc; the first error of the function is kept.
type niftiFuncBytes struct {
	head    []byte
	read    LabelsFunc
	size    int // bytes per label: 1, 2 or 4
	scratch sync.Pool
	mu      sync.Mutex
	err     error
}

// fill writes the stream's bytes off..off+len(dst) (past the header, off
// and len(dst) multiples of the label size); a failing read leaves zeros
// and records its error.
func (s *niftiFuncBytes) fill(dst []byte, off int64) {
	if off < int64(len(s.head)) {
		k := copy(dst, s.head[off:])
		dst, off = dst[k:], off+int64(k)
	}
	n := len(dst) / s.size
	if n == 0 {
		return
	}
	buf, _ := s.scratch.Get().(*[]uint32)
	if buf == nil || cap(*buf) < n {
		b := make([]uint32, n)
		buf = &b
	}
	labels := (*buf)[:n]
	if s.failure() != nil { // a read failed: the file will be dropped
		clear(labels)
	} else if err := s.read(labels, (off-int64(len(s.head)))/int64(s.size)); err != nil {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
		clear(labels)
	}
	fileio.PutLabels(dst, labels, s.size)
	s.scratch.Put(buf)
}

// failure returns the first error of the label function.
func (s *niftiFuncBytes) failure() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}
