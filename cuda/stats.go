package cuda

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"runtime"
	"slices"
	"time"
	"unsafe"

	"github.com/cclabel/cclabel/cuda/internal/driver"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/measure"
)

// statsShape matches the kernels' StatsShape (kernels/stats.cu).
type statsShape struct {
	w, h, d, flags, stride, scale int32
	slope, inter                  float64
	mask                          uint64
}

// The kernels' flags (StatsShape.flags).
const (
	statsFaces     = 1
	statsContacts  = 2
	statsIntensity = 4
)

// Words per label of the device table: without and with intensity.
const (
	statsWords          = 10
	statsIntensityWords = 24
)

// statsThreads is the statistics kernels' block size (STATS_THREADS).
const statsThreads = 256

// statsMaxBits is the bound on the fixed-point intensities: |q| <= 2^58
// keeps every sum of kernels/stats.cu inside its words.
const statsMaxBits = 58

// The contact table starts with twice the larger of statsMinSlots and
// statsPairsPerLabel pairs a label (at most one pair a face), rounded to a
// power of two; it grows when it fills.
var (
	statsMinSlots      int64 = 512
	statsPairsPerLabel int64 = 8
)

// statsIntensitySuffix names the statistics kernels of an intensity
// sample kind.
var statsIntensitySuffix = map[imagegraph.SampleKind]string{
	imagegraph.Uint8: "u8", imagegraph.Int8: "i8", imagegraph.Uint16: "u16", imagegraph.Int16: "i16",
	imagegraph.Uint32: "u32", imagegraph.Int32: "i32", imagegraph.Float32: "f32", imagegraph.Float64: "f64",
}

// errNotOnDevice says that the device could not measure this grid (an
// intensity that is not finite, a table that does not fit): its labels are
// downloaded instead and measured on the host.
var errNotOnDevice = errors.New("cuda: measured on the host")

// GridMeasure is the outcome of [Context.LabelGridMeasure].
type GridMeasure struct {
	// Table holds the measurements, as [measure.Compute] gives them; nil
	// when the device did not measure (see [Context.LabelGridMeasure]).
	Table *measure.Table
	// First holds, when Table is set, the index of each component's
	// first voxel (label k at k-1): the statistics files read the
	// component's sample value there.
	First []int
	// Labels holds the component count, and the labels themselves only
	// when Table is nil.
	Labels GridLabels
	// Timing is the labeling's; Measure the measurement's: the intensity
	// upload, the kernels and the table's download.
	Timing, Measure Timing
}

// MeasuresOnDevice reports whether [Context.LabelGridMeasure] measures
// with opt on the device: the intensity, when set, must be of a sample
// type the statistics kernels take (8-, 16- and 32-bit integers, float32
// and float64).
func MeasuresOnDevice(opt measure.Options) bool {
	if opt.Intensity == nil {
		return true
	}
	_, ok := statsIntensitySuffix[opt.Intensity.Kind]
	return ok
}

// LabelGridMeasure labels r as [Context.LabelGridInto] does and measures
// its components on the device, from the labels the grid kernels leave
// there: only the table comes back, and the labels are never downloaded.
//
// The table is [measure.Compute]'s for the same labels and options:
// integers exactly; the intensity statistics from exact fixed-point sums
// of the scaled samples quantized to 2^-58 of the largest |value| (so they
// do not depend on the order of the device's atomics), within 1e-9
// relative of the host's. opt.Threads is ignored.
//
// When the device cannot measure with opt (an intensity type that
// [MeasuresOnDevice] rejects, a NaN or infinite intensity, a table past
// the free device memory), the labels are downloaded into dst as
// LabelGridInto does and [GridMeasure].Table is nil: the caller measures
// them on the host.
func (c *Context) LabelGridMeasure(r *imagegraph.Raster, conn int, rule imagegraph.Rule, opt measure.Options, dst []uint32) (GridMeasure, error) {
	var m GridMeasure
	if err := checkMeasure(r, &opt); err != nil {
		return m, err
	}
	var count int
	if MeasuresOnDevice(opt) {
		c.measure = func(labels, total driver.Buffer) (bool, error) {
			var tot [1]int32
			if err := c.dc.Download(tot[:], total); err != nil {
				return false, err
			}
			count = int(uint32(tot[0]))
			err := c.measureGrid(&m, labels, r, count, opt)
			if errors.Is(err, errNotOnDevice) {
				return false, nil
			}
			return err == nil, err
		}
		defer func() { c.measure = nil }()
	}
	g, t, err := c.labelGrid(r, conn, rule, dst, nil, false)
	if err != nil {
		return GridMeasure{}, err
	}
	m.Timing = t
	m.Labels = g
	if m.Table != nil {
		m.Labels.Count = count
	}
	return m, nil
}

