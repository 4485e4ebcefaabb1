package cclabel_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/slabs"
)

// slabRasters are volumes with awkward shapes and sample patterns for the
// slab path: random maps, a float volume with -0 and NaN, all foreground,
// a checkerboard (many components) and one plane thick columns.
func slabRasters(t *testing.T) []*imagegraph.Raster {
	t.Helper()
	rs := []*imagegraph.Raster{randomMap(t, 13, 7, 29, 3), randomMap(t, 1, 1, 17, 4), randomMap(t, 31, 17, 11, 5)}
	rng := rand.New(rand.NewPCG(9, 9))
	floats := make([]float32, 9*8*23)
	for i := range floats {
		switch rng.IntN(5) {
		case 0:
			floats[i] = float32(math.Copysign(0, -1))
		case 1:
			floats[i] = float32(math.NaN())
		case 2:
			floats[i] = 1.5
		}
	}
	checker := make([]uint8, 6*5*19)
	for i := range checker {
		x, y, z := i%6, i/6%5, i/30
		checker[i] = uint8((x + y + z) % 2)
	}
	full := slices.Repeat([]uint8{7}, 5*4*15)
	f, err1 := imagegraph.NewRaster(9, 8, 23, floats)
	c, err2 := imagegraph.NewRaster(6, 5, 19, checker)
	a, err3 := imagegraph.NewRaster(5, 4, 15, full)
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	return append(rs, f, c, a)
}

