package measure

import (
	"github.com/cclabel/cclabel/imagegraph"
)

// partial holds one goroutine's sums for one label.
type partial struct {
	n          int64
	sx, sy, sz int64 // sums of coordinates
	min, max   [3]int
	same       [3]int64 // neighbour pairs along x, y, z inside the component

	// Intensity: k is the first scaled sample this goroutine saw, the
	// shift of s1 = Σ(v-k) and s2 = Σ(v-k)²; s = Σv; wx, wy, wz = Σ x·v,
	// Σ y·v, Σ z·v.
	k, s, s1, s2, wx, wy, wz float64
	imin, imax               float64
}

// contactKey packs a pair of labels a < b.
func contactKey(a, b uint32) uint64 { return uint64(a)<<32 | uint64(b) }

// faces counts the faces of a pair of labels along x, y and z.
type faces [3]int64

// worker is one goroutine's share of the pass: its rows and what it
// gathered from them.
type worker struct {
	// pages holds the partials by label, pageSize labels a page, each
	// page allocated when a label of it is first met.
	pages    [][]partial
	contacts map[uint64]*faces
	// lastKey and last cache the pair most recently touched.
	lastKey uint64
	last    *faces
	// bad is the index of the first label above the count, or -1.
	bad int
}

// pageBits is the base-2 logarithm of the labels of a page of partials.
const pageBits = 10

// part returns label a's partial.
func (wk *worker) part(a uint32) *partial {
	pg := wk.pages[a>>pageBits]
	if pg == nil {
		pg = make([]partial, 1<<pageBits)
		wk.pages[a>>pageBits] = pg
	}
	return &pg[a&(1<<pageBits-1)]
}

// contact counts one face along axis between labels a and b, both
// nonzero and different.
func (wk *worker) contact(a, b uint32, axis int) {
	if a > b {
		a, b = b, a
	}
	key := contactKey(a, b)
	if key != wk.lastKey || wk.last == nil {
		f := wk.contacts[key]
		if f == nil {
			f = new(faces)
			wk.contacts[key] = f
		}
		wk.lastKey, wk.last = key, f
	}
	wk.last[axis]++
}

// scan is what every goroutine of a pass reads.
type scan[L Label, T imagegraph.Sample] struct {
	labels          []L
	vals            []T // nil without intensity
	w, h            int
	count           int
	slope, inter    float64
	scaled          bool // slope != 1 or inter != 0
	surface, touch  bool // Options.Surface, Options.Contacts
	neighbourCounts bool // surface || touch
}

// rows measures rows [lo, hi) (row r is y + z*h) into wk.
func (s *scan[L, T]) rows(wk *worker, lo, hi int) {
	w, h := s.w, s.h
	plane := w * h
	for r := lo; r < hi; r++ {
		y, z := r%h, r/h
		base := r * w
		row := s.labels[base : base+w]
		var up, back []L
		if y > 0 {
			up = s.labels[base-w : base]
		}
		if z > 0 {
			back = s.labels[base-plane : base-plane+w]
		}
		var vals []T
		if s.vals != nil {
			vals = s.vals[base : base+w]
		}
		for x := 0; x < w; {
			a := row[x]
			x0 := x
			for x++; x < w && row[x] == a; x++ {
			}
			if a == 0 {
				continue
			}
			if int(a) > s.count {
				if wk.bad < 0 {
					wk.bad = base + x0
				}
				continue
			}
			p := wk.part(uint32(a))
			n := int64(x - x0)
			if p.n == 0 {
				p.min = [3]int{x0, y, z}
				p.max = [3]int{x - 1, y, z}
			} else {
				p.min[0] = min(p.min[0], x0)
				p.max[0] = max(p.max[0], x-1)
				p.min[1] = min(p.min[1], y)
				p.max[1] = max(p.max[1], y)
				p.min[2] = min(p.min[2], z)
				p.max[2] = max(p.max[2], z)
			}
			// Σx over [x0, x) = n·(x0 + x - 1)/2.
			p.sx += n * int64(x0+x-1) / 2
			p.sy += n * int64(y)
			p.sz += n * int64(z)
			if vals != nil {
				s.intensity(p, vals[x0:x], x0, y, z)
			}
			p.n += n
			if !s.neighbourCounts {
				continue
			}
			p.same[0] += n - 1
			if s.touch && x0 > 0 && row[x0-1] != 0 {
				wk.contact(uint32(row[x0-1]), uint32(a), 0)
			}
			if up != nil {
				p.same[1] += s.compare(wk, a, up[x0:x], 1)
			}
			if back != nil {
				p.same[2] += s.compare(wk, a, back[x0:x], 2)
			}
		}
	}
}

// compare returns how many of the labels in nb, the neighbours of a run
// of label a along axis, are a, counting the faces of the others that are
// not background as contacts when they are asked for.
func (s *scan[L, T]) compare(wk *worker, a L, nb []L, axis int) int64 {
	var c int64
	if !s.touch {
		for _, b := range nb {
			if b == a {
				c++
			}
		}
		return c
	}
	for _, b := range nb {
		if b == a {
			c++
		} else if b != 0 {
			wk.contact(uint32(a), uint32(b), axis)
		}
	}
	return c
}

// intensity adds the samples vals of a run starting at (x0, y, z) to p.
func (s *scan[L, T]) intensity(p *partial, vals []T, x0, y, z int) {
	first := p.n == 0
	if first {
		v := float64(vals[0])
		if s.scaled {
			v = float64(v*s.slope) + s.inter
		}
		p.k, p.imin, p.imax = v, v, v
	}
	k := p.k
	var sum, s1, s2, wx float64
	mn, mx := p.imin, p.imax
	fx := float64(x0)
	if s.scaled {
		slope, inter := s.slope, s.inter
		for _, t := range vals {
			v := float64(float64(t)*slope) + inter // rounded product, as thresholds
			sum += v
			wx += fx * v
			d := v - k
			s1 += d
			s2 += d * d
			mn = min(mn, v)
			mx = max(mx, v)
			fx++
		}
	} else {
		for _, t := range vals {
			v := float64(t)
			sum += v
			wx += fx * v
			d := v - k
			s1 += d
			s2 += d * d
			mn = min(mn, v)
			mx = max(mx, v)
			fx++
		}
	}
	p.s += sum
	p.s1 += s1
	p.s2 += s2
	p.wx += wx
	p.wy += float64(y) * sum
	p.wz += float64(z) * sum
	p.imin, p.imax = mn, mx
}
