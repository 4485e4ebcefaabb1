package imageio

import (
	"hash"
	"hash/adler32"
)

// unfilterer reconstructs rows into a target and sums the filtered data
// for the zlib checksum.
type unfilterer struct {
	t        *pngTarget
	sum      hash.Hash32
	y        int
	cur, pre []byte // row buffers for images that convert rows
	zero     []byte // the row above the first
}

// newUnfilterer returns an unfilterer at the first row of t.
func newUnfilterer(t *pngTarget) *unfilterer {
	u := &unfilterer{t: t, sum: adler32.New(), zero: make([]byte, t.rowBytes)}
	if t.direct == nil {
		u.cur, u.pre = make([]byte, t.rowBytes), make([]byte, t.rowBytes)
	}
	return u
}

// rows reconstructs a block of whole rows, each a filter byte and the
// row's bytes.
func (u *unfilterer) rows(block []byte) error {
	u.sum.Write(block)
	t := u.t
	n := t.rowBytes
	for ; len(block) > 0; block = block[1+n:] {
		filter, in := block[0], block[1:1+n]
		if t.direct != nil {
			out := t.direct[u.y*n : (u.y+1)*n]
			prev := u.zero
			if u.y > 0 {
				prev = t.direct[(u.y-1)*n : u.y*n]
			}
			if err := unfilter(filter, out, in, prev, t.bpp); err != nil {
				return err
			}
			if t.paletted != nil {
				t.noteIndices(out)
			}
		} else {
			prev := u.pre
			if u.y == 0 {
				prev = u.zero
			}
			if err := unfilter(filter, u.cur, in, prev, t.bpp); err != nil {
				return err
			}
			t.convert(u.y, u.cur)
			u.cur, u.pre = u.pre, u.cur
		}
		u.y++
	}
	return nil
}
