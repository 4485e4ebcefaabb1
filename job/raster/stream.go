package raster

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/slabs"
)

// streamSlabVoxels is the fewest voxels of a slab that VolumeStream labels
// while the rest of the volume is read: slabs of whole planes, at least
// this many voxels, so that the seams (two planes each) and the per-slab
// overhead stay small.
const streamSlabVoxels = 1 << 23

// streamMinSlabs is the fewest slabs a volume must make for VolumeStream
// to label it while it is read.
const streamMinSlabs = 4

// streamMinThreads is the fewest labeling threads with which VolumeStream
// labels slabs while reading (below it, bands: stream_bands.go): the read
// (decompression, its read-ahead) keeps a core or two busy, and with
// fewer threads labeling slabs beside it slows the read more than it
// saves.
const streamMinThreads = 4

// VolumeStream labels a single-frame volume on the CPU while it is read. Give
// its Samples method to [formats.ReadVolumeFileStreaming], then call
// [VolumeStream.Finish] with what the read returned. With streamMinThreads
// threads or more, slabs of planes are labeled as they arrive (on one thread
// fewer than the labeler's while the read goes on, on all of them once it has
// ended), joined at their seams and relabeled ([slabs.Label]). With fewer,
// the first pass of the labeler's bands of rows runs as their samples arrive,
// on one thread fewer than the labeler's (at least one) while the read goes
// on, and the second once it has ended (labelBands). Either way the labels
// are [LabelVolume]'s, bit for bit. A volume the stream does not take
// (several frames, too few planes or voxels, a labeler that may use the GPU
// or is serial, a reader that does not stream, a background value other
// than 0) is labeled by Finish with
// [LabelVolume].
type VolumeStream struct {
	l    *cclabel.Labeler
	s    Settings
	conn int
	// slabVoxels is streamSlabVoxels and minThreads streamMinThreads;
	// bandMinVoxels is streamBandMinVoxels and bands the bands' count (0:
	// gridcc.LabelStreamed's default). Tests change them.
	slabVoxels, minThreads, bandMinVoxels, bands int
	// dst, when it fits, takes the labels (Into).
	dst []uint32
	// narrow lets a volume the stream does not take come back as uint16
	// labels (Narrow).
	narrow bool
	rows   func(int, []uint16) error // with narrow, takes the uint16 labels (FinishToFile)

	mu      sync.Mutex
	arrived *sync.Cond
	decided bool               // the first Samples call came
	vol     *imagegraph.Volume // set by it when the stream takes the volume
	done    int                // samples in place
	ended   bool               // the read returned
	failed  bool               // the read failed: stop
	result  chan streamResult  // the labeling goroutine's outcome
	// readEnd is when the read returned.
	readEnd time.Time
}

// streamResult is what the labeling goroutine hands to Finish.
type streamResult struct {
	labels *imagegraph.Labels
	// during is the labeling time spent while the read went on.
	during time.Duration
	err    error
}

// NewVolumeStream returns a [VolumeStream] labeling with l under s. It labels
// at 3D connectivity conn.
func NewVolumeStream(l *cclabel.Labeler, s Settings, conn int) *VolumeStream {
	vs := &VolumeStream{l: l, s: s, conn: conn, slabVoxels: streamSlabVoxels, minThreads: streamMinThreads,
		bandMinVoxels: streamBandMinVoxels}
	vs.arrived = sync.NewCond(&vs.mu)
	return vs
}

// Into makes the stream write the labels into dst when dst fits. dst fits
// when it has one label per voxel (a buffer made ready while the header was
// read); it is used also when [VolumeStream.Finish] falls back to
// [LabelVolume]. Call it before the read starts.
func (vs *VolumeStream) Into(dst []uint32) { vs.dst = dst }

// Narrow lets [VolumeStream.Finish] label a volume the stream does not take
// as [LabelVolumeIn] does with narrow: its labels may come back as uint16
// ([VolumeLabels.Narrow]). Call it before the read starts.
func (vs *VolumeStream) Narrow(narrow bool) { vs.narrow = narrow }

