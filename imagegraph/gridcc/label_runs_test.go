package gridcc

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/gridcc/runs"
)

// naiveRuns splits src into its runs of equal nonzero values, one sample
// at a time.
func naiveRuns[T integer](src []T) []grid.KeyRun[uint64] {
	var runs []grid.KeyRun[uint64]
	for x := 0; x < len(src); {
		start := x
		for x++; x < len(src) && src[x] == src[start]; x++ {
		}
		if src[start] != 0 {
			runs = append(runs, grid.KeyRun[uint64]{Start: int32(start), End: int32(x), Key: uint64(src[start])})
		}
	}
	return runs
}

// checkIntRuns compares appendIntRuns with naiveRuns on rows of every
// length up to 300 and a few longer ones (past the blocks of rows that
// changeMasks32 takes at a time) whose runs are long, short or both (the
// switch to short runs happening partway), values drawn from a few or many.
func checkIntRuns[T integer](t *testing.T, rng *rand.Rand, name string) {
	lengths := make([]int, 0, 305)
	for n := range 300 {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1024, 1025, 1089, 2113, 4100)
	for _, n := range lengths {
		for _, mean := range []int{1, 3, 9, 40, 1000} {
			for _, values := range []int{2, 3, 1 << 16} {
				src := make([]T, n)
				for x := 0; x < n; {
					v := T(rng.IntN(values))
					if rng.IntN(2) == 0 {
						v = ^v // the top bits too
					}
					length := 1 + rng.IntN(2*mean)
					if x > n/2 && mean > 9 {
						length = 1 + rng.IntN(3) // short runs after long ones
					}
					for end := min(x+length, n); x < end; x++ {
						src[x] = v
					}
				}
				want := naiveRuns(src)
				got := appendIntRuns(src, []grid.KeyRun[uint64]{{Start: -1}})[1:]
				if !slices.Equal(got, want) {
					t.Fatalf("%s n=%d mean %d values %d: runs\n%v\nwant\n%v\nof %v", name, n, mean, values, got, want, src)
				}
			}
		}
	}
}

func TestAppendIntRunsMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	checkIntRuns[uint8](t, rng, "uint8")
	checkIntRuns[int16](t, rng, "int16")
	checkIntRuns[uint32](t, rng, "uint32")
	checkIntRuns[int64](t, rng, "int64")
}

// TestLabelKeyRows32 checks the rows that multilabel volumes of 4-byte
// samples serve as keys in memory (runs.LabelRuns links them from masks of
// equal keys at 26-connectivity): int32 samples, negative ones included,
// and uint32 ones label as the per-pixel labeler labels them, and samples
// of other widths serve none.
func TestLabelKeyRows32(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	const w, h, d = 70, 23, 19
	vals := make([]int32, w*h*d)
	for i := range vals {
		if i%w == 0 || rng.IntN(4) == 0 {
			vals[i] = int32(rng.IntN(5)) - 2 // -2..2, 0 background
		} else {
			vals[i] = vals[i-1]
		}
	}
	unsigned := make([]uint32, len(vals))
	for i, v := range vals {
		unsigned[i] = uint32(v) * 2654435761 // distinct keys for distinct values
	}
	shape := grid.GridShape{Width: w, Height: h, Depth: d}
	if got := newIntRows(vals, w, imagegraph.Rule{Mode: imagegraph.Multilabel}).KeyRow32(3); len(got) != w || got[5] != uint32(vals[3*w+5]) {
		t.Fatalf("int32 KeyRow32 = %v", got)
	}
	if newIntRows(make([]uint16, w*h*d), w, imagegraph.Rule{Mode: imagegraph.Multilabel}).KeyRow32(0) != nil {
		t.Fatal("uint16 samples serve keys")
	}
	for _, r := range []*imagegraph.Raster{mustRaster(t, w, h, d, vals), mustRaster(t, w, h, d, unsigned)} {
		want := make([]uint32, len(vals))
		n, err := runs.LabelGrid[uint64](shape, 26, keys64[int32]{vals, w}, want, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, threads := range []int{1, 3} {
			got, err := Label(r, imagegraph.Rule{Mode: imagegraph.Multilabel}, Options{Connectivity: 26, Threads: threads}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.Count != n || !slices.Equal(got.Data, want) {
				t.Fatalf("%T threads %d: %d components, want %d", r.Data, threads, got.Count, n)
			}
		}
	}
}

// mustRaster returns a w x h x d raster of s.
func mustRaster[T imagegraph.Sample](t *testing.T, w, h, d int, s []T) *imagegraph.Raster {
	t.Helper()
	r, err := imagegraph.NewRaster(w, h, d, s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
