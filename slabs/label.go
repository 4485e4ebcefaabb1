package slabs

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cclabel/cclabel/imagegraph"
)

// LabelFunc labels a raster into dst and returns the label count. dst has
// r.Len() entries, contents irrelevant. The labels are 1..count by first
// occurrence, background 0, under the rule and connectivity the whole volume
// is labeled with — for a raster of one plane (a slab one plane thick), the
// connectivity's in-plane part ([InPlane]).
type LabelFunc func(r *imagegraph.Raster, dst []uint32) (count int, err error)

// KeptFunc labels a slab as a [LabelFunc] does, keeping its labels elsewhere
// (on a GPU, say) until the whole volume's are known. It writes into dst at
// least the slab's first and last planes, the only ones the seams' joining
// reads, and returns fill, which [Label] calls once with table, the map of
// the slab's local labels 0..count to the volume's (table[0] is 0): fill then
// writes the slab's final labels into dst. Label calls fill with a nil table
// when the labeling fails, so that it frees what it kept. A nil fill means
// that dst holds all of the slab's local labels, as a LabelFunc leaves them.
type KeptFunc func(r *imagegraph.Raster, dst []uint32) (count int, fill func(table []uint32) error, err error)

// InPlane returns the in-plane part of a 3D connectivity. It is 4 for 6, and
// 8 for 18 and 26; other values are returned as they are.
func InPlane(conn int) int {
	switch conn {
	case 6:
		return 4
	case 18, 26:
		return 8
	}
	return conn
}

// Options configure [Label].
type Options struct {
	// Planes is the slabs' thickness: each slab holds this many planes,
	// the last of a range fewer when Planes does not divide it.
	Planes int
	// Threads joins the seams and relabels the slabs of an [Into] sink
	// (0: GOMAXPROCS).
	Threads int
	// Lanes, when set, label the slabs instead of the [LabelFunc] given to
	// [Label], which then labels only the seams. With more than one, the
	// planes are split evenly into one range per lane (at most one a plane),
	// each cut into slabs of Planes planes; the lanes label their ranges side
	// by side, each one slab at a time, and the slabs are joined once all are
	// labeled. Lanes need a [RasterSource] and an [Into] sink.
	Lanes []LabelFunc
	// Kept, when set, label the slabs in place of Lanes, one range of
	// planes per KeptFunc as Lanes do (also when there is one): each slab's
	// final labels are written by its fill, the lanes' fills side by side
	// once the seams are joined, rather than relabeled in dst. Kept need a
	// [RasterSource] and an [Into] sink.
	Kept []KeptFunc
	// Progress, when set, is told after each slab is joined how many of
	// the planes are.
	Progress func(done, planes int)
}

// Result describes a volume labeled by [Label].
type Result struct {
	// Count is the number of components.
	Count int
	// Slabs is the number of slabs.
	Slabs int
	// Read is the time spent in the source (reading or waiting for planes),
	// Label in the [LabelFunc] on the slabs (with several lanes, the wall
	// time of labeling them side by side), Join in joining the seams and
	// relabeling, Fill in the fills of [Options].Kept (side by side), and
	// Write in the sink (spilling).
	Read, Label, Join, Fill, Write time.Duration
}

// Label labels the volume src gives into sink, one slab at a time. Slabs are
// opts.Planes planes thick; each is labeled by f (or a lane), joined to the
// slab before it at their seam (labeled by f) and handed to the sink, which
// relabels the slabs once all are joined (a slab a [KeptFunc] kept is
// written by its fill instead). The labels are those of labeling
// the whole volume at once, bit for bit. Errors of f, src and sink are
// returned as they are.
func Label(src Source, f LabelFunc, sink Sink, opts Options) (*Result, error) {
	if f == nil {
		return nil, errors.New("slabs: no LabelFunc")
	}
	if opts.Planes < 1 {
		return nil, fmt.Errorf("slabs: slabs of %d planes", opts.Planes)
	}
	width, height, depth := src.Size()
	j, err := newJoiner(width, height, opts.Threads, f)
	if err != nil {
		return nil, err
	}
	funcs := opts.Kept
	if len(funcs) == 0 && len(opts.Lanes) > 1 {
		for _, f := range opts.Lanes {
			funcs = append(funcs, keepAll(f))
		}
	}
	lanes := max(1, min(len(funcs), depth))
	inLanes := lanes > 1 || len(opts.Kept) > 0
	if inLanes {
		if _, ok := src.(*RasterSource); !ok {
			return nil, errors.New("slabs: lanes need a RasterSource")
		}
		if _, ok := sink.(*memory); !ok {
			return nil, errors.New("slabs: lanes need an Into sink")
		}
	}
	plane := width * height
	if err := sink.start(int64(plane) * int64(depth)); err != nil {
		return nil, err
	}
	slabs := cut(depth, opts.Planes, lanes)
	res := &Result{Slabs: len(slabs)}
	// What a lane keeps is freed however the labeling ends.
	defer func() {
		for i := range slabs {
			if f := slabs[i].fill; f != nil {
				_ = f(nil)
			}
		}
	}()
	if inLanes {
		err = labelLanes(src, sink, funcs, slabs, plane, res)
	} else {
		label := f
		if len(opts.Lanes) > 0 {
			label = opts.Lanes[0]
		}
		err = labelInOrder(src, label, j, sink, slabs, plane, opts.Progress, res)
	}
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if inLanes {
		if err := joinAll(src, j, sink, slabs, plane, opts.Progress); err != nil {
			return nil, err
		}
	}
	m := j.Finish()
	joined := time.Now()
	if err := fillLanes(m, slabs, lanes); err != nil {
		return nil, err
	}
	filled := time.Now()
	res.Fill = filled.Sub(joined)
	if err := sink.finish(m, slabs, plane, opts.Threads); err != nil {
		return nil, err
	}
	res.Join += joined.Sub(start) + time.Since(filled)
	res.Count = m.Count
	return res, nil
}

