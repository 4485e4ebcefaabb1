package cuda

import (
	"errors"
	"math"
	"math/bits"
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

// The kernels' flags (StatsShape.flags), the words per label of their
// table without and with intensity, their block size (STATS_THREADS), the
// voxels of a segment (STATS_SEG), the units (32 segments) a warp of the
// pass takes where there are many (many short blocks, so that their last
// wave is short), and the bound 2^statsMaxBits on the fixed-point
// intensities q, which keeps every sum of kernels/stats.cu inside its words.
const (
	statsFaces, statsContacts, statsIntensity = 1, 2, 4
	statsWords, statsIntensityWords           = 10, 27
	statsThreads, statsSeg, statsUnitsPerWarp = 256, 16, 4
	statsMaxBits                              = measure.QuantBits
)

// The contact table starts with the power of two above statsMinSlots, or
// above statsPairsPerLabel pairs a label (at most a pair a face) when that
// is more; it grows when it fills.
var (
	statsMinSlots      int64 = 512
	statsPairsPerLabel int64 = 8
)

// statsIntensitySuffix names the statistics kernels of an intensity kind.
var statsIntensitySuffix = map[imagegraph.SampleKind]string{
	imagegraph.Uint8: "u8", imagegraph.Int8: "i8", imagegraph.Uint16: "u16", imagegraph.Int16: "i16",
	imagegraph.Uint32: "u32", imagegraph.Int32: "i32", imagegraph.Float32: "f32", imagegraph.Float64: "f64",
}

// errNotOnDevice says that the device cannot measure this grid: its labels
// are downloaded and measured on the host.
var errNotOnDevice = errors.New("cuda: measured on the host")

// GridMeasure is the outcome of [Context.LabelGridMeasure].
type GridMeasure struct {
	// Table holds [measure.Compute]'s measurements; nil when the device
	// did not measure. First holds then each component's first voxel
	// (label k at k-1), where the statistics files read its value.
	Table *measure.Table
	First []int
	// Labels holds the count, and the labels only when Table is nil.
	Labels GridLabels
	// Timing is the labeling's; Measure the measurement's (the
	// intensity's upload, the kernels, the table's download).
	Timing, Measure Timing
}

// MeasuresOnDevice reports whether [Context.LabelGridMeasure] measures
// with opt on the device: an intensity of 8-, 16- or 32-bit integers,
// float32 or float64, or none.
func MeasuresOnDevice(opt measure.Options) bool {
	return opt.Intensity == nil || statsIntensitySuffix[opt.Intensity.Kind] != ""
}

// LabelGridMeasure labels r as [Context.LabelGridInto] does and measures
// its components on the device, from the labels the grid kernels leave
// there: only the table comes back, and the labels are never downloaded.
//
// The table is [measure.Compute]'s for the same labels and options, bit
// for bit: the intensity statistics come from exact fixed-point sums of
// the scaled samples quantized as the host quantizes them
// ([measure.QuantScale]), so they do not depend on the order of the
// device's atomics. opt.Threads is ignored.
//
// Where the device cannot measure ([MeasuresOnDevice], a NaN or infinite
// intensity, a table past the free memory) the labels are downloaded into
// dst as LabelGridInto does, and [GridMeasure].Table is nil.
func (c *Context) LabelGridMeasure(r *imagegraph.Raster, conn int, rule imagegraph.Rule, opt measure.Options, dst []uint32) (GridMeasure, error) {
	var m GridMeasure
	if err := measure.CheckOptions(r.Width, r.Height, r.Depth, &opt); err != nil {
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
	g, t, err := c.labelGrid(r, conn, rule, dst, nil, false, nil)
	if err != nil {
		return GridMeasure{}, err
	}
	m.Timing, m.Labels = t, g
	if m.Table != nil {
		m.Labels.Count = count
	}
	return m, nil
}

// statsRun is one measurement: its shape, and the device buffer of the table
// (entries x stride words), the overflow word, the contact slots' keys
// (slots words) and counts (3 x slots 32-bit words).
type statsRun struct {
	shape                   statsShape
	buf                     driver.Buffer
	labels, in, table, over uintptr
	keys, cnts              uintptr
	entries, slots, samples int64
	stride                  int32
	suffix                  string
}

// words is the length of s's buffer in 64-bit words.
func (s *statsRun) words() int64 { return s.entries*int64(s.stride) + 1 + s.slots + (3*s.slots+1)/2 }

// measureGrid measures the count components of the device labels of r
// into m (call inside do). It returns errNotOnDevice when the host must
// measure them.
func (c *Context) measureGrid(m *GridMeasure, labels driver.Buffer, r *imagegraph.Raster, count int, opt measure.Options) error {
	n := int64(r.Len())
	s := &statsRun{labels: labels.Ptr, entries: int64(count) + 1, samples: n, stride: statsWords, suffix: "none"}
	s.shape = statsShape{w: int32(r.Width), h: int32(r.Height), d: int32(r.Depth), slope: opt.Slope, inter: opt.Inter}
	if opt.Surface {
		s.shape.flags |= statsFaces
	}
	if opt.Contacts {
		s.shape.flags |= statsContacts
		faces := (min(r.Depth, 2) + 1) * r.Len() // at most a pair a face
		s.slots = int64(1) << bits.Len64(uint64(max(statsMinSlots, min(statsPairsPerLabel*s.entries, int64(faces)+1))))
	}
	var in driver.Buffer
	defer func() { c.dc.Free(in, s.buf) }()
	if opt.Intensity != nil {
		s.shape.flags |= statsIntensity
		s.stride, s.suffix = statsIntensityWords, statsIntensitySuffix[opt.Intensity.Kind]
		samples := opt.Intensity.Data.Bytes()
		if err := c.allocStats(&in, uint64(len(samples))); err != nil {
			return err
		}
		start := time.Now()
		if err := driver.UploadSlice(c.dc, in.Ptr, samples); err != nil {
			return err
		}
		if err := c.dc.Sync(); err != nil {
			return err
		}
		m.Measure.Upload = time.Since(start)
		s.in = in.Ptr
	}
	s.shape.stride = s.stride
	units := ceilDiv(ceilDiv(r.Width, statsSeg)*r.Height*r.Depth, 32) // as the pass counts them
	pass := uint32(max(ceilDiv(units, statsThreads/32*statsUnitsPerWarp), min(int(c.blocks), ceilDiv(units, statsThreads/32))))
	for {
		if err := c.allocStats(&s.buf, 8*uint64(s.words())); err != nil {
			return err
		}
		s.table, s.over = s.buf.Ptr, s.buf.Ptr+8*uintptr(s.entries)*uintptr(s.stride)
		s.keys, s.cnts = s.over+8, s.over+8+8*uintptr(s.slots)
		if s.in != 0 && s.shape.scale == 0 {
			// The fixed-point scale, the host's: |v| * 2^scale <= 2^statsMaxBits.
			w, err := c.runRead([]kernelStep{{"stats_absmax_" + s.suffix, c.blocks, statsThreads, []unsafe.Pointer{
				unsafe.Pointer(&s.in), unsafe.Pointer(&s.samples), unsafe.Pointer(&s.shape), unsafe.Pointer(&s.over)}}}, s.over, &m.Measure)
			if err != nil {
				return err
			}
			scale, ok := measure.QuantScale(math.Float64frombits(w))
			if !ok {
				return errNotOnDevice
			}
			s.shape.scale = int32(scale)
		}
		s.shape.mask = uint64(max(s.slots, 1) - 1)
		ptr := func(u *uintptr) unsafe.Pointer { return unsafe.Pointer(u) }
		initBlocks := uint32(max(1, min(ceilDiv(int(max(s.entries*int64(s.stride), s.slots)), statsThreads), int(c.blocks))))
		over, err := c.runRead([]kernelStep{
			{"stats_init", initBlocks, statsThreads, []unsafe.Pointer{ptr(&s.table), unsafe.Pointer(&s.entries), ptr(&s.keys), ptr(&s.cnts), unsafe.Pointer(&s.slots), unsafe.Pointer(&s.stride)}},
			{"stats_" + s.suffix, pass, statsThreads, []unsafe.Pointer{ptr(&s.labels), ptr(&s.in), ptr(&s.table), ptr(&s.keys), ptr(&s.cnts), ptr(&s.over), unsafe.Pointer(&s.shape)}},
		}, s.over, &m.Measure)
		if err != nil {
			return err
		}
		if uint32(over) == 0 {
			break
		}
		// A full contact table: again with four times the slots.
		c.dc.Free(s.buf)
		s.buf, s.slots = driver.Buffer{}, 4*s.slots
	}
	start := time.Now()
	all := make([]uint64, s.words())
	if err := driver.DownloadSlice(c.dc, all, s.buf.Ptr); err != nil {
		return err
	}
	m.Measure.Download = time.Since(start)
	table, rest := all[:s.entries*int64(s.stride)], all[s.entries*int64(s.stride)+1:]
	counts := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(rest[s.slots:]))), 3*s.slots)
	m.Table, m.First = statsTable(table, rest[:s.slots], counts, s, r.Depth > 1, opt)
	return nil
}

