package main

import (
	"github.com/urfave/cli/v3"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/labelfile"
)

// quietFlag silences the progress display and summary lines of the
// commands that print them.
var quietFlag = &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"},
	Usage: "no progress display for long files and no summary line (errors and warnings are still printed)"}

// fileBar returns the progress display of one input on stderr
// (fileprogress.Start): a bar redrawn in place on a terminal once the file
// has taken fileprogress.DefaultDelay, plain lines at most every
// fileprogress.PlainEvery elsewhere; nil (nothing shown) with --quiet or
// --json. Its stages watch what they read, label and write (Bar.Stage):
// the bytes of the input read, the frames of a 4D volume labeled, the
// bytes of the label volumes written.
func fileBar(cmd *cli.Command, std stdio, name string) *fileprogress.Bar {
	if cmd.Bool("quiet") || cmd.Bool("json") {
		return nil
	}
	return fileprogress.Start(std.Err, name)
}

// volumeWrites returns the files the writing stage of a volume watches:
// its label volumes.
func volumeWrites(job labelfile.VolumeOutputs) []any {
	var paths []any
	for _, path := range []string{job.Output, job.Labels} {
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

// slabProgress returns an outofcore.Options.Progress that counts the
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