// Samples is the reader's callback ([formats.ReadVolumeFileStreaming]). The
// first call decides whether the stream takes the volume and starts the
// labeling goroutine; later calls let it go on.
func (vs *VolumeStream) Samples(v *imagegraph.Volume, done int) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if !vs.decided {
		vs.decided = true
		switch {
		case vs.takes(v):
			vs.vol, vs.result = v, make(chan streamResult, 1)
			go vs.label()
		case vs.takesBands(v):
			vs.vol, vs.result = v, make(chan streamResult, 1)
			go vs.labelBands()
		}
	}
	if vs.vol == nil {
		return
	}
	vs.done = done
	vs.arrived.Broadcast()
}

// takes reports whether the stream labels v while it is read.
func (vs *VolumeStream) takes(v *imagegraph.Volume) bool {
	if len(v.Frames) != 1 || vs.l.GPUStarted() || vs.l.Threads() < vs.minThreads || vs.s.Background != 0 {
		return false
	}
	f := v.Frames[0]
	plane := f.Width * f.Height
	return f.Depth >= streamMinSlabs*vs.slabPlanes(plane)
}

// slabPlanes is the thickness of the slabs for planes of plane voxels.
func (vs *VolumeStream) slabPlanes(plane int) int {
	return max(1, (vs.slabVoxels+plane-1)/plane)
}

// waitPlanes blocks until the first n samples are in place or the read
// has ended; it reports whether the read is still going on, and fails
// when the read failed.
func (vs *VolumeStream) waitPlanes(n int) (reading bool, err error) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	for vs.done < n && !vs.ended {
		vs.arrived.Wait()
	}
	if vs.failed {
		return false, errStreamRead
	}
	if vs.done < n {
		return false, fmt.Errorf("labelfile: the read ended with %d of %d samples", vs.done, n)
	}
	return !vs.ended, nil
}

// errStreamRead stops the labeling goroutine after a failed read.
var errStreamRead = errors.New("labelfile: the read failed")

// label is the labeling goroutine: slabs as they arrive, then the join.
func (vs *VolumeStream) label() {
	f := vs.vol.Frames[0]
	rule := vs.s.Rule
	rule.Slope, rule.Inter = vs.vol.Slope, vs.vol.Inter
	threads := vs.l.Threads()
	res := streamResult{}
	defer func() { vs.result <- res }()
	progress := vs.progress(fileprogress.Planes)
	labels := vs.dst
	if len(labels) != f.Len() {
		labels = make([]uint32, f.Len()) // pages fault in as the slabs are labeled
	}
	// reading is whether the read went on when the slab's planes were in
	// place, and start when they were.
	var reading bool
	var start time.Time
	wait := func(n int) error {
		var err error
		reading, err = vs.waitPlanes(n)
		start = time.Now()
		return err
	}
	label := func(r *imagegraph.Raster, dst []uint32) (int, error) {
		t := threads
		if reading {
			t = max(1, threads-1) // the reader has a core
		}
		return cclabel.CPULabelFunc(rule, vs.conn, t)(r, dst)
	}
	// The seams (two planes) are labeled on one thread.
	seams := cclabel.CPULabelFunc(rule, vs.conn, 1)
	out, err := slabs.Label(slabs.NewRasterSource(f, wait), seams, slabs.Into(labels), slabs.Options{
		Planes: vs.slabPlanes(f.Width * f.Height), Threads: threads, Lanes: []slabs.LabelFunc{label},
		Progress: func(done, planes int) {
			if reading {
				res.during += time.Since(start)
			}
			progress(done, planes)
		},
	})
	if err != nil {
		res.err = err
		return
	}
	res.labels = &imagegraph.Labels{Width: f.Width, Height: f.Height, Depth: f.Depth, Data: labels, Count: out.Count}
}

