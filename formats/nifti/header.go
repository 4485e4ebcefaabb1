package nifti

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Header is a parsed NIfTI-1 or NIfTI-2 header. Both versions are
// held in the wider NIfTI-2 field types, so a NIfTI-1 header round-trips
// exactly. The unused ANALYZE 7.5 fields of NIfTI-1 (data_type, db_name,
// extents, session_error, regular, glmax, glmin) are not kept.
type Header struct {
	// Version is 1 (348-byte header) or 2 (540-byte header).
	Version int
	// BigEndian reports that the file was written big-endian; its samples
	// are swapped on reading. Written files are always little-endian.
	BigEndian bool
	// Pair reports the magic of a .hdr/.img pair ("ni1", "ni2"), whose
	// samples lie in a separate .img file, rather than a single .nii
	// file ("n+1", "n+2").
	Pair bool
	// Dim is dim[0..7]: the number of dimensions, then the size of each
	// (x, y, z, t, and three more that must be 1).
	Dim [8]int64
	// Pixdim is pixdim[0..7]: qfac (-1 or 1) for the qform, then the voxel
	// size along each dimension (pixdim[4] is the time step).
	Pixdim [8]float64
	// XYZTUnits is xyzt_units: the spatial unit code in bits 0-2 (2 is
	// millimetres), the time unit code in bits 3-5.
	XYZTUnits int32
	// Datatype is the NIFTI_TYPE_* code of the samples and Bitpix their
	// size in bits.
	Datatype, Bitpix int16
	// VoxOffset is the byte offset of the samples in the .nii (or .img)
	// file.
	VoxOffset int64
	// SclSlope and SclInter scale stored values: value = stored*SclSlope
	// + SclInter; a slope of 0 or NaN means no scaling.
	SclSlope, SclInter float64
	// CalMin and CalMax are the display range (0, 0 when unset).
	CalMin, CalMax float64
	// IntentCode, IntentP1..3 and IntentName say what the values mean
	// (NIFTI_INTENT_*; 1002 is a label map).
	IntentCode                   int32
	IntentP1, IntentP2, IntentP3 float64
	IntentName                   string
	// DimInfo packs the frequency, phase and slice dimensions of MRI
	// acquisitions (2 bits each).
	DimInfo uint8
	// SliceStart, SliceEnd, SliceCode and SliceDuration describe slice
	// timing; TOffset shifts the time axis.
	SliceStart, SliceEnd int64
	SliceCode            int32
	SliceDuration        float64
	TOffset              float64
	// QformCode and SformCode are the NIFTI_XFORM_* codes of the two
	// orientations (0 unknown, 1 scanner, 2 aligned, 3 Talairach, 4 MNI,
	// 5 template).
	QformCode, SformCode int32
	// QuaternB, QuaternC and QuaternD are the qform's rotation quaternion
	// (a follows from b, c, d) and QOffsetX..Z its translation.
	QuaternB, QuaternC, QuaternD float64
	QOffsetX, QOffsetY, QOffsetZ float64
	// SrowX, SrowY and SrowZ are the rows of the sform affine.
	SrowX, SrowY, SrowZ [4]float64
	// Descrip (80 bytes in the file) and AuxFile (24 bytes) are free
	// text, cut at the first NUL.
	Descrip, AuxFile string
	// Extender is the 4 bytes after the header (when the file has them);
	// Extender[0] != 0 announces NIfTI extensions.
	Extender [4]byte
	// Extensions holds the raw bytes between the extender and the samples
	// (.nii) or the end of the .hdr file, as stored: NIfTI extensions when
	// Extender[0] != 0 (see ParseExtensions), or whatever a writer put there
	// (some put a label list). Regions over 64 MiB are skipped and not kept.
	// [WriteLabels] does not write them.
	Extensions []byte
}

// Extension is one NIfTI header extension: a code and its data. The code is a
// NIFTI_ECODE_* (e.g. 4 AFNI, 6 comment, 32 CIFTI); the data includes its
// padding.
type Extension struct {
	Code int32
	Data []byte
}

