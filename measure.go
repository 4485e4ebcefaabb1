package cclabel

import (
	"errors"

	"github.com/cclabel/cclabel/imagegraph/measure"
)

// Measure measures the components of res, a labeling of a raster, with
// [measure.Compute]: from res.Labels.Data, or res.Narrow when the labels
// came back as uint16. opt.Threads 0 means the labeler's threads.
func (l *Labeler) Measure(res *RasterResult, opt measure.Options) (*measure.Table, error) {
	return nil, errors.New("cclabel: measure: unimplemented")
}

// OrderBySize numbers the components of res by decreasing size, ties
// broken by first occurrence ([measure.SizeOrder]), renumbering its labels
// in place, and t's components and contacts with them when t is not nil.
// The sizes come from t, or are counted when t is nil.
func (l *Labeler) OrderBySize(res *RasterResult, t *measure.Table) error {
	return errors.New("cclabel: measure: unimplemented")
}
