package bench

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph"
)

func TestParsePlan(t *testing.T) {
	p, err := ParsePlan("binary,threshold:100:invert", "", "random,cells")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rules) != 2 || p.Rules[0].Mode != imagegraph.Binary || p.Rules[1].Mode != imagegraph.Threshold ||
		p.Rules[1].Threshold != 100 || !p.Rules[1].Invert || p.All || p.Conns != nil || !slices.Equal(p.Inputs, []string{"random", "cells"}) {
		t.Errorf("plan %+v", p)
	}
	if c2, c3 := p.Connectivities(false), p.Connectivities(true); !slices.Equal(c2, []int{8}) || !slices.Equal(c3, []int{26}) {
		t.Errorf("default connectivities %v, %v", c2, c3)
	}
	// --modes all measures every connectivity, unless --connectivity says which.
	p, err = ParsePlan("all", "", "blobs")
	if err != nil || !p.All || len(p.Rules) != 2 || p.Rules[1].Mode != imagegraph.Multilabel {
		t.Fatalf("all: %+v, %v", p, err)
	}
	if c2, c3 := p.Connectivities(false), p.Connectivities(true); !slices.Equal(c2, []int{4, 8}) || !slices.Equal(c3, []int{6, 18, 26}) {
		t.Errorf("all connectivities %v, %v", c2, c3)
	}
	p, err = ParsePlan("all", "4,18", "random")
	if err != nil || p.All {
		t.Fatalf("all with --connectivity: %+v, %v", p, err)
	}
	if c2, c3 := p.Connectivities(false), p.Connectivities(true); !slices.Equal(c2, []int{4}) || !slices.Equal(c3, []int{18}) {
		t.Errorf("given connectivities %v, %v", c2, c3)
	}
	p, err = ParsePlan("multilabel", "6", "random") // 6 alone: a 3D connectivity below 8
	if err != nil {
		t.Fatalf("--connectivity 6: %v", err)
	}
	if c2, c3 := p.Connectivities(false), p.Connectivities(true); len(c2) != 0 || !slices.Equal(c3, []int{6}) {
		t.Errorf("--connectivity 6: %v, %v", c2, c3)
	}
	for _, bad := range []struct{ modes, conn, inputs, err string }{
		{"quantum", "", "random", `bench: --modes "quantum": `},
		{"binary", "5", "random", `bench: --connectivity "5": want 4, 8, 6, 18, 26 or all`},
		{"binary", "8,x", "random", `bench: --connectivity "x": want 4, 8, 6, 18, 26 or all`},
		{"binary", "", "noise", `bench: --inputs "noise": want random, blobs or cells`},
	} {
		if _, err := ParsePlan(bad.modes, bad.conn, bad.inputs); err == nil || !strings.HasPrefix(err.Error(), bad.err) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}

func TestRaster(t *testing.T) {
	for _, c := range []struct {
		input    string
		d        int
		desc     string
		kind     imagegraph.SampleKind
		min, max float64 // foreground fraction
	}{
		{"random", 1, "random p=0.6", imagegraph.Uint8, 0.55, 0.65},
		{"random", 16, "random p=0.3", imagegraph.Uint8, 0.25, 0.35},
		{"blobs", 1, "blobs p=0.5", imagegraph.Uint8, 0.3, 0.7},
		{"cells", 16, "cells 4000", imagegraph.Uint32, 0.3, 1}, // small cells: many walls
	} {
		r, desc, err := Raster(c.input, 64, 48, c.d)
		if err != nil {
			t.Fatal(err)
		}
		fg := 0
		for i := range r.Len() {
			if r.Value(i) != 0 {
				fg++
			}
		}
		if f := float64(fg) / float64(r.Len()); desc != c.desc || r.Kind != c.kind || r.Width != 64 || r.Height != 48 || r.Depth != c.d || f < c.min || f > c.max {
			t.Errorf("%s %d: %q %s %dx%dx%d, foreground %.2f", c.input, c.d, desc, r.Kind, r.Width, r.Height, r.Depth, f)
		}
	}
}

func TestMeasureTakesMedians(t *testing.T) {
	calls := 0
	job := &Job{Name: "w", Unit: "voxels", Items: 3e6, run: func(*cclabel.Labeler) (time.Duration, time.Duration, error) {
		calls++
		ms := []time.Duration{5, 1, 3}[calls-1] * time.Millisecond
		return ms, 2 * ms, nil
	}}
	r, err := job.Measure(nil, "cpu", 3)
	want := Result{Workload: "w", Backend: "cpu", Items: 3e6, Unit: "voxels", KernelMS: 3, TotalMS: 6, PerSec: 1000}
	if err != nil || calls != 3 || r != want {
		t.Errorf("%+v after %d runs (%v), want %+v", r, calls, err, want)
	}
	failing := &Job{Name: "w", run: func(*cclabel.Labeler) (time.Duration, time.Duration, error) { return 0, 0, errors.New("no memory") }}
	if _, err := failing.Measure(nil, "gpu", 3); err == nil || err.Error() != "bench w on gpu: no memory" {
		t.Errorf("failing run: %v", err)
	}
	if r := job.Skipped("gpu", "no driver"); r.Note != "skipped: no driver" || r.Items != 3e6 || r.KernelMS != 0 {
		t.Errorf("skipped: %+v", r)
	}
}

func TestJobsLabelEveryRuleAndConnectivity(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 256³ volume")
	}
	p, err := ParsePlan("all", "", "random")
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := p.Jobs("volume", false)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, j := range jobs {
		names = append(names, strings.TrimPrefix(j.Name, "volume 256x256x256 random p=0.3 "))
		if j.Items != 256*256*256 || j.Unit != "voxels" {
			t.Errorf("%s: %d %s", j.Name, j.Items, j.Unit)
		}
	}
	if want := "binary c6,binary c18,binary c26,multilabel c6,multilabel c18,multilabel c26"; strings.Join(names, ",") != want {
		t.Errorf("measured %q, want %q", strings.Join(names, ","), want)
	}
	l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	r, err := jobs[0].Measure(l, "cpu", 1)
	if err != nil || r.KernelMS <= 0 || r.TotalMS < r.KernelMS || r.PerSec <= 0 {
		t.Errorf("measured %+v, %v", r, err)
	}
	if _, err := p.Jobs("mesh", false); err == nil {
		t.Error("unknown workload accepted")
	}
}