// Header sizes, the offset of the first sample in a single file, and the
// most extension bytes a reader keeps.
const (
	niftiHeader1Size  = 348
	niftiHeader2Size  = 540
	niftiMaxExtension = 64 << 20
)

// niftiMagic2Tail is the line-ending check after "n+2\0" / "ni2\0".
const niftiMagic2Tail = "\r\n\x1a\n"

// ParseExtensions splits the header's Extensions into NIfTI extensions. Each
// is an int32 size, a multiple of 16 including its 8-byte head, an int32 code
// and the data, in the file's byte order. It returns nil when Extender[0] is
// 0, and an error when the sizes do not tile the region; trailing padding of
// fewer than 8 bytes is ignored.
func (h *Header) ParseExtensions() ([]Extension, error) {
	if h.Extender[0] == 0 {
		return nil, nil
	}
	order := h.byteOrder()
	var out []Extension
	b := h.Extensions
	for len(b) >= 8 {
		size := int64(int32(order.Uint32(b)))
		if size < 8 || size > int64(len(b)) {
			return out, fmt.Errorf("nifti: extension %d has size %d, %d bytes left", len(out), size, len(b))
		}
		out = append(out, Extension{Code: int32(order.Uint32(b[4:])), Data: b[8:size:size]})
		b = b[size:]
	}
	return out, nil
}

