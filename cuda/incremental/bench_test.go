package incremental

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/ecl/incremental"
)

// incBenchVertices is the vertex count of the insertion benchmarks.
const incBenchVertices = 1 << 24

// incBenchBatches is the number of batches of one round.
const incBenchBatches = 3

// median returns the median of x (the upper one for an even count).
func median(x []float64) float64 {
	x = slices.Clone(x)
	slices.Sort(x)
	return x[len(x)/2]
}

// generate fills the edge buffers with batch k of size m (pseudo-random
// vertices of [0, n)) on the device.
func (inc *Incremental) generate(m, k int) error {
	return inc.c.Do(func() error {
		if err := inc.reserve(m); err != nil {
			return err
		}
		mm, n, seed := int32(m), int32(inc.n), uint64(k)*0x1234567+1
		if err := inc.c.Launch("inc_random_edges", inc.blocks(m), threadsPerBlock, unsafe.Pointer(&mm), unsafe.Pointer(&n),
			unsafe.Pointer(&seed), unsafe.Pointer(&inc.us.Ptr), unsafe.Pointer(&inc.vs.Ptr)); err != nil {
			return err
		}
		return inc.c.Sync()
	})
}

// hostBatch downloads the edge buffers' first m pairs.
func (inc *Incremental) hostBatch(m int) (us, vs []int32, err error) {
	us, vs = make([]int32, m), make([]int32, m)
	err = inc.c.Do(func() error {
		if err := inc.c.DownloadStaged(unsafe.Pointer(&us[0]), inc.us.Ptr, uint64(4*m)); err != nil {
			return err
		}
		return inc.c.DownloadStaged(unsafe.Pointer(&vs[0]), inc.vs.Ptr, uint64(4*m))
	})
	return us, vs, err
}

// reset makes every vertex isolated again.
func (inc *Incremental) reset() error {
	inc.count, inc.dirty, inc.giantValid = int64(inc.n), false, false
	return inc.c.Do(func() error {
		n := int32(inc.n)
		if err := inc.c.Launch("inc_init", inc.blocks(inc.n), threadsPerBlock, unsafe.Pointer(&n), unsafe.Pointer(&inc.parent.Ptr)); err != nil {
			return err
		}
		return inc.c.Sync()
	})
}

// insertResident hooks the m edges already in the edge buffers, as Insert
// does after its upload, and returns the kernel time.
func (inc *Incremental) insertResident(m int) (time.Duration, error) {
	inc.last = cuda.Timing{}
	err := inc.c.Do(func() error {
		hooks, bad, err := inc.hookResident(m, true)
		if err != nil {
			return err
		}
		if bad >= 0 {
			return fmt.Errorf("pair %d out of range", bad)
		}
		inc.count -= int64(hooks)
		inc.dirty = inc.dirty || hooks > 0
		return nil
	})
	return inc.last.Kernel, err
}

// benchList returns the comma-separated integers of environment variable
// name, or def when it is unset.
func benchList(b *testing.B, name string, def int) []int {
	s := os.Getenv(name)
	if s == "" {
		return []int{def}
	}
	var list []int
	for _, f := range strings.Split(s, ",") {
		p, err := strconv.Atoi(f)
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		list = append(list, p)
	}
	return list
}

// BenchmarkIncrementalInsert inserts rounds of incBenchBatches batches of
// 10^6, 10^7 and 10^8 uniformly random edges into 2^24 isolated vertices
// (one round per iteration: -test.benchtime=7x for 7) and prints, for
// each batch of a round, the median edges/s of its kernels with the data
// resident (generated on the device) and of Insert from Go memory (the
// upload through the staging buffers, the kernels and the status
// download). The component count after a round is checked against the
// CPU union-find on the same edges. $CCLABEL_INC_PASSES lists pass sizes
// to compare (edges hooked between compress passes; 0: one pass),
// $CCLABEL_INC_GIANT the giant bitmap off and on (0,1).
func BenchmarkIncrementalInsert(b *testing.B) {
	c := gpuContext(b)
	for _, size := range []int{1_000_000, 10_000_000, 100_000_000} {
		for _, pass := range benchList(b, "CCLABEL_INC_PASSES", -1) {
			for _, giant := range benchList(b, "CCLABEL_INC_GIANT", -1) {
				name := fmt.Sprintf("batch%d", size)
				if pass >= 0 {
					name += fmt.Sprintf("/pass%d", pass)
				}
				if giant >= 0 {
					name += fmt.Sprintf("/giant%d", giant)
				}
				b.Run(name, func(b *testing.B) { benchInsert(b, c, size, pass, giant) })
			}
		}
	}
}

