package nrrd

import (
	"math"
)

// geometry returns the voxel spacing and the affine of the header's
// first three axes: per axis, the space direction (its length is the
// spacing), else the "spacings" entry along the axis, else a unit step
// along the axis; the translation is the space origin. Only the first
// three components of a higher-dimensional space are kept. Axes a 2-D
// file lacks are unit steps.
func (h *Header) geometry() (spacing [3]float64, affine [3][4]float64) {
	rows := min(h.SpaceDimension, 3)
	for i := range 3 {
		spacing[i] = 1
		affine[i][i] = 1
		if i >= h.Dimension {
			continue
		}
		if h.SpaceDirections != nil && h.SpaceDirections[i] != nil {
			dir := h.SpaceDirections[i]
			norm := 0.0
			for _, c := range dir {
				norm = math.Hypot(norm, c)
			}
			if norm > 0 && !math.IsInf(norm, 0) {
				spacing[i] = norm
			}
			affine[i][i] = 0
			for r := range rows {
				affine[r][i] = dir[r]
			}
			continue
		}
		if h.Spacings != nil {
			if s := math.Abs(h.Spacings[i]); s > 0 && !math.IsInf(s, 0) {
				spacing[i], affine[i][i] = s, s
			}
		}
	}
	for r := range min(rows, len(h.SpaceOrigin)) {
		affine[r][3] = h.SpaceOrigin[r]
	}
	return spacing, affine
}