// checkMeasure checks opt as [measure.Compute] does, and sets its zero
// spacings and slope to 1.
func checkMeasure(r *imagegraph.Raster, opt *measure.Options) error {
	for a, s := range opt.Spacing {
		if s < 0 || math.IsNaN(s) || math.IsInf(s, 0) {
			return fmt.Errorf("cuda: measure: spacing %g along %c is not a finite positive number", s, "xyz"[a])
		}
		if s == 0 {
			opt.Spacing[a] = 1
		}
	}
	if math.IsNaN(opt.Slope) || math.IsInf(opt.Slope, 0) || math.IsNaN(opt.Inter) || math.IsInf(opt.Inter, 0) {
		return fmt.Errorf("cuda: measure: scaling %g*x%+g is not finite", opt.Slope, opt.Inter)
	}
	if opt.Slope == 0 {
		opt.Slope = 1
	}
	if in := opt.Intensity; in != nil {
		if in.Width != r.Width || in.Height != r.Height || in.Depth != r.Depth || in.Data == nil || in.Data.Len() != r.Len() {
			return fmt.Errorf("cuda: measure: intensity %dx%dx%d does not match labels %dx%dx%d", in.Width, in.Height, in.Depth, r.Width, r.Height, r.Depth)
		}
		if in.Kind == imagegraph.RGB {
			return fmt.Errorf("cuda: measure: intensity of packed RGB colour samples")
		}
	}
	return nil
}

// statsRun is one measurement's device buffers and launches.
type statsRun struct {
	shape                   statsShape
	labels, in              uintptr
	table, keys, counts     driver.Buffer
	overflow                driver.Buffer
	entries, slots, samples int64
	stride                  int32
	suffix                  string
}

