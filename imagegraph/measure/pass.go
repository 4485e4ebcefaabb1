package measure

import (
	"math"
	"math/bits"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/internal/band"
)

// partial holds one goroutine's sums for one label, in three cache lines.
type partial struct {
	n          int64
	sx, sy, sz int64    // sums of coordinates
	min, max   [2]int32 // the box along x and y (a plane has fewer than 2^31 pixels)
	minz, maxz int32    // and along z
	first      int64    // the index of the first voxel
	same       [3]int64 // neighbour pairs along x, y, z inside the component

	// Intensity, exact (scan.exact): the sums of the quantized samples
	// q = Σq, q2 = Σq², qx = Σ x·q, Σ y·q, Σ z·q. In floating point,
	// their bytes hold [floatSums] instead.
	q          wide128
	q2         wide192
	qx         [3]wide128
	imin, imax float64
}

// floatSums holds the intensity sums in floating point: k is the first
// scaled sample a goroutine saw, the shift of s1 = Σ(v-k) and s2 =
// Σ(v-k)²; wx, wy, wz = Σ x·v, Σ y·v, Σ z·v.
type floatSums struct{ k, s1, s2, wx, wy, wz float64 }

// These fail to compile where floatSums outgrows the exact sums.
var _ [unsafe.Offsetof(partial{}.imin) - unsafe.Offsetof(partial{}.q) - unsafe.Sizeof(floatSums{})]struct{}

// fl returns p's sums in floating point, in the bytes of its exact sums.
func (p *partial) fl() *floatSums { return (*floatSums)(unsafe.Pointer(&p.q)) }

// box returns p's box as x, y, z.
func (p *partial) box() (lo, hi [3]int) {
	return [3]int{int(p.min[0]), int(p.min[1]), int(p.minz)}, [3]int{int(p.max[0]), int(p.max[1]), int(p.maxz)}
}

// contactKey packs a pair of labels a < b.
func contactKey(a, b uint32) uint64 { return uint64(a)<<32 | uint64(b) }

// faces counts the faces of a pair of labels along x, y and z.
type faces [3]int64

// worker is one goroutine's share of the pass: its rows and what it
// gathered from them.
type worker struct {
	// pages holds the partials by label, 1<<pageBits labels a page, each
	// page allocated when a label of it is first met.
	pages    [][]partial
	contacts map[uint64]*faces
	// cache holds the faces of recently touched pairs, by a hash of the
	// pair, not yet added to contacts.
	cache [cacheSize]cached
	// bad is the index of the first label above the count, or -1.
	bad int
	// At a provisional scale (scan.provisional): redo reports that it
	// does not hold; bg holds a row's background runs (start, end).
	redo bool
	bg   []int32
	// The runs of a row that quantRuns32AVX2 sums (start, count), their
	// partials, and their sums.
	qruns  []int32
	qparts []*partial
	qout   []runQuant
}

// cacheSize is the number of pairs in a worker's cache of contacts.
const cacheSize = 256

