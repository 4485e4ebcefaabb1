package slabs

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// sliceReader is a PlaneReader of a raster in memory: it copies the next
// planes, as a file reader would.
type sliceReader struct {
	r    *imagegraph.Raster
	next int
	// fail, when positive, fails the read that would reach plane fail.
	fail int
}

var errRead = errors.New("the read failed")

func (s *sliceReader) ReadPlanes(dst *imagegraph.Raster) error {
	if s.fail > 0 && s.next+dst.Depth > s.fail {
		return errRead
	}
	from, err := Planes(s.r, s.next, s.next+dst.Depth)
	if err != nil {
		return err
	}
	s.next += dst.Depth
	switch d := dst.Data.(type) {
	case imagegraph.Samples[uint8]:
		copy(d, from.Data.(imagegraph.Samples[uint8]))
	case imagegraph.Samples[float32]:
		copy(d, from.Data.(imagegraph.Samples[float32]))
	default:
		return fmt.Errorf("sliceReader: %T samples", dst.Data)
	}
	return nil
}

// arriving returns a copy of r whose planes a goroutine fills one after
// another, and the wait function of a source reading it as it fills.
func arriving(t *testing.T, r *imagegraph.Raster) (*imagegraph.Raster, func(int) error) {
	t.Helper()
	dst, err := NewPlanes(r.Width, r.Height, r.Depth, r.Kind)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	done := 0
	go func() {
		rd := &sliceReader{r: r}
		for z := range r.Depth {
			p, _ := Planes(dst, z, z+1)
			if err := rd.ReadPlanes(p); err != nil {
				panic(err)
			}
			mu.Lock()
			done += r.Width * r.Height
			cond.Broadcast()
			mu.Unlock()
		}
	}()
	return dst, func(n int) error {
		mu.Lock()
		defer mu.Unlock()
		for done < n {
			cond.Wait()
		}
		return nil
	}
}

// driverCase is one way of feeding Label and taking its labels.
type driverCase struct {
	name string
	// lanes is the count of lanes (0: none); kept makes them KeptFuncs
	// (keptLabel) rather than LabelFuncs.
	lanes int
	kept  bool
	// source returns the source of r; sink the sink and a function that
	// returns its labels once Label has returned.
	source func(t *testing.T, r *imagegraph.Raster) Source
	sink   func(t *testing.T, voxels int) (Sink, func() []uint32)
}

func rasterSource(t *testing.T, r *imagegraph.Raster) Source { return NewRasterSource(r, nil) }

func arrivingSource(t *testing.T, r *imagegraph.Raster) Source {
	dst, wait := arriving(t, r)
	return NewRasterSource(dst, wait)
}

func readerSource(t *testing.T, r *imagegraph.Raster) Source {
	return NewReaderSource(&sliceReader{r: r}, r.Width, r.Height, r.Depth, r.Kind)
}

func memorySink(t *testing.T, voxels int) (Sink, func() []uint32) {
	dst := make([]uint32, voxels)
	for i := range dst {
		dst[i] = 0xdeadbeef // Label must not depend on dst's contents
	}
	return Into(dst), func() []uint32 { return dst }
}