// measureGrid measures the count components of the device labels of r
// into m (call inside do). It returns errNotOnDevice when the host must
// measure them.
func (c *Context) measureGrid(m *GridMeasure, labels driver.Buffer, r *imagegraph.Raster, count int, opt measure.Options) error {
	n := int64(r.Len())
	s := &statsRun{labels: labels.Ptr, entries: int64(count) + 1, samples: n, stride: statsWords}
	s.shape = statsShape{w: int32(r.Width), h: int32(r.Height), d: int32(r.Depth), slope: opt.Slope, inter: opt.Inter}
	if opt.Surface {
		s.shape.flags |= statsFaces
	}
	if opt.Contacts {
		s.shape.flags |= statsContacts
	}
	var inBytes uint64
	var src unsafe.Pointer
	if opt.Intensity != nil {
		s.shape.flags |= statsIntensity
		s.stride = statsIntensityWords
		s.suffix = statsIntensitySuffix[opt.Intensity.Kind]
		src, inBytes = sampleBytes(opt.Intensity)
	}
	s.shape.stride = s.stride
	faces := 2 * n
	if r.Depth > 1 {
		faces = 3 * n
	}
	if opt.Contacts {
		s.slots = int64(1) << bits.Len64(uint64(max(statsMinSlots, min(statsPairsPerLabel*s.entries, faces+1))))
	}
	bufs := []*driver.Buffer{&s.table, &s.overflow, &s.keys, &s.counts}
	defer func() {
		for _, b := range bufs {
			c.dc.Free(*b)
		}
	}()
	var in driver.Buffer
	defer func() { c.dc.Free(in) }()
	if err := c.allocStats(s, inBytes, &in); err != nil {
		return err
	}
	start := time.Now()
	if inBytes > 0 {
		if err := c.dc.UploadStaged(in.Ptr, src, inBytes); err != nil {
			return err
		}
		runtime.KeepAlive(opt.Intensity.Data)
		if err := c.dc.Sync(); err != nil {
			return err
		}
		m.Measure.Upload = time.Since(start)
		s.in = in.Ptr
		// The fixed-point scale: |v| * 2^scale <= 2^statsMaxBits.
		var kt Timing
		two := int64(2)
		if err := c.runTimed([]kernelStep{
			{"zero_u32", 1, 32, []unsafe.Pointer{unsafe.Pointer(&s.overflow.Ptr), unsafe.Pointer(&two)}},
			{"stats_absmax_" + s.suffix, c.blocks, statsThreads, []unsafe.Pointer{unsafe.Pointer(&s.in), unsafe.Pointer(&s.samples), unsafe.Pointer(&s.shape), unsafe.Pointer(&s.overflow.Ptr)}},
		}, &kt); err != nil {
			return err
		}
		start := time.Now()
		var w [2]int32
		if err := c.dc.Download(w[:], s.overflow); err != nil {
			return err
		}
		m.Measure.Kernel += kt.Kernel + time.Since(start)
		m.Measure.Kernels = append(m.Measure.Kernels, kt.Kernels...)
		absmax := math.Float64frombits(uint64(uint32(w[0])) | uint64(uint32(w[1]))<<32)
		if math.IsNaN(absmax) || math.IsInf(absmax, 0) {
			return errNotOnDevice
		}
		if absmax > 0 {
			_, e := math.Frexp(absmax) // absmax < 2^e
			s.shape.scale = int32(statsMaxBits - e)
		}
	}
	for {
		over, err := c.statsPass(s, &m.Measure)
		if err != nil {
			return err
		}
		if over == 0 {
			break
		}
		// A full contact table: again with four times the slots.
		c.dc.Free(s.keys)
		c.dc.Free(s.counts)
		s.keys, s.counts = driver.Buffer{}, driver.Buffer{}
		s.slots *= 4
		if err := c.allocStats(s, 0, nil); err != nil {
			return err
		}
	}
	start = time.Now()
	table := make([]uint64, s.entries*int64(s.stride))
	if err := c.dc.DownloadStaged(unsafe.Pointer(&table[0]), s.table.Ptr, 8*uint64(len(table))); err != nil {
		return err
	}
	var keys []uint64
	var counts []uint32
	if s.slots > 0 {
		keys, counts = make([]uint64, s.slots), make([]uint32, 3*s.slots)
		if err := c.dc.DownloadStaged(unsafe.Pointer(&keys[0]), s.keys.Ptr, 8*uint64(len(keys))); err != nil {
			return err
		}
		if err := c.dc.DownloadStaged(unsafe.Pointer(&counts[0]), s.counts.Ptr, 4*uint64(len(counts))); err != nil {
			return err
		}
	}
	m.Measure.Download = time.Since(start)
	m.Table, m.First = statsTable(table, keys, counts, s, r.Depth > 1, opt)
	return nil
}

