package cuda

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
)

func TestLabelGridMatchesCPU(t *testing.T) {
	c := gpuContext(t)
	shapes := [][3]int{{1, 1, 1}, {1, 17, 1}, {17, 1, 1}, {4097, 3, 1}, {3, 4097, 1}, {257, 311, 1}, {129, 17, 1}, {1024, 768, 1},
		{1, 1, 7}, {13, 11, 7}, {64, 33, 17}, {65, 9, 9}, {129, 65, 40}}
	rules := []imagegraph.Rule{
		{Mode: imagegraph.Multilabel},
		{Mode: imagegraph.Binary},
		{Mode: imagegraph.Threshold, Threshold: 2},
		{Mode: imagegraph.Threshold, Threshold: 2, Invert: true},
		{Mode: imagegraph.Threshold, Threshold: 3, Slope: 2, Inter: -1},
	}
	for si, s := range shapes {
		for _, p := range []float64{0.3, 0.6} {
			r, err := gen.RandomRaster(s[0], s[1], s[2], p, uint64(si))
			if err != nil {
				t.Fatal(err)
			}
			data := r.Data.([]uint8)
			for i := range data { // values 0..3 for multilabel and thresholds
				data[i] *= uint8(1 + i%3)
			}
			conns := []int{4, 8}
			if s[2] > 1 {
				conns = []int{6, 18, 26}
			}
			for _, raster := range typedRasters(t, r) {
				for _, rule := range rules {
					for _, conn := range conns {
						checkGridOnGPU(t, c, raster, conn, rule, fmt.Sprintf("%v %v p=%.1f %v", s, raster.Kind, p, rule))
						// The families the default may not have taken: tiles
						// everywhere, runs for images and the block cases.
						checkTilesOnGPU(t, c, raster, conn, rule, fmt.Sprintf("tiles %v %v p=%.1f %v", s, raster.Kind, p, rule))
						if s[2] == 1 || rule.Mode != imagegraph.Multilabel && conn != 6 {
							checkRunsOnGPU(t, c, raster, conn, rule, fmt.Sprintf("runs %v %v p=%.1f %v", s, raster.Kind, p, rule))
						}
					}
				}
			}
		}
	}
}

// checkTilesOnGPU is checkGridOnGPU with the tile kernels for every rule
// and connectivity (volumes and some images take the run kernels, binary
// and threshold rules at 8, 18 and 26 the block kernels otherwise).
func checkTilesOnGPU(t *testing.T, c *Context, r *imagegraph.Raster, conn int, rule imagegraph.Rule, what string) {
	t.Helper()
	c.force = tileKernels
	defer func() { c.force = autoKernels }()
	checkGridOnGPU(t, c, r, conn, rule, what)
}

// checkRunsOnGPU is checkGridOnGPU with the run kernels for every rule and
// connectivity (images of many joined runs take the tile kernels, binary
// and threshold rules at 8, 18 and 26 the block kernels otherwise).
func checkRunsOnGPU(t *testing.T, c *Context, r *imagegraph.Raster, conn int, rule imagegraph.Rule, what string) {
	t.Helper()
	c.force = runKernels
	defer func() { c.force = autoKernels }()
	checkGridOnGPU(t, c, r, conn, rule, what)
}

// checkValueBlocksOnGPU is checkGridOnGPU with the value-block kernels
// for multilabel volumes at 26 (the run kernels take them otherwise).
func checkValueBlocksOnGPU(t *testing.T, c *Context, r *imagegraph.Raster, conn int, rule imagegraph.Rule, what string) {
	t.Helper()
	c.force = valueBlockKernels
	defer func() { c.force = autoKernels }()
	checkGridOnGPU(t, c, r, conn, rule, what)
}

