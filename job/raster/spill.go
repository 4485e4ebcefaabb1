package raster

import (
	"fmt"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats/raw"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/slabs"
)

// labelRange reads planes planes from s (at its current plane), labels
// them in slabs of thick planes (slabs.Label) and spills their labels to
// a temporary file in opts.TempDir, which the caller closes. Times and the
// backend go to res.
func labelRange(s *raw.Stream, planes int, rule imagegraph.Rule, opts OutOfCoreOptions, thick int, res *OutOfCoreResult) (*slabs.Spill, *slabs.Result, error) {
	sp, err := slabs.NewSpill(opts.TempDir)
	if err != nil {
		return nil, nil, fmt.Errorf("outofcore: %w", err)
	}
	label := cclabel.CPULabelFunc(rule, opts.Connectivity, opts.Threads)
	res.Backend = cclabel.BackendCPU
	if opts.Labeler != nil {
		label = opts.Labeler.LabelFunc(rule, opts.Connectivity, func(r *cclabel.RasterResult) { res.Backend = r.Backend })
	}
	// The slabs are labeled by label, the seams (two planes) on the CPU
	// on one thread.
	seams := cclabel.CPULabelFunc(rule, opts.Connectivity, 1)
	out, err := slabs.Label(slabs.NewReaderSource(s, s.Width, s.Height, planes, s.Kind), seams, sp,
		slabs.Options{Planes: thick, Lanes: []slabs.LabelFunc{label}, Progress: opts.Progress})
	if err != nil {
		sp.Close()
		return nil, nil, err
	}
	res.Read += out.Read + out.Write
	res.Label += out.Label + out.Join
	return sp, out, nil
}