// allocStats allocates s's table, overflow word and contact table (those
// not yet allocated), and inBytes for the intensity into in, or returns
// errNotOnDevice when they do not fit the free memory (call inside do).
func (c *Context) allocStats(s *statsRun, inBytes uint64, in *driver.Buffer) error {
	need := []uint64{0, 0, 8 * uint64(s.slots), 12 * uint64(s.slots), inBytes}
	if s.table.Ptr == 0 {
		need[0], need[1] = 8*uint64(s.entries)*uint64(s.stride), 8
	}
	total := uint64(0)
	for _, b := range need {
		total += b
	}
	if free, err := c.dc.FreeMemory(); err != nil {
		return err
	} else if total+total/16 > free {
		return errNotOnDevice
	}
	for i, b := range []*driver.Buffer{&s.table, &s.overflow, &s.keys, &s.counts, in} {
		if need[i] == 0 || b == nil {
			continue
		}
		var err error
		if *b, err = c.dc.Alloc(need[i]); err != nil {
			return err
		}
	}
	return nil
}

// statsPass clears s's tables and runs the pass over the labels, adding
// its time to t, and returns the contact inserts that found no slot (call
// inside do).
func (c *Context) statsPass(s *statsRun, t *Timing) (uint32, error) {
	s.shape.mask = uint64(max(s.slots, 1) - 1)
	name := "stats_none"
	if s.suffix != "" {
		name = "stats_" + s.suffix
	}
	ptr := func(u *uintptr) unsafe.Pointer { return unsafe.Pointer(u) }
	one := int64(1)
	initBlocks := uint32(max(1, min(ceilDiv(int(max(s.entries*int64(s.stride), s.slots)), statsThreads), int(c.blocks))))
	var kt Timing
	if err := c.runTimed([]kernelStep{
		{"zero_u32", 1, 32, []unsafe.Pointer{ptr(&s.overflow.Ptr), unsafe.Pointer(&one)}},
		{"stats_init", initBlocks, statsThreads, []unsafe.Pointer{ptr(&s.table.Ptr), unsafe.Pointer(&s.entries), ptr(&s.keys.Ptr), ptr(&s.counts.Ptr), unsafe.Pointer(&s.slots), unsafe.Pointer(&s.stride)}},
		{name, c.blocks, statsThreads, []unsafe.Pointer{ptr(&s.labels), ptr(&s.in), ptr(&s.table.Ptr), ptr(&s.keys.Ptr), ptr(&s.counts.Ptr), ptr(&s.overflow.Ptr), unsafe.Pointer(&s.shape)}},
	}, &kt); err != nil {
		return 0, err
	}
	start := time.Now()
	var over [1]int32
	err := c.dc.Download(over[:], s.overflow)
	t.Kernel += kt.Kernel + time.Since(start)
	t.Kernels = append(t.Kernels, kt.Kernels...)
	return uint32(over[0]), err
}

// statsTable turns the device's table and contact slots into
// [measure.Compute]'s table, and the first voxel of each component.
func statsTable(table, keys []uint64, counts []uint32, s *statsRun, is3D bool, opt measure.Options) (*measure.Table, []int) {
	count := int(s.entries - 1)
	t := &measure.Table{Components: make([]measure.Component, count)}
	if opt.Contacts {
		t.Contacts = []measure.Contact{}
	}
	first := make([]int, count)
	area := faceAreas(opt.Spacing, is3D)
	sx, sy, sz := opt.Spacing[0], opt.Spacing[1], opt.Spacing[2]
	for k := range count {
		e := table[int64(k+1)*int64(s.stride):][:s.stride]
		c := &t.Components[k]
		c.Size = int64(e[0])
		half := func(w uint64) (int, int) { return int(uint32(w)), int(uint32(w >> 32)) }
		c.Min[0], c.Max[0] = half(e[4])
		c.Min[1], c.Max[1] = half(e[5])
		c.Min[2], c.Max[2] = half(e[6])
		first[k] = int(uint32(e[7]))
		if c.Size == 0 {
			c.Min = [3]int{math.MaxInt, math.MaxInt, math.MaxInt}
			c.Max = [3]int{-1, -1, -1}
			continue
		}
		n := float64(c.Size)
		for a := range 3 {
			c.Centroid[a] = float64(int64(e[1+a])) / n
		}
		if is3D {
			c.EqDiameter = math.Cbrt(6 * (n * sx * sy * sz) / math.Pi)
		} else {
			c.EqDiameter = math.Sqrt(4 * (n * sx * sy) / math.Pi)
		}
		if opt.Surface {
			fx, fy := half(e[8])
			fz, _ := half(e[9])
			c.Surface = float64(fx)*area[0] + float64(fy)*area[1]
			if is3D {
				c.Surface += float64(fz) * area[2]
			}
		}
		if opt.Intensity != nil {
			intensity(c, e, int(s.shape.scale))
		}
	}
	for i, key := range keys {
		if key == 0 {
			continue
		}
		f := counts[3*i : 3*i+3]
		t.Contacts = append(t.Contacts, measure.Contact{
			A: uint32(key >> 32), B: uint32(key),
			Faces: int64(f[0]) + int64(f[1]) + int64(f[2]),
			Area:  float64(f[0])*area[0] + float64(f[1])*area[1] + float64(f[2])*area[2],
		})
	}
	slices.SortFunc(t.Contacts, func(x, y measure.Contact) int {
		return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
	})
	return t, first
}

