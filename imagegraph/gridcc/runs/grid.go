package runs

import (
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/internal/band"
	"github.com/cclabel/cclabel/internal/parallel"
)

// LabelGrid labels a grid given as keys, with ECL-CC on every pixel. It
// writes labels into dst (one per pixel, x fastest): 0 for background,
// 1..N numbered by first occurrence, and returns N.
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
func LabelGrid[K grid.GridKey](shape grid.GridShape, connectivity int, src grid.KeyRows[K], dst []uint32, threads int) (int, error) {
	if err := band.Validate(shape.Width, shape.Height, shape.Depth, connectivity, dst); err != nil {
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
	bands := make([]band.Band, threads)
	for b := range bands {
		bands[b].First = units * b / threads * unit
		bands[b].End = units * (b + 1) / threads * unit
	}
	g := &gridLabeler[K]{shape: shape, conn: connectivity, src: src, labels: dst}
	band.Run(bands, func(b *band.Band) { g.labelBand(b) })
	for b := 1; b < len(bands); b++ {
		g.mergeBorder(bands, b)
	}
	cross := band.NewCrossLabels(dst, bands)
	next := band.Number(bands)
	band.Run(bands, func(b *band.Band) { g.relabelBand(b, cross) })
	band.Run(bands, func(b *band.Band) { cross.FinishBand(dst, shape.Width, b) })
	return int(next - 1), nil
}

// gridLabeler holds one grid labeling. Labels hold, until relabeling, each
// pixel's parent as index+1, with 0 for background; a root is its own
// parent.
type gridLabeler[K grid.GridKey] struct {
	shape  grid.GridShape
	conn   int
	src    grid.KeyRows[K]
	labels []uint32
}

// mergeBorder joins band b's first row (or plane) with what lies before it.
// It runs serially, after every band was labeled; hooked roots are
// recorded in the band that owned them.
func (g *gridLabeler[K]) mergeBorder(bands []band.Band, b int) {
	join := func(a, c uint32) { band.Join(g.labels, bands, g.shape.Width, a, c) }
	if g.shape.Depth == 1 {
		g.mergeRows2D(bands[b].First, join)
	} else {
		g.mergePlanes3D(bands[b].First/g.shape.Height, join)
	}
}

// relabelBand numbers the band's roots from FirstLabel on, in order, and
// gives every other pixel its parent's label; the parent precedes it, so
// it is already relabeled. A hooked root points at a root in an earlier
// band, whose label comes from cross, or stays pending if that band has
// not numbered it yet. FirstLabel is used up.
func (g *gridLabeler[K]) relabelBand(b *band.Band, cross *band.CrossLabels) {
	w := g.shape.Width
	for y := b.First; y < b.End; y++ {
		lo := y * w
		row := g.labels[lo : lo+w]
		pending := uint32(0)
		for x, p := range row {
			switch v := uint32(lo + x); {
			case p == 0:
			case p == v+1:
				row[x] = b.FirstLabel
				cross.Publish(p, b.FirstLabel)
				b.FirstLabel++
			case int(p-1) >= b.First*w:
				row[x] = g.labels[p-1]
			default:
				row[x] = cross.Label(p, b)
			}
			pending |= row[x]
		}
		if pending&band.PendingFlag != 0 {
			b.MarkPending(y)
		}
	}
}

// labelBand runs the init and compute phases on the band's rows.
func (g *gridLabeler[K]) labelBand(b *band.Band) {
	if g.shape.Depth == 1 {
		g.labelBand2D(b)
	} else {
		g.labelBand3D(b)
	}
}
