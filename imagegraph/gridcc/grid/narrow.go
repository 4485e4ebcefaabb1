package grid

import (
	"cmp"
	"encoding/binary"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph/internal/band"
	"github.com/cclabel/cclabel/internal/parallel"
)

// MaxNarrow is the largest label count that [LabelBinaryNarrow] writes as
// uint16 labels.
const MaxNarrow = 1<<16 - 1

// LabelBinaryNarrow is [LabelBinary] writing uint16 labels when they fit.
// Once the first pass has counted the components, a count of at most
// [MaxNarrow] makes the second pass write every pixel's label into dst16
// (when it has shape.Len() entries, else into a new array), which it
// returns; dst then only holds the runs' slots, so its other pages are
// never touched (an array not yet faulted in stays so). A larger count
// gives LabelBinary's result in dst and a nil uint16 array.
func LabelBinaryNarrow(shape GridShape, connectivity int, src MaskRows, dst []uint32, dst16 []uint16, threads int) (int, []uint16, error) {
	return labelBinaryNarrow(shape, connectivity, src, dst, &narrowRows{all: dst16}, threads)
}

// LabelBinaryNarrowTo is [LabelBinaryNarrow] handing the uint16 labels to rows
// as the second pass makes them, a few rows at a time, instead of keeping
// them: no array of all of them is made. It returns the count and whether
// the labels went to rows; when they did not (more than [MaxNarrow]
// components) they are LabelBinary's, in dst. An error of rows ends the
// calls and is returned once the labeling is done.
func LabelBinaryNarrowTo(shape GridShape, connectivity int, src MaskRows, dst []uint32, rows Rows16, threads int) (int, bool, error) {
	out := &narrowRows{sink: rows}
	count, _, err := labelBinaryNarrow(shape, connectivity, src, dst, out, threads)
	return count, out.streamed, cmp.Or(err, out.err)
}

// labelBinaryNarrow is LabelBinaryNarrow writing the uint16 labels to out.
func labelBinaryNarrow(shape GridShape, connectivity int, src MaskRows, dst []uint32, out *narrowRows, threads int) (int, []uint16, error) {
	if err := shape.validate(connectivity, dst); err != nil {
		return 0, nil, err
	}
	cache := newMaskCache(src, shape.Width, shape.Height*shape.Depth)
	l, bands := planBinary(shape, connectivity, cache, dst, threads)
	l.(narrowLabeler).keepSlots()
	n := &narrowing{Labeler: l, bands: bands, rows: out, width: shape.Width, len: shape.Len(), threads: threads, filled: func() {}}
	count := runCachedBandLabeler(n, cache, bands, dst, shape.Width)
	n.filled()
	return count, n.out, nil
}

// LabelBinaryStreamedNarrow is [LabelBinaryStreamed] writing uint16 labels
// when they fit, as [LabelBinaryNarrow] does.
func LabelBinaryStreamedNarrow(shape GridShape, connectivity int, src MaskRows, dst []uint32, dst16 []uint16, s Stream) (int, []uint16, error) {
	return labelBinaryStreamedNarrow(shape, connectivity, src, dst, &narrowRows{all: dst16}, s)
}

// LabelBinaryStreamedNarrowTo is [LabelBinaryStreamed] handing uint16 labels
// to rows when they fit, as [LabelBinaryNarrowTo] does.
func LabelBinaryStreamedNarrowTo(shape GridShape, connectivity int, src MaskRows, dst []uint32, rows Rows16, s Stream) (int, bool, error) {
	out := &narrowRows{sink: rows}
	count, _, err := labelBinaryStreamedNarrow(shape, connectivity, src, dst, out, s)
	return count, out.streamed, cmp.Or(err, out.err)
}

// labelBinaryStreamedNarrow is LabelBinaryStreamedNarrow writing the
// uint16 labels to out.
func labelBinaryStreamedNarrow(shape GridShape, connectivity int, src MaskRows, dst []uint32, out *narrowRows, s Stream) (int, []uint16, error) {
	if err := shape.validate(connectivity, dst); err != nil {
		return 0, nil, err
	}
	cache := newMaskCache(src, shape.Width, shape.Height*shape.Depth)
	cache.reuse = true
	l, bands := planBinary(shape, connectivity, cache, dst, s.BandCount(shape))
	l.(narrowLabeler).keepSlots()
	n := &narrowing{Labeler: l, bands: bands, rows: out, width: shape.Width, len: shape.Len(), threads: s.ThreadCount(), filled: func() {}}
	count, err := band.RunStreamed(n, bands, dst, shape.Width, s.ThreadCount(), s.WaitFunc(), func() { cache.ready = true }, s.Progress)
	n.filled()
	band.PutWords(cache.rows)
	cache.rows = nil
	if err != nil {
		return 0, nil, err
	}
	return count, n.out, nil
}

