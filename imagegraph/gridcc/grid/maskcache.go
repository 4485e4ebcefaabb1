package grid

import "github.com/cclabel/cclabel/imagegraph/internal/band"

// maskCache keeps the masks that the first pass of a binary labeler reads,
// so that the second pass copies them instead of asking the source again
// (which converts samples): one bit a pixel, an eighth of the labels.
type maskCache struct {
	src    MaskRows
	words  int
	rows   []uint64
	loaded []bool // rows already read from src
	// ready is set between the passes (all goroutines of the first pass
	// have ended); from then on rows come from the cache.
	ready bool
	// reuse serves a row from the cache as soon as it is kept, for a
	// streamed run, whose borders are merged during the first pass: a row
	// is kept by its band's first pass before any other goroutine reads
	// it (a border is merged once both its bands are linked).
	reuse bool
}

// newMaskCache returns a cache for rows of width pixels.
func newMaskCache(src MaskRows, width, rows int) *maskCache {
	words := maskWords(width)
	return &maskCache{src: src, words: words, rows: band.GetWords(words * rows), loaded: make([]bool, rows)}
}

// Mask serves a row: from the source, kept, in the first pass; from the
// cache, once ready (or once kept, with reuse), when the first pass kept
// it. Each band's goroutine reads only its own rows in the first pass.
func (c *maskCache) Mask(row int, dst []uint64) {
	kept := c.rows[row*c.words : (row+1)*c.words]
	if c.loaded[row] && (c.ready || c.reuse) {
		copy(dst, kept)
		return
	}
	c.src.Mask(row, dst)
	if !c.ready {
		copy(kept, dst)
		c.loaded[row] = true
	}
}

// runCachedBandLabeler is band.RunLabeler for a labeler whose rows come
// through cache.
func runCachedBandLabeler(l band.Labeler, cache *maskCache, bands []band.Band, labels []uint32, width int) int {
	n := band.RunLabelerWith(l, bands, labels, width, func() { cache.ready = true })
	band.PutWords(cache.rows)
	cache.rows = nil
	return n
}
