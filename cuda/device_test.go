package cuda

import (
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/cclabel/cclabel/cuda/internal/driver"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// onDevice copies b to fresh device memory of at least size bytes, freed
// when the test ends.
func onDevice(t testing.TB, c *Context, b []byte, size int) uintptr {
	t.Helper()
	var buf driver.Buffer
	err := c.dc.Do(func() error {
		var err error
		if buf, err = c.dc.Alloc(uint64(max(size, len(b), 1))); err != nil {
			return err
		}
		return driver.UploadSlice(c.dc, buf.Ptr, b)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.dc.Do(func() error { c.dc.Free(buf); return nil }) })
	return buf.Ptr
}

// fromDevice returns n values of type T at device address p.
func fromDevice[T any](t *testing.T, c *Context, p uintptr, n int) []T {
	t.Helper()
	out := make([]T, n)
	if err := c.dc.Do(func() error { return driver.DownloadSlice(c.dc, out, p) }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLabelDeviceMatchesCPU labels rasters already in device memory, into
// uint32 and uint16 device labels, and compares them with the serial CPU
// labeler's: every sample type, rule and connectivity, shapes whose
// kernels need more label room than the grid (a few voxels) and images
// wider than the pairs' sample.
func TestLabelDeviceMatchesCPU(t *testing.T) {
	c := gpuContext(t)
	shapes := [][3]int{{1, 1, 1}, {5, 3, 1}, {257, 311, 1}, {4097, 3, 1}, {3, 4097, 1}, {1 << 17, 3, 1}, {1024, 768, 1},
		{13, 11, 7}, {64, 33, 17}}
	rules := []imagegraph.Rule{{Mode: imagegraph.Multilabel}, {Mode: imagegraph.Binary},
		{Mode: imagegraph.Threshold, Threshold: 2}, {Mode: imagegraph.Threshold, Threshold: 2, Invert: true}}
	for si, s := range shapes {
		r, err := gen.RandomRaster(s[0], s[1], s[2], 0.45, uint64(si))
		if err != nil {
			t.Fatal(err)
		}
		data := r.Data.(imagegraph.Samples[uint8])
		for i := range data {
			data[i] *= uint8(1 + i%3)
		}
		conns := []int{4, 8}
		if s[2] > 1 {
			conns = []int{6, 18, 26}
		}
		for _, raster := range typedRasters(t, r) {
			in := onDevice(t, c, raster.Data.Bytes(), 0)
			out := onDevice(t, c, nil, 4*raster.Len())
			for _, rule := range rules {
				for _, conn := range conns {
					want, err := gridcc.Label(raster, rule, gridcc.Options{Connectivity: conn, Threads: 1}, nil)
					if err != nil {
						t.Fatal(err)
					}
					for _, narrow := range []bool{false, true} {
						what := fmt.Sprintf("%v %v %v c%d narrow=%v", s, raster.Kind, rule, conn, narrow)
						g := DeviceGrid{Samples: in, Kind: raster.Kind, Width: s[0], Height: s[1], Depth: s[2], Labels: out, Narrow: narrow}
						n, _, err := c.LabelDevice(g, conn, rule)
						if err != nil {
							t.Fatalf("%s: %v", what, err)
						}
						if n != want.Count {
							t.Fatalf("%s: %d components, CPU %d", what, n, want.Count)
						}
						got := fromDevice[uint32](t, c, out, raster.Len())
						if narrow {
							if n > MaxNarrowCount {
								continue
							}
							got16 := fromDevice[uint16](t, c, out, raster.Len())
							for i, v := range got16 {
								got[i] = uint32(v)
							}
						}
						if !slices.Equal(got, want.Data) {
							t.Fatalf("%s: labels differ from the CPU's", what)
						}
					}
				}
			}
		}
	}
}

// TestLabelDeviceRefuses checks the addresses LabelDevice refuses: host
// memory, unaligned device memory and a bad connectivity.
func TestLabelDeviceRefuses(t *testing.T) {
	c := gpuContext(t)
	host := make([]uint32, 64)
	dev := onDevice(t, c, make([]byte, 256), 0)
	hostPtr := uintptr(unsafe.Pointer(&host[0])) &^ 15
	for _, tc := range []struct {
		name string
		g    DeviceGrid
		conn int
	}{
		{"host samples", DeviceGrid{Samples: hostPtr, Labels: dev}, 4},
		{"host labels", DeviceGrid{Samples: dev, Labels: hostPtr}, 4},
		{"unaligned samples", DeviceGrid{Samples: dev + 1, Labels: dev}, 4},
		{"unaligned labels", DeviceGrid{Samples: dev, Labels: dev + 4}, 4},
		{"connectivity 6 in 2D", DeviceGrid{Samples: dev, Labels: dev + 128}, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.g
			g.Kind, g.Width, g.Height, g.Depth = imagegraph.Uint8, 4, 4, 1
			if _, _, err := c.LabelDevice(g, tc.conn, imagegraph.Rule{Mode: imagegraph.Binary}); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}

// BenchmarkLabelDevice times LabelDevice on inputs already in device
// memory (uint32 labels): wall ms per call, and the kernels' ms from the
// events it records (the rest is the host's share of a call).
func BenchmarkLabelDevice(b *testing.B) {
	c := gpuContext(b)
	for _, in := range []struct {
		name    string
		w, h, d int
		conn    int
		blobs   bool
		p       float64
	}{
		{"8192x8192_random0.6_c8", 8192, 8192, 1, 8, false, 0.6},
		{"512x512x512_random0.3_c26", 512, 512, 512, 26, false, 0.3},
		{"512x512x512_random0.3_c6", 512, 512, 512, 6, false, 0.3},
		{"512x512x512_blobs0.5_c6", 512, 512, 512, 6, true, 0.5},
	} {
		var r *imagegraph.Raster
		var err error
		if in.blobs {
			r, err = gen.BlobsRaster(in.w, in.h, in.d, in.p, 3, 1)
		} else {
			r, err = gen.RandomRaster(in.w, in.h, in.d, in.p, 1)
		}
		if err != nil {
			b.Fatal(err)
		}
		samples := onDevice(b, c, r.Data.Bytes(), 0)
		labels := onDevice(b, c, nil, 4*r.Len())
		for _, rule := range []imagegraph.Rule{{Mode: imagegraph.Multilabel}, {Mode: imagegraph.Binary}} {
			b.Run(fmt.Sprintf("%s_%v", in.name, rule.Mode), func(b *testing.B) {
				g := DeviceGrid{Samples: samples, Kind: r.Kind, Width: in.w, Height: in.h, Depth: in.d, Labels: labels}
				var kernel float64
				for b.Loop() {
					_, t, err := c.LabelDevice(g, in.conn, rule)
					if err != nil {
						b.Fatal(err)
					}
					kernel += t.Kernel.Seconds()
				}
				b.ReportMetric(1e3*kernel/float64(b.N), "kernel-ms")
			})
		}
	}
}
