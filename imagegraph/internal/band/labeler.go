package band

// Labeler is a two-pass labeler working on bands: LabelBinary8's,
// LabelBinary26's, LabelBinary's on row runs and LabelRuns'.
type Labeler interface {
	// LinkBand is the first pass over a band: it gives every vertex a
	// slot and hooks the vertices that touch.
	LinkBand(b *Band)
	// MergeBorder joins the first layer of band b with the last layer of
	// band b-1.
	MergeBorder(bands []Band, b int)
	// LabelBand is the second pass: it labels the band's slots and
	// pixels, taking the labels of roots in earlier bands from cross.
	LabelBand(b *Band, cross *CrossLabels)
}

// A Numberer is a [Labeler] whose second pass labels the slots of every
// band, in NumberBands (on the bands' goroutines, with [Run]), before its
// LabelBand writes any band's pixels: a band's labels may then depend on
// those that other bands' slots took. [RunLabelerWith] calls NumberBands
// once the roots that bands hand on are ranked.
type Numberer interface {
	NumberBands(bands []Band, cross *CrossLabels)
}

// RunLabeler labels the bands of labels (rows of width pixels): link,
// merge the borders, number and label. It returns the number of labels.
func RunLabeler(l Labeler, bands []Band, labels []uint32, width int) int {
	return RunLabelerWith(l, bands, labels, width, func() {})
}

// RunLabelerWith is RunLabeler, calling linked once the first
// pass has ended on every band.
func RunLabelerWith(l Labeler, bands []Band, labels []uint32, width int, linked func()) int {
	Run(bands, func(b *Band) { l.LinkBand(b) })
	linked()
	for b := 1; b < len(bands); b++ {
		l.MergeBorder(bands, b)
	}
	cross := NewCrossLabels(labels, bands)
	next := Number(bands)
	cross.rankRoots(labels, bands)
	if n, ok := l.(Numberer); ok {
		n.NumberBands(bands, cross)
	}
	Run(bands, func(b *Band) { l.LabelBand(b, cross) })
	Run(bands, func(b *Band) { cross.FinishBand(labels, width, b) })
	return int(next - 1)
}