// spillSink reads the labels back in pieces of awkward sizes.
func spillSink(t *testing.T, voxels int) (Sink, func() []uint32) {
	s, err := NewSpill(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, func() []uint32 {
		out := make([]uint32, voxels)
		for lo := 0; lo < voxels; {
			hi := min(voxels, lo+1+lo%13*5)
			if err := s.ReadLabels(out[lo:hi], int64(lo)); err != nil {
				t.Fatal(err)
			}
			lo = hi
		}
		return out
	}
}

var driverCases = []driverCase{
	{"raster/memory", 0, false, rasterSource, memorySink},
	{"raster/spill", 0, false, rasterSource, spillSink},
	{"arriving/memory", 0, false, arrivingSource, memorySink},
	{"arriving/spill", 0, false, arrivingSource, spillSink},
	{"reader/memory", 0, false, readerSource, memorySink},
	{"reader/spill", 0, false, readerSource, spillSink},
	{"raster/memory/1 lane", 1, false, rasterSource, memorySink},
	{"raster/memory/2 lanes", 2, false, rasterSource, memorySink},
	{"raster/memory/3 lanes", 3, false, rasterSource, memorySink},
	{"arriving/memory/3 lanes", 3, false, arrivingSource, memorySink},
	{"raster/memory/1 kept lane", 1, true, rasterSource, memorySink},
	{"raster/memory/2 kept lanes", 2, true, rasterSource, memorySink},
	{"arriving/memory/3 kept lanes", 3, true, arrivingSource, memorySink},
	{"raster/memory/9 lanes", 9, false, rasterSource, memorySink},
}

// randomRaster returns a raster of w x h x d samples in 0..3, foreground
// at density p, as uint8 or (float) float32 samples.
func randomRaster(t *testing.T, w, h, d int, p float64, seed uint64, float bool) *imagegraph.Raster {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, uint64(p*100)))
	n := w * h * d
	var r *imagegraph.Raster
	var err error
	if float {
		data := make([]float32, n)
		for i := range data {
			if rng.Float64() < p {
				data[i] = float32(1+rng.IntN(3)) * 0.5
			}
		}
		if n > 1 {
			data[0], data[n-1] = float32(negZero()), float32(nan())
		}
		r, err = imagegraph.NewRaster(w, h, d, data)
	} else {
		data := make([]uint8, n)
		for i := range data {
			if rng.Float64() < p {
				data[i] = uint8(1 + rng.IntN(3))
			}
		}
		r, err = imagegraph.NewRaster(w, h, d, data)
	}
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLabelMatchesWholeRaster: Label, from every kind of source into
// every kind of sink, sequentially and in lanes, in slabs of one plane,
// of thicknesses that divide the depth or not and of the whole volume,
// gives the labels of labeling the whole raster at once, in 2D and 3D at
// every connectivity and rule.
func TestLabelMatchesWholeRaster(t *testing.T) {
	type shape struct {
		w, h, d int
		conns   []int
	}
	shapes := []shape{
		{9, 7, 1, []int{4, 8}},     // 2D: one plane, one slab
		{1, 1, 1, []int{4, 8, 26}}, // one voxel
		{13, 1, 10, []int{6, 18, 26}},
		{1, 11, 9, []int{6, 26}},
		{11, 9, 12, []int{6, 18, 26}},
		{17, 6, 25, []int{6, 18, 26}},
	}
	rules := []imagegraph.Rule{
		{Mode: imagegraph.Multilabel},
		{Mode: imagegraph.Binary},
		{Mode: imagegraph.Threshold, Threshold: 1, Invert: true},
	}
	densities, floats := []float64{0.3, 0.6, 1}, []bool{false, true}
	if testing.Short() {
		densities, floats = []float64{0.6}, []bool{false}
	}
	for si, s := range shapes {
		for _, p := range densities {
			for _, float := range floats {
				r := randomRaster(t, s.w, s.h, s.d, p, uint64(si), float)
				for _, rule := range rules {
					for _, conn := range s.conns {
						whole := cpuLabel(rule, conn, 1)
						want := make([]uint32, r.Len())
						count, err := whole(r, want)
						if err != nil {
							t.Fatal(err)
						}
						for _, thick := range slices.Compact([]int{1, 2, 3, 5, max(1, s.d-1), s.d, s.d + 4}) {
							for _, dc := range driverCases {
								name := fmt.Sprintf("%dx%dx%d p=%.1f float=%v %v c%d slabs of %d %s", s.w, s.h, s.d, p, float, rule, conn, thick, dc.name)
								checkDriver(t, name, r, rule, conn, thick, dc, want, count)
							}
						}
					}
				}
			}
		}
	}
}