// byteOrder returns the byte order of the file the header came from.
func (h *Header) byteOrder() binary.ByteOrder {
	if h.BigEndian {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// headerSize returns the size of the header proper: 348 or 540 bytes.
func (h *Header) headerSize() int64 {
	if h.Version == 2 {
		return niftiHeader2Size
	}
	return niftiHeader1Size
}

// niftiSniff reads the byte order and version from the first four bytes
// (sizeof_hdr).
func niftiSniff(b []byte) (version int, bigEndian bool, err error) {
	le, be := binary.LittleEndian.Uint32(b), binary.BigEndian.Uint32(b)
	switch {
	case le == niftiHeader1Size:
		return 1, false, nil
	case be == niftiHeader1Size:
		return 1, true, nil
	case le == niftiHeader2Size:
		return 2, false, nil
	case be == niftiHeader2Size:
		return 2, true, nil
	}
	return 0, false, fmt.Errorf("not a NIfTI file (sizeof_hdr %d is neither 348 nor 540)", int32(le))
}

// niftiDecodeHeader parses a whole header (348 or 540 bytes, as niftiSniff
// found) and checks its magic. Sizes and types are checked by layout.
func niftiDecodeHeader(b []byte, version int, bigEndian bool) (*Header, error) {
	h := &Header{Version: version, BigEndian: bigEndian}
	var err error
	if version == 2 {
		err = h.decode2(b)
	} else {
		err = h.decode1(b)
	}
	if err != nil {
		return nil, err
	}
	return h, nil
}

// decode1 fills h from a NIfTI-1 header.
func (h *Header) decode1(b []byte) error {
	o := h.byteOrder()
	f32 := func(off int) float64 { return float64(math.Float32frombits(o.Uint32(b[off:]))) }
	i16 := func(off int) int16 { return int16(o.Uint16(b[off:])) }
	switch magic := string(b[344:348]); magic {
	case "n+1\x00":
	case "ni1\x00":
		h.Pair = true
	default:
		return fmt.Errorf("bad NIfTI-1 magic %q (want \"n+1\" or \"ni1\"; ANALYZE 7.5 is not supported)", magic)
	}
	h.DimInfo = b[39]
	for i := range 8 {
		h.Dim[i] = int64(i16(40 + 2*i))
		h.Pixdim[i] = f32(76 + 4*i)
	}
	h.IntentP1, h.IntentP2, h.IntentP3 = f32(56), f32(60), f32(64)
	h.IntentCode = int32(i16(68))
	h.Datatype, h.Bitpix = i16(70), i16(72)
	h.SliceStart = int64(i16(74))
	vox := f32(108)
	if math.IsNaN(vox) || vox < 0 || vox > 1<<53 || vox != math.Trunc(vox) {
		return fmt.Errorf("vox_offset %g is not a whole number of bytes", vox)
	}
	h.VoxOffset = int64(vox)
	h.SclSlope, h.SclInter = f32(112), f32(116)
	h.SliceEnd = int64(i16(120))
	h.SliceCode = int32(b[122])
	h.XYZTUnits = int32(b[123])
	h.CalMax, h.CalMin = f32(124), f32(128)
	h.SliceDuration, h.TOffset = f32(132), f32(136)
	h.Descrip = niftiString(b[148:228])
	h.AuxFile = niftiString(b[228:252])
	h.QformCode, h.SformCode = int32(i16(252)), int32(i16(254))
	h.QuaternB, h.QuaternC, h.QuaternD = f32(256), f32(260), f32(264)
	h.QOffsetX, h.QOffsetY, h.QOffsetZ = f32(268), f32(272), f32(276)
	for i := range 4 {
		h.SrowX[i], h.SrowY[i], h.SrowZ[i] = f32(280+4*i), f32(296+4*i), f32(312+4*i)
	}
	h.IntentName = niftiString(b[328:344])
	return nil
}

// decode2 fills h from a NIfTI-2 header.
func (h *Header) decode2(b []byte) error {
	o := h.byteOrder()
	f64 := func(off int) float64 { return math.Float64frombits(o.Uint64(b[off:])) }
	i64 := func(off int) int64 { return int64(o.Uint64(b[off:])) }
	i32 := func(off int) int32 { return int32(o.Uint32(b[off:])) }
	switch magic := string(b[4:8]); magic {
	case "n+2\x00":
	case "ni2\x00":
		h.Pair = true
	default:
		return fmt.Errorf("bad NIfTI-2 magic %q (want \"n+2\" or \"ni2\")", magic)
	}
	// nibabel accepts a zeroed line-ending check; anything else means the
	// file went through a text-mode transfer.
	if tail := string(b[8:12]); tail != niftiMagic2Tail && tail != "\x00\x00\x00\x00" {
		return errors.New("NIfTI-2 magic has damaged line-ending bytes (file transferred as text?)")
	}
	h.Datatype, h.Bitpix = int16(o.Uint16(b[12:])), int16(o.Uint16(b[14:]))
	for i := range 8 {
		h.Dim[i] = i64(16 + 8*i)
		h.Pixdim[i] = f64(104 + 8*i)
	}
	h.IntentP1, h.IntentP2, h.IntentP3 = f64(80), f64(88), f64(96)
	h.VoxOffset = i64(168)
	if h.VoxOffset < 0 {
		return fmt.Errorf("vox_offset %d is negative", h.VoxOffset)
	}
	h.SclSlope, h.SclInter = f64(176), f64(184)
	h.CalMax, h.CalMin = f64(192), f64(200)
	h.SliceDuration, h.TOffset = f64(208), f64(216)
	h.SliceStart, h.SliceEnd = i64(224), i64(232)
	h.Descrip = niftiString(b[240:320])
	h.AuxFile = niftiString(b[320:344])
	h.QformCode, h.SformCode = i32(344), i32(348)
	h.QuaternB, h.QuaternC, h.QuaternD = f64(352), f64(360), f64(368)
	h.QOffsetX, h.QOffsetY, h.QOffsetZ = f64(376), f64(384), f64(392)
	for i := range 4 {
		h.SrowX[i], h.SrowY[i], h.SrowZ[i] = f64(400+8*i), f64(432+8*i), f64(464+8*i)
	}
	h.SliceCode, h.XYZTUnits, h.IntentCode = i32(496), i32(500), i32(504)
	h.IntentName = niftiString(b[508:524])
	h.DimInfo = b[524]
	return nil
}

// niftiString returns a fixed-size text field up to its first NUL.
func niftiString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}
