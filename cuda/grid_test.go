package cuda

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
)

func TestLabelGridMatchesCPU(t *testing.T) {
	c := gpuContext(t)
	shapes := [][3]int{{1, 1, 1}, {1, 17, 1}, {17, 1, 1}, {4097, 3, 1}, {3, 4097, 1}, {257, 311, 1}, {1024, 768, 1},
		{1, 1, 7}, {13, 11, 7}, {64, 33, 17}, {129, 65, 40}}
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
					}
				}
			}
		}
	}
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