// faceAreas returns the physical area of a face across x, y and z (3D),
// or the length of a pixel edge across x and y (2D), as package measure
// weighs them.
func faceAreas(spacing [3]float64, is3D bool) [3]float64 {
	sx, sy, sz := spacing[0], spacing[1], spacing[2]
	if !is3D {
		return [3]float64{sy, sx, 0}
	}
	return [3]float64{sy * sz, sx * sz, sx * sy}
}

// intensity sets c's intensity statistics from its table entry e, whose
// sums are of q = v * 2^scale.
func intensity(c *measure.Component, e []uint64, scale int) {
	c.IMin, c.IMax = unkey(e[10]), unkey(e[11])
	n := new(big.Int).SetInt64(c.Size)
	sq := signed128(e[12], e[13])
	sq2 := new(big.Int).SetUint64(e[16])
	sq2.Lsh(sq2, 64).Or(sq2, new(big.Int).SetUint64(e[15]))
	sq2.Lsh(sq2, 64).Or(sq2, new(big.Int).SetUint64(e[14]))
	c.Sum = ratio(sq, big.NewInt(1), -scale)
	c.Mean = ratio(sq, n, -scale)
	// n^2 var(q) = n Σq² - (Σq)², exactly.
	v := new(big.Int).Mul(n, sq2)
	v.Sub(v, new(big.Int).Mul(sq, sq))
	c.Std = math.Sqrt(ratio(v, new(big.Int).Mul(n, n), -2*scale))
	for a := range 3 {
		w := signed128(e[17+2*a], e[18+2*a])
		switch {
		case sq.Sign() != 0:
			c.WCentroid[a] = ratio(w, sq, 0)
		case w.Sign() == 0:
			c.WCentroid[a] = math.NaN()
		default:
			c.WCentroid[a] = math.Inf(w.Sign())
		}
	}
}

// ratio returns a / b * 2^exp rounded to a float64 (b > 0 or negative, not
// zero).
func ratio(a, b *big.Int, exp int) float64 {
	const prec = 256
	x := new(big.Float).SetPrec(prec).SetInt(a)
	y := new(big.Float).SetPrec(prec).SetInt(b)
	x.Quo(x, y)
	x.SetMantExp(x, exp)
	f, _ := x.Float64()
	return f
}

// signed128 returns the 128-bit two's complement number hi:lo.
func signed128(lo, hi uint64) *big.Int {
	x := new(big.Int).SetUint64(hi)
	x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(lo))
	if hi>>63 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), 128))
	}
	return x
}

// unkey inverts the kernels' order-keeping map of doubles to uint64.
func unkey(k uint64) float64 {
	if k>>63 != 0 {
		return math.Float64frombits(k ^ 1<<63)
	}
	return math.Float64frombits(^k)
}
