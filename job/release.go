package job

import "github.com/cclabel/cclabel"

// releaseAfter starts closing l's GPU in the background when last is set: the
// job labels nothing more, and the teardown then overlaps the writing of the
// outputs instead of delaying the process's exit ([cclabel.Labeler.Release]).
func releaseAfter(l *cclabel.Labeler, last bool) {
	if last {
		l.Release()
	}
}
