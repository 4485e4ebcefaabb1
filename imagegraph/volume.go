package imagegraph

// Volume is a 3D image (or a series of 3D frames) with its spatial
// metadata, as read from NIfTI, NRRD, a TIFF stack, a folder of slices,
// .npy or raw data.
type Volume struct {
	// Frames holds one raster per time point (most files have one). Each
	// is Width x Height x Depth samples, x fastest; a 2D file gives
	// Depth 1.
	Frames []*Raster
	// Slope and Inter scale stored values to physical ones (NIfTI
	// scl_slope/scl_inter): value = stored*Slope + Inter. Thresholds
	// apply to scaled values. Slope is 1 and Inter 0 when a file has no
	// scaling.
	Slope, Inter float64
	// Geometry places the voxels in the world: NIfTI's sform (or qform)
	// in RAS+ millimetres, NRRD's space directions and origin in its own
	// space; spacing 1 and the identity affine when the file has none.
	Geometry
	// Format names the source format: "nifti1", "nifti2", "nrrd",
	// "tiff", "slices", "npy" or "raw".
	Format string
	// Header is the source header, owned by the format that read it and
	// inspected by that format alone, which writes label volumes back
	// with what Geometry does not hold: *nifti.Header or *nrrd.Header
	// (packages formats/nifti and formats/nrrd; nil for other formats).
	Header any
}

// NewVolume wraps one raster as a volume without spatial metadata: one
// frame, spacing 1, the identity affine, no scaling and no header, with
// the given Format name.
func NewVolume(r *Raster, format string) *Volume {
	spacing := [3]float64{1, 1, 1}
	return &Volume{
		Frames:   []*Raster{r},
		Slope:    1,
		Geometry: Geometry{Spacing: spacing, Affine: IdentityAffine(spacing)},
		Format:   format,
	}
}
