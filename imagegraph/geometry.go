package imagegraph

// Geometry places a volume's voxels in the world: their size, the affine
// from voxel indices to world coordinates, the world space of the affine
// and its unit of length. Formats write labels with their source's
// geometry through it.
type Geometry struct {
	// Spacing is the voxel size along x, y, z in Units, 1 when unknown.
	Spacing [3]float64
	// Affine maps voxel indices (i, j, k, 1) to world coordinates, row by
	// row; the identity scaled by Spacing when unknown.
	Affine [3][4]float64
	// Space names the world space of Affine as NRRD names spaces:
	// "right-anterior-superior" (NIfTI's RAS+), "left-posterior-superior",
	// "left-anterior-superior", "scanner-xyz", "3D-right-handed", ...,
	// with "-time" for a space that has time as its fourth axis; "" for a
	// space of no named orientation.
	Space string
	// Units is the unit of length of Spacing and Affine: "mm", "m",
	// "um", or "" when unknown.
	Units string
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
