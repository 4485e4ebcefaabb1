package nifti

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/internal/parallel"
	"github.com/cclabel/cclabel/internal/pdeflate"
)

// WriteLabels writes label frames as a NIfTI volume with ref's geometry. The
// file is a little-endian single-file NIfTI volume, gzipped when path ends in
// .gz (.nii.gz; one gzip member at level 1, compressed in 1 MiB blocks on all
// cores), plain otherwise. labels[f] holds frame f, Width*Height*Depth of
// ref.Frames[0] each; one frame gives a 3D file (2D when ref was a 2D NIfTI,
// or is one plane of another format), several a 4D file. dtype is "uint8",
// "uint16", "uint32" or "auto" (uint16 when every label fits).
//
// When ref.Header is a [*Header] its version, pixdim, xyzt_units, qform and
// sform (codes, quaternion, offsets, rows), dim_info and slice timing are
// kept; otherwise a NIfTI-1 header (NIfTI-2 when a side exceeds 32767) is
// built from ref.Geometry: the affine as sform, code 1, and as qform too when
// its columns are orthogonal (identity scaled by the spacing when the affine
// is degenerate), xyzt_units millimetres when Units is "mm". The affine is
// taken as RAS+, NIfTI's world space, except in a left-posterior-superior or
// left-anterior-superior Space, which is flipped to RAS+ first.
//
// Either way the datatype is the label type; intent, scaling (slope 1,
// intercept 0) and aux_file are reset; cal_min/cal_max span 0 to the largest
// label; descrip is "cclabel labels"; and extensions are dropped (they
// describe the source's values, not the labels): the samples start right
// after the header, at byte 352 (NIfTI-1) or 544 (NIfTI-2). The file is
// written atomically: a failure leaves no file behind and an existing one
// unchanged. Errors read "formats: PATH: nifti: ...". The uncompressed bytes
// written are counted on the meter watching path ([fileprogress.ForFile]), if
// any.
func WriteLabels(path string, ref *imagegraph.Volume, labels [][]uint32, dtype string) error {
	h, err := niftiLabelHeader(path, ref, labels, dtype)
	if err != nil {
		return fileio.WrapWrite(path, "nifti", err)
	}
	gz := strings.HasSuffix(strings.ToLower(path), ".gz")
	m := fileprogress.ForFile(path)
	if gz {
		err = atomicfile.WriteFile(path, func(w io.Writer) error {
			return niftiWriteLabels(w, h, labels, gz, m)
		})
	} else {
		err = niftiWritePlain(path, h, m, func(head []byte) (int64, atomicfile.FillFunc) {
			src := fileio.LabelBytes{Head: head, Frames: labels, Size: int(h.Bitpix / 8)}
			return src.Len(), src.Fill
		})
	}
	if err != nil {
		return fileio.WrapWrite(path, "nifti", err)
	}
	return nil
}

// niftiLabelHeader checks the labels against ref and builds their header.
func niftiLabelHeader(path string, ref *imagegraph.Volume, labels [][]uint32, dtype string) (*Header, error) {
	n, err := niftiRefVoxels(ref)
	if err != nil {
		return nil, err
	}
	if len(labels) == 0 {
		return nil, errors.New("no label frames to write")
	}
	f0 := ref.Frames[0]
	var maxLabel uint32
	for f, frame := range labels {
		if len(frame) != n {
			return nil, fmt.Errorf("label frame %d has %d labels, the %dx%dx%d volume has %d voxels", f, len(frame), f0.Width, f0.Height, f0.Depth, n)
		}
		maxLabel = max(maxLabel, parallel.Max(frame))
	}
	return niftiHeaderFor(path, ref, len(labels), maxLabel, dtype)
}

