package gridcc_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// rowsCollector gathers the rows LabelNarrowTo hands out, checking that
// each comes whole and once.
type rowsCollector struct {
	mu     sync.Mutex
	width  int
	labels []uint16
	seen   []bool
	err    error
}

func newRowsCollector(r *imagegraph.Raster) *rowsCollector {
	return &rowsCollector{width: r.Width, labels: make([]uint16, r.Len()), seen: make([]bool, r.Height*r.Depth)}
}

func (c *rowsCollector) rows(row int, labels []uint16) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(labels) / c.width
	if len(labels)%c.width != 0 || n == 0 || row < 0 || row+n > len(c.seen) {
		c.err = fmt.Errorf("rows %d: %d labels of rows %d wide", row, len(labels), c.width)
		return nil
	}
	for y := row; y < row+n; y++ {
		if c.seen[y] {
			c.err = fmt.Errorf("row %d handed out twice", y)
		}
		c.seen[y] = true
	}
	copy(c.labels[row*c.width:], labels)
	return nil
}

// labelNarrowToChecked runs LabelNarrowTo and returns its labels as uint32
// (from the rows when they went there), whether they did, and the count.
func labelNarrowToChecked(t *testing.T, r *imagegraph.Raster, rule imagegraph.Rule, opts gridcc.Options) ([]uint32, bool, int) {
	t.Helper()
	c := newRowsCollector(r)
	l, streamed, err := gridcc.LabelNarrowTo(r, rule, opts, nil, c.rows)
	if err != nil {
		t.Fatal(err)
	}
	if !streamed {
		if slices.Contains(c.seen, true) {
			t.Fatal("rows handed out, but not reported")
		}
		return l.Data, false, l.Count
	}
	if c.err != nil {
		t.Fatal(c.err)
	}
	if l.Data != nil {
		t.Fatal("labels went to rows, and Data is set")
	}
	if i := slices.Index(c.seen, false); i >= 0 {
		t.Fatalf("row %d never handed out", i)
	}
	return widen16(c.labels), true, l.Count
}

// TestLabelNarrowToMatchesOracles checks LabelNarrowTo against breadth-first
// search as TestLabelNarrowMatchesOracles checks LabelNarrow: binary
// labelings go to the rows, multilabel ones come back as Label's.
func TestLabelNarrowToMatchesOracles(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	rules := []imagegraph.Rule{
		{Mode: imagegraph.Multilabel},
		{Mode: imagegraph.Binary},
		{Mode: imagegraph.Threshold, Threshold: 1, Invert: true},
	}
	for _, is3D := range []bool{false, true} {
		shapes, conns := shapes2D, []int{4, 8}
		if is3D {
			shapes, conns = shapes3D, []int{6, 18, 26}
		}
		for _, s := range shapes {
			for name, data := range patterns(s[0], s[1], s[2], rng) {
				r, err := imagegraph.NewRaster(s[0], s[1], s[2], data)
				if err != nil {
					t.Fatal(err)
				}
				for _, rule := range rules {
					for _, conn := range conns {
						g, err := gridcc.NewGrid(r, rule, conn)
						if err != nil {
							t.Fatal(err)
						}
						want, wantN := bfsLabels(g)
						for _, threads := range []int{1, 2, 3} {
							got, streamed, n := labelNarrowToChecked(t, r, rule, gridcc.Options{Connectivity: conn, Threads: threads})
							if n != wantN || !slices.Equal(got, want) {
								t.Fatalf("%v %s %v c%d threads %d: %d components, want %d\n got %v\nwant %v", s, name, rule, conn, threads, n, wantN, got, want)
							}
							if rule.Mode != imagegraph.Multilabel && !streamed {
								t.Fatalf("%v %s %v c%d threads %d: labels not handed to the rows", s, name, rule, conn, threads)
							}
						}
					}
				}
			}
		}
	}
}

// TestLabelNarrowToLimit checks counts around the uint16 limit: up to 65535
// components the labels go to the rows, past it they come back as uint32,
// equal to the dots' numbering either way.
func TestLabelNarrowToLimit(t *testing.T) {
	for _, tc := range []struct {
		w, h, d int
		conns   []int
	}{
		{512, 520, 1, []int{4, 8}},
		{128, 128, 34, []int{6, 18, 26}},
	} {
		for _, count := range []int{65535, 65536} {
			r, want := dots(tc.w, tc.h, tc.d, count)
			for _, conn := range tc.conns {
				for _, threads := range []int{1, 3} {
					got, streamed, n := labelNarrowToChecked(t, r, imagegraph.Rule{Mode: imagegraph.Binary}, gridcc.Options{Connectivity: conn, Threads: threads})
					if n != count || !slices.Equal(got, want) {
						t.Fatalf("%dx%dx%d c%d threads %d, %d dots: %d components or labels differ", tc.w, tc.h, tc.d, conn, threads, count, n)
					}
					if streamed != (count <= 65535) {
						t.Errorf("%dx%dx%d c%d threads %d, %d dots: streamed %v", tc.w, tc.h, tc.d, conn, threads, count, streamed)
					}
				}
			}
		}
	}
}

