package gen

import (
	"fmt"
	"math"
	"runtime"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// neuriteUnit is the length unit of [NeuritesRaster]'s walks, in nm: its
// voxels' side in x and y.
const neuriteUnit = 4

// neuritesSpacing is the voxel size of [NeuritesRaster] in x, y and z, in
// nm.
var neuritesSpacing = [3]float64{neuriteUnit, neuriteUnit, 10 * neuriteUnit}

// NeuritesRaster returns a dense segmentation shaped like an electron
// microscopy label map of neurites.
//
// It is a width x height x depth uint32 raster (depth 1 for an image) of
// about fragments labels, each with its own random nonzero value. Voxels
// are 4 x 4 x 40 nm. The neurites are tubes of radius 40 to 160 nm (1 to 4
// voxels in z, 10 to 40 in x and y) along random walks with momentum that
// branch now and then into thinner tubes; each neurite is cut along its
// length into fragments, as an over-segmented reconstruction is. Tubes are
// added until they fill most of the raster: where two overlap, a voxel
// takes the tube it lies deeper in, and voxels in no tube are background
// (0). Each label is one component at 26-connectivity (8 in an image): a piece of a
// fragment that other tubes cut off from its largest joins a fragment it
// touches, or is background if it touches none. The
// same seed gives the same raster on every machine and thread count.
func NeuritesRaster(width, height, depth, fragments int, seed uint64) (*imagegraph.Raster, error) {
	return neuritesRaster(width, height, depth, fragments, seed, neuritesSpacing, nil)
}

// NeuritesRasterSpaced is [NeuritesRaster] with voxels of spacing nm in x,
// y and z: the same neurites (in nm) on a coarser or finer grid, such as
// {32, 32, 40} for a connectomics volume downsampled in x and y. The
// spacing {4, 4, 40} gives NeuritesRaster's raster; each must be positive
// and at most 1e6.
func NeuritesRasterSpaced(width, height, depth, fragments int, seed uint64, spacing [3]float64) (*imagegraph.Raster, error) {
	return neuritesRaster(width, height, depth, fragments, seed, spacing, nil)
}

// neuritesRaster is [NeuritesRasterSpaced] telling p (which may be nil)
// its two passes.
func neuritesRaster(width, height, depth, fragments int, seed uint64, spacing [3]float64, p *progress) (*imagegraph.Raster, error) {
	n, err := imagegraph.PixelCount(width, height, depth)
	if err != nil {
		return nil, fmt.Errorf("gen: %w", err)
	}
	if fragments < 1 || fragments > n {
		return nil, fmt.Errorf("gen: %d fragments for %d pixels: want 1 to %d", fragments, n, n)
	}
	for _, s := range spacing {
		if !(s > 0 && s <= 1e6) {
			return nil, fmt.Errorf("gen: spacing %v nm: want each in (0, 1e6]", spacing)
		}
	}
	t := newTubes(width, height, depth, fragments, seed, spacing)
	data := make([]uint32, n)
	plane := width * height
	workers := min(runtime.GOMAXPROCS(0), depth)
	parallelUnits(depth, workers, func(_, lo, hi int) {
		best := make([]float32, plane)
		frag := make([]int32, plane)
		for z := lo; z < hi; z++ {
			t.fillPlane(data[z*plane:(z+1)*plane], z, best, frag)
			p.add(plane)
		}
	})
	r, err := imagegraph.NewRaster(width, height, depth, data)
	if err != nil {
		return nil, err
	}
	if err := joinPieces(r); err != nil {
		return nil, err
	}
	p.add(n)
	return r, nil
}

// joinPieces makes every value one 26-connected component (8-connected
// in an image). The largest
// piece of each value (the first in memory order among equals) keeps it;
// every other piece takes the value of the first largest piece it shares a
// face with, in memory order, or becomes background if there is none.
func joinPieces(r *imagegraph.Raster) error {
	conn := 26
	if r.Depth == 1 {
		conn = 8
	}
	l, err := gridcc.Label(r, imagegraph.Rule{Mode: imagegraph.Multilabel},
		gridcc.Options{Connectivity: conn, Threads: runtime.GOMAXPROCS(0)}, nil)
	if err != nil {
		return err
	}
	data := r.Data.(imagegraph.Samples[uint32])
	size := make([]int64, l.Count+1)
	value := make([]uint32, l.Count+1)
	for i, c := range l.Data {
		size[c]++
		value[c] = data[i]
	}
	// Components are numbered in order of first occurrence, so the first
	// largest is the smallest number of the largest size.
	largest := map[uint32]uint32{}
	for c := 1; c <= l.Count; c++ {
		if k, ok := largest[value[c]]; !ok || size[c] > size[k] {
			largest[value[c]] = uint32(c)
		}
	}
	into := make([]uint32, l.Count+1) // the largest piece c joins, or 0
	for _, c := range largest {
		into[c] = c
	}
	w, plane := r.Width, r.Width*r.Height
	for i, c := range l.Data {
		if c == 0 || into[c] != 0 {
			continue
		}
		x, y, z := i%w, i%plane/w, i/plane
		for _, j := range [6]int{i - 1, i + 1, i - w, i + w, i - plane, i + plane} {
			inside := j >= 0 && j < len(data) &&
				(j != i-1 || x > 0) && (j != i+1 || x < w-1) &&
				(j != i-w || y > 0) && (j != i+w || y < r.Height-1) &&
				(j != i-plane || z > 0) && (j != i+plane || z < r.Depth-1)
			if !inside {
				continue
			}
			if m := l.Data[j]; m != 0 && into[m] == m {
				into[c] = m
				break
			}
		}
	}
	for i, c := range l.Data {
		data[i] = value[into[c]]
	}
	return nil
}

// segment is one step of a neurite's walk: from a to b (in neuriteUnit),
// of radius r, in fragment frag.
type segment struct {
	ax, ay, az, bx, by, bz float64
	r                      float64
	frag                   int32
}

// tubes are the segments of [NeuritesRaster], listed by the planes they
// reach.
type tubes struct {
	w, h, d    int
	kx, ky, kz float64 // a voxel's side in neuriteUnit
	segs       []segment
	start      []int32 // plane z's segments are at[start[z]:start[z+1]]
	at         []int32
	values     []uint32 // value of each fragment
}

// rng is a splitmix64 stream.
type rng struct{ s uint64 }

func (g *rng) next() uint64 {
	g.s += 0x9e3779b97f4a7c15
	return mix64(g.s)
}

// float returns a uniform number in [0, 1).
func (g *rng) float() float64 { return float64(g.next()>>11) * 0x1p-53 }

// normal returns a standard normal number (Box-Muller).
func (g *rng) normal() float64 {
	u := 1 - g.float()
	return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*g.float())
}