// niftiRefVoxels checks that ref has a first frame and returns its voxels.
func niftiRefVoxels(ref *imagegraph.Volume) (int, error) {
	if ref == nil || len(ref.Frames) == 0 || ref.Frames[0] == nil {
		return 0, errors.New("the reference volume has no frames")
	}
	f0 := ref.Frames[0]
	n, err := imagegraph.VoxelCount(f0.Width, f0.Height, f0.Depth)
	if err != nil {
		return 0, fmt.Errorf("the reference volume is %dx%dx%d", f0.Width, f0.Height, f0.Depth)
	}
	return n, nil
}

// niftiHeaderFor builds the header of frames label frames of ref's size
// whose largest label is maxLabel.
func niftiHeaderFor(path string, ref *imagegraph.Volume, frames int, maxLabel uint32, dtype string) (*Header, error) {
	lower := strings.TrimSuffix(strings.ToLower(path), ".gz")
	if strings.HasSuffix(lower, ".hdr") || strings.HasSuffix(lower, ".img") {
		return nil, fileio.Unsupportedf("writing .hdr/.img pairs is not supported: name the output .nii or .nii.gz")
	}
	f0 := ref.Frames[0]
	var datatype, bitpix int16
	switch {
	case dtype == "uint8" && maxLabel > math.MaxUint8:
		return nil, fmt.Errorf("label %d does not fit uint8", maxLabel)
	case dtype == "uint8":
		datatype, bitpix = 2, 8
	case dtype == "uint16" && maxLabel > math.MaxUint16:
		return nil, fmt.Errorf("label %d does not fit uint16", maxLabel)
	case dtype == "uint16" || (dtype == "auto" && maxLabel <= math.MaxUint16):
		datatype, bitpix = 512, 16
	case dtype == "uint32" || dtype == "auto":
		datatype, bitpix = 768, 32
	default:
		return nil, fileio.Unsupportedf("unsupported label dtype %q (want uint8, uint16, uint32 or auto)", dtype)
	}
	var h Header
	twoD := f0.Depth == 1
	if src, ok := ref.Header.(*Header); ok && src != nil {
		h = *src
		twoD = twoD && src.Dim[0] <= 2
	} else {
		h = niftiHeaderFromGeometry(ref)
	}
	h.Dim = [8]int64{3, int64(f0.Width), int64(f0.Height), int64(f0.Depth), 1, 1, 1, 1}
	switch {
	case frames > 1:
		h.Dim[0], h.Dim[4] = 4, int64(frames)
	case twoD:
		h.Dim[0] = 2
	}
	for _, d := range h.Dim[1:5] {
		if d > math.MaxInt16 {
			h.Version = 2
		}
	}
	h.BigEndian, h.Pair = false, false
	h.Datatype, h.Bitpix = datatype, bitpix
	h.IntentCode, h.IntentP1, h.IntentP2, h.IntentP3, h.IntentName = 0, 0, 0, 0, ""
	h.SclSlope, h.SclInter = 1, 0
	h.CalMin, h.CalMax = 0, float64(maxLabel)
	h.Descrip, h.AuxFile = "cclabel labels", ""
	h.VoxOffset = h.headerSize() + 4
	h.Extender, h.Extensions = [4]byte{}, nil
	return &h, nil
}

// niftiHeaderFromGeometry builds a NIfTI-1 header from a volume of
// another format: sform from the affine (code 1), qform too when the
// affine has one.
func niftiHeaderFromGeometry(ref *imagegraph.Volume) Header {
	h := Header{Version: 1, Pixdim: [8]float64{1, 1, 1, 1, 1, 1, 1, 1}}
	spacing := ref.Spacing
	for i, s := range spacing {
		if !(s > 0) || math.IsInf(s, 0) {
			spacing[i] = 1
		}
	}
	a := niftiRASAffine(ref)
	if !niftiUsableAffine(a) {
		a = imagegraph.IdentityAffine(spacing)
	}
	if ref.Units == "mm" {
		h.XYZTUnits = 2
	}
	h.SformCode = 1
	h.SrowX, h.SrowY, h.SrowZ = a[0], a[1], a[2]
	copy(h.Pixdim[1:4], spacing[:])
	if b, c, d, zooms, qfac, ok := niftiQformFromAffine(a); ok {
		h.QformCode = 1
		h.QuaternB, h.QuaternC, h.QuaternD = b, c, d
		h.QOffsetX, h.QOffsetY, h.QOffsetZ = a[0][3], a[1][3], a[2][3]
		h.Pixdim[0] = qfac
		copy(h.Pixdim[1:4], zooms[:])
	}
	return h
}

