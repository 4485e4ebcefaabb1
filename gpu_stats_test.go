package cclabel_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/measure"
)

// TestLabelRasterMeasuredCPU: on the CPU the labels come back and the
// table is measure.Compute's on them.
func TestLabelRasterMeasuredCPU(t *testing.T) {
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	for _, shape := range [][4]int{{57, 31, 1, 4}, {31, 29, 23, 6}} {
		r := randomMap(t, shape[0], shape[1], shape[2], 3)
		opt := measure.Options{Intensity: randomMap(t, shape[0], shape[1], shape[2], 4), Surface: true, Contacts: true}
		rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
		got, err := lab.LabelRasterMeasured(r, rule, shape[3], opt)
		if err != nil {
			t.Fatal(err)
		}
		res, err := lab.LabelRaster(r, rule, shape[3], nil)
		if err != nil {
			t.Fatal(err)
		}
		opt.Threads = 2
		want, err := measure.Compute(res.Labels.Data, shape[0], shape[1], shape[2], res.Labels.Count, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got.Backend != cclabel.BackendCPU || !reflect.DeepEqual(got.Labels, res.Labels) || !reflect.DeepEqual(got.First, firstVoxels(res.Labels)) {
			t.Errorf("%v: backend %s, labels equal %v, first %v", shape, got.Backend, reflect.DeepEqual(got.Labels, res.Labels), got.First)
		}
		if !sameTables(got.Table, want) {
			t.Errorf("%v: the table differs from measure.Compute's", shape)
		}
	}
}

// TestLabelRasterMeasuredGPU runs on a machine with a GPU: the table
// comes back without the labels and matches the CPU's (the cuda package
// checks every measurement; here the facade's wiring).
func TestLabelRasterMeasuredGPU(t *testing.T) {
	gpu := gpuLabeler(t, cclabel.Options{})
	r := randomMap(t, 64, 33, 17, 5)
	opt := measure.Options{Surface: true, Contacts: true}
	rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
	got, err := gpu.LabelRasterMeasured(r, rule, 26, opt)
	if err != nil {
		t.Fatal(err)
	}
	res, err := gpu.LabelRaster(r, rule, 26, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := measure.Compute(res.Labels.Data, 64, 33, 17, res.Labels.Count, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got.Backend != cclabel.BackendGPU || got.Labels.Data != nil || got.Labels.Count != res.Labels.Count || len(got.First) != got.Labels.Count {
		t.Fatalf("backend %s, labels downloaded %v, count %d (want %d), %d first voxels", got.Backend, got.Labels.Data != nil, got.Labels.Count, res.Labels.Count, len(got.First))
	}
	if !sameTables(got.Table, want) || !reflect.DeepEqual(got.First, firstVoxels(res.Labels)) {
		t.Errorf("the table or the first voxels differ from the labels'")
	}
	if got.Measure.Kernel <= 0 {
		t.Errorf("measure timing %+v", got.Measure)
	}
}

// sameTables reports whether a and b hold the same measurements, bit for
// bit (NaNs, of a zero intensity sum, equal).
func sameTables(a, b *measure.Table) bool {
	return fmt.Sprintf("%+v", *a) == fmt.Sprintf("%+v", *b)
}

// firstVoxels returns the index of each label's first voxel (label k at
// k-1, -1 for none), by a serial scan.
func firstVoxels(l *imagegraph.Labels) []int {
	first := make([]int, l.Count)
	for i := range first {
		first[i] = -1
	}
	for i, v := range l.Data {
		if v != 0 && first[v-1] < 0 {
			first[v-1] = i
		}
	}
	return first
}

// TestOrderMeasuredBySize numbers measured rasters by size, one with its
// labels (the CPU's) and one without (shaped as the GPU's): both give the
// table of the labels relabeled by Labeler.OrderBySize, measured again,
// and their first voxels.
func TestOrderMeasuredBySize(t *testing.T) {
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	for _, shape := range [][4]int{{57, 31, 1, 4}, {31, 29, 23, 6}, {20, 20, 20, 26}} {
		t.Run(fmt.Sprint(shape), func(t *testing.T) {
			r := randomMap(t, shape[0], shape[1], shape[2], 3)
			opt := measure.Options{Surface: true, Contacts: true, Threads: 2}
			rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
			res, err := lab.LabelRaster(r, rule, shape[3], nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := lab.OrderBySize(res, nil); err != nil {
				t.Fatal(err)
			}
			want, err := measure.Compute(res.Labels.Data, shape[0], shape[1], shape[2], res.Labels.Count, opt)
			if err != nil {
				t.Fatal(err)
			}
			wantFirst := firstVoxels(res.Labels)
			for _, keep := range []bool{true, false} {
				m, err := lab.LabelRasterMeasured(r, rule, shape[3], opt)
				if err != nil {
					t.Fatal(err)
				}
				if !keep {
					m.Labels.Data = nil
				}
				if err := lab.OrderMeasuredBySize(m); err != nil {
					t.Fatal(err)
				}
				if !sameTables(m.Table, want) || !reflect.DeepEqual(m.First, wantFirst) {
					t.Errorf("labels kept %v: the table or first voxels differ from the relabeled labels'", keep)
				}
				if keep && !reflect.DeepEqual(m.Labels.Data, res.Labels.Data) {
					t.Errorf("the labels were not relabeled")
				}
			}
			if res.Labels.Count < 3 || slices.IsSorted(wantFirst) {
				t.Errorf("%d components, first voxels sorted %v: the order by size is not exercised", res.Labels.Count, slices.IsSorted(wantFirst))
			}
		})
	}
}