// direction returns v plus a normal step of scale s, of length 1.
func (g *rng) direction(vx, vy, vz, s float64) (float64, float64, float64) {
	for {
		x, y, z := vx+s*g.normal(), vy+s*g.normal(), vz+s*g.normal()
		if n := math.Sqrt(x*x + y*y + z*z); n > 1e-9 {
			return x / n, y / n, z / n
		}
	}
}

// Walk settings of [NeuritesRaster], in neuriteUnit.
const (
	neuriteStep    = 16   // segment length
	neuriteRadius  = 10   // least radius (one z step)
	neuriteBranch  = 64   // one branch in this many segments
	neuriteCover   = 2.5  // tube volume over raster volume
	neuriteWiggle  = 0.3  // change of direction per segment
	neuriteSpread  = 0.9  // a branch's turn from its parent
	neuriteShrink  = 0.75 // a branch's radius over its parent's
	neuriteMaxRad  = 40   // greatest radius (four z steps)
	neuriteMaxWalk = 4    // most segments, in raster diagonals
)

// newTubes walks the neurites, cuts them into fragments and lists the
// segments by plane.
func newTubes(w, h, d, fragments int, seed uint64, spacing [3]float64) *tubes {
	g := rng{seed ^ 0x6e657572697465}
	kx, ky, kz := spacing[0]/neuriteUnit, spacing[1]/neuriteUnit, spacing[2]/neuriteUnit
	fw, fh, fd := float64(w)*kx, float64(h)*ky, float64(d-1)*kz
	volume := fw * fh * max(fd, kz)
	maxSegs := int(neuriteMaxWalk * (fw + fh + fd) / neuriteStep)
	type walk struct {
		x, y, z, dx, dy, dz, r float64
		branch                 bool
	}
	var segs []segment
	var walkStart []int // first segment of each walk
	filled := 0.0
	for filled < neuriteCover*volume && len(walkStart) < fragments {
		r := neuriteRadius + (neuriteMaxRad-neuriteRadius)*g.float()*g.float()
		dx, dy, dz := g.direction(0, 0, 0, 1)
		stack := []walk{{fw * g.float(), fh * g.float(), fd * g.float(), dx, dy, dz, r, false}}
		for len(stack) > 0 && filled < neuriteCover*volume && len(walkStart) < fragments {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			walkStart = append(walkStart, len(segs))
			for range maxSegs {
				nx, ny, nz := k.x+neuriteStep*k.dx, k.y+neuriteStep*k.dy, k.z+neuriteStep*k.dz
				segs = append(segs, segment{ax: k.x, ay: k.y, az: k.z, bx: nx, by: ny, bz: nz, r: k.r})
				filled += math.Pi * k.r * k.r * neuriteStep
				k.x, k.y, k.z = nx, ny, nz
				// A walk turns back at the sides and ends past the first
				// or last plane.
				if k.z < -k.r || k.z > fd+k.r {
					break
				}
				if k.x < 0 && k.dx < 0 || k.x > fw && k.dx > 0 {
					k.dx = -k.dx
				}
				if k.y < 0 && k.dy < 0 || k.y > fh && k.dy > 0 {
					k.dy = -k.dy
				}
				// Branches branch no further.
				if !k.branch && g.next()%neuriteBranch == 0 {
					bx, by, bz := g.direction(k.dx, k.dy, k.dz, neuriteSpread)
					stack = append(stack, walk{k.x, k.y, k.z, bx, by, bz, max(neuriteRadius, k.r*neuriteShrink), true})
				}
				k.dx, k.dy, k.dz = g.direction(k.dx, k.dy, k.dz, neuriteWiggle)
			}
		}
	}
	// Cut: every walk starts a fragment, and the rest are spread over the
	// segments at random lengths of the same mean.
	walkStart = append(walkStart, len(segs))
	extra := max(fragments-(len(walkStart)-1), 0)
	mean := float64(len(segs)) / float64(extra+1)
	frag := int32(-1)
	for i := range len(walkStart) - 1 {
		frag++
		left := -mean * math.Log(1-g.float())
		for s := walkStart[i]; s < walkStart[i+1]; s++ {
			if left <= 0 {
				frag++
				left = -mean * math.Log(1-g.float())
			}
			segs[s].frag = frag
			left--
		}
	}
	t := &tubes{w: w, h: h, d: d, kx: kx, ky: ky, kz: kz, segs: segs, start: make([]int32, d+1)}
	// Values: a bijection of the fragment numbers, 0 replaced as in cells.
	t.values = make([]uint32, frag+1)
	for f := range t.values {
		if t.values[f] = permute32(uint32(f)+1, seed); t.values[f] == 0 {
			t.values[f] = permute32(uint32(len(t.values))+1, seed)
		}
	}
	for pass := range 2 {
		for i, s := range segs {
			lo, hi := s.planes(d, kz)
			for z := lo; z <= hi; z++ {
				if pass == 0 {
					t.start[z+1]++
				} else {
					t.at[t.start[z]] = int32(i)
					t.start[z]++
				}
			}
		}
		if pass == 0 {
			for z := range d {
				t.start[z+1] += t.start[z]
			}
			t.at = make([]int32, t.start[d])
		} else {
			copy(t.start[1:], t.start[:d])
			t.start[0] = 0
		}
	}
	return t
}

