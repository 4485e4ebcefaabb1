package grid

import (
	"encoding/binary"
	"math/bits"
	"sync"
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph/gridcc/internal/band"
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
	if err := shape.validate(connectivity, dst); err != nil {
		return 0, nil, err
	}
	cache := newMaskCache(src, shape.Width, shape.Height*shape.Depth)
	l, bands := planBinary(shape, connectivity, cache, dst, threads)
	n := &narrowing{Labeler: l, bands: bands, dst16: dst16, len: shape.Len(), threads: threads, filled: func() {}}
	count := runCachedBandLabeler(n, cache, bands, dst, shape.Width)
	n.filled()
	return count, n.out, nil
}

// LabelBinaryStreamedNarrow is [LabelBinaryStreamed] writing uint16 labels
// when they fit, as [LabelBinaryNarrow] does.
func LabelBinaryStreamedNarrow(shape GridShape, connectivity int, src MaskRows, dst []uint32, dst16 []uint16, s Stream) (int, []uint16, error) {
	if err := shape.validate(connectivity, dst); err != nil {
		return 0, nil, err
	}
	cache := newMaskCache(src, shape.Width, shape.Height*shape.Depth)
	cache.reuse = true
	l, bands := planBinary(shape, connectivity, cache, dst, s.BandCount(shape))
	n := &narrowing{Labeler: l, bands: bands, dst16: dst16, len: shape.Len(), threads: s.ThreadCount(), filled: func() {}}
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
	// labels, one per pixel, instead of into the uint32 array.
	setNarrow(labels []uint16)
}

// narrowing runs a [narrowLabeler], deciding before its second pass
// whether it writes uint16 labels: when the bands' roots, all numbered by
// then, are at most MaxNarrow.
type narrowing struct {
	band.Labeler
	bands   []band.Band
	dst16   []uint16
	len     int
	threads int // the second pass's goroutines
	once    sync.Once
	out     []uint16 // the uint16 labels, when written
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
		out := n.dst16
		if len(out) != n.len {
			// Its pages are faulted in where they cost least, as
			// for the uint32 labels.
			var filled func()
			out, filled = parallel.AllocFor[uint16](n.len, n.threads)
			n.filled = filled
		}
		n.Labeler.(narrowLabeler).setNarrow(out)
		n.out = out
	})
	n.Labeler.LabelBand(b, cross)
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

func (l *binary8Labeler) setNarrow(labels []uint16) { l.narrow = labels }
func (l *pair18Labeler) setNarrow(labels []uint16)  { l.narrow = labels }
func (l *bundleLabeler) setNarrow(labels []uint16)  { l.narrow = labels }
func (l *rowLabeler) setNarrow(labels []uint16)     { l.narrow = labels }
