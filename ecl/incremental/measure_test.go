package incremental_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/cclabel/cclabel/ecl/incremental"
)

// TestMeasureInsert reports the insertion throughput of UnionFind for
// batches of 10^6 and 10^7 uniformly random edges into 2^24 vertices:
// starting from isolated vertices, 20 batches of 10^6 or 3 of 10^7 edges
// (2-3·10^7 edges in all, past the point where a giant component forms),
// the whole sequence repeated $CCLABEL_MEASURE_ROUNDS times (default 5)
// and the median over rounds of each batch's time reported. It runs only
// with CCLABEL_MEASURE=1; $CCLABEL_MEASURE_THREADS sets the goroutines,
// CCLABEL_MEASURE_SCALAR=1 links edge by edge instead of in lockstep.
func TestMeasureInsert(t *testing.T) {
	if os.Getenv("CCLABEL_MEASURE") != "1" {
		t.Skip("set CCLABEL_MEASURE=1 to measure")
	}
	rounds := 5
	if r, err := strconv.Atoi(os.Getenv("CCLABEL_MEASURE_ROUNDS")); err == nil && r > 0 {
		rounds = r
	}
	threads, _ := strconv.Atoi(os.Getenv("CCLABEL_MEASURE_THREADS"))
	scalar := os.Getenv("CCLABEL_MEASURE_SCALAR") == "1"
	const n = 1 << 24
	for _, plan := range []struct{ size, batches int }{{1_000_000, 20}, {10_000_000, 3}} {
		rng := rand.New(rand.NewPCG(1, 2))
		us := make([][]int32, plan.batches)
		vs := make([][]int32, plan.batches)
		for b := range plan.batches {
			us[b], vs[b] = make([]int32, plan.size), make([]int32, plan.size)
			for i := range plan.size {
				us[b][i], vs[b][i] = int32(rng.IntN(n)), int32(rng.IntN(n))
			}
		}
		times := make([][]float64, plan.batches)
		var totals []float64
		for range rounds {
			uf, err := incremental.New(n, threads)
			if err != nil {
				t.Fatal(err)
			}
			uf.SetScalar(scalar)
			total := 0.0
			for b := range plan.batches {
				start := time.Now()
				if err := uf.Insert(us[b], vs[b]); err != nil {
					t.Fatal(err)
				}
				s := time.Since(start).Seconds()
				times[b] = append(times[b], s)
				total += s
			}
			totals = append(totals, total)
		}
		med := func(x []float64) float64 { x = slices.Clone(x); slices.Sort(x); return x[len(x)/2] }
		line := fmt.Sprintf("batch %d x %d into 2^24: total median %.3fs = %.1f M edges/s; per batch M edges/s:",
			plan.size, plan.batches, med(totals), float64(plan.size*plan.batches)/med(totals)/1e6)
		for b := range plan.batches {
			line += fmt.Sprintf(" %.1f", float64(plan.size)/med(times[b])/1e6)
		}
		fmt.Println(line)
	}
}
