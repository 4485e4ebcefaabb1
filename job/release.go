package job

import (
	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/parallel"
)

// releaseAfter starts closing l's GPU in the background when last is set: the
// job labels nothing more, and the teardown then overlaps the writing of the
// outputs instead of delaying the process's exit ([cclabel.Labeler.Release]).
func releaseAfter(l *cclabel.Labeler, last bool) {
	if last {
		l.Release()
	}
}

// discardLabels hands the memory of label arrays, narrow and frames, back
// to the system on threads goroutines once they are written and no job
// follows, so that the process's exit does not free them on one core; the
// labels must not be used afterwards.
func discardLabels(threads int, narrow []uint16, frames ...[]uint32) {
	for _, f := range frames {
		parallel.Discard(f, threads)
	}
	parallel.Discard(narrow, threads)
}

// discardSamples hands the memory of vol's decoded samples back to the
// system on threads goroutines, as discardLabels does for labels; vol's
// samples must be read into memory, not mapped from the file, and must not
// be used afterwards.
func discardSamples(vol *imagegraph.Volume, threads int) {
	for _, f := range vol.Frames {
		if f.Data != nil {
			parallel.Discard(f.Data.Bytes(), threads)
		}
	}
}

// commitDiscarding puts a job's outputs in place through commit; after the
// last file it runs discard meanwhile, which hands memory back
// (discardLabels, discardSamples): replacing an output frees the old file's
// page cache on one core, which the discarding overlaps. It returns
// commit's error.
func commitDiscarding(commit func() error, last bool, discard func()) error {
	if !last {
		return commit()
	}
	done := make(chan error, 1)
	go func() { done <- commit() }()
	discard()
	return <-done
}

// startVolumeGPU starts l's GPU in the background under auto when the
// volume file's header shows an input the GPU may win even after waiting
// for what the read leaves of its start ([cclabel.Labeler.StartFor]);
// under gpu, New has started it. The start then overlaps the read.
func startVolumeGPU(l *cclabel.Labeler, input string, raw *formats.RawOptions, rule imagegraph.Rule) {
	if l.Backend() != cclabel.BackendAuto {
		return
	}
	s, _, err := formats.OpenVolumeStream(input, raw)
	if err != nil {
		return // the read reports it
	}
	defer s.Close()
	l.StartFor(&imagegraph.Raster{Width: s.Width, Height: s.Height, Depth: s.Depth, Kind: s.Kind}, rule, s.ReadTime())
}
