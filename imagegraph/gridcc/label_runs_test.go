package gridcc

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
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