// allocStats allocates bytes into b, or returns errNotOnDevice when they
// do not fit the free device memory (call inside do).
func (c *Context) allocStats(b *driver.Buffer, bytes uint64) error {
	if free, err := c.dc.FreeMemory(); err != nil {
		return err
	} else if bytes+bytes/16 > free {
		return errNotOnDevice
	}
	var err error
	*b, err = c.dc.Alloc(bytes)
	return err
}

// statsTable turns the device's table and contact slots into
// [measure.Compute]'s table, and the first voxel of each component.
func statsTable(table, keys []uint64, counts []uint32, s *statsRun, is3D bool, opt measure.Options) (*measure.Table, []int) {
	count := int(s.entries - 1)
	t := &measure.Table{Components: make([]measure.Component, count)}
	first := make([]int, count)
	half := func(w uint64) (int, int) { return int(uint32(w)), int(uint32(w >> 32)) }
	for k := range count {
		e := table[int64(k+1)*int64(s.stride):][:s.stride]
		x := measure.Exact{Size: int64(e[0]), Sum: [3]int64{int64(e[1]), int64(e[2]), int64(e[3])}, Scale: int(s.shape.scale)}
		for a := range 3 {
			x.Min[a], x.Max[a] = half(e[4+a])
		}
		first[k], _ = half(e[7])
		// The exposed faces: 2n along each axis less two a pair inside.
		px, py := half(e[8])
		pz, _ := half(e[9])
		x.Exposed = [3]int64{2*x.Size - 2*int64(px), 2*x.Size - 2*int64(py), 0}
		if is3D {
			x.Exposed[2] = 2*x.Size - 2*int64(pz)
		}
		if opt.Intensity != nil {
			x.IMin, x.IMax = driver.Unkey(e[10]), driver.Unkey(e[11])
			x.Q, x.Q2 = driver.Limbs(e[12:14]), driver.Limbs(e[14:18])
			for a := range 3 {
				x.QX[a] = driver.Limbs(e[18+3*a : 21+3*a])
			}
		}
		t.Components[k] = x.Component(opt, is3D)
	}
	if opt.Contacts {
		t.Contacts = []measure.Contact{}
	}
	for i, key := range keys {
		if key != 0 {
			f := counts[3*i : 3*i+3]
			t.Contacts = append(t.Contacts, measure.NewContact(uint32(key>>32), uint32(key),
				[3]int64{int64(f[0]), int64(f[1]), int64(f[2])}, opt.Spacing, is3D))
		}
	}
	measure.SortContacts(t.Contacts)
	t.First = first // as measure.Compute's table holds them
	return t, first
}
