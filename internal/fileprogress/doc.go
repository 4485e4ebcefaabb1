// Package fileprogress shows how far the work on one long file is.
//
// A [Bar] follows a file through its stages (reading, labeling, writing).
// On a terminal it is a line redrawn in place with the stage, a bar, the
// percentage, the bytes or planes done out of the total and, once the
// stage has run a while, the time left (ETA); elsewhere (a log, a pipe) it
// prints a plain line such as "in.nii.gz: reading 45% (ETA 12 s)" now and
// then. Either way nothing appears for a file done within a delay, so
// quick files print nothing.
//
// The work is counted on a [Meter]: the bar's stage watches the files (or
// other things) it names with [Watch] and [WatchFile], and the readers,
// writers and labelers of this module that find a meter for what they
// work on ([For], [ForFile]) report their progress on it. Nothing is
// counted when nothing is watched.
package fileprogress
