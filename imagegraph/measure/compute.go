package measure

import (
	"cmp"
	"iter"
	"math"
	"slices"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/parallel"
)

// compute is [Compute] for intensity samples of type T (vals nil: none),
// on checked arguments.
func compute[L Label, T imagegraph.Sample](labels []L, vals []T, w, h, d, count int, opt Options) (*Table, error) {
	s := &scan[L, T]{
		labels: labels, vals: vals, w: w, h: h, count: count,
		slope: opt.Slope, inter: opt.Inter, scaled: opt.Slope != 1 || opt.Inter != 0,
		surface: opt.Surface, touch: opt.Contacts,
	}
	s.neighbourCounts = s.surface || s.touch
	threads := parallel.ClampThreads(opt.Threads, h*d)
	if vals != nil {
		// Unscaled floating-point samples may be -0, and scaled samples
		// only where inter is -0.
		s.zeros = s.scaled && math.Signbit(s.inter) || !s.scaled && T(1)/2 != 0
		// First at a provisional scale, then, where it does not hold, at
		// the scale of a first pass over all samples.
		if s.guess() {
			if workers := s.pass(threads); s.held(workers) {
				return s.table(workers, threads, opt)
			}
			s.provisional = false
		}
		s.quant, s.exact = s.quantOf(opt.Threads)
	}
	s.lim = math.Inf(1)
	return s.table(s.pass(threads), threads, opt)
}

// pass measures the rows with threads goroutines, one worker each.
func (s *scan[L, T]) pass(threads int) []worker {
	_, f32 := any(s.vals).([]float32)
	s.batch = f32 && hasQuantRuns32 && s.exact && !s.scaled && s.quant.f2 == 1 && s.w <= maxRowIndex
	workers := make([]worker, threads)
	parallel.RangesIndexed(len(s.labels)/s.w, threads, func(t, lo, hi int) {
		wk := &workers[t]
		wk.pages = make([][]partial, s.count>>pageBits+1)
		wk.bad = -1
		if s.touch {
			wk.contacts = make(map[uint64]*faces)
		}
		s.rows(wk, lo, hi)
	})
	return workers
}

// held reports whether the provisional scale of a pass held, from its workers:
// the pass went through, every v·2^scale was an integer and every |v| was below
// s.lim, so that the scale is not above that of the largest |v|. Then each
// statistic, a ratio of sums in which the powers of two cancel, is that at it.
func (s *scan[L, T]) held(workers []worker) bool {
	for i := range workers {
		if workers[i].redo {
			return false
		}
	}
	return true
}

// table merges the workers of a pass into the table.
func (s *scan[L, T]) table(workers []worker, threads int, opt Options) (*Table, error) {
	for _, wk := range workers {
		if wk.bad >= 0 {
			return nil, &LabelError{Index: wk.bad, Label: uint32(s.labels[wk.bad]), Count: s.count}
		}
	}
	t := &Table{Components: make([]Component, s.count), First: make([]int, s.count)}
	m := merger{workers: workers, opt: opt, is3D: len(s.labels) > s.w*s.h, intensity: s.vals != nil}
	if s.exact {
		m.exact, m.scale = true, s.quant.scale
	}
	npages := s.count>>pageBits + 1
	parallel.Ranges(npages, threads, func(lo, hi int) {
		for pg := lo; pg < hi; pg++ {
			m.page(t, pg)
		}
	})
	if s.touch {
		t.Contacts = m.contacts(threads)
	}
	return t, nil
}

// merger combines the workers' partials, in worker order.
type merger struct {
	workers   []worker
	opt       Options
	exact     bool // the intensity sums are exact, of this scale
	scale     int
	is3D      bool
	intensity bool
}

// page merges the labels of page pg into t (label k at k-1): its first
// voxel is that of its first partial, the workers' rows being in order.
func (m *merger) page(t *Table, pg int) {
	lo := max(pg<<pageBits, 1)
	hi := min((pg+1)<<pageBits, len(t.Components)+1)
	var z bigScratch
	for lab := lo; lab < hi; lab++ {
		i := lab & (1<<pageBits - 1)
		t.First[lab-1] = -1
		for p := range m.partials(pg, i) {
			t.First[lab-1] = int(p.first)
			break
		}
		if m.exact {
			m.exactLabel(&t.Components[lab-1], pg, i, &z)
		} else {
			m.label(&t.Components[lab-1], pg, i)
		}
	}
}

// label merges one label's partials, at index i of page pg, into c, from
// intensity sums in floating point.
func (m *merger) label(c *Component, pg, i int) {
	e := Exact{Min: [3]int{math.MaxInt, math.MaxInt, math.MaxInt}, Max: [3]int{-1, -1, -1}}
	var same [3]int64
	var k, s1, s2 float64
	var wsum [3]float64
	for p := range m.partials(pg, i) {
		if m.intensity {
			f := p.fl()
			if e.Size == 0 {
				k, e.IMin, e.IMax = f.k, p.imin, p.imax
			}
			// Shift p's sums of v-f.k to sums of v-k.
			dk, n := f.k-k, float64(p.n)
			s1 += f.s1 + n*dk
			s2 += f.s2 + 2*dk*f.s1 + n*dk*dk
			wsum[0] += f.wx
			wsum[1] += f.wy
			wsum[2] += f.wz
			e.IMin = min(e.IMin, p.imin)
			e.IMax = max(e.IMax, p.imax)
		}
		e.add(p, &same)
	}
	opt := m.opt
	opt.Intensity = nil
	*c = e.component(opt, m.is3D, nil, nil)
	if !m.intensity || e.Size == 0 {
		return
	}
	c.IMin, c.IMax = e.IMin, e.IMax
	if c.IMin > c.IMax { // every sample NaN
		c.IMin, c.IMax = math.NaN(), math.NaN()
	}
	n := float64(e.Size)
	s := n*k + s1
	c.Sum = s
	c.Mean = s / n
	mean1 := s1 / n
	c.Std = math.Sqrt(max(s2/n-mean1*mean1, 0))
	for a := range 3 {
		c.WCentroid[a] = wsum[a] / s
	}
}