// slab is planes z0..z1-1 of a volume, labeled by lane; count is its
// LabelFunc's count. fill is its KeptFunc's, until called; filled says
// that it was, and its labels are the volume's.
type slab struct {
	z0, z1, lane, count int
	fill                func(table []uint32) error
	filled              bool
}

// keepAll is f as a [KeptFunc] that keeps nothing.
func keepAll(f LabelFunc) KeptFunc {
	return func(r *imagegraph.Raster, dst []uint32) (int, func([]uint32) error, error) {
		n, err := f(r, dst)
		return n, nil, err
	}
}

// cut splits depth planes into lanes ranges as even as can be, each cut
// into slabs of at most thick planes.
func cut(depth, thick, lanes int) []slab {
	var s []slab
	for p := range lanes {
		lo, hi := p*depth/lanes, (p+1)*depth/lanes
		for z0 := lo; z0 < hi; z0 += thick {
			s = append(s, slab{z0: z0, z1: min(z0+thick, hi), lane: p})
		}
	}
	return s
}

// planes returns slab s of src, checked against the volume's plane.
func planes(src Source, s slab, width, height int) (*imagegraph.Raster, error) {
	r, err := src.Planes(s.z0, s.z1)
	if err != nil {
		return nil, err
	}
	if r.Width != width || r.Height != height || r.Depth != s.z1-s.z0 {
		return nil, fmt.Errorf("slabs: a source gave %dx%dx%d planes for planes %d..%d of %dx%d", r.Width, r.Height, r.Depth, s.z0, s.z1-1, width, height)
	}
	return r, nil
}

// labelInOrder labels, joins and stores the slabs one after another.
func labelInOrder(src Source, label LabelFunc, j *joiner, sink Sink, slabs []slab, plane int, progress func(int, int), res *Result) error {
	width, height, depth := src.Size()
	for _, s := range slabs {
		start := time.Now()
		r, err := planes(src, s, width, height)
		if err != nil {
			return err
		}
		dst, err := sink.labels(s.z0, s.z1, plane)
		if err != nil {
			return err
		}
		labeled := time.Now()
		res.Read += labeled.Sub(start)
		n, err := label(r, dst)
		if err != nil {
			return err
		}
		joined := time.Now()
		res.Label += joined.Sub(labeled)
		if err := j.Add(r, dst, n); err != nil {
			return err
		}
		written := time.Now()
		res.Join += written.Sub(joined)
		if err := sink.put(dst); err != nil {
			return err
		}
		res.Write += time.Since(written)
		if progress != nil {
			progress(s.z1, depth)
		}
	}
	return nil
}

// labelLanes labels the slabs of several lanes side by side, each lane's
// one after another, and returns the first error by lane.
func labelLanes(src Source, sink Sink, lanes []KeptFunc, slabs []slab, plane int, res *Result) error {
	width, height, _ := src.Size()
	start := time.Now()
	errs := make([]error, len(lanes))
	var wg sync.WaitGroup
	for p := range lanes {
		wg.Go(func() {
			for i := range slabs {
				s := &slabs[i]
				if s.lane != p {
					continue
				}
				r, err := planes(src, *s, width, height)
				var dst []uint32
				if err == nil {
					dst, err = sink.labels(s.z0, s.z1, plane)
				}
				if err == nil {
					s.count, s.fill, err = lanes[p](r, dst)
				}
				if err != nil {
					errs[p] = err
					return
				}
			}
		})
	}
	wg.Wait()
	res.Label = time.Since(start)
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// joinAll joins slabs labeled side by side, in order.
func joinAll(src Source, j *joiner, sink Sink, slabs []slab, plane int, progress func(int, int)) error {
	width, height, depth := src.Size()
	for _, s := range slabs {
		r, err := planes(src, s, width, height)
		if err != nil {
			return err
		}
		dst, err := sink.labels(s.z0, s.z1, plane)
		if err != nil {
			return err
		}
		if err := j.Add(r, dst, s.count); err != nil {
			return err
		}
		if progress != nil {
			progress(s.z1, depth)
		}
	}
	return nil
}

// fillLanes calls the fills of the slabs that have one with their tables
// of m, each lane's in order, the lanes side by side, and returns the
// first error by lane.
func fillLanes(m *Relabeling, slabs []slab, lanes int) error {
	errs := make([]error, lanes)
	var wg sync.WaitGroup
	for p := range lanes {
		wg.Go(func() {
			for k := range slabs {
				s := &slabs[k]
				if s.lane != p || s.fill == nil {
					continue
				}
				table, err := m.Table(k)
				if err == nil {
					fill := s.fill
					s.fill = nil
					err = fill(table)
				}
				if err != nil {
					errs[p] = err
					return
				}
				s.filled = true
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
