package cuda

import (
	"fmt"
	"math"
	"runtime"
	"time"
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph"
)

// GridRule is how the grid kernels turn uint8 samples into foreground.
type GridRule int32

// The grid rules, as the kernels number them.
const (
	GridMultilabel      GridRule = iota // equal nonzero values join
	GridBinary                          // any nonzero value
	GridThreshold                       // value >= threshold
	GridThresholdInvert                 // value < threshold
)

// GridRuleFor maps a foreground rule on uint8 samples to the grid
// kernels' rule and integer threshold; ok is false when the kernels cannot
// apply it (thresholds on scaled values).
func GridRuleFor(rule imagegraph.Rule) (r GridRule, threshold int, ok bool) {
	switch {
	case rule.Mode == imagegraph.Multilabel:
		return GridMultilabel, 0, true
	case rule.Mode == imagegraph.Binary:
		return GridBinary, 0, true
	case (rule.Slope != 0 && rule.Slope != 1) || rule.Inter != 0:
		return 0, 0, false
	}
	// v >= T for integers v in 0..255 is v >= ceil(T), clamped to 0..256.
	t := int(min(max(math.Ceil(rule.Threshold), 0), 256))
	if rule.Invert {
		return GridThresholdInvert, t, true
	}
	return GridThreshold, t, true
}

// gridShape matches the kernels' GridShape.
type gridShape struct {
	w, h, d, conn, rule, threshold int32
}

// LabelGrid labels a uint8 image (depth 1) or volume on the GPU at the
// connectivity (4 or 8 in 2D, 6, 18 or 26 in 3D) under rule (threshold is
// an integer for the threshold rules) and returns its labels,
// 1..N by first occurrence (x fastest), background 0 — the CPU's labels,
// bit for bit — and N.
func (c *Context) LabelGrid(samples []uint8, width, height, depth, conn int, rule GridRule, threshold int) ([]uint32, int, Timing, error) {
	var t Timing
	n := width * height * depth
	if width < 1 || height < 1 || depth < 1 || len(samples) != n || n >= 1<<31 {
		return nil, 0, t, fmt.Errorf("cuda: %d samples for a %dx%dx%d grid", len(samples), width, height, depth)
	}
	switch {
	case depth == 1 && (conn == 4 || conn == 8):
	case depth > 1 && (conn == 6 || conn == 18 || conn == 26):
	default:
		return nil, 0, t, fmt.Errorf("cuda: connectivity %d does not fit a %dx%dx%d grid", conn, width, height, depth)
	}
	labels := make([]uint32, n)
	count := 0
	blocks1024 := (n + 1023) / 1024
	err := c.do(func() error {
		need := uint64(n) + 8*uint64(n) + 4*uint64(blocks1024) + 4
		if free, err := c.freeMemory(); err != nil {
			return err
		} else if need > free {
			return fmt.Errorf("cuda: the grid needs %d MiB of device memory, %d MiB are free", need>>20, free>>20)
		}
		sizes := []uint64{uint64(n), 4 * uint64(n), 4 * uint64(n), 4 * uint64(blocks1024), 4}
		bufs := make([]deviceBuffer, len(sizes))
		defer func() {
			for _, b := range bufs {
				c.free(b)
			}
		}()
		for i, s := range sizes {
			b, err := c.alloc(s)
			if err != nil {
				return err
			}
			bufs[i] = b
		}
		in, parent, out, roots, total := bufs[0], bufs[1], bufs[2], bufs[3], bufs[4]
		start := time.Now()
		if err := c.d.check("cuMemcpyHtoD", c.d.cuMemcpyHtoD(in.ptr, unsafe.Pointer(&samples[0]), uint64(n))); err != nil {
			return err
		}
		if err := c.sync(); err != nil {
			return err
		}
		t.Upload = time.Since(start)

		shape := gridShape{int32(width), int32(height), int32(depth), int32(conn), int32(rule), int32(threshold)}
		n64, nb := int64(n), int32(blocks1024)
		steps := []struct {
			name            string
			blocks, threads uint32
			args            []unsafe.Pointer
		}{
			{"grid_init", c.blocks, threadsPerBlock, []unsafe.Pointer{unsafe.Pointer(&in.ptr), unsafe.Pointer(&parent.ptr), unsafe.Pointer(&shape)}},
			{"grid_compute", c.blocks, threadsPerBlock, []unsafe.Pointer{unsafe.Pointer(&in.ptr), unsafe.Pointer(&parent.ptr), unsafe.Pointer(&shape)}},
			{"grid_flatten", uint32(blocks1024), 256, []unsafe.Pointer{unsafe.Pointer(&parent.ptr), unsafe.Pointer(&roots.ptr), unsafe.Pointer(&n64)}},
			{"grid_scan", 1, 1024, []unsafe.Pointer{unsafe.Pointer(&roots.ptr), unsafe.Pointer(&nb), unsafe.Pointer(&total.ptr)}},
			{"grid_number", uint32(blocks1024), 256, []unsafe.Pointer{unsafe.Pointer(&parent.ptr), unsafe.Pointer(&roots.ptr), unsafe.Pointer(&out.ptr), unsafe.Pointer(&n64)}},
			{"grid_relabel", c.blocks, threadsPerBlock, []unsafe.Pointer{unsafe.Pointer(&parent.ptr), unsafe.Pointer(&out.ptr), unsafe.Pointer(&n64)}},
		}
		events := make([]event, len(steps)+1)
		for i := range events {
			e, err := c.newEvent()
			if err != nil {
				return err
			}
			defer c.destroy(e)
			events[i] = e
		}
		if err := c.record(events[0]); err != nil {
			return err
		}
		for i, s := range steps {
			if err := c.launch(s.name, s.blocks, s.threads, s.args...); err != nil {
				return err
			}
			if err := c.record(events[i+1]); err != nil {
				return err
			}
		}
		var err error
		if t.Kernel, err = c.elapsed(events[0], events[len(steps)]); err != nil {
			return err
		}
		for i, s := range steps {
			d, err := c.elapsed(events[i], events[i+1])
			if err != nil {
				return err
			}
			t.Kernels = append(t.Kernels, KernelTime{s.name, d})
		}

		start = time.Now()
		if err := c.downloadPinned(unsafe.Pointer(&labels[0]), out.ptr, 4*uint64(n)); err != nil {
			return err
		}
		runtime.KeepAlive(labels)
		var tot [1]int32
		if err := c.download(tot[:], total); err != nil {
			return err
		}
		count = int(uint32(tot[0]))
		t.Download = time.Since(start)
		return nil
	})
	if err != nil {
		return nil, 0, t, err
	}
	return labels, count, t, nil
}