// narrowLabeler is a band labeler whose second pass can write uint16
// labels.
type narrowLabeler interface {
	band.Labeler
	// setNarrow makes the second pass write its pixels' labels into
	// out instead of into the uint32 array.
	setNarrow(out *narrowRows)
	// keepSlots makes the first pass leave the slots where it numbers
	// them: a second pass writing uint16 labels never overwrites them,
	// and one writing uint32 labels moves them first.
	keepSlots()
}

// narrowing runs a [narrowLabeler], deciding before its second pass
// whether it writes uint16 labels: when the bands' roots, all numbered by
// then, are at most MaxNarrow.
type narrowing struct {
	band.Labeler
	bands   []band.Band
	rows    *narrowRows // where the uint16 labels go
	width   int
	len     int
	threads int // the second pass's goroutines
	once    sync.Once
	out     []uint16 // the uint16 labels, when written into an array
	// filled is called once the second pass has ended: it ends the
	// faulting in of a uint16 array made for it (parallel.AllocFor).
	filled func()
}

// LabelBand decides, once, whether the labels are narrow (making their
// array if need be), and runs the second pass on b.
func (n *narrowing) LabelBand(b *band.Band, cross *band.CrossLabels) {
	n.once.Do(func() {
		last := &n.bands[len(n.bands)-1]
		if int(last.FirstLabel)-1+last.Roots > MaxNarrow {
			return
		}
		r := n.rows
		r.width = n.width
		if r.sink != nil {
			r.streamed = true
		} else {
			if len(r.all) != n.len {
				// Its pages are faulted in where they cost least, as
				// for the uint32 labels.
				r.all, n.filled = parallel.AllocFor[uint16](n.len, n.threads)
			}
			n.out = r.all
		}
		n.Labeler.(narrowLabeler).setNarrow(r)
	})
	n.Labeler.LabelBand(b, cross)
}

// Rows16 takes uint16 labels of whole consecutive rows, from row on
// (len(labels) is a multiple of the row width), as a labeling makes them;
// labels is reused once it returns. It is called from several goroutines
// at once, on disjoint rows, each row once; rows of one band come in
// order. Once a call has failed, no further call begins.
type Rows16 func(row int, labels []uint16) error

// windowLen is the uint16 labels a band's second pass gathers before it
// hands them to a [Rows16]: 1 MiB, or the rows one step of the pass writes
// if more.
const windowLen = 1 << 19

// narrowRows is where a second pass writes uint16 labels: into one array
// of all of them (all), or through a [Rows16], each band a window of rows
// at a time.
type narrowRows struct {
	width    int
	all      []uint16
	sink     Rows16
	streamed bool // the labels went to sink
	mu       sync.Mutex
	err      error // sink's first error
	failed   atomic.Bool
}

// window returns the rows a band's second pass writes, from row first on.
// The pass ends by calling its flush.
func (r *narrowRows) window(first int) *rowWindow {
	return &rowWindow{rows: r, first: first, end: first}
}

// rowWindow holds the uint16 labels of a band's rows [first, end): a part
// of the array of all labels, or a buffer handed to the sink when the pass
// moves past it.
type rowWindow struct {
	rows       *narrowRows
	buf        []uint16
	first, end int
}

// span returns the labels of rows [lo, hi), row lo at index 0. The spans a
// band asks for follow one another.
func (w *rowWindow) span(lo, hi int) []uint16 {
	width := w.rows.width
	if w.rows.sink == nil {
		return w.rows.all[lo*width : hi*width]
	}
	if lo != w.end || (hi-w.first)*width > len(w.buf) {
		w.flush()
		w.first, w.end = lo, lo
		if n := (hi - lo) * width; n > len(w.buf) {
			w.buf = make([]uint16, max(n, windowLen/width*width))
		}
	}
	w.end = hi
	return w.buf[(lo-w.first)*width : (hi-w.first)*width]
}

