package slabs

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// labeledSlabs is a volume labeled earlier in slabs of the given
// thicknesses, each slab on its own, as chunks are.
type labeledSlabs struct {
	r      *imagegraph.Raster
	z      []int      // slab k is planes z[k]..z[k+1]-1
	labels [][]uint32 // each slab's own labels
	counts []int
}

func (s *labeledSlabs) Slabs() int { return len(s.labels) }

func (s *labeledSlabs) Ends(i int, ends *imagegraph.Raster, labels []uint32) (k, count int, err error) {
	plane := s.r.Width * s.r.Height
	z0, z1 := s.z[i], s.z[i+1]
	k = min(2, z1-z0)
	for e, z := range []int{z0, z1 - 1}[:k] {
		src, _ := Planes(s.r, z, z+1)
		dst, _ := Planes(ends, e, e+1)
		copy(dst.Data.Bytes(), src.Data.Bytes())
		copy(labels[e*plane:(e+1)*plane], s.labels[i][(z-z0)*plane:(z-z0+1)*plane])
	}
	return k, s.counts[i], nil
}

// TestJoinMatchesWholeRaster: slabs labeled on their own, joined by Join
// and mapped through its Relabeling, give the labels of labeling the whole
// raster at once, for slabs of one plane, of uneven thicknesses and of the
// whole volume, at every connectivity and rule.
func TestJoinMatchesWholeRaster(t *testing.T) {
	rules := []imagegraph.Rule{
		{Mode: imagegraph.Multilabel},
		{Mode: imagegraph.Binary},
		{Mode: imagegraph.Threshold, Threshold: 1, Invert: true},
	}
	thicknesses := [][]int{{1}, {2, 5, 1, 3}, {12}, {4}}
	for _, float := range []bool{false, true} {
		r := randomRaster(t, 11, 9, 12, 0.55, 7, float)
		for _, rule := range rules {
			for _, conn := range []int{6, 18, 26} {
				label := cpuLabel(rule, conn, 1)
				want := make([]uint32, r.Len())
				wantCount, err := label(r, want)
				if err != nil {
					t.Fatal(err)
				}
				for _, thick := range thicknesses {
					name := fmt.Sprintf("float=%v/%v/c%d/%v", float, rule.Mode, conn, thick)
					t.Run(name, func(t *testing.T) {
						s := &labeledSlabs{r: r, z: []int{0}}
						for k := 0; s.z[len(s.z)-1] < r.Depth; k++ {
							z0 := s.z[len(s.z)-1]
							z1 := min(r.Depth, z0+thick[k%len(thick)])
							slab, _ := Planes(r, z0, z1)
							l := make([]uint32, slab.Len())
							n, err := label(slab, l)
							if err != nil {
								t.Fatal(err)
							}
							s.z, s.labels, s.counts = append(s.z, z1), append(s.labels, l), append(s.counts, n)
						}
						m, err := Join(s, r.Width, r.Height, r.Kind, label)
						if err != nil {
							t.Fatal(err)
						}
						got := make([]uint32, 0, r.Len())
						for k, l := range s.labels {
							if err := m.Map(k, l); err != nil {
								t.Fatal(err)
							}
							got = append(got, l...)
						}
						if m.Count != wantCount || !slices.Equal(got, want) {
							t.Fatalf("count %d, want %d; labels equal: %v", m.Count, wantCount, slices.Equal(got, want))
						}
					})
				}
			}
		}
	}
}

// TestJoinErrors: a source that fails, or gives a slab of no end planes,
// stops Join with an error.
func TestJoinErrors(t *testing.T) {
	r := randomRaster(t, 4, 3, 2, 0.5, 1, false)
	label := cpuLabel(imagegraph.Rule{Mode: imagegraph.Binary}, 6, 1)
	for _, c := range []struct {
		name string
		src  Labeled
	}{
		{"failing source", failingEnds{k: 2, err: fmt.Errorf("no chunk")}},
		{"no end planes", failingEnds{k: 0}},
		{"three end planes", failingEnds{k: 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Join(c.src, r.Width, r.Height, r.Kind, label); err == nil {
				t.Fatal("Join succeeded")
			}
		})
	}
	if _, err := Join(failingEnds{k: 1}, r.Width, r.Height, r.Kind, nil); err == nil {
		t.Fatal("Join took a nil LabelFunc")
	}
}

// failingEnds is one slab whose Ends returns k and err.
type failingEnds struct {
	k   int
	err error
}

func (failingEnds) Slabs() int { return 1 }

func (f failingEnds) Ends(int, *imagegraph.Raster, []uint32) (int, int, error) { return f.k, 0, f.err }
