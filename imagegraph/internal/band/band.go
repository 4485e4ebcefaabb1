package band

import (
	"time"

	"github.com/cclabel/cclabel/internal/parallel"
)

// Band is a contiguous range of rows labeled by one goroutine.
type Band struct {
	First, End int // rows [First, End)
	Roots      int // roots that survive in this band
	// Hooked lists the roots of this band that the border merges hooked
	// under a root of an earlier band.
	Hooked []uint32
	// FirstLabel is the label of the band's first root, set by Number.
	FirstLabel uint32
	// pendingRows lists, in order, the rows holding entries with
	// PendingFlag.
	pendingRows []int
	waited      time.Duration // time spent waiting for other bands' labels
	// Slots and Runs locate a Labeler's run slots: index of the first
	// and their number.
	Slots, Runs int
	// Edges holds, for LabelRuns, the run starts and ends of every row of
	// the band from the first pass to the second.
	Edges []uint64
	// EdgeRuns tells, for each row of Edges, how its edges are kept
	// (LabelRuns' keepEdges: the runs as pairs, -1 as bits, below -1 as
	// bounds).
	EdgeRuns []int32
}

// MarkPending records that row holds pending entries.
func (b *Band) MarkPending(row int) {
	if n := len(b.pendingRows); n == 0 || b.pendingRows[n-1] != row {
		b.pendingRows = append(b.pendingRows, row)
	}
}

// Run runs body on every band, each on its own goroutine when there
// is more than one.
func Run(bands []Band, body func(b *Band)) {
	parallel.Ranges(len(bands), len(bands), func(lo, hi int) {
		for b := lo; b < hi; b++ {
			body(&bands[b])
		}
	})
}

// Of returns the band holding row.
func Of(bands []Band, row int) *Band {
	for b := range bands {
		if row < bands[b].End {
			return &bands[b]
		}
	}
	return &bands[len(bands)-1]
}

// Join joins the trees of slots a and c during a border merge. It records
// a root it hooks in the band that owned it (width slots a row).
func Join(labels []uint32, bands []Band, width int, a, c uint32) {
	if dead := Hook(labels, FindRoot(labels, a), FindRoot(labels, c)); dead != 0 {
		owner := Of(bands, int(dead-1)/width)
		owner.Roots--
		owner.Hooked = append(owner.Hooked, dead)
	}
}

// JoinContacts joins each contact of found: two slots, in its high and
// low words.
func JoinContacts(labels []uint32, bands []Band, width int, found []uint64) {
	for _, c := range found {
		Join(labels, bands, width, uint32(c>>32), uint32(c))
	}
}

// Number gives each band the first label of its roots and returns
// the label after the last.
func Number(bands []Band) uint32 {
	next := uint32(1)
	for b := range bands {
		bands[b].FirstLabel = next
		next += uint32(bands[b].Roots)
	}
	return next
}

// MoveSlots moves the band's runs slots to the end of its pixels. The
// slots, numbered from its first pixel, move with the offset added to every
// parent to where the labeling pass never overwrites a slot it still needs:
// a pair (or bundle) has at most (width+1)/2 runs, no more than its pixels,
// so later pairs' slots lie after earlier pairs' pixels. hooks is the
// number of roots the linking hooked away.
func (b *Band) MoveSlots(labels []uint32, width, runs, hooks int) {
	start := b.First * width
	shift := (b.End-b.First)*width - runs
	for i := start + runs - 1; i >= start; i-- {
		labels[i+shift] = labels[i] + uint32(shift)
	}
	b.Slots, b.Runs = start+shift, runs
	b.Roots = runs - hooks
}

// KeepSlots records the band's run slots where the linking numbered them,
// from its first pixel on, instead of moving them (MoveSlots). A second
// pass that writes its labels elsewhere (as uint16 labels) reads them
// there; one that writes them over the band's pixels first calls
// [Band.MoveKeptSlots]. hooks is as for MoveSlots.
func (b *Band) KeepSlots(width, runs, hooks int) {
	b.Slots, b.Runs = b.First*width, runs
	b.Roots = runs - hooks
}

// MoveKeptSlots moves the slots that [Band.KeepSlots] left at the band's
// first pixel to the end of its pixels, as MoveSlots does, once the border
// merges have joined them to slots of earlier bands: a parent inside the
// band moves with the slots, one in an earlier band stays. The ids of the
// band's roots that later bands hold (in [CrossLabels] and their parents)
// stay those of the kept slots. It does nothing to slots already at the
// end.
func (b *Band) MoveKeptSlots(labels []uint32, width int) {
	start := b.First * width
	shift := (b.End-b.First)*width - b.Runs
	if b.Slots != start || shift == 0 {
		return
	}
	for i := start + b.Runs - 1; i >= start; i-- {
		p := labels[i]
		if int(p) > start {
			p += uint32(shift)
		}
		labels[i+shift] = p
	}
	b.Slots = start + shift
}