// progress returns the progress function of the stream's labeling,
// counted in unit: done of total, told (from any goroutine, in any order)
// on the meter watching the volume (fileprogress.For), once one does. A
// caller watches it once the read has returned, and the count then
// includes what was labeled while it was read.
func (vs *VolumeStream) progress(unit fileprogress.Unit) func(done, total int) {
	var mu sync.Mutex
	var m *fileprogress.Meter
	counted := 0
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if m == nil {
			if m = fileprogress.For(vs.vol); m == nil {
				return
			}
			m.Expect(int64(total), unit)
			// What was done before the meter was found went on while
			// the file was read.
			m.AddPrior(int64(done - 1))
			counted = done - 1
		}
		if done > counted {
			m.Add(int64(done - counted))
			counted = done
		}
	}
}

// Finish ends the stream with the read's outcome and returns the labels. They
// are the stream's when it took the volume, else [LabelVolume]'s. readErr is
// returned as it is (after the labeling goroutine has stopped).
func (vs *VolumeStream) Finish(vol *imagegraph.Volume, readErr error) (*VolumeLabels, error) {
	vs.mu.Lock()
	vs.ended, vs.failed = true, readErr != nil
	vs.readEnd = time.Now()
	taken := vs.vol != nil
	vs.arrived.Broadcast()
	vs.mu.Unlock()
	if !taken {
		if readErr != nil {
			return nil, readErr
		}
		return labelFrames(vs.l, vol, vs.s, vs.conn, OneBuffer(vs.dst), vs.narrow, vs.rows, nil)
	}
	start := time.Now()
	res := <-vs.result
	if readErr != nil {
		return nil, readErr
	}
	if res.err != nil {
		return nil, res.err
	}
	if vol != vs.vol {
		return nil, fmt.Errorf("labelfile: the reader returned another volume than it streamed")
	}
	if err := vs.s.finishLabels(vs.l, res.labels); err != nil {
		return nil, err
	}
	conn := vs.conn
	if res.labels.Depth == 1 { // a 2D file: the in-plane part of the stencil
		conn = slabs.InPlane(conn)
	}
	return &VolumeLabels{
		Frames: [][]uint32{res.labels.Data}, PerFrame: []int{res.labels.Count}, Total: res.labels.Count,
		Last: res.labels, Conn: conn, Backend: vs.l.CPUBackend(),
		Timing:       cclabel.Timing{Total: time.Since(start), Kernel: time.Since(start)},
		WhileReading: res.during,
	}, nil
}

// NarrowFile returns the label file of out that a volume's uint16 labels
// can go to as they are made ([VolumeStream.FinishToFile]), or "" when
// there is none: out writes one label volume, a .npy file, under dtype
// auto or uint16, and no preview or statistics ([NarrowWrites]).
func NarrowFile(out VolumeOutputs, dtype string) string {
	path := cmp.Or(out.Output, out.Labels)
	if !NarrowWrites(out, dtype) || out.Output != "" && out.Labels != "" || !strings.HasSuffix(strings.ToLower(path), ".npy") {
		return ""
	}
	return path
}

// FinishToFile is [VolumeStream.Finish] writing the label array to path,
// a .npy file ([NarrowFile]), as the labeler makes it, for a stream made
// with [VolumeStream.Narrow]: uint16 labels go from the CPU labeler's
// second pass straight into the file, and no array of all of them is made.
// It reports whether the labels were written so; when they were not (the
// stream took the volume, the GPU labeled, several frames, more than 65535
// components), no file is left and the labels are Finish's, for
// [WriteVolume]. When they were, the labels' Frames[0] and Narrow are nil.
func (vs *VolumeStream) FinishToFile(vol *imagegraph.Volume, path string) (*VolumeLabels, bool, error) {
	if vol == nil || len(vol.Frames) != 1 || !vs.narrow {
		vl, err := vs.Finish(vol, nil)
		return vl, false, err
	}
	shape, fortran := formats.NPYFrameShape(vol)
	var vl *VolumeLabels
	written, err := labelsToFile(path, shape, fortran, vol.Frames[0].Width, func(rows func(int, []uint16) error) (bool, error) {
		vs.rows = rows
		var err error
		vl, err = vs.Finish(vol, nil)
		return err == nil && vl.Frames[0] == nil && vl.Narrow == nil, err
	})
	if err != nil {
		return nil, false, err
	}
	return vl, written, nil
}