// niftiRASAffine returns ref.Affine in RAS+ (NIfTI's world space): an
// affine in a left-posterior-superior or left-anterior-superior space is
// flipped; other affines are taken as they are.
func niftiRASAffine(ref *imagegraph.Volume) [3][4]float64 {
	a := ref.Affine
	flip := 0 // rows to negate: x, or x and y
	switch strings.TrimSuffix(ref.Space, "-time") {
	case "left-posterior-superior":
		flip = 2
	case "left-anterior-superior":
		flip = 1
	}
	for i := range flip {
		for j := range a[i] {
			a[i][j] = -a[i][j]
		}
	}
	return a
}

// niftiUsableAffine reports whether an affine is finite and invertible.
func niftiUsableAffine(m [3][4]float64) bool {
	for _, row := range m {
		for _, v := range row {
			if !niftiFinite(v) {
				return false
			}
		}
	}
	det := m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
		m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
		m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
	return det != 0 && niftiFinite(det)
}

// niftiWriteLabels writes the header and the labels, gzipped or not,
// counting the bytes on m (which may be nil).
func niftiWriteLabels(w io.Writer, h *Header, labels [][]uint32, gz bool, m *fileprogress.Meter) error {
	head, err := h.encode(binary.LittleEndian)
	if err != nil {
		return err
	}
	src := fileio.LabelBytes{Head: head, Frames: labels, Size: int(h.Bitpix / 8)}
	return niftiWriteStream(w, src.Len(), func(dst []byte, off int64) { src.Fill(dst, off) }, gz, nil, m)
}

// niftiWritePlain writes an uncompressed NIfTI file to path, its pieces
// filled on all cores ([atomicfile.WriteFileAt]) and counted on m (which may
// be nil). bytes returns the file's length and its fill function given the
// encoded header.
func niftiWritePlain(path string, h *Header, m *fileprogress.Meter, bytes func(head []byte) (int64, atomicfile.FillFunc)) error {
	head, err := h.encode(binary.LittleEndian)
	if err != nil {
		return err
	}
	total, fill := bytes(head)
	m.Expect(total, fileprogress.Bytes)
	return atomicfile.WriteFileAt(path, total, 0, func(dst []byte, off int64) error {
		if err := fill(dst, off); err != nil {
			return err
		}
		m.Add(int64(len(dst)))
		return nil
	})
}

// niftiWriteStream writes the total bytes fill produces (see
// niftiLabelBytes.fill), gzipped (level 1, parallel 1 MiB blocks) or
// plain in 1 MiB chunks; failed (if not nil) reports an error fill met.
// The bytes are counted on m (which may be nil) as they are written out,
// before compression.
func niftiWriteStream(w io.Writer, total int64, fill func(dst []byte, off int64), gz bool, failed func() error, m *fileprogress.Meter) error {
	if failed == nil {
		failed = func() error { return nil }
	}
	m.Expect(total, fileprogress.Bytes)
	if gz {
		var opt pdeflate.Options
		if m != nil {
			opt.Written = m.Add
		}
		err := pdeflate.WriteFunc(w, pdeflate.Gzip, total, fill, opt)
		if err == nil {
			err = failed()
		}
		if err != nil {
			return fmt.Errorf("gzip: %w", err)
		}
		return nil
	}
	buf := make([]byte, niftiChunk)
	for off := int64(0); off < total; off += int64(len(buf)) {
		b := buf[:min(int64(len(buf)), total-off)]
		fill(b, off)
		if err := failed(); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		m.Add(int64(len(b)))
	}
	return nil
}
