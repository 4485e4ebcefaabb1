package job

import (
	"fmt"
	"io"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/job/raster"
)

// Progress is where a job reports while it runs. It gets failures and
// warnings always, and unless Quiet a progress display of each long file and
// a summary line per file.
type Progress struct {
	// W receives the reports (standard error, say); nil discards them.
	W io.Writer
	// Quiet drops the progress display, the summary lines and the notes.
	Quiet bool
	// NoDisplay drops the progress display only, as when a JSON summary
	// goes to standard output.
	NoDisplay bool
}

// out returns W, or io.Discard when it is nil.
func (p Progress) out() io.Writer {
	if p.W == nil {
		return io.Discard
	}
	return p.W
}

// printf writes a summary line or a note, unless p is quiet.
func (p Progress) printf(format string, args ...any) {
	if !p.Quiet {
		fmt.Fprintf(p.out(), format, args...)
	}
}

// warnf writes a warning or a failure, even when p is quiet.
func (p Progress) warnf(format string, args ...any) { fmt.Fprintf(p.out(), format, args...) }

// bar returns the progress display of the file name (fileprogress.Start):
// a bar redrawn in place on a terminal once the file has taken
// fileprogress.DefaultDelay, plain lines at most every
// fileprogress.PlainEvery elsewhere; nil (nothing shown) when p is quiet
// or shows no display. Its stages watch what they read, label and write
// (Bar.Stage): the bytes of the input read, the frames of a 4D volume
// labeled, the bytes of the label volumes written.
func (p Progress) bar(name string) *fileprogress.Bar {
	if p.Quiet || p.NoDisplay || p.W == nil {
		return nil
	}
	return fileprogress.Start(p.W, name)
}

// volumeWrites returns the files the writing stage of a volume watches:
// its label volumes.
func volumeWrites(out raster.VolumeOutputs) []any {
	var paths []any
	for _, path := range []string{out.Output, out.Labels} {
		if path != "" {
			paths = append(paths, path)
		}
	}
	return paths
}

// labelWatch returns what the labeling stage of a volume watches: the
// volume (its frames, or its bands labeled while it is read) and, for one
// frame labeled in one piece, that frame's bands.
func labelWatch(vol *imagegraph.Volume) []any {
	if len(vol.Frames) == 1 {
		return []any{vol, vol.Frames[0]}
	}
	return []any{vol}
}

// slabProgress returns an raster.OutOfCoreOptions.Progress that counts the
// planes of the first pass (reading and labeling the slabs) on bar's
// current stage, then starts its stage "writing", watching output, once
// every plane is done.
func slabProgress(bar *fileprogress.Bar, output string) func(done, planes int) {
	report := bar.Meter().Reporter(fileprogress.Planes)
	if report == nil {
		return nil
	}
	return func(done, planes int) {
		report(int64(done), int64(planes))
		if done >= planes {
			bar.Stage("writing", output)
		}
	}
}