// exactLabel merges one label's partials, at index i of page pg, into c, from
// exact intensity sums: c is the [Exact.Component] of the sums (z's numbers).
func (m *merger) exactLabel(c *Component, pg, i int, z *bigScratch) {
	e := Exact{Scale: m.scale, IMin: math.Inf(1), IMax: math.Inf(-1),
		Min: [3]int{math.MaxInt, math.MaxInt, math.MaxInt}, Max: [3]int{-1, -1, -1}}
	var same [3]int64
	var q, qx, qy, qz wide128
	var q2 wide192
	for p := range m.partials(pg, i) {
		e.add(p, &same)
		q.add(p.q)
		q2.add(p.q2)
		qx.add(p.qx[0])
		qy.add(p.qx[1])
		qz.add(p.qx[2])
		e.IMin = min(e.IMin, p.imin)
		e.IMax = max(e.IMax, p.imax)
	}
	if e.Size == 0 {
		*c = e.component(m.opt, m.is3D, nil, z)
		return
	}
	*c = e.component(m.opt, m.is3D, &exactSums{q, q2, [3]wide128{qx, qy, qz}}, z)
}

// partials yields the workers' partials of index i of page pg with voxels, in order.
func (m *merger) partials(pg, i int) iter.Seq[*partial] {
	return func(yield func(*partial) bool) {
		for t := range m.workers {
			if pages := m.workers[t].pages; pages[pg] != nil && pages[pg][i].n > 0 && !yield(&pages[pg][i]) {
				return
			}
		}
	}
}

// add adds p's size, coordinate sums and box to e, and its pairs of neighbours
// inside the component to same, from which it sets e's exposed faces.
func (e *Exact) add(p *partial, same *[3]int64) {
	e.Size += p.n
	e.Sum[0] += p.sx
	e.Sum[1] += p.sy
	e.Sum[2] += p.sz
	lo, hi := p.box()
	for a := range 3 {
		e.Min[a] = min(e.Min[a], lo[a])
		e.Max[a] = max(e.Max[a], hi[a])
		same[a] += p.same[a]
		e.Exposed[a] = 2 * (e.Size - same[a])
	}
}

// faceAreas returns the physical area of a face across x, y and z (3D),
// or the length of a pixel edge across x and y (2D).
func faceAreas(spacing [3]float64, is3D bool) [3]float64 {
	sx, sy, sz := spacing[0], spacing[1], spacing[2]
	if !is3D {
		return [3]float64{sy, sx, 0}
	}
	return [3]float64{sy * sz, sx * sz, sx * sy}
}

// pairFaces is a pair of labels' key ([contactKey]) and faces.
type pairFaces struct {
	key uint64
	f   faces
}

// contacts merges the workers' contacts, in increasing order of the pair,
// with threads goroutines: each sorts a worker's pairs, then each merges
// the pairs of one range of keys from every worker.
func (m *merger) contacts(threads int) []Contact {
	lists := make([][]pairFaces, len(m.workers))
	parallel.Ranges(len(m.workers), threads, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			l := make([]pairFaces, 0, len(m.workers[t].contacts))
			for key, f := range m.workers[t].contacts {
				l = append(l, pairFaces{key, *f})
			}
			slices.SortFunc(l, func(x, y pairFaces) int { return cmp.Compare(x.key, y.key) })
			lists[t] = l
		}
	})
	if len(lists) == 0 {
		return []Contact{}
	}
	// The ranges of keys: cut at even steps of the longest list.
	longest := slices.MaxFunc(lists, func(x, y []pairFaces) int { return cmp.Compare(len(x), len(y)) })
	parts := parallel.ClampThreads(threads, len(longest)/4096+1)
	cuts := make([]uint64, parts+1)
	for r := 1; r < parts; r++ {
		cuts[r] = longest[r*len(longest)/parts].key
	}
	cuts[parts] = math.MaxUint64
	area := faceAreas(m.opt.Spacing, m.is3D)
	out := make([][]Contact, parts)
	parallel.RangesIndexed(parts, parts, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			var seg []pairFaces
			for _, l := range lists {
				a, _ := slices.BinarySearchFunc(l, cuts[r], func(x pairFaces, k uint64) int { return cmp.Compare(x.key, k) })
				b := len(l)
				if r+1 < parts {
					b, _ = slices.BinarySearchFunc(l, cuts[r+1], func(x pairFaces, k uint64) int { return cmp.Compare(x.key, k) })
				}
				seg = append(seg, l[a:b]...)
			}
			slices.SortFunc(seg, func(x, y pairFaces) int { return cmp.Compare(x.key, y.key) })
			cs := make([]Contact, 0, len(seg))
			for i := 0; i < len(seg); {
				key, f := seg[i].key, seg[i].f
				for i++; i < len(seg) && seg[i].key == key; i++ {
					for a := range 3 {
						f[a] += seg[i].f[a]
					}
				}
				cs = append(cs, Contact{
					A: uint32(key >> 32), B: uint32(key),
					Faces: f[0] + f[1] + f[2],
					Area:  float64(f[0])*area[0] + float64(f[1])*area[1] + float64(f[2])*area[2],
				})
			}
			out[r] = cs
		}
	})
	all := make([]Contact, 0, len(longest))
	for _, cs := range out {
		all = append(all, cs...)
	}
	return all
}
