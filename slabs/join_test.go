package slabs

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
)

// serialLabel labels on the serial in-memory path: the reference, and the
// LabelFunc the tests join with.
func serialLabel(rule imagegraph.Rule, conn int) LabelFunc { return cpuLabel(rule, conn, 1) }

// labelBySlabs labels r in slabs of thick planes (the last one thinner),
// joins them on threads goroutines (0: GOMAXPROCS), relabels them, and
// returns the labels and count. Each slab's
// labels are made in a scratch buffer reused across slabs, as an
// out-of-core run would, and copied into the volume's labels.
func labelBySlabs(t testing.TB, r *imagegraph.Raster, label LabelFunc, thick, threads int) ([]uint32, int) {
	t.Helper()
	j, err := newJoiner(r.Width, r.Height, threads, label)
	if err != nil {
		t.Fatal(err)
	}
	plane := r.Width * r.Height
	out := make([]uint32, r.Len())
	scratch := make([]uint32, thick*plane)
	for z0 := 0; z0 < r.Depth; z0 += thick {
		z1 := min(z0+thick, r.Depth)
		slab, err := Planes(r, z0, z1)
		if err != nil {
			t.Fatal(err)
		}
		local := scratch[:slab.Len()]
		for i := range local {
			local[i] = 0xdeadbeef // the LabelFunc must not depend on dst's contents
		}
		count, err := label(slab, local)
		if err != nil {
			t.Fatal(err)
		}
		if err := j.Add(slab, local, count); err != nil {
			t.Fatal(err)
		}
		copy(out[z0*plane:], local)
		clear(local) // Add keeps nothing of it
	}
	m := j.Finish()
	for k := range m.Slabs() {
		z0 := k * thick
		z1 := min(z0+thick, r.Depth)
		identity := m.Identity(k)
		before := slices.Clone(out[z0*plane : z1*plane])
		if err := m.Apply(k, out[z0*plane:z1*plane], 1+k%3); err != nil {
			t.Fatal(err)
		}
		if identity && !slices.Equal(before, out[z0*plane:z1*plane]) {
			t.Fatalf("slab %d: Identity, but Apply changed its labels", k)
		}
	}
	return out, m.Count
}

