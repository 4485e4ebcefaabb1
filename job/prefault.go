package job

import (
	"runtime"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/internal/parallel"
)

// labelArrayFor returns a label array for the number of labels size reads
// from the input's header, with its pages being faulted in on a background
// goroutine while the input is read, and the function that stops that; a
// nil array when the size is unknown, the machine has fewer than
// prefaultMinCores cores, or mapped is set (size is not called then).
func labelArrayFor(mapped bool, size func() (int, bool)) ([]uint32, func()) {
	if mapped || runtime.GOMAXPROCS(0) < prefaultMinCores {
		return nil, func() {}
	}
	n, ok := size()
	if !ok || n < 1 {
		return nil, func() {}
	}
	return parallel.AllocPopulated[uint32](n)
}

// inPlace reports whether input's samples will be mapped rather than read
// (formats.MapsSamples) and labeled on every core or on the GPU: such a read
// takes milliseconds, so there is nothing to overlap the label array's page
// faults with. On the CPU, labelArrayFor then leaves the array to the
// labeler's own allocation (parallel.AllocFor), which touches it on every
// labeling thread rather than on a goroutine competing with them. Where the
// GPU may label, the GPU's download makes the array: faulting it in beside
// the GPU's start, which goes on in the background, slows that start several
// times over. With fewer threads, or an input that takes time to read, the
// array is made during the read on a core the labeling leaves free.
func inPlace(input string, raw *formats.RawOptions, labeler *cclabel.Labeler) bool {
	return formats.MapsSamples(input, raw) && (labeler.GPUStarted() || labeler.Threads() >= runtime.GOMAXPROCS(0))
}

// prefaultMinCores is the fewest cores with which the label array is
// faulted in during the read, on a core the read leaves idle at least in
// part: the label stage then finds its array's pages in place, for a
// slightly longer read.
const prefaultMinCores = 2