// checkDriver labels r through Label as dc says and compares the labels
// with want.
func checkDriver(t *testing.T, name string, r *imagegraph.Raster, rule imagegraph.Rule, conn, thick int, dc driverCase, want []uint32, count int) {
	t.Helper()
	opts := Options{Planes: thick, Threads: 1 + thick%3}
	fills := &fillCounter{}
	for i := range dc.lanes {
		if dc.kept {
			opts.Kept = append(opts.Kept, keptLabel(cpuLabel(rule, conn, 1+i%2), fills))
		} else {
			opts.Lanes = append(opts.Lanes, cpuLabel(rule, conn, 1+i%2))
		}
	}
	var progress []int
	opts.Progress = func(done, planes int) {
		if planes != r.Depth {
			t.Errorf("%s: progress of %d planes, want %d", name, planes, r.Depth)
		}
		progress = append(progress, done)
	}
	sink, labels := dc.sink(t, r.Len())
	res, err := Label(dc.source(t, r), cpuLabel(rule, conn, 2), sink, opts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got := labels()
	if kept, called := fills.counts(); kept != called || dc.kept && kept != res.Slabs {
		t.Fatalf("%s: %d slabs kept, %d filled, of %d", name, kept, called, res.Slabs)
	}
	if res.Count != count || !slices.Equal(got, want) {
		i := 0
		for i < len(got) && got[i] == want[i] {
			i++
		}
		t.Fatalf("%s: %d components, want %d; first difference at voxel %d", name, res.Count, count, i)
	}
	if res.Slabs != len(progress) || len(progress) == 0 || progress[len(progress)-1] != r.Depth || !slices.IsSorted(progress) {
		t.Fatalf("%s: %d slabs, progress %v", name, res.Slabs, progress)
	}
	if lanes := min(dc.lanes, r.Depth); lanes <= 1 && res.Slabs != (r.Depth+thick-1)/thick {
		t.Fatalf("%s: %d slabs of %d planes in %d planes", name, res.Slabs, thick, r.Depth)
	}
}

// TestLabelErrors: bad options, sizes and sources are errors, and the
// errors of the source and the LabelFunc come back as they are.
func TestLabelErrors(t *testing.T) {
	r := randomRaster(t, 6, 5, 8, 0.5, 1, false)
	label := cpuLabel(imagegraph.Rule{Mode: imagegraph.Binary}, 26, 1)
	errLabel := errors.New("the labeling failed")
	calls := 0
	// failing fails on the third slab of one plane (the seams are two).
	failing := func(r *imagegraph.Raster, dst []uint32) (int, error) {
		if r.Depth == 1 {
			calls++
		}
		if calls == 3 {
			return 0, errLabel
		}
		return label(r, dst)
	}
	for _, tc := range []struct {
		name  string
		src   Source
		f     LabelFunc
		sink  Sink
		opts  Options
		want  string
		match error
	}{
		{"no LabelFunc", NewRasterSource(r, nil), nil, Into(make([]uint32, r.Len())), Options{Planes: 2}, "no LabelFunc", nil},
		{"no planes", NewRasterSource(r, nil), label, Into(make([]uint32, r.Len())), Options{}, "slabs of 0 planes", nil},
		{"short sink", NewRasterSource(r, nil), label, Into(make([]uint32, r.Len()-1)), Options{Planes: 2}, "239 labels for a volume of 240", nil},
		{"lanes of a reader", readerSource(t, r), label, Into(make([]uint32, r.Len())), Options{Planes: 2, Lanes: []LabelFunc{label, label}}, "lanes need a RasterSource", nil},
		{"read error", NewReaderSource(&sliceReader{r: r, fail: 5}, 6, 5, 8, r.Kind), label, Into(make([]uint32, r.Len())), Options{Planes: 2}, "", errRead},
		{"wait error", NewRasterSource(r, func(n int) error {
			if n > 60 {
				return errRead
			}
			return nil
		}), label, Into(make([]uint32, r.Len())), Options{Planes: 2}, "", errRead},
		{"label error", NewRasterSource(r, nil), failing, Into(make([]uint32, r.Len())), Options{Planes: 1}, "", errLabel},
	} {
		res, err := Label(tc.src, tc.f, tc.sink, tc.opts)
		switch {
		case err == nil:
			t.Errorf("%s: no error (%d components)", tc.name, res.Count)
		case tc.match != nil && err != tc.match:
			t.Errorf("%s: %v, want %v as it is", tc.name, err, tc.match)
		case !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// The lanes' errors come back as they are too.
	lanes := []LabelFunc{label, func(*imagegraph.Raster, []uint32) (int, error) { return 0, errLabel }}
	if _, err := Label(NewRasterSource(r, nil), label, Into(make([]uint32, r.Len())), Options{Planes: 2, Lanes: lanes}); err != errLabel {
		t.Errorf("a lane's error: %v, want %v", err, errLabel)
	}
	if _, err := Label(NewRasterSource(r, nil), label, spillOf(t), Options{Planes: 2, Lanes: []LabelFunc{label, label}}); err == nil {
		t.Error("lanes took a Spill")
	}
	// A reader source reads forward only.
	rs := readerSource(t, r)
	if _, err := rs.Planes(2, 4); err == nil {
		t.Error("a reader source skipped planes")
	}
}

// spillOf returns a Spill in a temporary folder, closed with the test.
func spillOf(t *testing.T) *Spill {
	s, err := NewSpill(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestSpillReadBack: a Spill's labels read back on several goroutines at
// once are the volume's; it takes one volume, and reads before the
// labeling ends or past its end fail.
func TestSpillReadBack(t *testing.T) {
	r := randomRaster(t, 23, 19, 31, 0.4, 2, false)
	label := cpuLabel(imagegraph.Rule{Mode: imagegraph.Multilabel}, 18, 1)
	want := make([]uint32, r.Len())
	count, err := label(r, want)
	if err != nil {
		t.Fatal(err)
	}
	s := spillOf(t)
	if err := s.ReadLabels(make([]uint32, 4), 0); err == nil {
		t.Error("read back before the labeling")
	}
	res, err := Label(NewRasterSource(r, nil), label, s, Options{Planes: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Count != count {
		t.Fatalf("%d components, want %d", res.Count, count)
	}
	got := make([]uint32, r.Len())
	var wg sync.WaitGroup
	const part = 1000
	errs := make([]error, (len(got)+part-1)/part)
	for i := range errs {
		wg.Go(func() {
			lo := i * part
			errs[i] = s.ReadLabels(got[lo:min(lo+part, len(got))], int64(lo))
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatal("the labels read back differ from the whole raster's")
	}
	if err := s.ReadLabels(make([]uint32, 2), int64(r.Len()-1)); err == nil {
		t.Error("read back past the volume's end")
	}
	if _, err := Label(NewRasterSource(r, nil), label, s, Options{Planes: 4}); err == nil {
		t.Error("a Spill took a second volume")
	}
}

// fillCounter counts the slabs keptLabel keeps and the calls of their
// fills.
type fillCounter struct {
	mu           sync.Mutex
	kept, called int
}

func (c *fillCounter) counts() (kept, called int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kept, c.called
}

// keptLabel is f as a KeptFunc that keeps a slab's labels in a buffer of
// its own, as a GPU would: it writes only the first and last planes into
// dst (and garbage between), and its fill maps the kept labels through the
// table into dst; a fill called twice, or after a free, fails.
func keptLabel(f LabelFunc, c *fillCounter) KeptFunc {
	return func(r *imagegraph.Raster, dst []uint32) (int, func([]uint32) error, error) {
		kept := make([]uint32, len(dst))
		n, err := f(r, kept)
		if err != nil {
			return 0, nil, err
		}
		plane := r.Width * r.Height
		for i := range dst {
			dst[i] = 0xfeedface
		}
		copy(dst[:plane], kept[:plane])
		copy(dst[len(dst)-plane:], kept[len(kept)-plane:])
		c.mu.Lock()
		c.kept++
		c.mu.Unlock()
		return n, func(table []uint32) error {
			c.mu.Lock()
			c.called++
			c.mu.Unlock()
			if kept == nil {
				return errors.New("a fill called twice")
			}
			if table != nil {
				if len(table) != n+1 || table[0] != 0 {
					return fmt.Errorf("a table of %d entries for %d labels", len(table), n)
				}
				for i, l := range kept {
					dst[i] = table[l]
				}
			}
			kept = nil
			return nil
		}, nil
	}
}

// TestKeptFreedOnError: when a lane fails, every slab another lane kept is
// freed (its fill called with a nil table), once, and the error comes back
// as it is.
func TestKeptFreedOnError(t *testing.T) {
	r := randomRaster(t, 6, 5, 8, 0.5, 1, false)
	label := cpuLabel(imagegraph.Rule{Mode: imagegraph.Binary}, 26, 1)
	errLabel := errors.New("the labeling failed")
	var freed, filled int
	var mu sync.Mutex
	keeping := func(r *imagegraph.Raster, dst []uint32) (int, func([]uint32) error, error) {
		n, err := label(r, dst)
		return n, func(table []uint32) error {
			mu.Lock()
			defer mu.Unlock()
			if table == nil {
				freed++
			} else {
				filled++
			}
			return nil
		}, err
	}
	failing := func(*imagegraph.Raster, []uint32) (int, func([]uint32) error, error) { return 0, nil, errLabel }
	_, err := Label(NewRasterSource(r, nil), label, Into(make([]uint32, r.Len())), Options{Planes: 2, Kept: []KeptFunc{keeping, failing}})
	if err != errLabel {
		t.Fatalf("a kept lane's error: %v, want %v", err, errLabel)
	}
	if freed != 2 || filled != 0 {
		t.Fatalf("after a failed lane: %d kept slabs freed, %d filled; want 2 freed", freed, filled)
	}
	if _, err := Label(NewRasterSource(r, nil), label, spillOf(t), Options{Planes: 2, Kept: []KeptFunc{keeping}}); err == nil {
		t.Error("kept lanes took a Spill")
	}
}