// TestRelabelingIdentity checks Identity on slabs whose labels stay and
// whose labels change: a U whose arms are two components of the first slab
// until the second slab joins them, and a second slab whose labels come in
// another order than the volume's.
func TestRelabelingIdentity(t *testing.T) {
	// 3x1x2: plane 0 holds two arms (x 0 and 2), plane 1 the bottom of
	// the U (all of x 0..2).
	u, err := imagegraph.NewRaster(3, 1, 2, []uint8{1, 0, 1, 1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	// Two columns: each slab's labels stay as they are.
	cols, err := imagegraph.NewRaster(3, 1, 2, []uint8{1, 0, 1, 1, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	// A column at x 2 and a voxel at x 0 only in plane 1: the second
	// slab's first label (x 0) is the volume's second.
	swap, err := imagegraph.NewRaster(3, 1, 2, []uint8{0, 0, 1, 1, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		r    *imagegraph.Raster
		want []bool
	}{
		{"U", u, []bool{false, true}},
		{"columns", cols, []bool{true, true}},
		{"swap", swap, []bool{true, false}},
	} {
		j, err := newJoiner(3, 1, 1, serialLabel(imagegraph.Rule{Mode: imagegraph.Binary}, 6))
		if err != nil {
			t.Fatal(err)
		}
		for z := range 2 {
			slab, err := Planes(tc.r, z, z+1)
			if err != nil {
				t.Fatal(err)
			}
			local := make([]uint32, 3)
			count, err := serialLabel(imagegraph.Rule{Mode: imagegraph.Binary}, 6)(slab, local)
			if err != nil {
				t.Fatal(err)
			}
			if err := j.Add(slab, local, count); err != nil {
				t.Fatal(err)
			}
		}
		m := j.Finish()
		for k, want := range tc.want {
			if got := m.Identity(k); got != want {
				t.Errorf("%s: Identity(%d) = %v, want %v", tc.name, k, got, want)
			}
		}
		if m.Identity(-1) || m.Identity(2) {
			t.Errorf("%s: Identity out of range", tc.name)
		}
	}
}

// checkSlabs compares the slab labeling of r at several thicknesses with
// the whole volume's.
func checkSlabs(t *testing.T, r *imagegraph.Raster, rule imagegraph.Rule, conn int, what string) {
	t.Helper()
	label := serialLabel(rule, conn)
	want := make([]uint32, r.Len())
	count, err := label(r, want)
	if err != nil {
		t.Fatal(err)
	}
	for _, thick := range []int{1, 2, 3, 5, max(1, r.Depth/2), r.Depth, r.Depth + 4} {
		got, n := labelBySlabs(t, r, label, thick, 0)
		if n != count || !slices.Equal(got, want) {
			i := 0
			for i < len(got) && got[i] == want[i] {
				i++
			}
			t.Fatalf("%s c%d, slabs of %d: %d components, want %d; first difference at %d", what, conn, thick, n, count, i)
		}
	}
}

// TestWideSeamsJoinOnThreads checks slabs whose seams are joined on
// several goroutines (planes wide enough to be split) against the whole
// volume's labels: sparse, percolating and dense random volumes, at the
// connectivities with the fewest and most neighbours.
func TestWideSeamsJoinOnThreads(t *testing.T) {
	const w, h, d = 700, 400, 5
	for _, p := range []float64{0.2, 0.35, 0.6} {
		r, err := gen.RandomRaster(w, h, d, p, 7)
		if err != nil {
			t.Fatal(err)
		}
		for _, conn := range []int{6, 26} {
			rule := imagegraph.Rule{Mode: imagegraph.Binary}
			want := make([]uint32, r.Len())
			count, err := cpuLabel(rule, conn, 0)(r, want)
			if err != nil {
				t.Fatal(err)
			}
			for _, threads := range []int{1, 3, 8} {
				t.Run(fmt.Sprintf("p%.2f-c%d-t%d", p, conn, threads), func(t *testing.T) {
					got, n := labelBySlabs(t, r, cpuLabel(rule, conn, 0), 1+threads%2, threads)
					if n != count || !slices.Equal(got, want) {
						t.Fatalf("%d components, want %d; labels equal: %v", n, count, slices.Equal(got, want))
					}
				})
			}
		}
	}
}

func TestSlabsMatchWholeVolume(t *testing.T) {
	shapes := [][3]int{{1, 1, 1}, {1, 1, 9}, {7, 1, 5}, {1, 6, 4}, {5, 3, 11}, {17, 13, 12}, {31, 7, 9}}
	if !testing.Short() {
		shapes = append(shapes, [3]int{48, 40, 24})
	}
	rules := []imagegraph.Rule{
		{Mode: imagegraph.Multilabel},
		{Mode: imagegraph.Binary},
		{Mode: imagegraph.Threshold, Threshold: 2},
		{Mode: imagegraph.Threshold, Threshold: 2, Invert: true},
	}
	for si, s := range shapes {
		for _, p := range []float64{0.15, 0.35, 0.7, 1} {
			rng := rand.New(rand.NewPCG(uint64(si), uint64(p*100)))
			n := s[0] * s[1] * s[2]
			data := make([]uint8, n)
			for i := range data {
				if rng.Float64() < p {
					data[i] = uint8(1 + rng.IntN(3))
				}
			}
			r, err := imagegraph.NewRaster(s[0], s[1], s[2], data)
			if err != nil {
				t.Fatal(err)
			}
			for _, rule := range rules {
				for _, conn := range []int{6, 18, 26} {
					checkSlabs(t, r, rule, conn, fmt.Sprintf("%v p=%.2f %v", s, p, rule))
				}
			}
		}
	}
}

// TestSlabsManyValues joins float32 label maps of many values in patches
// (components that cross several seams and touch other values), with
// -0, +0 and NaN among the samples.
func TestSlabsManyValues(t *testing.T) {
	for si, s := range [][3]int{{9, 8, 13}, {33, 5, 17}} {
		rng := rand.New(rand.NewPCG(uint64(si), 7))
		n := s[0] * s[1] * s[2]
		data := make([]float32, n)
		for i := range data {
			x, y, z := i%s[0], i/s[0]%s[1], i/(s[0]*s[1])
			data[i] = float32((x/3+y/2*7+z/4*31)%50) * 0.5
			if rng.IntN(9) == 0 {
				data[i] = float32(rng.IntN(4)) - 1.5
			}
		}
		data[0], data[n/2] = float32(negZero()), float32(nan())
		r, err := imagegraph.NewRaster(s[0], s[1], s[2], data)
		if err != nil {
			t.Fatal(err)
		}
		for _, conn := range []int{6, 18, 26} {
			checkSlabs(t, r, imagegraph.Rule{Mode: imagegraph.Multilabel}, conn, fmt.Sprintf("%v float32", s))
		}
	}
}

// TestUnionOnGoroutines joins random pairs of labels on several goroutines
// at once and checks the numbering against the same unions made in turn:
// no union is lost and every root stays its set's smallest label.
func TestUnionOnGoroutines(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const labels, pairs, goroutines = 3000, 4000, 8
	for round := range 20 {
		edges := make([][2]uint32, pairs)
		for i := range edges {
			edges[i] = [2]uint32{1 + uint32(rng.IntN(labels)), 1 + uint32(rng.IntN(labels))}
		}
		var together, inTurn joiner
		for _, j := range []*joiner{&together, &inTurn} {
			j.parent = make([]uint32, labels+1)
			for i := range j.parent {
				j.parent[i] = uint32(i)
			}
		}
		for _, e := range edges {
			inTurn.union(e[0], e[1])
		}
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				for k := g; k < pairs; k += goroutines {
					together.union(edges[k][0], edges[k][1])
					if k%64 == 0 {
						runtime.Gosched()
					}
				}
			})
		}
		wg.Wait()
		got, want := together.Finish(), inTurn.Finish()
		if got.Count != want.Count || !slices.Equal(got.final, want.final) {
			t.Fatalf("round %d: %d components, want %d; numbering equal: %v", round, got.Count, want.Count, slices.Equal(got.final, want.final))
		}
	}
}

func TestJoinerErrors(t *testing.T) {
	label := serialLabel(imagegraph.Rule{Mode: imagegraph.Binary}, 26)
	if _, err := newJoiner(0, 5, 1, label); err == nil {
		t.Error("newJoiner(0, 5) took a zero width")
	}
	j, err := newJoiner(4, 3, 1, label)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := imagegraph.NewRaster(4, 3, 2, make([]uint8, 24))
	if err := j.Add(r, make([]uint32, 23), 0); err == nil {
		t.Error("Add took 23 labels for 24 voxels")
	}
	wide, _ := imagegraph.NewRaster(5, 3, 2, make([]uint8, 30))
	if err := j.Add(wide, make([]uint32, 30), 0); err == nil {
		t.Error("Add took a slab of another width")
	}
	if err := j.Add(r, make([]uint32, 24), 0); err != nil {
		t.Fatal(err)
	}
	other, _ := imagegraph.NewRaster(4, 3, 2, make([]uint16, 24))
	if err := j.Add(other, make([]uint32, 24), 0); err == nil {
		t.Error("Add took uint16 samples after uint8 ones")
	}
	bad := make([]uint32, 24)
	bad[20] = 7 // a label above the count, in the last plane
	if err := j.Add(r, bad, 3); err == nil {
		t.Error("Add took label 7 of a slab of 3")
	}
	m := j.Finish()
	if err := j.Add(r, make([]uint32, 24), 0); err == nil {
		t.Error("Add after Finish")
	}
	// A seam labeling that counts fewer labels than it writes.
	full, _ := imagegraph.NewRaster(4, 3, 2, slices.Repeat([]uint8{1}, 24))
	short := func(r *imagegraph.Raster, dst []uint32) (int, error) {
		n, err := label(r, dst)
		return n - 1, err
	}
	lying, err := newJoiner(4, 3, 1, short)
	if err != nil {
		t.Fatal(err)
	}
	ones := slices.Repeat([]uint32{1}, 24)
	if err := lying.Add(full, ones, 1); err != nil {
		t.Fatal(err)
	}
	if err := lying.Add(full, ones, 1); err == nil {
		t.Error("Add took a seam labeled past its count")
	}
	if again := j.Finish(); again != m {
		t.Error("a second Finish gave another Relabeling")
	}
	if _, err := newJoiner(4, 3, 1, nil); err == nil {
		t.Error("newJoiner took a nil LabelFunc")
	}
	if err := m.Apply(1, make([]uint32, 24), 1); err == nil {
		t.Error("Apply to slab 1 of 1")
	}
	if err := m.Apply(0, []uint32{0, 1}, 1); err == nil {
		t.Error("Apply took a label above the slab's count")
	}
}
