package ecl

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// idRuns cuts the IDs ends (u0, v0, u1, v1, ...) into runs of at most
// per edges, narrow where every ID of a run fits 32 bits.
func idRuns(ends []int64, per int) []IDEdges {
	var runs []IDEdges
	for a := 0; a < len(ends); a += 2 * per {
		part := ends[a:min(len(ends), a+2*per)]
		e := IDEdges{Lo: slices.Min(part), Hi: slices.Max(part)}
		if e.Lo >= 0 && e.Hi <= math.MaxUint32 {
			for _, x := range part {
				e.Narrow = append(e.Narrow, uint32(x))
			}
		} else {
			e.Wide = slices.Clone(part)
		}
		runs = append(runs, e)
	}
	return runs
}

// TestCompactIDsMatchesSort checks CompactIDs against sorting the IDs and
// ranking each endpoint by binary search, for identity, dense and sparse
// ID ranges, narrow and wide runs, on one and several goroutines.
func TestCompactIDsMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name   string
		id     func() int64
		m, per int
	}{
		{"identity", nil, 3000, 100},
		{"dense", func() int64 { return 1000 + rng.Int64N(4000) }, 3000, 77},
		{"sparse", func() int64 { return rng.Int64N(1 << 40) }, 3000, 500},
		{"negative", func() int64 { return rng.Int64N(1<<20) - 1<<19 }, 2000, 64},
		{"wide and narrow", func() int64 {
			if rng.IntN(2) == 0 {
				return rng.Int64N(100)
			}
			return math.MaxInt64 - rng.Int64N(100)
		}, 2000, 300},
	} {
		ends := make([]int64, 2*tc.m)
		for i := range ends {
			if tc.id == nil {
				ends[i] = int64(i) + 7 // every ID of [7, 7+2m)
			} else {
				ends[i] = tc.id()
			}
		}
		want := slices.Compact(slices.Sorted(slices.Values(ends)))
		for _, threads := range []int{1, 4} {
			ids, us, vs, err := CompactIDs(idRuns(ends, tc.per), int64(len(want)), threads)
			if err != nil {
				t.Fatalf("%s, %d threads: %v", tc.name, threads, err)
			}
			if !slices.Equal(ids, want) {
				t.Fatalf("%s, %d threads: %d IDs, want %d", tc.name, threads, len(ids), len(want))
			}
			for i := range us {
				if ids[us[i]] != ends[2*i] || ids[vs[i]] != ends[2*i+1] {
					t.Fatalf("%s, %d threads: edge %d is (%d,%d), want (%d,%d)", tc.name, threads, i, ids[us[i]], ids[vs[i]], ends[2*i], ends[2*i+1])
				}
			}
			_, _, _, err = CompactIDs(idRuns(ends, tc.per), int64(len(want))-1, threads)
			var le *IDLimitError
			if !errors.As(err, &le) || le.Count != len(want) || le.Limit != int64(len(want))-1 {
				t.Errorf("%s, %d threads: below the limit: %v", tc.name, threads, err)
			}
		}
	}
}
