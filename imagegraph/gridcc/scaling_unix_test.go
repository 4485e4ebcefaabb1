//go:build unix

package gridcc_test

import (
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// cpuTime returns the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkThreadScaling labels the inputs of [BenchmarkLabelRealEM] and
// [BenchmarkLabelNeurites] (multilabel, 26) at one and two threads, one
// call each in turn, so that a machine whose speed drifts slows both
// alike. It reports the median MVx/s of each, their ratio (x-2t) and the
// share of the two threads' time that the process ran (busy-%: below 100
// where the machine lent less than two cores). Without
// CCLABEL_BENCH_FULL=1 the inputs are small.
//
//	go test -run '^$' -bench ThreadScaling -benchtime 5x ./imagegraph/gridcc
func BenchmarkThreadScaling(b *testing.B) {
	_, side := benchSides()
	em, err := realEMInputs(benchFull())
	if err != nil {
		b.Fatal(err)
	}
	neurites, err := neuriteInputs(side)
	if err != nil {
		b.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	med := func(s []float64) float64 { s = slices.Clone(s); slices.Sort(s); return s[len(s)/2] }
	for _, in := range append(em, neurites...) {
		b.Run(in.name, func(b *testing.B) {
			dst := make([]uint32, in.r.Len())
			var wall, cpu [3][]float64
			for b.Loop() {
				for _, threads := range []int{1, 2} {
					runtime.GOMAXPROCS(threads)
					c0, w0 := cpuTime(), time.Now()
					if _, err := gridcc.Label(in.r, imagegraph.Rule{Mode: imagegraph.Multilabel}, gridcc.Options{Connectivity: 26, Threads: threads}, dst); err != nil {
						b.Fatal(err)
					}
					wall[threads] = append(wall[threads], time.Since(w0).Seconds())
					cpu[threads] = append(cpu[threads], (cpuTime() - c0).Seconds())
				}
			}
			mvx := float64(in.r.Len()) / 1e6
			b.ReportMetric(mvx/med(wall[1]), "MVx/s-1t")
			b.ReportMetric(mvx/med(wall[2]), "MVx/s-2t")
			b.ReportMetric(med(wall[1])/med(wall[2]), "x-2t")
			b.ReportMetric(100*med(cpu[2])/2/med(wall[2]), "busy-%")
		})
	}
}
