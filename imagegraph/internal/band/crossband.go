package band

import (
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/cclabel/cclabel/internal/parallel"
)

// CrossLabels hands labels of roots from band to band. The roots are those
// that pixels of later bands join; their labels go from the band that
// numbers them to the bands that need them, so that bands relabel
// concurrently without a second pass.
type CrossLabels struct {
	roots  []uint32        // sorted index+1 of the roots later bands join
	labels []atomic.Uint32 // their labels, 0 until published
	// ranked is set once rankRoots has published every label: the bands
	// need not publish their roots again.
	ranked bool
}

// NewCrossLabels collects the roots that bands hand to later bands. It
// points every root that the border merges hooked straight at its final
// root (so relabeling never follows a path through another band) and
// collects those final roots.
func NewCrossLabels(labels []uint32, bands []Band) *CrossLabels {
	var roots []uint32
	for b := range bands {
		for _, r := range bands[b].Hooked {
			root := FindRoot(labels, r)
			labels[r-1] = root
			roots = append(roots, root)
		}
	}
	slices.Sort(roots)
	roots = slices.Compact(roots)
	return &CrossLabels{roots: roots, labels: make([]atomic.Uint32, len(roots))}
}

// rankRoots gives every root that later bands join its label before the
// bands are labeled, so that no band waits for another: the roots among
// each band's slots are counted in order up to the last such root it
// holds. Those slots are cut into parts counted on all the bands'
// goroutines (the first band often holds most of the work), each part
// ranking its roots from its own start; the parts' counts are then added
// up in order. Roots are slots (index+1) in [b.Slots, b.Slots+b.Runs),
// and Number has set the bands' first labels.
func (c *CrossLabels) rankRoots(labels []uint32, bands []Band) {
	c.ranked = true
	if len(c.roots) == 0 {
		return
	}
	type part struct {
		first   uint32 // the band's first label
		lo, end int    // its slots
		i, j    int    // its cross roots: c.roots[i:j]
		band    bool   // the first part of a band
	}
	per := len(bands)
	parts := make([]part, 0, per*len(bands))
	for b := range bands {
		i, _ := slices.BinarySearch(c.roots, uint32(bands[b].Slots)+1)
		j, _ := slices.BinarySearch(c.roots, uint32(bands[b].Slots+bands[b].Runs)+1)
		if i == j {
			continue
		}
		lo, hi := bands[b].Slots, int(c.roots[j-1]) // slots [lo, hi)
		for p := range per {
			s := lo + (hi-lo)*p/per
			k, _ := slices.BinarySearch(c.roots[i:j], uint32(s)+1)
			parts = append(parts, part{first: bands[b].FirstLabel, lo: s, i: i + k, band: p == 0})
		}
		for p := len(parts) - per; p < len(parts)-1; p++ {
			parts[p].j, parts[p].end = parts[p+1].i, parts[p+1].lo
		}
		parts[len(parts)-1].j, parts[len(parts)-1].end = j, hi
	}
	// Each part counts its roots, ranking its cross roots from its start;
	// then the counts of the parts before are added.
	counts := make([]uint32, len(parts))
	parallel.Ranges(len(parts), per, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			counts[p] = c.rankPart(labels, parts[p].lo, parts[p].end, parts[p].i, parts[p].j)
		}
	})
	var base uint32
	for p := range parts {
		if parts[p].band {
			base = parts[p].first
		}
		for k := parts[p].i; k < parts[p].j; k++ {
			c.labels[k].Store(base + c.labels[k].Load())
		}
		base += counts[p]
	}
}

// rankPart stores, for each cross root k in [i, j) (all in slots [lo,
// end)), the number of roots in slots [lo, that root) into c.labels[k],
// and returns the number of roots in [lo, end).
func (c *CrossLabels) rankPart(labels []uint32, lo, end, i, j int) uint32 {
	next, s := uint32(0), lo
	for k := i; k < j; k++ {
		// The roots before the k-th, counted without a branch on each
		// slot (roots and other slots mix unpredictably).
		r := int(c.roots[k]) - 1
		next += countRoots(labels[s:r], uint32(s)+1)
		c.labels[k].Store(next)
		next++
		s = r + 1
	}
	return next + countRoots(labels[s:end], uint32(s)+1)
}