// benchInsert is one case of BenchmarkIncrementalInsert.
func benchInsert(b *testing.B, c *cuda.Context, size, pass, giant int) {
	inc, err := New(c, incBenchVertices)
	if err != nil {
		b.Fatal(err)
	}
	defer inc.Close()
	if pass >= 0 {
		inc.passEdges = pass
	}
	if giant >= 0 {
		inc.giantFilter = giant == 1
	}
	hus, hvs := make([][]int32, incBenchBatches), make([][]int32, incBenchBatches)
	cpu, err := incremental.New(incBenchVertices, 0)
	if err != nil {
		b.Fatal(err)
	}
	for k := range incBenchBatches {
		if err := inc.generate(size, k); err != nil {
			b.Fatal(err)
		}
		if hus[k], hvs[k], err = inc.hostBatch(size); err != nil {
			b.Fatal(err)
		}
		if err := cpu.Insert(hus[k], hvs[k]); err != nil {
			b.Fatal(err)
		}
	}
	resident := make([][]float64, incBenchBatches)
	uploaded := make([][]float64, incBenchBatches)
	uploads := make([][]float64, incBenchBatches)
	for b.Loop() {
		if err := inc.reset(); err != nil {
			b.Fatal(err)
		}
		for k := range incBenchBatches {
			if err := inc.generate(size, k); err != nil {
				b.Fatal(err)
			}
			d, err := inc.insertResident(size)
			if err != nil {
				b.Fatal(err)
			}
			resident[k] = append(resident[k], d.Seconds())
		}
		if got, want := inc.Components(), cpu.Components(); got != want {
			b.Fatalf("resident: %d components, the CPU has %d", got, want)
		}
		if err := inc.reset(); err != nil {
			b.Fatal(err)
		}
		for k := range incBenchBatches {
			start := time.Now()
			if err := inc.Insert(hus[k], hvs[k]); err != nil {
				b.Fatal(err)
			}
			uploaded[k] = append(uploaded[k], time.Since(start).Seconds())
			uploads[k] = append(uploads[k], inc.LastTiming().Upload.Seconds())
		}
		if got, want := inc.Components(), cpu.Components(); got != want {
			b.Fatalf("uploaded: %d components, the CPU has %d", got, want)
		}
	}
	line := fmt.Sprintf("insert %d-edge batches into 2^24 (pass %d, giant bitmap %v), median of %d, G edges/s:", size, inc.passEdges, inc.giantFilter, len(resident[0]))
	for k := range incBenchBatches {
		line += fmt.Sprintf(" batch %d resident %.2f (%.3f ms), with upload %.2f (%.3f ms, upload %.3f ms);",
			k+1, float64(size)/median(resident[k])/1e9, median(resident[k])*1e3,
			float64(size)/median(uploaded[k])/1e9, median(uploaded[k])*1e3, median(uploads[k])*1e3)
	}
	fmt.Println(line)
	b.ReportMetric(float64(size)/median(resident[0])/1e9, "G-edges/s-first")
}

// BenchmarkIncrementalCrossover compares Insert on the GPU (upload
// included) with the CPU union-find on all cores, batch by batch, for
// batch sizes 2^12..2^22 into 2^24 vertices (8 batches a size, in a
// sequence from isolated vertices), and times moving the CPU structure's
// components to the GPU: what BackendAuto's GPUMinUpdatesPerCore weighs.
func BenchmarkIncrementalCrossover(b *testing.B) {
	c := gpuContext(b)
	const n, batches = incBenchVertices, 8
	for range b.N {
		gen, err := New(c, n)
		if err != nil {
			b.Fatal(err)
		}
		for lg := 12; lg <= 22; lg += 2 {
			m := 1 << lg
			gpu, err := New(c, n)
			if err != nil {
				b.Fatal(err)
			}
			cpu, err := incremental.New(n, 0)
			if err != nil {
				b.Fatal(err)
			}
			var tg, tc []float64
			for k := range batches {
				if err := gen.generate(m, k); err != nil {
					b.Fatal(err)
				}
				us, vs, err := gen.hostBatch(m)
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				if err := gpu.Insert(us, vs); err != nil {
					b.Fatal(err)
				}
				tg = append(tg, time.Since(start).Seconds())
				start = time.Now()
				if err := cpu.Insert(us, vs); err != nil {
					b.Fatal(err)
				}
				tc = append(tc, time.Since(start).Seconds())
			}
			if gpu.Components() != cpu.Components() {
				b.Fatalf("2^%d: %d components on the GPU, %d on the CPU", lg, gpu.Components(), cpu.Components())
			}
			fmt.Printf("crossover batch 2^%d: GPU with upload %.3f ms (%.3g edges/s), CPU %.3f ms (%.3g edges/s), median of %d\n",
				lg, median(tg)*1e3, float64(m)/median(tg), median(tc)*1e3, float64(m)/median(tc), batches)
			gpu.Close()
			if lg == 22 {
				start := time.Now()
				reps := cpu.Result().Parent
				mid := time.Now()
				moved, err := From(c, reps)
				if err != nil {
					b.Fatal(err)
				}
				fmt.Printf("move 2^24 vertices to the GPU: CPU representatives %.3f ms, upload %.3f ms\n",
					mid.Sub(start).Seconds()*1e3, time.Since(mid).Seconds()*1e3)
				moved.Close()
			}
		}
		gen.Close()
	}
}