// TestLabelNarrowToLargeThreads checks large random rasters, whose bands
// hand out many windows of rows, on every thread count, with and without
// Progress.
func TestLabelNarrowToLargeThreads(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	for _, s := range [][3]int{{1031, 1777, 1}, {97, 61, 153}, {3000, 700, 1}} {
		data := make([]uint8, s[0]*s[1]*s[2])
		for i := range data {
			if rng.Float64() < 0.2 {
				data[i] = 1
			}
		}
		r, _ := imagegraph.NewRaster(s[0], s[1], s[2], data)
		conns := []int{4, 8}
		if s[2] > 1 {
			conns = []int{6, 18, 26}
		}
		for _, conn := range conns {
			ref, err := gridcc.Label(r, imagegraph.Rule{Mode: imagegraph.Binary}, gridcc.Options{Connectivity: conn, Threads: 1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, threads := range []int{1, 2, 5} {
				for _, progress := range []bool{false, true} {
					opts := gridcc.Options{Connectivity: conn, Threads: threads}
					if progress {
						opts.Progress = func(done, total int) {}
					}
					got, streamed, n := labelNarrowToChecked(t, r, imagegraph.Rule{Mode: imagegraph.Binary}, opts)
					if streamed != (ref.Count <= 65535) || n != ref.Count || !slices.Equal(got, ref.Data) {
						t.Fatalf("%v c%d threads %d progress %v: streamed %v, %d components (want %d), labels equal %v", s, conn, threads, progress, streamed, n, ref.Count, slices.Equal(got, ref.Data))
					}
				}
			}
		}
	}
}

// TestLabelNarrowToRowsError checks that an error of rows ends the calls
// and comes back, on one thread and several.
func TestLabelNarrowToRowsError(t *testing.T) {
	data := make([]uint8, 2000*1500)
	for i := range data {
		data[i] = uint8(i % 3 % 2)
	}
	r, _ := imagegraph.NewRaster(2000, 1500, 1, data)
	bad := errors.New("disk full")
	for _, threads := range []int{1, 4} {
		var mu sync.Mutex
		calls := 0
		_, _, err := gridcc.LabelNarrowTo(r, imagegraph.Rule{Mode: imagegraph.Binary}, gridcc.Options{Threads: threads}, nil, func(int, []uint16) error {
			mu.Lock()
			defer mu.Unlock()
			calls++
			return bad
		})
		if !errors.Is(err, bad) {
			t.Fatalf("threads %d: error %v, want %v", threads, err, bad)
		}
		if calls > threads {
			t.Errorf("threads %d: rows called %d times after failing", threads, calls)
		}
	}
	if _, _, err := gridcc.LabelNarrowTo(r, imagegraph.Rule{Mode: imagegraph.Binary}, gridcc.Options{}, nil, nil); err == nil {
		t.Error("LabelNarrowTo without rows: no error")
	}
}

// TestLabelNarrowWideFallback checks rasters of more than 65535 components
// whose clusters straddle the bands' borders: the first pass keeps the
// slots where it numbers them, and the uint32 second pass then moves them
// past the border merges' links. LabelNarrow and LabelNarrowTo must give
// Label's labels, on every connectivity and thread count.
func TestLabelNarrowWideFallback(t *testing.T) {
	if testing.Short() {
		t.Skip("large rasters")
	}
	rng := rand.New(rand.NewPCG(12, 13))
	for _, tc := range []struct {
		w, h, d int
		density float64
		conns   []int
	}{
		{1500, 1200, 1, 0.2, []int{4, 8}},
		{140, 130, 120, 0.12, []int{6}},
		{140, 130, 120, 0.07, []int{18}},
		{200, 190, 150, 0.03, []int{26}},
	} {
		data := make([]uint8, tc.w*tc.h*tc.d)
		for i := range data {
			if rng.Float64() < tc.density {
				data[i] = 1
			}
		}
		r, _ := imagegraph.NewRaster(tc.w, tc.h, tc.d, data)
		for _, conn := range tc.conns {
			ref, err := gridcc.Label(r, imagegraph.Rule{Mode: imagegraph.Binary}, gridcc.Options{Connectivity: conn, Threads: 1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if ref.Count <= 65535 {
				t.Fatalf("%dx%dx%d c%d: %d components, want more than 65535", tc.w, tc.h, tc.d, conn, ref.Count)
			}
			for _, threads := range []int{1, 2, 3, 7} {
				for _, progress := range []bool{false, true} {
					opts := gridcc.Options{Connectivity: conn, Threads: threads}
					if progress {
						opts.Progress = func(done, total int) {}
					}
					got, narrow, n := labelNarrowChecked(t, r, imagegraph.Rule{Mode: imagegraph.Binary}, opts, threads == 2)
					if narrow || n != ref.Count || !slices.Equal(got, ref.Data) {
						t.Fatalf("%dx%dx%d c%d threads %d progress %v: LabelNarrow narrow %v, %d components (want %d), labels equal %v", tc.w, tc.h, tc.d, conn, threads, progress, narrow, n, ref.Count, slices.Equal(got, ref.Data))
					}
					got, streamed, n := labelNarrowToChecked(t, r, imagegraph.Rule{Mode: imagegraph.Binary}, opts)
					if streamed || n != ref.Count || !slices.Equal(got, ref.Data) {
						t.Fatalf("%dx%dx%d c%d threads %d progress %v: LabelNarrowTo streamed %v, %d components (want %d), labels equal %v", tc.w, tc.h, tc.d, conn, threads, progress, streamed, n, ref.Count, slices.Equal(got, ref.Data))
					}
				}
			}
		}
	}
}
