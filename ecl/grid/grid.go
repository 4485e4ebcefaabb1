package grid

import (
	"fmt"
	"math"
	"time"

	"github.com/cclabel/cclabel/internal/parallel"
)

// GridKey is the type of a grid's connectivity keys.
type GridKey interface{ ~uint32 | ~uint64 }

// KeyRows produces a grid's connectivity keys one row at a time: key 0 is
// background, and two neighbouring foreground pixels are joined when their
// keys are equal. Row r is y + z*Height. Keys must be safe for concurrent
// use on different rows.
type KeyRows[K GridKey] interface {
	Keys(row int, dst []K)
}

// GridShape is the size of a 2D (Depth 1) or 3D grid.
type GridShape struct{ Width, Height, Depth int }

// Len returns the number of pixels (voxels).
func (s GridShape) Len() int { return s.Width * s.Height * s.Depth }

// gridMaxPixels bounds the pixels of a grid: parents are stored as
// index+1 in 32 bits, with room to spare.
const gridMaxPixels = 1 << 31

// validate checks the shape and connectivity of a grid labeling.
func (s GridShape) validate(connectivity int, dst []uint32) error {
	if s.Width < 1 || s.Height < 1 || s.Depth < 1 {
		return fmt.Errorf("ecl: grid %dx%dx%d: sides must be positive", s.Width, s.Height, s.Depth)
	}
	n := int64(s.Width) * int64(s.Height) * int64(s.Depth)
	if n >= gridMaxPixels || n > math.MaxInt {
		return fmt.Errorf("ecl: grid %dx%dx%d has %d pixels, more than 2^31-1", s.Width, s.Height, s.Depth, n)
	}
	if len(dst) != int(n) {
		return fmt.Errorf("ecl: grid of %d pixels but %d labels", n, len(dst))
	}
	switch {
	case s.Depth == 1 && (connectivity == 4 || connectivity == 8):
	case s.Depth > 1 && (connectivity == 6 || connectivity == 18 || connectivity == 26):
	default:
		return fmt.Errorf("ecl: connectivity %d is not valid for a %s grid (2D: 4 or 8; 3D: 6, 18 or 26)",
			connectivity, map[bool]string{true: "2D", false: "3D"}[s.Depth == 1])
	}
	return nil
}

// LabelGrid labels the connected components of an implicit grid graph with
// ECL-CC and writes labels into dst (one per pixel, x fastest): 0 for
// background, 1..N numbered by first occurrence. It returns N.
//
// Neighbours come from the connectivity stencil (2D: 4 or 8; 3D: 6, 18 or
// 26); no CSR is built. Every pixel is initialised to its first smaller
// (backward) connected neighbour and only backward neighbours are hooked,
// with intermediate pointer jumping; edges that the stencil proves
// redundant (two backward neighbours that are themselves adjacent and
// connected) are skipped. Because pixels are visited in increasing order
// and hooks only join backward neighbours, a single in-order pass does the
// init and compute phases, and relabeling in order doubles as the
// finalize phase.
//
// With threads > 1 (0 means GOMAXPROCS) the rows are split into contiguous
// bands labeled independently, their borders are then merged, and the
// bands are relabeled in parallel; the result is identical for every
// thread count.
func LabelGrid[K GridKey](shape GridShape, connectivity int, src KeyRows[K], dst []uint32, threads int) (int, error) {
	if err := shape.validate(connectivity, dst); err != nil {
		return 0, err
	}
	rows := shape.Height * shape.Depth
	// Bands of whole planes in 3D, of rows in 2D, at least a few rows each.
	unit := 1
	if shape.Depth > 1 {
		unit = shape.Height
	}
	units := rows / unit
	threads = parallel.ClampThreads(threads, max(1, units/4))
	bands := make([]gridBand, threads)
	for b := range bands {
		bands[b].first = units * b / threads * unit
		bands[b].end = units * (b + 1) / threads * unit
	}
	g := &gridLabeler[K]{shape: shape, conn: connectivity, src: src, labels: dst}
	runBands(bands, func(b *gridBand) { g.labelBand(b) })
	for b := 1; b < len(bands); b++ {
		g.mergeBorder(bands, b)
	}
	cross := newCrossBandLabels(dst, bands)
	next := numberBands(bands)
	runBands(bands, func(b *gridBand) { g.relabelBand(b, cross) })
	runBands(bands, func(b *gridBand) { cross.finishBand(dst, shape.Width, b) })
	return int(next - 1), nil
}

// gridBand is a contiguous range of rows labeled by one goroutine.
type gridBand struct {
	first, end int // rows [first, end)
	roots      int // roots that survive in this band
	hooked     []uint32
	firstLabel uint32
	// pendingRows lists, in order, the rows holding entries with
	// pendingFlag.
	pendingRows []int
	waited      time.Duration // time spent waiting for other bands' labels
	// slots and runs locate LabelBinary8's run slots: index of the first
	// and their number.
	slots, runs int
	// edges holds, for LabelRuns, the run starts and ends of every row of
	// the band from the first pass to the second.
	edges []uint64
}