// TestLabelGridMultilabelMatchesCPU labels maps of few to many distinct
// values (patches of equal value, so components span several voxels and
// touch components of other values) in every sample type.
func TestLabelGridMultilabelMatchesCPU(t *testing.T) {
	c := gpuContext(t)
	shapes := [][3]int{{1, 1, 1}, {2, 1, 1}, {5, 3, 1}, {4097, 3, 1}, {3, 4097, 1}, {131, 61, 1}, {257, 17, 1}, {640, 480, 1},
		{1, 1, 5}, {2, 2, 2}, {3, 3, 3}, {7, 131, 3}, {65, 9, 9}, {67, 19, 23}, {130, 33, 17}}
	rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
	for si, s := range shapes {
		n := s[0] * s[1] * s[2]
		conns := []int{4, 8}
		if s[2] > 1 {
			conns = []int{6, 18, 26}
		}
		for _, values := range []int{1, 2, 5, 300, 60000} {
			rng := rand.New(rand.NewPCG(uint64(si), uint64(values)))
			// Patches of 1-4 voxels along x and 1-2 along y and z keep a
			// value; a fifth of them are background.
			u16 := make([]uint16, n)
			px, py, pz := 1+rng.IntN(4), 1+rng.IntN(2), 1+rng.IntN(2)
			patch := map[[3]int]uint16{}
			for i := range u16 {
				x, y, z := i%s[0], (i/s[0])%s[1], i/(s[0]*s[1])
				k := [3]int{x / px, y / py, z / pz}
				v, ok := patch[k]
				if !ok {
					if rng.IntN(5) > 0 {
						v = uint16(1 + rng.IntN(values))
					}
					patch[k] = v
				}
				u16[i] = v
			}
			for _, raster := range multilabelRasters(t, s, u16) {
				for _, conn := range conns {
					what := fmt.Sprintf("%v %v %d values px=%d,%d,%d", s, raster.Kind, values, px, py, pz)
					checkGridOnGPU(t, c, raster, conn, rule, what)
					if s[2] > 1 {
						checkTilesOnGPU(t, c, raster, conn, rule, "tiles "+what)
					} else {
						checkRunsOnGPU(t, c, raster, conn, rule, "runs "+what)
					}
				}
			}
		}
	}
}

// multilabelRasters returns the values v (< 65536) as rasters of every
// sample type, each value mapped one to one (floats: v*0.25, value 1 as
// -0.75; int16 wraps, so 32768 and up become negative).
func multilabelRasters(t *testing.T, s [3]int, v []uint16) []*imagegraph.Raster {
	t.Helper()
	u8, i16 := make([]uint8, len(v)), make([]int16, len(v))
	u32, i32, f32 := make([]uint32, len(v)), make([]int32, len(v)), make([]float32, len(v))
	small := true
	for i, x := range v {
		small = small && x < 256
		u8[i], i16[i] = uint8(x), int16(x)
		u32[i], i32[i], f32[i] = uint32(x)*65599, -int32(x)*3, float32(x)*0.25
		if x == 1 {
			f32[i] = -0.75
		}
	}
	var out []*imagegraph.Raster
	add := func(r *imagegraph.Raster, err error) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if small {
		add(imagegraph.NewRaster(s[0], s[1], s[2], u8))
	}
	add(imagegraph.NewRaster(s[0], s[1], s[2], v))
	add(imagegraph.NewRaster(s[0], s[1], s[2], i16))
	add(imagegraph.NewRaster(s[0], s[1], s[2], u32))
	add(imagegraph.NewRaster(s[0], s[1], s[2], i32))
	add(imagegraph.NewRaster(s[0], s[1], s[2], f32))
	return out
}

// BenchmarkGPUGrid times the grid kernels (data resident) on the
// acceptance inputs: 8192² p=0.6 at 8-connectivity, 512³ p=0.3 at 26.
func BenchmarkGPUGrid(b *testing.B) {
	c := gpuContext(b)
	for _, tc := range []struct {
		name    string
		w, h, d int
		p       float64
		conn    int
	}{
		{"image8192p06c8", 8192, 8192, 1, 0.6, 8},
		{"volume512p03c26", 512, 512, 512, 0.3, 26},
	} {
		r, err := gen.RandomRaster(tc.w, tc.h, tc.d, tc.p, 1)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name, func(b *testing.B) {
			var kernel []float64
			var last Timing
			var err error
			for b.Loop() {
				_, _, t, err := c.LabelGrid(r, tc.conn, imagegraph.Rule{Mode: imagegraph.Binary})
				if err != nil {
					b.Fatal(err)
				}
				kernel = append(kernel, t.Kernel.Seconds()*1e3)
				last = t
			}
			slices.Sort(kernel)
			c.PerKernel = true // one more run for the breakdown
			_, _, last, err = c.LabelGrid(r, tc.conn, imagegraph.Rule{Mode: imagegraph.Binary})
			c.PerKernel = false
			if err != nil {
				b.Fatal(err)
			}
			for _, k := range last.Kernels {
				fmt.Printf("  %s %.3f ms\n", k.Name, k.Duration.Seconds()*1e3)
			}
			fmt.Printf("%s: median kernel %.3f ms over %d runs (upload %.1f ms, download %.1f ms)\n",
				tc.name, kernel[len(kernel)/2], len(kernel), last.Upload.Seconds()*1e3, last.Download.Seconds()*1e3)
			b.ReportMetric(kernel[len(kernel)/2], "kernel-ms")
		})
	}
}