// cached is an entry of the cache of contacts: f counts pair key's faces
// (key 0: none).
type cached struct {
	key uint64
	f   faces
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

// contact counts n faces along axis between labels a and b, both nonzero
// and different.
func (wk *worker) contact(a, b uint32, axis int, n int64) {
	if a > b {
		a, b = b, a
	}
	key := contactKey(a, b)
	c := &wk.cache[(key*0x9E3779B97F4A7C15)>>56]
	if c.key != key {
		wk.evict(c, key)
	}
	c.f[axis] += n
}

// evict adds the faces of cache entry c to the contacts and empties it
// for pair key. It stays out of line, off contact's common path.
//
//go:noinline
func (wk *worker) evict(c *cached, key uint64) {
	if c.key != 0 {
		f := wk.contacts[c.key]
		if f == nil {
			f = new(faces)
			wk.contacts[c.key] = f
		}
		for a := range 3 {
			f[a] += c.f[a]
		}
	}
	*c = cached{key: key}
}

// scan is what every goroutine of a pass reads.
type scan[L Label, T imagegraph.Sample] struct {
	labels          []L
	vals            []T // nil without intensity
	w, h            int
	count           int
	slope, inter    float64
	scaled          bool // slope != 1 or inter != 0
	exact           bool // the intensity sums are exact, by quant
	zeros           bool // a scaled sample may be -0
	quant           quant
	batch           bool // float32 runs of 2 to exactChunk go to the kernel
	surface, touch  bool // Options.Surface, Options.Contacts
	neighbourCounts bool // surface || touch

	// provisional: quant is [scan.guess]'s, which holds while every
	// v·2^scale is an integer and every |v| is below lim; abort stops the
	// pass where it does not. bounded: no |v| can reach lim (unscaled
	// integers of 32 bits or fewer): the background is not looked at.
	provisional bool
	bounded     bool
	lim         float64
	limBits     uint32 // those of lim as a float32 (+Inf above its range)
	abort       atomic.Bool
}

// run is a run of equal labels along a row, ending before x = end (a
// plane has fewer than 2^31 pixels), starting where the run before ends.
type run[L Label] struct {
	end   int32
	label L
}

// appendRuns appends the runs of row to dst. It finds where the label
// changes 64 labels at a time as a bit mask, without branching on the
// labels (for 4-byte labels by band.ChangeMasks32 where it can), and writes
// a run at each change.
func appendRuns[L Label](dst []run[L], row []L) []run[L] {
	n := len(row)
	dst = slices.Grow(dst, n)
	buf := dst[len(dst) : len(dst)+n]
	k := 0
	lo := 1
	if unsafe.Sizeof(row[0]) == 4 && n > 64 && band.ChangeMasks32(nil, nil) {
		var masks [16]uint64
		for lo < n {
			// The last block ends at n, over samples looked at already.
			start := min(lo, n-64)
			m := masks[:min((n-start)/64, len(masks))]
			band.ChangeMasks32(unsafe.Pointer(&row[start]), m)
			for _, c := range m {
				for c &= ^uint64(0) << (lo - start); c != 0; c &= c - 1 {
					x := start + bits.TrailingZeros64(c)
					buf[k] = run[L]{int32(x), row[x-1]}
					k++
				}
				start += 64
				lo = start
			}
		}
	}
	for ; lo < n; lo += 64 {
		chunk := row[lo:min(lo+64, n)]
		for c := band.ChangeMask(chunk, row[lo-1]); c != 0; c &= c - 1 {
			x := lo + bits.TrailingZeros64(c)
			buf[k] = run[L]{int32(x), row[x-1]}
			k++
		}
	}
	buf[k] = run[L]{int32(n), row[n-1]}
	return dst[:len(dst)+k+1]
}

// planeRuns holds the runs of the rows of one plane that one goroutine
// measured: row y's are runs[start[y]:end[y]].
type planeRuns[L Label] struct {
	runs       []run[L]
	start, end []int
}

// row returns the runs of row y.
func (p *planeRuns[L]) row(y int) []run[L] { return p.runs[p.start[y]:p.end[y]] }

// rows measures rows [lo, hi) (row r is y + z*h) into wk. It compares
// every run with the runs of the row before and the row of the plane
// before that it overlaps, keeping the runs of this plane and the one
// before; the rows before lo are split into runs again. It empties
// wk's cache of contacts into its map at the end. At a provisional
// scale, it stops after a row where the scale does not hold.
func (s *scan[L, T]) rows(wk *worker, lo, hi int) {
	w, h := s.w, s.h
	plane := w * h
	var prev, cur planeRuns[L]
	if s.neighbourCounts {
		prev = planeRuns[L]{start: make([]int, h), end: make([]int, h)}
		cur = planeRuns[L]{start: make([]int, h), end: make([]int, h)}
	}
	var upScratch, backScratch []run[L]
	var line []run[L]
	for r := lo; r < hi; r++ {
		y, z := r%h, r/h
		base := r * w
		row := s.labels[base : base+w]
		var up, back []run[L]
		if s.neighbourCounts {
			if y == 0 {
				prev, cur = cur, prev
				cur.runs = cur.runs[:0]
			}
			n0 := len(cur.runs)
			cur.runs = appendRuns(cur.runs, row)
			cur.start[y], cur.end[y] = n0, len(cur.runs)
			line = cur.runs[n0:]
			switch {
			case y == 0:
			case r-1 >= lo:
				up = cur.row(y - 1)
			default:
				upScratch = appendRuns(upScratch[:0], s.labels[base-w:base])
				up = upScratch
			}
			switch {
			case z == 0:
			case r-h >= lo:
				back = prev.row(y)
			default:
				backScratch = appendRuns(backScratch[:0], s.labels[base-plane:base-plane+w])
				back = backScratch
			}
		} else {
			line = appendRuns(line[:0], row)
		}
		var vals []T
		if s.vals != nil {
			vals = s.vals[base : base+w]
		}
		s.line(wk, line, vals, y, z, base, up, back)
		if s.provisional && (wk.redo || s.abort.Load()) {
			s.abort.Store(true)
			return
		}
	}
	for i := range wk.cache {
		wk.evict(&wk.cache[i], 0)
	}
}

// line measures the runs of one row at (y, z), which starts at index base,
// against the runs up and back of the rows before it along y and z (nil
// for none).
func (s *scan[L, T]) line(wk *worker, line []run[L], vals []T, y, z, base int, up, back []run[L]) {
	var left L // the label of the run before
	ui, bi := 0, 0
	x0 := 0
	wk.qruns, wk.qparts, wk.bg = wk.qruns[:0], wk.qparts[:0], wk.bg[:0]
	bg := s.provisional && !s.bounded && !s.batch
	count, batch, touch := s.count, s.batch, s.touch
	y32, z32 := int32(y), int32(z)
	for _, rn := range line {
		a, x := rn.label, int(rn.end)
		if a == 0 || int(a) > count {
			if a == 0 && bg {
				wk.bg = append(wk.bg, int32(x0), int32(x))
			} else if a != 0 && wk.bad < 0 {
				wk.bad = base + x0
			}
			left, x0 = a, x
			continue
		}
		p := wk.part(uint32(a))
		n := int64(x - x0)
		// The rows come in order: z never decreases.
		if p.n == 0 {
			p.min = [2]int32{int32(x0), y32}
			p.max = [2]int32{int32(x - 1), y32}
			p.minz, p.first = z32, int64(base+x0)
			if vals != nil {
				s.first(p, vals[x0])
			}
		} else {
			p.min[0] = min(p.min[0], int32(x0))
			p.max[0] = max(p.max[0], int32(x-1))
			p.min[1] = min(p.min[1], y32)
			p.max[1] = max(p.max[1], y32)
		}
		p.maxz = z32
		// Σx over [x0, x) = n·(x0 + x - 1)/2.
		p.sx += n * int64(x0+x-1) / 2
		p.sy += n * int64(y)
		p.sz += n * int64(z)
		p.n += n
		if vals != nil {
			if n := x - x0; batch && n >= 2 && n <= exactChunk {
				// For [scan.sumQueued], in pieces of at most maxLaneSamples.
				for m := n; n > 0; n -= m {
					if m = n; m > maxLaneSamples {
						m = maxLaneSamples &^ 3
					}
					wk.qruns = append(wk.qruns, int32(x-n), int32(m))
					wk.qparts = append(wk.qparts, p)
				}
			} else {
				s.intensity(wk, p, vals[x0:x], x0, y, z)
			}
		}
		if s.neighbourCounts {
			p.same[0] += n - 1
			if touch && left != 0 {
				wk.contact(uint32(left), uint32(a), 0, 1)
			}
			// Most often one run of the same label covers [x0, x).
			if up != nil {
				if ui = seek(up, ui, x0); int(up[ui].end) >= x && up[ui].label == a {
					p.same[1] += n
				} else {
					p.same[1] += s.overlap(wk, a, up, &ui, x0, x, 1)
				}
			}
			if back != nil {
				if bi = seek(back, bi, x0); int(back[bi].end) >= x && back[bi].label == a {
					p.same[2] += n
				} else {
					p.same[2] += s.overlap(wk, a, back, &bi, x0, x, 2)
				}
			}
		}
		left, x0 = a, x
	}
	if len(wk.qparts) > 0 {
		s.sumQueued(wk, vals, y, z)
	}
	if s.provisional && !s.bounded {
		s.background(wk, vals)
	}
}

// overlap returns how many voxels of the runs nb of a neighbouring row, over
// [x0, x1), are labeled a, counting the faces along axis of the others that are
// not background as contacts when they are asked for. *j is the index in nb of
// the run over x0 ([seek]), left at the last run looked at.
func (s *scan[L, T]) overlap(wk *worker, a L, nb []run[L], j *int, x0, x1 int, axis int) int64 {
	i := *j
	if int(nb[i].end) >= x1 { // one neighbouring run, the common case
		if b := nb[i].label; b == a {
			return int64(x1 - x0)
		} else if b != 0 && s.touch {
			wk.contact(uint32(a), uint32(b), axis, int64(x1-x0))
		}
		return 0
	}
	var c int64
	for lo := x0; ; i++ {
		end := int(nb[i].end)
		e := min(end, x1)
		if b := nb[i].label; b == a {
			c += int64(e - lo)
		} else if b != 0 && s.touch {
			wk.contact(uint32(a), uint32(b), axis, int64(e-lo))
		}
		if end >= x1 {
			break
		}
		lo = e
	}
	*j = i
	return c
}

// seek returns the index of the run of nb over x, from index i on.
func seek[L Label](nb []run[L], i, x int) int {
	for int(nb[i].end) <= x {
		i++
	}
	return i
}

// sumQueued sums the float32 samples of the queued runs of the row vals
// at (y, z) with quantRuns32AVX2, and adds them to their partials.
func (s *scan[L, T]) sumQueued(wk *worker, vals []T, y, z int) {
	nruns := len(wk.qparts)
	wk.qout = slices.Grow(wk.qout[:0], nruns)[:nruns]
	// The kernel prefetches the 4-byte labels two rows on.
	ahead := uintptr(0)
	if unsafe.Sizeof(s.labels[0]) == 4 {
		ahead = uintptr(unsafe.Pointer(unsafe.SliceData(s.labels))) - uintptr(unsafe.Pointer(unsafe.SliceData(s.vals))) + uintptr(2*s.w*4)
	}
	if quantRuns32AVX2(&any(vals).([]float32)[0], &wk.qruns[0], nruns, s.quant.f1, &wk.qout[0], ahead) != 0 {
		wk.redo = true
	}
	// The extremes need no check against s.lim: [scan.background] checks
	// every sample of the row.
	out, runs := wk.qout[:nruns], wk.qruns[:2*nruns]
	for k, p := range wk.qparts {
		r := &out[k]
		x0, n := int(runs[2*k]), int(runs[2*k+1])
		sum, x, q2 := r.fold(x0, n)
		p.addExact(sum, x, q2, 0, y, z)
		s.setExtremes(p, min(p.imin, r.mn), max(p.imax, r.mx), vals[x0:x0+n])
	}
}

// setExtremes sets p's extremes to mn and mx, those of the samples vals
// of a run and p's by plain comparisons; where s.zeros, it takes them
// again by the builtin min and max, which order -0 below +0.
func (s *scan[L, T]) setExtremes(p *partial, mn, mx float64, vals []T) {
	if s.zeros && (mn == 0 || mx == 0) {
		mn, mx = signedExtremes(vals, s.slope, s.inter, s.scaled, p.imin, p.imax)
	}
	p.imin, p.imax = mn, mx
}

// intensity adds the samples vals of a run from (x0, y, z) to p, with
// wk's buffer.
func (s *scan[L, T]) intensity(wk *worker, p *partial, vals []T, x0, y, z int) {
	if s.exact && len(vals) == 1 { // common in noisy labelings
		v := s.value(vals[0])
		// Without s.zeros there is no -0, and the builtins are the plain
		// comparisons.
		p.imin, p.imax = min(p.imin, v), max(p.imax, v)
		w := v * s.quant.f1 * s.quant.f2
		r := math.RoundToEven(w)
		if r != w || !(math.Abs(v) < s.lim) {
			wk.redo = true
		}
		q := int64(r)
		m := q >> 63
		hi, lo := bits.Mul64(uint64((q^m)-m), uint64((q^m)-m))
		p.addExact(wide128{uint64(q), uint64(m)}, wide128{}, wide128{lo, hi}, x0, y, z)
		return
	}
	if s.exact {
		mn, mx := p.imin, p.imax
		for lo := 0; lo < len(vals); lo += exactChunk {
			var sum, wx, sq wide128
			var inexact bool
			sum, wx, sq, mn, mx, inexact = quantSums(vals[lo:min(lo+exactChunk, len(vals))], s.quant, s.slope, s.inter, s.scaled, mn, mx)
			p.addExact(sum, wx, sq, x0+lo, y, z)
			wk.redo = wk.redo || inexact
		}
		wk.redo = wk.redo || !(mn > -s.lim && mx < s.lim)
		s.setExtremes(p, mn, mx, vals)
		return
	}
	var r runSums
	if s.scaled {
		r = sumScaled(vals, p.fl().k, s.slope, s.inter, p.imin, p.imax)
	} else {
		r = sumPlain(vals, p.fl().k, p.imin, p.imax)
	}
	r.add(p, len(vals), x0, y, z)
}

// background marks wk for a redo where the |v| of a sample of the
// background runs wk.bg (start, end) of the row vals is not below s.lim
// (or NaN); with the kernel, that of any sample of the row.
func (s *scan[L, T]) background(wk *worker, vals []T) {
	if v, ok := any(vals).([]float32); ok && s.batch {
		m := absMax32(&v[0], len(v)/8)
		for _, t := range v[len(v)&^7:] {
			m = max(m, math.Float32bits(t)&^(1<<31))
		}
		wk.redo = wk.redo || m >= s.limBits
		return
	}
	for k := 0; k < len(wk.bg); k += 2 {
		for _, t := range vals[wk.bg[k]:wk.bg[k+1]] {
			if !(math.Abs(s.value(t)) < s.lim) {
				wk.redo = true
			}
		}
	}
}

// first sets up p's intensity sums at its first sample v: in floating
// point, the shift k is v's value.
func (s *scan[L, T]) first(p *partial, v T) {
	p.imin, p.imax = math.Inf(1), math.Inf(-1)
	if !s.exact {
		p.fl().k = s.value(v)
	}
}

// value returns the sample t scaled as thresholds scale it.
func (s *scan[L, T]) value(t T) float64 {
	if s.scaled {
		return float64(float64(t)*s.slope) + s.inter
	}
	return float64(t)
}

// runSums holds the sums of the samples v of a run less a shift k: s1 = Σ(v-k),
// s2 = Σ(v-k)², wx = Σ x·(v-k) with x counted from the run's start, and the
// least and greatest v (NaN skipped) with what came before.
type runSums struct {
	s1, s2, wx, min, max float64
}

// add adds the sums of a run of n samples from (x0, y, z), shifted by
// p's k, to p.
func (r *runSums) add(p *partial, n, x0, y, z int) {
	// Σv = n·k + Σ(v-k); Σ x·v = Σ x·(v-k) + k·Σx.
	fn, fx0 := float64(n), float64(x0)
	f := p.fl()
	sum := fn*f.k + r.s1
	f.s1 += r.s1
	f.s2 += r.s2
	f.wx += r.wx + fx0*r.s1 + f.k*fn*(fx0+(fn-1)/2)
	f.wy += float64(y) * sum
	f.wz += float64(z) * sum
	p.imin, p.imax = r.min, r.max
}

// sumPlain returns the sums of vals, shifted by k, in two lanes (even and
// odd samples) added at the end. mn and mx are the extremes so far. Σ x·d
// comes from the running sums: over a lane of m samples, Σ_j (m-j)·d_j
// is the sum of the running sums, so Σ_j j·d_j = m·Σd - that.
func sumPlain[T imagegraph.Sample](vals []T, k, mn, mx float64) runSums {
	var s10, s11, s20, s21, q0, q1 float64
	i := 1
	for ; i < len(vals); i += 2 {
		v0, v1 := float64(vals[i-1]), float64(vals[i])
		d0, d1 := v0-k, v1-k
		s10 += d0
		s11 += d1
		s20 += d0 * d0
		s21 += d1 * d1
		q0 += s10
		q1 += s11
		if v0 < mn {
			mn = v0
		}
		if v0 > mx {
			mx = v0
		}
		if v1 < mn {
			mn = v1
		}
		if v1 > mx {
			mx = v1
		}
	}
	// Lane 0 holds samples 2j, lane 1 samples 2j+1, j < m.
	i--
	m := float64(i / 2)
	wx := 2*(m*s10-q0) + 2*(m*s11-q1) + s11
	if i < len(vals) {
		v := float64(vals[i])
		d := v - k
		s10 += d
		s20 += d * d
		wx += float64(i) * d
		if v < mn {
			mn = v
		}
		if v > mx {
			mx = v
		}
	}
	return runSums{s10 + s11, s20 + s21, wx, mn, mx}
}

// sumScaled is sumPlain for the samples stored*slope + inter, the product
// rounded as thresholds round it.
func sumScaled[T imagegraph.Sample](vals []T, k, slope, inter, mn, mx float64) runSums {
	var s1, s2, w float64
	for i, t := range vals {
		v := float64(float64(t)*slope) + inter
		d := v - k
		s1 += d
		s2 += d * d
		w += float64(i) * d
		if v < mn {
			mn = v
		}
		if v > mx {
			mx = v
		}
	}
	return runSums{s1, s2, w, mn, mx}
}