// markPending records that row holds pending entries.
func (b *gridBand) markPending(row int) {
	if n := len(b.pendingRows); n == 0 || b.pendingRows[n-1] != row {
		b.pendingRows = append(b.pendingRows, row)
	}
}

// runBands runs body on every band, each on its own goroutine when there
// is more than one.
func runBands(bands []gridBand, body func(b *gridBand)) {
	parallel.Ranges(len(bands), len(bands), func(lo, hi int) {
		for b := lo; b < hi; b++ {
			body(&bands[b])
		}
	})
}

// gridLabeler holds one grid labeling. Labels hold, until relabeling, each
// pixel's parent as index+1, with 0 for background; a root is its own
// parent.
type gridLabeler[K GridKey] struct {
	shape  GridShape
	conn   int
	src    KeyRows[K]
	labels []uint32
}

// find returns the root (as index+1) of the pixel with parent entry a
// (index+1), halving the path on the way.
func find(labels []uint32, a uint32) uint32 {
	curr := labels[a-1]
	if curr == a {
		return a
	}
	prev := a
	for {
		next := labels[curr-1]
		if next == curr {
			return curr
		}
		labels[prev-1] = next
		prev, curr = curr, next
	}
}

// findRoot returns the root of a (index+1) without changing any parent.
// The border merges use it: path halving there could point a pixel into
// another band, which relabeling must never read.
func findRoot(labels []uint32, a uint32) uint32 {
	for {
		p := labels[a-1]
		if p == a {
			return a
		}
		a = p
	}
}

// union hooks the roots of a and b (both index+1), the larger under the
// smaller, and returns the root that stopped being one, or 0 when a and b
// were already joined.
func union(labels []uint32, a, b uint32) uint32 {
	return hook(labels, find(labels, a), find(labels, b))
}

// hook joins roots ra and rb, the larger under the smaller, and returns the
// root that stopped being one, or 0 when they are the same.
func hook(labels []uint32, ra, rb uint32) uint32 {
	switch {
	case ra < rb:
		labels[rb-1] = ra
		return rb
	case rb < ra:
		labels[ra-1] = rb
		return ra
	}
	return 0
}

// mergeBorder joins band b's first row (or plane) with what lies before it.
// It runs serially, after every band was labeled; hooked roots are
// recorded in the band that owned them.
func (g *gridLabeler[K]) mergeBorder(bands []gridBand, b int) {
	join := func(a, c uint32) {
		if dead := hook(g.labels, findRoot(g.labels, a), findRoot(g.labels, c)); dead != 0 {
			owner := bandOf(bands, int(dead-1)/g.shape.Width)
			owner.roots--
			owner.hooked = append(owner.hooked, dead)
		}
	}
	if g.shape.Depth == 1 {
		g.mergeRows2D(bands[b].first, join)
	} else {
		g.mergePlanes3D(bands[b].first/g.shape.Height, join)
	}
}

// bandOf returns the band holding row.
func bandOf(bands []gridBand, row int) *gridBand {
	for b := range bands {
		if row < bands[b].end {
			return &bands[b]
		}
	}
	return &bands[len(bands)-1]
}

// numberBands gives each band the first label of its roots and returns
// the label after the last.
func numberBands(bands []gridBand) uint32 {
	next := uint32(1)
	for b := range bands {
		bands[b].firstLabel = next
		next += uint32(bands[b].roots)
	}
	return next
}

// relabelBand numbers the band's roots from firstLabel on, in order, and
// gives every other pixel its parent's label; the parent precedes it, so
// it is already relabeled. A hooked root points at a root in an earlier
// band, whose label comes from cross, or stays pending if that band has
// not numbered it yet. firstLabel is used up.
func (g *gridLabeler[K]) relabelBand(b *gridBand, cross *crossBandLabels) {
	w := g.shape.Width
	for y := b.first; y < b.end; y++ {
		lo := y * w
		row := g.labels[lo : lo+w]
		pending := uint32(0)
		for x, p := range row {
			switch v := uint32(lo + x); {
			case p == 0:
			case p == v+1:
				row[x] = b.firstLabel
				cross.publish(p, b.firstLabel)
				b.firstLabel++
			case int(p-1) >= b.first*w:
				row[x] = g.labels[p-1]
			default:
				row[x] = cross.label(p, b)
			}
			pending |= row[x]
		}
		if pending&pendingFlag != 0 {
			b.markPending(y)
		}
	}
}

// labelBand runs the init and compute phases on the band's rows.
func (g *gridLabeler[K]) labelBand(b *gridBand) {
	if g.shape.Depth == 1 {
		g.labelBand2D(b)
	} else {
		g.labelBand3D(b)
	}
}