// planes returns the first and last of d planes, kz apart, the segment's
// tube meets.
func (s segment) planes(d int, kz float64) (int, int) {
	lo := math.Ceil((min(s.az, s.bz) - s.r) / kz)
	hi := math.Floor((max(s.az, s.bz) + s.r) / kz)
	return max(int(lo), 0), min(int(hi), d-1)
}

// fillPlane writes the values of plane z into out, using best and frag
// (one plane each) for the depth and fragment of the tube each voxel lies
// deepest in. Depth is the squared distance to a segment over its squared
// radius; among equals the smaller fragment wins, so the order of the
// segments does not matter.
func (t *tubes) fillPlane(out []uint32, z int, best []float32, frag []int32) {
	for i := range best {
		best[i], frag[i] = math.MaxFloat32, -1
	}
	pz := float64(z) * t.kz
	for _, si := range t.at[t.start[z]:t.start[z+1]] {
		s := &t.segs[si]
		ex, ey, ez := s.bx-s.ax, s.by-s.ay, s.bz-s.az
		e2 := ex*ex + ey*ey + ez*ez
		// The part of the segment within r of the plane bounds the tube's
		// section.
		t0, t1 := 0.0, 1.0
		if ez != 0 {
			u, v := (pz-s.r-s.az)/ez, (pz+s.r-s.az)/ez
			t0, t1 = max(t0, min(u, v)), min(t1, max(u, v))
		}
		x0 := max(int(math.Ceil((min(s.ax+t0*ex, s.ax+t1*ex)-s.r)/t.kx)), 0)
		x1 := min(int(math.Floor((max(s.ax+t0*ex, s.ax+t1*ex)+s.r)/t.kx)), t.w-1)
		y0 := max(int(math.Ceil((min(s.ay+t0*ey, s.ay+t1*ey)-s.r)/t.ky)), 0)
		y1 := min(int(math.Floor((max(s.ay+t0*ey, s.ay+t1*ey)+s.r)/t.ky)), t.h-1)
		r2 := s.r * s.r
		dz := pz - s.az
		for y := y0; y <= y1; y++ {
			dy := float64(y)*t.ky - s.ay
			row := y * t.w
			for x := x0; x <= x1; x++ {
				dx := float64(x)*t.kx - s.ax
				u := (dx*ex + dy*ey + dz*ez) / e2
				u = min(max(u, 0), 1)
				qx, qy, qz := dx-u*ex, dy-u*ey, dz-u*ez
				d2 := qx*qx + qy*qy + qz*qz
				if d2 > r2 {
					continue
				}
				q := float32(d2)
				if i := row + x; q < best[i] || q == best[i] && s.frag < frag[i] {
					best[i], frag[i] = q, s.frag
				}
			}
		}
	}
	for i, f := range frag {
		out[i] = 0
		if f >= 0 {
			out[i] = t.values[f]
		}
	}
}
