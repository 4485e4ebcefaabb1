package nifti

import "math"

// Affine returns the voxel-to-world affine in RAS+ millimetres. It gives it
// as nibabel's get_best_affine does: the sform when sform_code is a known
// code (1..5), else the qform when qform_code is, else nibabel's base affine
// (pixdim scaling, x flipped, the volume's centre at the origin). Codes
// outside 0..5 count as 0, as nibabel resets them on loading.
func (h *Header) Affine() [3][4]float64 {
	switch {
	case niftiKnownXform(h.SformCode):
		return h.SformAffine()
	case niftiKnownXform(h.QformCode):
		return h.QformAffine()
	}
	return h.baseAffine()
}

// niftiKnownXform reports whether an xform code names a space.
func niftiKnownXform(code int32) bool { return code >= 1 && code <= 5 }

// SformAffine returns the rows srow_x, srow_y, srow_z, whatever sform_code
// says.
func (h *Header) SformAffine() [3][4]float64 {
	return [3][4]float64{h.SrowX, h.SrowY, h.SrowZ}
}

// QformAffine returns the qform's affine, whatever qform_code says. It is the
// rotation from the quaternion (a = sqrt(1-b²-c²-d²), 0 when that is
// negative; the matrix is normalized as nibabel's quat2mat does), times the
// voxel sizes with z negated when qfac (pixdim[0]) is -1, then the offsets.
func (h *Header) QformAffine() [3][4]float64 {
	b, c, d := h.QuaternB, h.QuaternC, h.QuaternD
	a := 0.0
	if w2 := 1 - (b*b + c*c + d*d); w2 > 0 {
		a = math.Sqrt(w2)
	}
	r := niftiQuatToMatrix(a, b, c, d)
	zooms := h.zooms()
	if h.Pixdim[0] == -1 {
		zooms[2] = -zooms[2]
	}
	offset := [3]float64{h.QOffsetX, h.QOffsetY, h.QOffsetZ}
	var m [3][4]float64
	for i := range 3 {
		for j := range 3 {
			m[i][j] = r[i][j] * zooms[j]
		}
		m[i][3] = offset[i]
	}
	return m
}

// niftiQuatToMatrix is the rotation matrix of the quaternion (a, b, c, d),
// normalized; identity for a (near) zero quaternion.
func niftiQuatToMatrix(w, x, y, z float64) [3][3]float64 {
	n := w*w + x*x + y*y + z*z
	if n < 2.220446049250313e-16 {
		return [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	}
	s := 2 / n
	X, Y, Z := x*s, y*s, z*s
	wX, wY, wZ := w*X, w*Y, w*Z
	xX, xY, xZ := x*X, x*Y, x*Z
	yY, yZ, zZ := y*Y, y*Z, z*Z
	return [3][3]float64{
		{1 - (yY + zZ), xY - wZ, xZ + wY},
		{xY + wZ, 1 - (xX + zZ), yZ - wX},
		{xZ - wY, yZ + wX, 1 - (xX + yY)},
	}
}

// zooms returns pixdim[1..3] as nibabel fixes them on loading: negative
// values made positive, zero (or NaN) ones set to 1.
func (h *Header) zooms() [3]float64 {
	var z [3]float64
	for i := range 3 {
		v := math.Abs(h.Pixdim[i+1])
		if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			v = 1
		}
		z[i] = v
	}
	return z
}

// baseAffine is nibabel's affine for headers without a usable sform or
// qform: diagonal voxel sizes with x negated, translated so that the
// centre voxel of the first three dimensions sits at the origin.
func (h *Header) baseAffine() [3][4]float64 {
	zooms := h.zooms()
	n := int(h.Dim[0])
	var m [3][4]float64
	for i := range 3 {
		size, zoom := 1.0, 1.0
		if i < n {
			size, zoom = float64(h.Dim[i+1]), zooms[i]
		}
		if i == 0 {
			zoom = -zoom
		}
		m[i][i] = zoom
		m[i][3] = -(size - 1) / 2 * zoom
	}
	return m
}

// niftiQformFromAffine decomposes the 3x3 part of an affine into a
// rotation quaternion (b, c, d; a >= 0), voxel sizes and qfac, as the
// qform stores them. ok is false when the columns are not orthogonal
// (a sheared or degenerate affine has no qform).
func niftiQformFromAffine(m [3][4]float64) (b, c, d float64, zooms [3]float64, qfac float64, ok bool) {
	var r [3][3]float64
	for j := range 3 {
		zooms[j] = math.Sqrt(m[0][j]*m[0][j] + m[1][j]*m[1][j] + m[2][j]*m[2][j])
		if zooms[j] == 0 || math.IsNaN(zooms[j]) || math.IsInf(zooms[j], 0) {
			return 0, 0, 0, zooms, 0, false
		}
		for i := range 3 {
			r[i][j] = m[i][j] / zooms[j]
		}
	}
	for j := range 3 {
		for k := j + 1; k < 3; k++ {
			if dot := r[0][j]*r[0][k] + r[1][j]*r[1][k] + r[2][j]*r[2][k]; math.Abs(dot) > 1e-5 {
				return 0, 0, 0, zooms, 0, false
			}
		}
	}
	det := r[0][0]*(r[1][1]*r[2][2]-r[1][2]*r[2][1]) -
		r[0][1]*(r[1][0]*r[2][2]-r[1][2]*r[2][0]) +
		r[0][2]*(r[1][0]*r[2][1]-r[1][1]*r[2][0])
	qfac = 1
	if det < 0 {
		qfac = -1
		for i := range 3 {
			r[i][2] = -r[i][2]
		}
	}
	a, b, c, d := niftiMatrixToQuat(r)
	if a < 0 {
		b, c, d = -b, -c, -d
	}
	return b, c, d, zooms, qfac, true
}

// niftiMatrixToQuat converts a proper rotation matrix to a unit
// quaternion, choosing the numerically stable branch.
func niftiMatrixToQuat(r [3][3]float64) (a, b, c, d float64) {
	tr := r[0][0] + r[1][1] + r[2][2]
	switch {
	case tr > 0:
		s := 2 * math.Sqrt(1+tr)
		a, b, c, d = s/4, (r[2][1]-r[1][2])/s, (r[0][2]-r[2][0])/s, (r[1][0]-r[0][1])/s
	case r[0][0] > r[1][1] && r[0][0] > r[2][2]:
		s := 2 * math.Sqrt(1+r[0][0]-r[1][1]-r[2][2])
		a, b, c, d = (r[2][1]-r[1][2])/s, s/4, (r[0][1]+r[1][0])/s, (r[0][2]+r[2][0])/s
	case r[1][1] > r[2][2]:
		s := 2 * math.Sqrt(1+r[1][1]-r[0][0]-r[2][2])
		a, b, c, d = (r[0][2]-r[2][0])/s, (r[0][1]+r[1][0])/s, s/4, (r[1][2]+r[2][1])/s
	default:
		s := 2 * math.Sqrt(1+r[2][2]-r[0][0]-r[1][1])
		a, b, c, d = (r[1][0]-r[0][1])/s, (r[0][2]+r[2][0])/s, (r[1][2]+r[2][1])/s, s/4
	}
	n := math.Sqrt(a*a + b*b + c*c + d*d)
	return a / n, b / n, c / n, d / n
}

// units returns the spatial unit of xyzt_units (bits 0-2) as Geometry
// names it: "m" (1), "mm" (2), "um" (3), else "".
func (h *Header) units() string {
	switch h.XYZTUnits & 7 {
	case 1:
		return "m"
	case 2:
		return "mm"
	case 3:
		return "um"
	}
	return ""
}