// BenchmarkGPUGridModes times every (rule, connectivity) pair on random
// and blob inputs and multilabel 26 on a cells volume (data resident,
// kernel time; median printed): the images and volumes of "cclabel gen"
// with seed 1, read from $CCLABEL_BENCH_INPUTS/NAME.npy when set (the
// files the peers time), else generated; with $CCLABEL_BENCH_SWEEP set,
// every .npy file of that folder instead (to find where the kernel
// families cross over). "multilabel-tiles" and
// "multilabel-runs" are multilabel on the tile and the run kernels (the
// default: the run kernels for volumes, the tile kernels for images, the
// block kernels for one value at 8, 18 and 26), "multilabel-vblocks"
// multilabel on the value-block kernels (26 only).
func BenchmarkGPUGridModes(b *testing.B) {
	c := gpuContext(b)
	inputs := []gridBenchInput{
		{"img8192-random-p0.6", 8192, 8192, 1, 0.6, 0, []int{8, 4}},
		{"img8192-blobs-p0.5", 8192, 8192, 1, 0.5, 4, []int{8, 4}},
		{"vol512-random-p0.3", 512, 512, 512, 0.3, 0, []int{26, 18, 6}},
		{"vol512-blobs-p0.5", 512, 512, 512, 0.5, 3, []int{26, 18, 6}},
		{"vol512-cells", 512, 512, 512, 0, -1, []int{26, 6, 18}},
	}
	if dir := os.Getenv("CCLABEL_BENCH_SWEEP"); dir != "" {
		var err error
		if inputs, err = sweepInputs(dir); err != nil {
			b.Fatal(err)
		}
		b.Setenv("CCLABEL_BENCH_INPUTS", dir)
	}
	for _, in := range inputs {
		// The input is made (or read) by the first sub-benchmark that runs
		// on it, so that a -test.bench filter skips the others' inputs.
		load := sync.OnceValues(func() (*imagegraph.Raster, error) {
			if dir := os.Getenv("CCLABEL_BENCH_INPUTS"); dir != "" {
				r, err := npy.ReadFile(filepath.Join(dir, in.name+".npy"))
				if err == nil && in.w > 0 && (r.Width != in.w || r.Height != in.h || r.Depth != in.d) {
					err = fmt.Errorf("%s: %dx%dx%d, want %dx%dx%d", in.name, r.Width, r.Height, r.Depth, in.w, in.h, in.d)
				}
				return r, err
			}
			switch {
			case in.blobs < 0: // as "cclabel gen volume --kind cells --seed 1"
				return gen.CellsRaster(in.w, in.h, in.d, 4000, 1)
			case in.blobs > 0:
				return gen.BlobsRaster(in.w, in.h, in.d, in.p, in.blobs, 1)
			}
			return gen.RandomRaster(in.w, in.h, in.d, in.p, 1)
		})
		for _, conn := range in.conns {
			modes := []string{"multilabel", "multilabel-tiles", "multilabel-runs", "binary"}
			if in.blobs < 0 {
				modes = []string{"multilabel", "multilabel-tiles", "multilabel-vblocks"}
			}
			for _, mode := range modes {
				if mode == "multilabel-vblocks" && conn != 26 {
					continue
				}
				rule := imagegraph.Rule{Mode: imagegraph.Binary}
				if strings.HasPrefix(mode, "multilabel") {
					rule.Mode = imagegraph.Multilabel
				}
				b.Run(fmt.Sprintf("%s/c%d/%s", in.name, conn, mode), func(b *testing.B) {
					r, err := load()
					if err != nil {
						b.Fatal(err)
					}
					switch {
					case strings.HasSuffix(mode, "-tiles"):
						c.force = tileKernels
					case strings.HasSuffix(mode, "-runs"):
						c.force = runKernels
					case strings.HasSuffix(mode, "-vblocks"):
						c.force = valueBlockKernels
					}
					defer func() { c.force = autoKernels }()
					var kernel []float64
					count := 0
					for b.Loop() {
						_, n, t, err := c.LabelGrid(r, conn, rule)
						if err != nil {
							b.Fatal(err)
						}
						kernel = append(kernel, t.Kernel.Seconds()*1e3)
						count = n
					}
					slices.Sort(kernel)
					c.PerKernel = true
					_, _, last, err := c.LabelGrid(r, conn, rule)
					c.PerKernel = false
					if err != nil {
						b.Fatal(err)
					}
					var parts string
					for _, k := range last.Kernels {
						parts += fmt.Sprintf(" %s=%.3f", k.Name, k.Duration.Seconds()*1e3)
					}
					fmt.Printf("MODE %s c%d %s: median %.3f ms (min %.3f, %d runs), %d components;%s\n", in.name, conn, mode,
						kernel[len(kernel)/2], kernel[0], len(kernel), count, parts)
					b.ReportMetric(kernel[len(kernel)/2], "kernel-ms")
				})
			}
		}
	}
}

