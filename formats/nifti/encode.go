package nifti

import (
	"encoding/binary"
	"fmt"
	"math"
)

// encode returns the header (348 or 540 bytes) followed by the 4-byte
// extender, in the given byte order; the extensions are not included.
// VoxOffset is written as it is. A NIfTI-1 header fails when a field does
// not fit its 16-bit or 8-bit slot.
func (h *Header) encode(order binary.ByteOrder) ([]byte, error) {
	var b []byte
	var err error
	switch h.Version {
	case 1:
		b, err = h.encode1(order)
	case 2:
		b = h.encode2(order)
	default:
		err = fmt.Errorf("NIfTI version %d (want 1 or 2)", h.Version)
	}
	if err != nil {
		return nil, err
	}
	return append(b, h.Extender[:]...), nil
}

// encode1 lays out a NIfTI-1 header.
func (h *Header) encode1(o binary.ByteOrder) ([]byte, error) {
	b := make([]byte, niftiHeader1Size)
	for i, v := range h.Dim {
		if v < math.MinInt16 || v > math.MaxInt16 {
			return nil, fmt.Errorf("dim[%d] = %d does not fit NIfTI-1 (use NIfTI-2)", i, v)
		}
	}
	fields := []struct {
		name string
		v    int64
	}{
		{"intent_code", int64(h.IntentCode)}, {"qform_code", int64(h.QformCode)}, {"sform_code", int64(h.SformCode)},
		{"slice_start", h.SliceStart}, {"slice_end", h.SliceEnd},
	}
	for _, f := range fields {
		if f.v < math.MinInt16 || f.v > math.MaxInt16 {
			return nil, fmt.Errorf("%s %d does not fit NIfTI-1", f.name, f.v)
		}
	}
	if h.SliceCode < 0 || h.SliceCode > math.MaxUint8 || h.XYZTUnits < 0 || h.XYZTUnits > math.MaxUint8 {
		return nil, fmt.Errorf("slice_code %d or xyzt_units %d does not fit NIfTI-1", h.SliceCode, h.XYZTUnits)
	}
	if h.VoxOffset > 1<<24 {
		return nil, fmt.Errorf("vox_offset %d is not exact as a NIfTI-1 float", h.VoxOffset)
	}
	f32 := func(off int, v float64) { o.PutUint32(b[off:], math.Float32bits(float32(v))) }
	i16 := func(off int, v int64) { o.PutUint16(b[off:], uint16(int16(v))) }
	o.PutUint32(b, niftiHeader1Size)
	b[38] = 'r'
	b[39] = h.DimInfo
	for i := range 8 {
		i16(40+2*i, h.Dim[i])
		f32(76+4*i, h.Pixdim[i])
	}
	f32(56, h.IntentP1)
	f32(60, h.IntentP2)
	f32(64, h.IntentP3)
	i16(68, int64(h.IntentCode))
	i16(70, int64(h.Datatype))
	i16(72, int64(h.Bitpix))
	i16(74, h.SliceStart)
	f32(108, float64(h.VoxOffset))
	f32(112, h.SclSlope)
	f32(116, h.SclInter)
	i16(120, h.SliceEnd)
	b[122] = uint8(h.SliceCode)
	b[123] = uint8(h.XYZTUnits)
	f32(124, h.CalMax)
	f32(128, h.CalMin)
	f32(132, h.SliceDuration)
	f32(136, h.TOffset)
	copy(b[148:228], h.Descrip)
	copy(b[228:252], h.AuxFile)
	i16(252, int64(h.QformCode))
	i16(254, int64(h.SformCode))
	f32(256, h.QuaternB)
	f32(260, h.QuaternC)
	f32(264, h.QuaternD)
	f32(268, h.QOffsetX)
	f32(272, h.QOffsetY)
	f32(276, h.QOffsetZ)
	for i := range 4 {
		f32(280+4*i, h.SrowX[i])
		f32(296+4*i, h.SrowY[i])
		f32(312+4*i, h.SrowZ[i])
	}
	copy(b[328:344], h.IntentName)
	if h.Pair {
		copy(b[344:], "ni1\x00")
	} else {
		copy(b[344:], "n+1\x00")
	}
	return b, nil
}

// encode2 lays out a NIfTI-2 header.
func (h *Header) encode2(o binary.ByteOrder) []byte {
	b := make([]byte, niftiHeader2Size)
	f64 := func(off int, v float64) { o.PutUint64(b[off:], math.Float64bits(v)) }
	i64 := func(off int, v int64) { o.PutUint64(b[off:], uint64(v)) }
	i32 := func(off int, v int32) { o.PutUint32(b[off:], uint32(v)) }
	o.PutUint32(b, niftiHeader2Size)
	if h.Pair {
		copy(b[4:], "ni2\x00"+niftiMagic2Tail)
	} else {
		copy(b[4:], "n+2\x00"+niftiMagic2Tail)
	}
	o.PutUint16(b[12:], uint16(h.Datatype))
	o.PutUint16(b[14:], uint16(h.Bitpix))
	for i := range 8 {
		i64(16+8*i, h.Dim[i])
		f64(104+8*i, h.Pixdim[i])
	}
	f64(80, h.IntentP1)
	f64(88, h.IntentP2)
	f64(96, h.IntentP3)
	i64(168, h.VoxOffset)
	f64(176, h.SclSlope)
	f64(184, h.SclInter)
	f64(192, h.CalMax)
	f64(200, h.CalMin)
	f64(208, h.SliceDuration)
	f64(216, h.TOffset)
	i64(224, h.SliceStart)
	i64(232, h.SliceEnd)
	copy(b[240:320], h.Descrip)
	copy(b[320:344], h.AuxFile)
	i32(344, h.QformCode)
	i32(348, h.SformCode)
	f64(352, h.QuaternB)
	f64(360, h.QuaternC)
	f64(368, h.QuaternD)
	f64(376, h.QOffsetX)
	f64(384, h.QOffsetY)
	f64(392, h.QOffsetZ)
	for i := range 4 {
		f64(400+8*i, h.SrowX[i])
		f64(432+8*i, h.SrowY[i])
		f64(464+8*i, h.SrowZ[i])
	}
	i32(496, h.SliceCode)
	i32(500, h.XYZTUnits)
	i32(504, h.IntentCode)
	copy(b[508:524], h.IntentName)
	b[524] = h.DimInfo
	return b
}
