package cclabel_test

import (
	"fmt"
	"reflect"
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
		if got.Backend != cclabel.BackendCPU || !reflect.DeepEqual(got.Labels, res.Labels) || got.First != nil {
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
	if !sameTables(got.Table, want) {
		t.Errorf("the table differs from measure.Compute's")
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