// TestLabelSlabsMatchesOneKernel: a raster larger than the slab limit is
// labeled in slabs with the labels one kernel gives, bit for bit, for
// every rule and 3D connectivity, slabs of 2 planes to all but one, and
// labels into a given buffer or a fresh one.
func TestLabelSlabsMatchesOneKernel(t *testing.T) {
	rules := []imagegraph.Rule{{Mode: imagegraph.Multilabel}, {Mode: imagegraph.Binary}, {Mode: imagegraph.Threshold, Threshold: 1}}
	for _, backend := range []cclabel.Backend{cclabel.BackendCPU, cclabel.BackendSerial} {
		whole, err := cclabel.New(cclabel.Options{Backend: backend, Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		sliced, err := cclabel.New(cclabel.Options{Backend: backend, Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range slabRasters(t) {
			plane := r.Width * r.Height
			for _, conn := range []int{6, 18, 26} {
				for _, rule := range rules {
					want, err := whole.LabelRaster(r, rule, conn, nil)
					if err != nil {
						t.Fatal(err)
					}
					for _, thick := range []int{2, 3, 5, r.Depth - 1} {
						cclabel.SetSlabVoxels(sliced, thick*plane+plane/2)
						var dst []uint32
						if thick == 3 {
							dst = slices.Repeat([]uint32{99}, r.Len())
						}
						got, err := sliced.LabelRaster(r, rule, conn, dst)
						name := fmt.Sprintf("%s %dx%dx%d %v c%d slabs of %d", backend, r.Width, r.Height, r.Depth, rule, conn, thick)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if got.Labels.Count != want.Labels.Count || !slices.Equal(got.Labels.Data, want.Labels.Data) {
							t.Fatalf("%s: %d components, one kernel %d", name, got.Labels.Count, want.Labels.Count)
						}
						tm := got.Timing
						if got.Backend != backend || tm.Kernel <= 0 || tm.Join <= 0 || tm.Total < tm.Kernel+tm.Join {
							t.Errorf("%s: backend %s, timing %+v", name, got.Backend, got.Timing)
						}
					}
				}
			}
		}
	}
}

// TestLabelSlabsAgainstBFS checks the slab path against breadth-first
// search on the materialized grid graph, an oracle that shares no code
// with the labelers.
func TestLabelSlabsAgainstBFS(t *testing.T) {
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	r := randomMap(t, 11, 9, 14, 21)
	cclabel.SetSlabVoxels(lab, 2*11*9)
	for _, conn := range []int{6, 18, 26} {
		want, n := bfsLabels(t, r, imagegraph.Rule{Mode: imagegraph.Multilabel}, conn)
		got, err := lab.LabelRaster(r, imagegraph.Rule{Mode: imagegraph.Multilabel}, conn, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got.Labels.Count != n || !slices.Equal(got.Labels.Data, want) {
			t.Errorf("c%d: %d components, BFS %d", conn, got.Labels.Count, n)
		}
	}
}

// TestLabelSlabsRefusesThickPlanes: slabs and their seams are whole
// planes, so two planes must fit one kernel.
func TestLabelSlabsRefusesThickPlanes(t *testing.T) {
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	r := randomMap(t, 8, 8, 8, 1)
	cclabel.SetSlabVoxels(lab, 100)
	_, err = lab.LabelRaster(r, imagegraph.Rule{Mode: imagegraph.Binary}, 26, nil)
	if err == nil || !strings.Contains(err.Error(), "two of its planes") {
		t.Errorf("got %v", err)
	}
}

// TestLabelRasterBeyond2to31 labels a volume of more than 2^31 voxels in
// memory (about 11 GB: 2.1 G bytes of samples and 8.6 GB of labels),
// only with CCLABEL_LARGE_TESTS=1: every label is checked against the
// closed form of 2x2x2 cubes on a pitch-4 grid.
func TestLabelRasterBeyond2to31(t *testing.T) {
	if os.Getenv("CCLABEL_LARGE_TESTS") != "1" {
		t.Skip("set CCLABEL_LARGE_TESTS=1 (needs about 11 GB of memory)")
	}
	const w, h, d = 2048, 2048, 520 // 2,181,038,080 voxels
	data := make([]uint8, w*h*d)
	for z := range d {
		for y := range h {
			if z%4 >= 2 || y%4 >= 2 {
				continue
			}
			row := data[(z*h+y)*w : (z*h+y+1)*w]
			for x := 0; x < w; x += 4 {
				row[x], row[x+1] = 1, 1
			}
		}
	}
	r, err := imagegraph.NewRaster(w, h, d, data)
	if err != nil {
		t.Fatal(err)
	}
	lab, err := cclabel.New(cclabel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	res, err := lab.LabelRaster(r, imagegraph.Rule{Mode: imagegraph.Binary}, 26, nil)
	if err != nil {
		t.Fatal(err)
	}
	cubes := (w / 4) * (h / 4) * (d / 4)
	if res.Labels.Count != cubes {
		t.Fatalf("%d components, want %d", res.Labels.Count, cubes)
	}
	for i, l := range res.Labels.Data {
		x, y, z := i%w, i/w%h, i/(w*h)
		var want uint32
		if x%4 < 2 && y%4 < 2 && z%4 < 2 {
			want = uint32((z/4)*(h/4)*(w/4) + (y/4)*(w/4) + x/4 + 1)
		}
		if l != want {
			t.Fatalf("voxel (%d,%d,%d): label %d, want %d (backend %s)", x, y, z, l, want, res.Backend)
		}
	}
	t.Logf("%d voxels, %d components on %s: %+v", r.Len(), res.Labels.Count, res.Backend, res.Timing)
}

// TestLabelSpreadMatchesOneKernel: a raster spread over several labelers
// (as over several GPUs: a range of planes each, labeled concurrently,
// joined at the seams) has one kernel's labels, also when the ranges are
// cut further into slabs and when there are more labelers than planes.
func TestLabelSpreadMatchesOneKernel(t *testing.T) {
	newCPU := func() *cclabel.Labeler {
		l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	whole := newCPU()
	for _, r := range slabRasters(t) {
		for _, conn := range []int{6, 26} {
			rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
			want, err := whole.LabelRaster(r, rule, conn, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{2, 3, r.Depth + 1} {
				for _, thick := range []int{2, 3, r.Depth} {
					lead := newCPU()
					cclabel.SetSlabVoxels(lead, thick*r.Width*r.Height)
					peers := make([]*cclabel.Labeler, n-1)
					for i := range peers {
						peers[i] = newCPU()
						cclabel.SetSlabVoxels(peers[i], thick*r.Width*r.Height)
					}
					got, err := cclabel.LabelSpread(lead, peers, r, rule, conn)
					name := fmt.Sprintf("%dx%dx%d c%d over %d labelers, slabs of %d", r.Width, r.Height, r.Depth, conn, n, thick)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if got.Labels.Count != want.Labels.Count || !slices.Equal(got.Labels.Data, want.Labels.Data) {
						t.Fatalf("%s: %d components, one kernel %d", name, got.Labels.Count, want.Labels.Count)
					}
				}
			}
		}
	}
}

// TestNewGPUsRefusesCPUBackends: spreading over GPUs needs a GPU backend.
func TestNewGPUsRefusesCPUBackends(t *testing.T) {
	for _, b := range []cclabel.Backend{cclabel.BackendCPU, cclabel.BackendSerial} {
		if _, err := cclabel.New(cclabel.Options{Backend: b, GPUs: []int{0, 1}}); err == nil {
			t.Errorf("%s backend with two GPUs was accepted", b)
		}
	}
	if _, err := cclabel.New(cclabel.Options{GPUs: []int{0, -1}}); err == nil {
		t.Error("GPU ordinal -1 was accepted")
	}
}

// TestLabelFuncs: the LabelFuncs of a Labeler and of the CPU label as
// LabelRaster does at the 3D connectivity, a raster of one plane at its
// in-plane part (checked against BFS), into the buffer given.
func TestLabelFuncs(t *testing.T) {
	rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
	for _, backend := range []cclabel.Backend{cclabel.BackendCPU, cclabel.BackendSerial} {
		lab, err := cclabel.New(cclabel.Options{Backend: backend, Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, shape := range [][3]int{{23, 17, 1}, {13, 11, 7}} {
			r := randomMap(t, shape[0], shape[1], shape[2], uint64(shape[0]))
			for _, conn := range []int{6, 18, 26} {
				c := conn
				if shape[2] == 1 {
					c = slabs.InPlane(conn)
				}
				want, n := bfsLabels(t, r, rule, c)
				var ran []cclabel.Backend
				funcs := map[string]slabs.LabelFunc{
					"Labeler.LabelFunc": lab.LabelFunc(rule, conn, func(res *cclabel.RasterResult) { ran = append(ran, res.Backend) }),
					"CPULabelFunc":      cclabel.CPULabelFunc(rule, conn, 3),
				}
				for name, f := range funcs {
					dst := slices.Repeat([]uint32{7}, r.Len())
					count, err := f(r, dst)
					if err != nil {
						t.Fatal(err)
					}
					if count != n || !slices.Equal(dst, want) {
						t.Errorf("%s %s %v c%d: %d components, BFS %d; labels equal: %v", backend, name, shape, conn, count, n, slices.Equal(dst, want))
					}
				}
				if len(ran) != 1 || ran[0] != backend {
					t.Errorf("%s %v c%d: LabelFunc told of %v", backend, shape, conn, ran)
				}
			}
		}
		lab.Close()
	}
}