// flush hands the rows held to the sink.
func (w *rowWindow) flush() {
	r := w.rows
	if r.sink == nil || w.end == w.first || r.failed.Load() {
		w.first = w.end
		return
	}
	if err := r.sink(w.first, w.buf[:(w.end-w.first)*r.width]); err != nil {
		r.mu.Lock()
		if r.err == nil {
			r.err = err
		}
		r.mu.Unlock()
		r.failed.Store(true)
	}
	w.first = w.end
}

// runColumns16 is runColumns giving each column its run's label as
// uint16; every label must fit.
func runColumns16(ends []uint64, slot, labels []uint32, columns []uint16) {
	from, k := 0, 0
	for i, word := range ends {
		for word != 0 {
			end := i<<6 | bits.TrailingZeros64(word)
			word &= word - 1
			label := uint16(labels[slot[k]-1])
			k++
			fillFrom(columns, from, end, label)
			from = end
		}
	}
}

// fillRows16 is fillRows for uint16 rows and columns.
func fillRows16(top, bottom, columns []uint16, topMask, bottomMask []uint64) {
	w := len(top)
	bottom, columns = bottom[:w], columns[:w]
	for i := range maskWords(w) {
		lo := i * 64
		hi := min(lo+64, w)
		maskedCopy16(top[lo:hi], columns[lo:hi], topMask[i])
		maskedCopy16(bottom[lo:hi], columns[lo:hi], bottomMask[i])
	}
}

// laneMasks[b] has the 16-bit lane i all ones where bit i of b is set.
var laneMasks = func() (t [16]uint64) {
	for b := range t {
		for i := range 4 {
			if b>>i&1 != 0 {
				t[b] |= 0xffff << (16 * i)
			}
		}
	}
	return t
}()

// maskedCopy16 is maskedCopy for uint16 entries: four at a time, as one
// 64-bit word masked by its four bits of m. The lanes of the word are
// entries in memory order under either byte order, as each lane's mask
// is all ones or all zeros.
func maskedCopy16(dst, src []uint16, m uint64) {
	src = src[:len(dst)]
	switch {
	case m == ^uint64(0) || (len(dst) < 64 && m == 1<<len(dst)-1):
		copy(dst, src)
		return
	case m == 0:
		clear(dst)
		return
	}
	x := 0
	if len(dst) >= 4 {
		d := unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), 2*len(dst))
		s := unsafe.Slice((*byte)(unsafe.Pointer(&src[0])), 2*len(src))
		le := binary.LittleEndian
		for ; x+4 <= len(dst); x += 4 {
			le.PutUint64(d[2*x:], le.Uint64(s[2*x:])&laneMasks[m>>(x&63)&15])
		}
	}
	for ; x < len(dst); x++ {
		dst[x] = src[x] & -uint16(m>>(x&63)&1)
	}
}

// writePair16 is writePair into uint16 rows of narrow, from uint16
// columns; no label is pending once the roots are ranked.
func (m *pairScan) writePair16(narrow []uint16, labels []uint32, columns []uint16, w, row int, bottom bool) {
	runColumns16(m.ends, m.slot, labels, columns)
	top := narrow[row*w : (row+1)*w]
	if bottom {
		fillRows16(top, narrow[(row+1)*w:(row+2)*w], columns, m.top, m.bottom)
	} else {
		fillRows16(top, top, columns, m.top, m.top)
	}
}

// placeSlots ends a band's first pass, which numbered runs slots from its
// first pixel on (hooks of them hooked away): with keep the slots stay
// there ([band.Band.KeepSlots]), else they move to the end of its pixels
// ([band.Band.MoveSlots]).
func placeSlots(b *band.Band, labels []uint32, width, runs, hooks int, keep bool) {
	if keep {
		b.KeepSlots(width, runs, hooks)
		return
	}
	b.MoveSlots(labels, width, runs, hooks)
}

func (l *binary8Labeler) keepSlots() { l.keep = true }
func (l *pair18Labeler) keepSlots()  { l.keep = true }
func (l *bundleLabeler) keepSlots()  { l.keep = true }
func (l *rowLabeler) keepSlots()     { l.keep = true }

func (l *binary8Labeler) setNarrow(out *narrowRows) { l.narrow = out }
func (l *pair18Labeler) setNarrow(out *narrowRows)  { l.narrow = out }
func (l *bundleLabeler) setNarrow(out *narrowRows)  { l.narrow = out }
func (l *rowLabeler) setNarrow(out *narrowRows)     { l.narrow = out }
