package nifti

import (
	"fmt"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"math"

	"github.com/cclabel/cclabel/imagegraph"
)

// niftiMaxDataBytes caps the samples of one file (all frames): a header
// asking for more is refused before anything is allocated.
const niftiMaxDataBytes = 64 << 30

// niftiLayout is what a checked header says about the samples.
type niftiLayout struct {
	width, height, depth, frames int
	kind                         imagegraph.SampleKind
	voxels                       int   // per frame
	bytes                        int64 // all frames
}

// niftiDatatypeName names a NIFTI_TYPE_* code.
func niftiDatatypeName(code int16) string {
	switch code {
	case 0:
		return "unknown"
	case 1:
		return "binary"
	case 2:
		return "uint8"
	case 4:
		return "int16"
	case 8:
		return "int32"
	case 16:
		return "float32"
	case 32:
		return "complex64"
	case 64:
		return "float64"
	case 128:
		return "rgb24"
	case 256:
		return "int8"
	case 512:
		return "uint16"
	case 768:
		return "uint32"
	case 1024:
		return "int64"
	case 1280:
		return "uint64"
	case 1536:
		return "float128"
	case 1792:
		return "complex128"
	case 2048:
		return "complex256"
	case 2304:
		return "rgba32"
	}
	return "not a NIfTI type"
}

// niftiKind maps a supported NIFTI_TYPE_* code to a sample kind.
func niftiKind(code int16) (imagegraph.SampleKind, bool) {
	switch code {
	case 2:
		return imagegraph.Uint8, true
	case 4:
		return imagegraph.Int16, true
	case 8:
		return imagegraph.Int32, true
	case 16:
		return imagegraph.Float32, true
	case 64:
		return imagegraph.Float64, true
	case 256:
		return imagegraph.Int8, true
	case 512:
		return imagegraph.Uint16, true
	case 768:
		return imagegraph.Uint32, true
	case 1024:
		return imagegraph.Int64, true
	case 1280:
		return imagegraph.Uint64, true
	}
	return 0, false
}

// layout checks the header's dimensions and sample type and returns the
// shape of the data read into memory: at most imagegraph.MaxVoxels voxels
// per frame (a plane at most imagegraph.MaxPixels) and niftiMaxDataBytes
// of samples in all; it allocates nothing.
func (h *Header) layout() (niftiLayout, error) {
	return h.layoutUpTo(imagegraph.MaxVoxels, niftiMaxDataBytes)
}

// layoutUpTo is layout admitting frames of up to maxVoxels voxels (a
// plane still at most imagegraph.MaxPixels) and maxBytes of samples:
// streams read larger volumes a few planes at a time.
func (h *Header) layoutUpTo(maxVoxels int, maxBytes int64) (niftiLayout, error) {
	var l niftiLayout
	kind, ok := niftiKind(h.Datatype)
	if !ok {
		return l, fileio.Unsupportedf("unsupported datatype %d (%s)", h.Datatype, niftiDatatypeName(h.Datatype))
	}
	if bits := int16(8 * kind.Size()); h.Bitpix != bits {
		return l, fmt.Errorf("bitpix %d does not match datatype %d (%s, %d bits)", h.Bitpix, h.Datatype, kind, bits)
	}
	n := h.Dim[0]
	if n < 1 || n > 7 {
		return l, fmt.Errorf("dim[0] = %d: the number of dimensions must be 1 to 7", n)
	}
	size := [4]int{1, 1, 1, 1}
	for i := 1; i <= int(n); i++ {
		d := h.Dim[i]
		switch {
		case d < 1:
			return l, fmt.Errorf("dim[%d] = %d: sizes must be at least 1", i, d)
		case d > imagegraph.MaxPixels:
			return l, fmt.Errorf("dim[%d] = %d exceeds %d", i, d, imagegraph.MaxPixels)
		case i > 4 && d != 1:
			return l, fileio.Unsupportedf("dim[%d] = %d: data of more than 4 dimensions (x, y, z, t) is not supported", i, d)
		case i <= 4:
			size[i-1] = int(d)
		}
	}
	plane, err := imagegraph.PixelCount(size[0], size[1], 1)
	voxels := int64(plane) * int64(size[2])
	if err != nil || voxels > int64(maxVoxels) {
		return l, fmt.Errorf("%dx%dx%d voxels per frame exceed %d", size[0], size[1], size[2], maxVoxels)
	}
	if voxels > math.MaxInt64/int64(kind.Size()) {
		return l, fmt.Errorf("%dx%dx%d %s samples exceed any file", size[0], size[1], size[2], kind)
	}
	frameBytes := voxels * int64(kind.Size())
	if int64(size[3]) > maxBytes/frameBytes {
		return l, fmt.Errorf("%d frames of %dx%dx%d %s exceed the %d GiB limit", size[3], size[0], size[1], size[2], kind, maxBytes>>30)
	}
	return niftiLayout{
		width: size[0], height: size[1], depth: size[2], frames: size[3],
		kind: kind, voxels: int(voxels), bytes: frameBytes * int64(size[3]),
	}, nil
}

// scaling returns the slope and intercept to apply: (1, 0) when scl_slope
// is 0 or not finite (no scaling, as the standard and nibabel say), and an
// intercept of 0 when scl_inter is not finite.
func (h *Header) scaling() (slope, inter float64) {
	slope, inter = h.SclSlope, h.SclInter
	if slope == 0 || !niftiFinite(slope) {
		return 1, 0
	}
	if !niftiFinite(inter) {
		inter = 0
	}
	return slope, inter
}

// niftiFinite reports whether v is neither NaN nor infinite.
func niftiFinite(v float64) bool { return v-v == 0 }