// countRoots returns how many entries of slots are roots, slots[i] being
// the parent of slot first+i.
func countRoots(slots []uint32, first uint32) uint32 {
	var n0, n1, n2, n3 uint32
	i := 0
	for ; i+4 <= len(slots); i += 4 {
		t := slots[i : i+4 : i+4]
		v := first + uint32(i)
		n0 += uint32(b2i(t[0] == v))
		n1 += uint32(b2i(t[1] == v+1))
		n2 += uint32(b2i(t[2] == v+2))
		n3 += uint32(b2i(t[3] == v+3))
	}
	for ; i < len(slots); i++ {
		n0 += uint32(b2i(slots[i] == first+uint32(i)))
	}
	return n0 + n1 + n2 + n3
}

// Publish records the label of root, if a later band needs it.
func (c *CrossLabels) Publish(root, label uint32) {
	if len(c.roots) == 0 || c.ranked {
		return
	}
	if i, ok := slices.BinarySearch(c.roots, root); ok {
		c.labels[i].Store(label)
	}
}

// PendingFlag marks a label entry that waits for a root's label. Such an
// entry holds the index+1 of a root in an earlier band whose label was not
// yet published when the entry was written; [CrossLabels.FinishBand]
// replaces it.
const PendingFlag = 1 << 31

// pendingWait is how long, in all, a band waits for labels from earlier
// bands before it leaves entries pending instead. Bands start at slightly
// different times, and the roots a band needs most (those of large
// components, near the top of the band above) are published first; a
// pending large component would cost a pass over the band.
const pendingWait = 5 * time.Millisecond

// Label returns the label of root if it is published (waiting a little,
// within the band's budget), and otherwise root with PendingFlag.
func (c *CrossLabels) Label(root uint32, b *Band) uint32 {
	i, _ := slices.BinarySearch(c.roots, root)
	if l := c.labels[i].Load(); l != 0 {
		return l
	}
	start := time.Now()
	defer func() { b.waited += time.Since(start) }()
	for b.waited+time.Since(start) < pendingWait {
		runtime.Gosched()
		if l := c.labels[i].Load(); l != 0 {
			return l
		}
	}
	return root | PendingFlag
}

// FinishBand replaces the pending entries in the rows a band recorded,
// once every band has been relabeled.
func (c *CrossLabels) FinishBand(labels []uint32, width int, b *Band) {
	var root, label uint32
	for _, y := range b.pendingRows {
		row := labels[y*width : (y+1)*width]
		for x, l := range row {
			if l&PendingFlag == 0 {
				continue
			}
			if r := l &^ PendingFlag; r != root {
				root, label = r, c.wait(r)
			}
			row[x] = label
		}
	}
}

// wait returns the label of root, which must be one of the collected
// roots, waiting until the band that owns it has numbered it. Bands only
// wait for earlier bands, so this always ends.
func (c *CrossLabels) wait(root uint32) uint32 {
	i, _ := slices.BinarySearch(c.roots, root)
	for {
		if l := c.labels[i].Load(); l != 0 {
			return l
		}
		runtime.Gosched()
	}
}

// LabelSlots gives every slot of a band its label. It numbers the roots
// among the slots in order from the band's first label, and gives every
// other slot its parent's label: the parent precedes it, so it is already
// labeled, or lies in an earlier band, whose label comes from cross.
func LabelSlots(labels []uint32, b *Band, cross *CrossLabels) {
	lo, hi := b.Slots, b.Slots+b.Runs
	next := b.FirstLabel
	if !cross.ranked && len(cross.roots) > 0 {
		for i := lo; i < hi; i++ {
			p := labels[i]
			switch {
			case p == uint32(i)+1:
				labels[i] = next
				cross.Publish(p, next)
				next++
			case int(p) > lo:
				labels[i] = labels[p-1]
			default:
				labels[i] = cross.Label(p, b)
			}
		}
		return
	}
	// Without a branch on whether a slot is a root: a root's parent is
	// itself, so reading its parent's entry is harmless.
	for i := lo; i < hi; i++ {
		p := labels[i]
		if int(p) <= lo {
			labels[i] = cross.Label(p, b) // in an earlier band (a root is not)
			continue
		}
		root := -uint32(b2i(p == uint32(i)+1))
		labels[i] = next&root | labels[p-1]&^root
		next -= root
	}
}
