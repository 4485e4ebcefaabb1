package raster

import (
	"sync/atomic"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/slabs"
)

// streamBandMinVoxels is the fewest voxels of a volume that VolumeStream
// labels band by band while it is read (below streamMinThreads threads):
// a smaller one is read too soon for the overlap to matter.
const streamBandMinVoxels = 1 << 23

// takesBands reports whether the stream labels v band by band while it is
// read: one frame of at most imagegraph.MaxPixels voxels and at least
// bandMinVoxels, on the CPU backend with fewer than minThreads threads.
func (vs *VolumeStream) takesBands(v *imagegraph.Volume) bool {
	if len(v.Frames) != 1 || vs.l.GPUStarted() || vs.l.CPUBackend() == cclabel.BackendSerial || vs.l.Threads() >= vs.minThreads || vs.s.Background != 0 {
		return false
	}
	n := v.Frames[0].Len()
	return n >= vs.bandMinVoxels && n <= imagegraph.MaxPixels
}

// labelBands is the labeling goroutine of a volume labeled band by band
// (gridcc.LabelStreamed) as its samples arrive.
func (vs *VolumeStream) labelBands() {
	f := vs.vol.Frames[0]
	rule := vs.s.Rule
	rule.Slope, rule.Inter = vs.vol.Slope, vs.vol.Inter
	conn := vs.conn
	if f.Depth == 1 {
		conn = slabs.InPlane(conn)
	}
	labels := vs.dst
	if len(labels) != f.Len() {
		labels = make([]uint32, f.Len()) // pages fault in as the bands are labeled
	}
	res := streamResult{}
	defer func() { vs.result <- res }()
	threads := vs.l.Threads()
	var blocked atomic.Int64 // time the labeling goroutines spent waiting for samples
	start := time.Now()
	opts := gridcc.Options{Connectivity: conn, Threads: threads, Progress: vs.progress(fileprogress.Steps)}
	res.labels, res.err = gridcc.LabelStreamed(f, rule, opts, labels, vs.bands,
		func(n int) error {
			t := time.Now()
			_, err := vs.waitPlanes(n)
			blocked.Add(int64(time.Since(t)))
			return err
		})
	res.during = busyWhileReading(vs, start, threads, time.Duration(blocked.Load()))
}

// busyWhileReading is the labeling time of a band-by-band labeling that
// started at start on threads goroutines and spent blocked waiting for
// samples, up to the read's end (or its own, when it ended before the read
// returned, checking the file's tail): the goroutines' time over that span
// less what they waited, summed over them as the slab path sums its slabs.
func busyWhileReading(vs *VolumeStream, start time.Time, threads int, blocked time.Duration) time.Duration {
	end := time.Now()
	vs.mu.Lock()
	if vs.ended && vs.readEnd.Before(end) {
		end = vs.readEnd
	}
	vs.mu.Unlock()
	return max(0, time.Duration(threads)*end.Sub(start)-blocked)
}
