package grid

import "github.com/cclabel/cclabel/imagegraph/internal/band"

// GridShape is the size of a 2D (Depth 1) or 3D grid.
type GridShape struct{ Width, Height, Depth int }

// Len returns the number of pixels (voxels).
func (s GridShape) Len() int { return s.Width * s.Height * s.Depth }

// validate checks the shape and connectivity of a grid labeling.
func (s GridShape) validate(connectivity int, dst []uint32) error {
	return band.Validate(s.Width, s.Height, s.Depth, connectivity, dst)
}
