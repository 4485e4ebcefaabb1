package gridcc_test

import (
	"os"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/cclabel/cclabel/gen"
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

// TestThreadScaling labels EM-like segmentations (multilabel, 26) at one
// and two threads, alternating call by call, and logs the median MVx/s of
// each, the share of the two threads' time that was busy, and the ratio:
// a machine whose speed drifts between runs affects both alike. It runs
// only with CCLABEL_SCALING set: "realem" (the testdata/em cutouts, tiled
// as BenchmarkLabelRealEM does) or "generator" (512³ neurites and cells).
//
//	CCLABEL_SCALING=realem go test -run ThreadScaling -v ./imagegraph/gridcc
func TestThreadScaling(t *testing.T) {
	which := os.Getenv("CCLABEL_SCALING")
	if which == "" {
		t.Skip("CCLABEL_SCALING unset")
	}
	type input struct {
		name string
		r    *imagegraph.Raster
	}
	var ins []input
	if which == "realem" {
		for _, c := range []struct {
			file  string
			tiles [3]int
		}{{"snemi-mini.nii.gz", [3]int{3, 3, 8}}, {"fib25-64.nii.gz", [3]int{6, 6, 6}}} {
			r, err := readEM(c.file, c.tiles)
			if err != nil {
				t.Fatal(err)
			}
			ins = append(ins, input{c.file[:5] + "/xfast", r}, input{c.file[:5] + "/zfast", zFastest(r)})
		}
	} else {
		const side, labels = 512, 2500
		neurites, err := gen.NeuritesRaster(side, side, side, labels, 1)
		if err != nil {
			t.Fatal(err)
		}
		coarse, err := gen.NeuritesRasterSpaced(side, side, side, labels, 1, [3]float64{16, 16, 40})
		if err != nil {
			t.Fatal(err)
		}
		cells, err := gen.CellsRaster(side, side, side, labels, 1)
		if err != nil {
			t.Fatal(err)
		}
		ins = []input{{"neurites/xfast", neurites}, {"neurites/zfast", zFastest(neurites)},
			{"neurites16nm/xfast", coarse}, {"neurites16nm/zfast", zFastest(coarse)}, {"cells/xfast", cells}}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	med := func(s []float64) float64 { s = slices.Clone(s); slices.Sort(s); return s[len(s)/2] }
	for _, in := range ins {
		dst := make([]uint32, in.r.Len())
		var wall, cpu [3][]float64
		for range 5 {
			for _, threads := range []int{1, 2} {
				runtime.GOMAXPROCS(threads)
				c0, w0 := cpuTime(), time.Now()
				if _, err := gridcc.Label(in.r, imagegraph.Rule{Mode: imagegraph.Multilabel}, gridcc.Options{Connectivity: 26, Threads: threads}, dst); err != nil {
					t.Fatal(err)
				}
				wall[threads] = append(wall[threads], time.Since(w0).Seconds())
				cpu[threads] = append(cpu[threads], (cpuTime() - c0).Seconds())
			}
		}
		mvx := float64(in.r.Len()) / 1e6
		t.Logf("%-20s 1 thread %6.1f MVx/s | 2 threads %6.1f MVx/s, %3.0f%% busy | %.2fx", in.name,
			mvx/med(wall[1]), mvx/med(wall[2]), 100*med(cpu[2])/2/med(wall[2]), med(wall[1])/med(wall[2]))
	}
}
