package job

import (
	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/internal/parallel"
	"github.com/cclabel/cclabel/job/raster"
)

// releaseAfter starts closing l's GPU in the background when last is set: the
// job labels nothing more, and the teardown then overlaps the writing of the
// outputs instead of delaying the process's exit ([cclabel.Labeler.Release]).
func releaseAfter(l *cclabel.Labeler, last bool) {
	if last {
		l.Release()
	}
}

// discardLabels hands the memory of vl's label arrays back to the system
// on threads goroutines once they are written and no job follows, so that
// the process's exit does not free them on one core; vl's labels must not
// be used afterwards.
func discardLabels(vl *raster.VolumeLabels, threads int) {
	for _, f := range vl.Frames {
		parallel.Discard(f, threads)
	}
	parallel.Discard(vl.Narrow, threads)
}
