package gridcc

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/formats/nifti"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/gridcc/runs"
)

// keys64 serves integer samples as 64-bit keys to runs.LabelGrid, the
// per-pixel labeler the swapped one is checked against.
type keys64[T integer] struct {
	s     []T
	width int
}

func (k keys64[T]) Keys(row int, dst []uint64) {
	for x, v := range k.s[row*k.width : (row+1)*k.width] {
		dst[x] = uint64(v)
	}
}

// stripeVolume returns a w x h x d volume of values from a few (or many)
// whose runs along y are about ylen long and along x about xlen.
func stripeVolume[T integer](rng *rand.Rand, w, h, d, xlen, ylen, values int) []T {
	s := make([]T, w*h*d)
	for z := range d {
		for x := 0; x < w; {
			xe := min(w, x+1+rng.IntN(2*xlen))
			for y := 0; y < h; {
				ye := min(h, y+1+rng.IntN(2*ylen))
				v := T(rng.IntN(values))
				if rng.IntN(4) == 0 {
					v = ^v
				}
				for yy := y; yy < ye; yy++ {
					for xx := x; xx < xe; xx++ {
						s[xx+w*(yy+h*z)] = v
					}
				}
				y = ye
			}
			x = xe
		}
	}
	return s
}

// checkSwapped compares runs.LabelRunsSwapped on swappedRows with
// runs.LabelGrid on the volume's keys, for every 3D connectivity and 1 to
// 3 threads.
func checkSwapped[T integer, K grid.GridKey](t *testing.T, name string, s []T, w, h, d int) {
	t.Helper()
	shape := grid.GridShape{Width: w, Height: h, Depth: d}
	for _, conn := range []int{6, 18, 26} {
		want := make([]uint32, len(s))
		n, err := runs.LabelGrid[uint64](shape, conn, keys64[T]{s, w}, want, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, threads := range []int{1, 2, 3} {
			got := make([]uint32, len(s))
			for i := range got {
				got[i] = 0xdead // garbage the labeler must overwrite
			}
			m, err := runs.LabelRunsSwapped[K](shape, conn, func() grid.RunRows[K] { return newSwappedRows[T, K](s, w, h) }, got, threads)
			if err != nil {
				t.Fatal(err)
			}
			if m != n || !slices.Equal(got, want) {
				i := 0
				for i < len(got) && got[i] == want[i] {
					i++
				}
				t.Fatalf("%s %dx%dx%d c%d threads %d: %d labels, want %d; first difference at %d", name, w, h, d, conn, threads, m, n, i)
			}
		}
	}
}

func TestLabelRunsSwapped(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	shapes := [][3]int{{1, 1, 2}, {2, 3, 2}, {7, 5, 3}, {5, 7, 9}, {13, 31, 17}, {64, 9, 12}, {33, 65, 20}}
	for _, sh := range shapes {
		w, h, d := sh[0], sh[1], sh[2]
		for _, l := range [][2]int{{1, 1}, {1, 6}, {4, 2}, {2, 40}} {
			name := fmt.Sprintf("runs %dx%d", l[0], l[1])
			checkSwapped[uint8, uint32](t, "uint8 "+name, stripeVolume[uint8](rng, w, h, d, l[0], l[1], 3), w, h, d)
			checkSwapped[int16, uint32](t, "int16 "+name, stripeVolume[int16](rng, w, h, d, l[0], l[1], 5), w, h, d)
			checkSwapped[uint32, uint32](t, "uint32 "+name, stripeVolume[uint32](rng, w, h, d, l[0], l[1], 1<<20), w, h, d)
			checkSwapped[int64, uint64](t, "int64 "+name, stripeVolume[int64](rng, w, h, d, l[0], l[1], 4), w, h, d)
		}
	}
	// No component, and one filling the volume.
	for _, v := range []uint32{0, 9} {
		s := make([]uint32, 13*17*12)
		for i := range s {
			s[i] = v
		}
		checkSwapped[uint32, uint32](t, fmt.Sprintf("all %d", v), s, 13, 17, 12)
	}
}

// TestLabelRunsSwappedOrdersPlanes checks the numbering of components
// that first occur in the same plane, where the swapped order (x, then y)
// and the volume's (y, then x) disagree: diagonal strokes, each a
// component at 6-connectivity and many joined at 26, in planes split
// among bands.
func TestLabelRunsSwappedOrdersPlanes(t *testing.T) {
	const w, h, d = 23, 19, 16
	s := make([]uint16, w*h*d)
	for z := range d {
		for y := range h {
			for x := range w {
				if (x+2*y+z)%5 == 0 || (3*x+y)%7 == z%3 {
					s[x+w*(y+h*z)] = uint16(1 + (x+y+z)%3)
				}
			}
		}
	}
	checkSwapped[uint16, uint32](t, "strokes", s, w, h, d)
}

// TestLabelSwapsRunsAlongY checks that Label takes the swapped path on a
// volume whose runs run along y, not on one whose runs run along x, and
// labels both as runs.LabelGrid does.
func TestLabelSwapsRunsAlongY(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const w, h, d = 40, 37, 23
	for _, c := range []struct {
		name       string
		xlen, ylen int
		swap       bool
	}{{"along y", 1, 12, true}, {"along x", 12, 1, false}} {
		s := stripeVolume[uint16](rng, w, h, d, c.xlen, c.ylen, 6)
		if got := runsAlongY(s, w, h, d); got != c.swap {
			t.Fatalf("%s: runsAlongY = %v, want %v", c.name, got, c.swap)
		}
		r, err := imagegraph.NewRaster(w, h, d, s)
		if err != nil {
			t.Fatal(err)
		}
		shape := grid.GridShape{Width: w, Height: h, Depth: d}
		for _, conn := range []int{6, 18, 26} {
			want := make([]uint32, len(s))
			n, err := runs.LabelGrid[uint64](shape, conn, keys64[uint16]{s, w}, want, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, threads := range []int{1, 2} {
				l, err := Label(r, imagegraph.Rule{Mode: imagegraph.Multilabel}, Options{Connectivity: conn, Threads: threads}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if l.Count != n || !slices.Equal(l.Data, want) {
					t.Fatalf("%s c%d threads %d: %d labels, want %d", c.name, conn, threads, l.Count, n)
				}
			}
		}
	}
}

// TestLabelSwappedRealEM labels the SNEMI3D cutout of testdata/em stored z
// fastest, whose runs run along y (so Label takes the swapped path), and
// checks it against runs.LabelGrid for one to three threads.
func TestLabelSwappedRealEM(t *testing.T) {
	vol, err := nifti.ReadFile(filepath.Join("..", "..", "testdata", "em", "snemi-mini.nii.gz"))
	if err != nil {
		t.Fatal(err)
	}
	r := vol.Frames[0]
	w, h, d := r.Width, r.Height, r.Depth
	s := make([]uint32, r.Len()) // z fastest: a d x h x w volume
	for z := range d {
		for y := range h {
			for x := range w {
				s[z+d*(y+h*x)] = uint32(r.Value(x + w*(y+h*z)))
			}
		}
	}
	if !runsAlongY(s, d, h, w) {
		t.Fatal("runsAlongY = false on the z-fastest cutout, want true")
	}
	zr, err := imagegraph.NewRaster(d, h, w, s)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]uint32, len(s))
	n, err := runs.LabelGrid[uint64](grid.GridShape{Width: d, Height: h, Depth: w}, 26, keys64[uint32]{s, d}, want, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, threads := range []int{1, 2, 3} {
		l, err := Label(zr, imagegraph.Rule{Mode: imagegraph.Multilabel}, Options{Connectivity: 26, Threads: threads}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if l.Count != n || !slices.Equal(l.Data, want) {
			t.Fatalf("threads %d: %d labels, want %d (or labels differ)", threads, l.Count, n)
		}
	}
}

// TestChanges checks changes, 64 samples at a time where it can, against
// a count of the differing samples one by one.
func TestChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{0, 1, 63, 64, 65, 130, 200} {
		a32, b32 := make([]uint32, n), make([]uint32, n)
		a8, b8 := make([]uint8, n), make([]uint8, n)
		want := 0
		for i := range n {
			a32[i], b32[i] = uint32(rng.IntN(3)), uint32(rng.IntN(3))
			a8[i], b8[i] = uint8(a32[i]), uint8(b32[i])
			if a32[i] != b32[i] {
				want++
			}
		}
		for _, masks := range [][]uint64{nil, make([]uint64, 1), make([]uint64, 4)} {
			if got := changes(a32, b32, masks); got != want {
				t.Errorf("uint32 n=%d masks %d: %d changes, want %d", n, len(masks), got, want)
			}
			if got := changes(a8, b8, masks); got != want {
				t.Errorf("uint8 n=%d masks %d: %d changes, want %d", n, len(masks), got, want)
			}
		}
	}
}