// gridBenchInput is an input of BenchmarkGPUGridModes: NAME.npy, its
// size (0: not checked), how "cclabel gen" makes it and the
// connectivities to time.
type gridBenchInput struct {
	name    string
	w, h, d int
	p       float64
	blobs   int // blob radius, 0 for random, -1 for cells
	conns   []int
}

// sweepInputs returns every .npy file of dir as a benchmark input, at the
// connectivities of its dimensions (from the header; the samples are
// read once, by the first sub-benchmark on the input).
func sweepInputs(dir string) ([]gridBenchInput, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.npy"))
	if err != nil {
		return nil, err
	}
	var inputs []gridBenchInput
	for _, f := range files {
		dims, _, _, err := npy.ProbeFile(f)
		if err != nil {
			return nil, err
		}
		conns := []int{26, 18, 6}
		if len(dims) == 2 {
			conns = []int{8, 4}
		}
		inputs = append(inputs, gridBenchInput{name: strings.TrimSuffix(filepath.Base(f), ".npy"), conns: conns})
	}
	return inputs, nil
}

// typedRasters returns the uint8 raster r and copies of it in every other
// sample type the kernels take (int16 and int32 shifted negative, float32
// with a NaN and a -0 among the values).
func typedRasters(t *testing.T, r *imagegraph.Raster) []*imagegraph.Raster {
	t.Helper()
	src := r.Data.([]uint8)
	u16, i16 := make([]uint16, len(src)), make([]int16, len(src))
	u32, i32, f32 := make([]uint32, len(src)), make([]int32, len(src)), make([]float32, len(src))
	for i, v := range src {
		u16[i], i16[i] = uint16(v)*300, int16(v)-1
		u32[i], i32[i], f32[i] = uint32(v)<<20, int32(v)*-7, float32(v)*0.5
	}
	if len(f32) > 2 {
		f32[0] = float32(math.NaN())
		f32[1] = float32(math.Copysign(0, -1))
	}
	out := []*imagegraph.Raster{r}
	for _, data := range []any{u16, i16, u32, i32, f32} {
		var x *imagegraph.Raster
		var err error
		switch d := data.(type) {
		case []uint16:
			x, err = imagegraph.NewRaster(r.Width, r.Height, r.Depth, d)
		case []int16:
			x, err = imagegraph.NewRaster(r.Width, r.Height, r.Depth, d)
		case []uint32:
			x, err = imagegraph.NewRaster(r.Width, r.Height, r.Depth, d)
		case []int32:
			x, err = imagegraph.NewRaster(r.Width, r.Height, r.Depth, d)
		case []float32:
			x, err = imagegraph.NewRaster(r.Width, r.Height, r.Depth, d)
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, x)
	}
	return out
}
