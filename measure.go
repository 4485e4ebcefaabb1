package cclabel

import (
	"errors"
	"fmt"

	"github.com/cclabel/cclabel/imagegraph/measure"
)

// Measure measures the components of res, a labeling of a raster, with
// [measure.Compute]: from res.Labels.Data, or res.Narrow when the labels
// came back as uint16. opt.Threads 0 means the labeler's threads.
func (l *Labeler) Measure(res *RasterResult, opt measure.Options) (*measure.Table, error) {
	if res == nil || res.Labels == nil {
		return nil, errors.New("cclabel: measure: no labels")
	}
	if opt.Threads == 0 {
		opt.Threads = l.threads
	}
	lab := res.Labels
	if res.Narrow != nil {
		return measure.Compute(res.Narrow, lab.Width, lab.Height, lab.Depth, lab.Count, opt)
	}
	return measure.Compute(lab.Data, lab.Width, lab.Height, lab.Depth, lab.Count, opt)
}

// OrderBySize numbers the components of res by decreasing size, ties
// broken by first occurrence ([measure.SizeOrder]), renumbering its labels
// in place on the labeler's threads, and t's components and contacts with
// them when t is not nil. The sizes come from t, or are counted when t is
// nil. It fails, changing nothing, when t does not hold res's count of
// components.
func (l *Labeler) OrderBySize(res *RasterResult, t *measure.Table) error {
	if res == nil || res.Labels == nil {
		return errors.New("cclabel: order by size: no labels")
	}
	sizeOf := t
	if t == nil {
		var err error
		if sizeOf, err = l.Measure(res, measure.Options{}); err != nil {
			return err
		}
	}
	if len(sizeOf.Components) != res.Labels.Count {
		return fmt.Errorf("cclabel: order by size: a table of %d components for %d", len(sizeOf.Components), res.Labels.Count)
	}
	sizes := make([]int64, len(sizeOf.Components))
	for k, c := range sizeOf.Components {
		sizes[k] = c.Size
	}
	perm := measure.SizeOrder(sizes)
	var err error
	if res.Narrow != nil {
		err = measure.Relabel(res.Narrow, perm, l.threads)
	} else {
		err = measure.Relabel(res.Labels.Data, perm, l.threads)
	}
	if err != nil || t == nil {
		return err
	}
	return t.Renumber(perm)
}
