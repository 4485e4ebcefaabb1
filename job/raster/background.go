package raster

import (
	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph"
)

// BackgroundError reports a background value (Settings.Background) that no
// sample of a raster's type can hold, or that a rule other than multilabel
// was asked to take.
type BackgroundError = cclabel.BackgroundError

// withBackground returns the raster that labels r under s as if the sample
// value s.Background were background instead of 0
// ([cclabel.WithBackground]), once s is checked. With 0 it returns r.
func withBackground(r *imagegraph.Raster, s Settings, threads int) (*imagegraph.Raster, error) {
	if s.Background == 0 {
		return r, nil
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return cclabel.WithBackground(r, s.Background, threads)
}
