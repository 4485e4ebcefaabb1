package gridcc_test

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// widen16 returns uint16 labels as uint32.
func widen16(s []uint16) []uint32 {
	out := make([]uint32, len(s))
	for i, v := range s {
		out[i] = uint32(v)
	}
	return out
}

// labelNarrowChecked runs LabelNarrow into stale arrays and returns its
// labels as uint32, whether they came narrow, and the count.
func labelNarrowChecked(t *testing.T, r *imagegraph.Raster, rule imagegraph.Rule, opts gridcc.Options, stale bool) ([]uint32, bool, int) {
	t.Helper()
	var dst []uint32
	var dst16 []uint16
	if stale {
		dst, dst16 = make([]uint32, r.Len()), make([]uint16, r.Len())
		for i := range dst {
			dst[i], dst16[i] = 0xdeadbeef, 0xbeef
		}
	}
	l, narrow, err := gridcc.LabelNarrow(r, rule, opts, dst, dst16)
	if err != nil {
		t.Fatal(err)
	}
	if narrow == nil {
		return l.Data, false, l.Count
	}
	if l.Data != nil || len(narrow) != r.Len() {
		t.Fatalf("narrow labels: Data %d entries, narrow %d, want nil and %d", len(l.Data), len(narrow), r.Len())
	}
	if stale && &narrow[0] != &dst16[0] {
		t.Fatal("narrow labels not written into dst16")
	}
	return widen16(narrow), true, l.Count
}

// TestLabelNarrowMatchesOracles checks LabelNarrow against breadth-first
// search on awkward shapes, every rule, connectivity and a few thread
// counts: binary labelings come back as uint16, multilabel ones as Label's.
func TestLabelNarrowMatchesOracles(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
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
							got, narrow, n := labelNarrowChecked(t, r, rule, gridcc.Options{Connectivity: conn, Threads: threads}, threads == 2)
							if n != wantN || !slices.Equal(got, want) {
								t.Fatalf("%v %s %v c%d threads %d: %d components, want %d\n got %v\nwant %v", s, name, rule, conn, threads, n, wantN, got, want)
							}
							// A multilabel pattern of one foreground value is binary.
							if rule.Mode != imagegraph.Multilabel && !narrow {
								t.Fatalf("%v %s %v c%d threads %d: labels not narrow", s, name, rule, conn, threads)
							}
						}
					}
				}
			}
		}
	}
}

// dots returns a raster of isolated foreground voxels at even coordinates,
// the first count of them in memory order, and their labels: the k-th dot
// is labeled k at every connectivity.
func dots(w, h, d, count int) (*imagegraph.Raster, []uint32) {
	data := make([]uint8, w*h*d)
	want := make([]uint32, w*h*d)
	k := 0
	for z := 0; z < d; z += 2 {
		for y := 0; y < h; y += 2 {
			for x := 0; x < w && k < count; x += 2 {
				i := x + w*(y+h*z)
				k++
				data[i], want[i] = 1, uint32(k)
			}
		}
	}
	if k != count {
		panic("dots: shape too small")
	}
	r, err := imagegraph.NewRaster(w, h, d, data)
	if err != nil {
		panic(err)
	}
	return r, want
}

// TestLabelNarrowLimit checks counts just under, at and over the uint16
// limit, in 2D and 3D, at every connectivity, on one and several threads:
// up to 65535 components the labels are uint16, past it uint32, and equal
// to the dots' numbering either way.
func TestLabelNarrowLimit(t *testing.T) {
	for _, tc := range []struct {
		w, h, d int
		conns   []int
	}{
		{512, 520, 1, []int{4, 8}},
		{128, 128, 34, []int{6, 18, 26}},
	} {
		for _, count := range []int{65534, 65535, 65536, 65600} {
			r, want := dots(tc.w, tc.h, tc.d, count)
			for _, conn := range tc.conns {
				for _, threads := range []int{1, 2, 4} {
					got, narrow, n := labelNarrowChecked(t, r, imagegraph.Rule{Mode: imagegraph.Binary}, gridcc.Options{Connectivity: conn, Threads: threads}, threads == 2)
					if n != count || !slices.Equal(got, want) {
						t.Fatalf("%dx%dx%d c%d threads %d, %d dots: %d components or labels differ", tc.w, tc.h, tc.d, conn, threads, count, n)
					}
					if narrow != (count <= 65535) {
						t.Errorf("%dx%dx%d c%d threads %d, %d dots: narrow %v", tc.w, tc.h, tc.d, conn, threads, count, narrow)
					}
				}
			}
		}
	}
}

// TestLabelNarrowLargeRandomThreads checks that narrow labels of a large
// random image and volume equal Label's for every thread count, with and
// without Progress (uint32 labels where there are more than 65535
// components).
func TestLabelNarrowLargeRandomThreads(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, s := range [][3]int{{1031, 777, 1}, {97, 61, 53}} {
		data := make([]uint8, s[0]*s[1]*s[2])
		for i := range data {
			if rng.Float64() < 0.4 {
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
			for threads := 1; threads <= 6; threads++ {
				for _, progress := range []bool{false, true} {
					opts := gridcc.Options{Connectivity: conn, Threads: threads}
					steps := 0
					if progress { // labeled as LabelStreamed does
						var mu sync.Mutex
						opts.Progress = func(done, total int) { mu.Lock(); steps++; mu.Unlock() }
					}
					got, narrow, n := labelNarrowChecked(t, r, imagegraph.Rule{Mode: imagegraph.Binary}, opts, threads%2 == 0)
					if narrow != (ref.Count <= 65535) || n != ref.Count || !slices.Equal(got, ref.Data) {
						t.Fatalf("%v c%d threads %d progress %v: narrow %v, %d components (want %d), labels equal %v", s, conn, threads, progress, narrow, n, ref.Count, slices.Equal(got, ref.Data))
					}
					if progress && steps == 0 {
						t.Fatalf("%v c%d threads %d: no progress reported", s, conn, threads)
					}
				}
			}
		}
	}
}
