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
	// Spacing is the voxel size along x, y, z in the file's units
	// (millimetres for NIfTI and NRRD), 1 when unknown.
	Spacing [3]float64
	// Affine maps voxel indices (i, j, k, 1) to physical coordinates,
	// row by row: NIfTI's sform (or qform) in RAS+ millimetres; NRRD's
	// space directions and origin in its own space. Identity scaled by
	// Spacing when unknown.
	Affine [3][4]float64
	// Format names the source format: "nifti1", "nifti2", "nrrd",
	// "tiff", "slices", "npy" or "raw".
	Format string
	// Header is the source header, kept so that label volumes can be
	// written back with the same geometry: *nifti.Header or *nrrd.Header
	// (packages formats/nifti and formats/nrrd; nil for other formats).
	Header any
}

// IdentityAffine returns the affine of axis-aligned voxels of the given
// spacing at the origin.
func IdentityAffine(spacing [3]float64) [3][4]float64 {
	var a [3][4]float64
	for i := range 3 {
		a[i][i] = spacing[i]
	}
	return a
}

// NewVolume wraps one raster as a volume without spatial metadata: one
// frame, spacing 1, the identity affine, no scaling and no header, with
// the given Format name.
func NewVolume(r *Raster, format string) *Volume {
	spacing := [3]float64{1, 1, 1}
	return &Volume{
		Frames:  []*Raster{r},
		Slope:   1,
		Spacing: spacing,
		Affine:  IdentityAffine(spacing),
		Format:  format,
	}
}
