package job

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/job/raster"
)

// statsOnlyCase is a stats-only job, run with labeler l, writing its
// tables into dir; it returns the label stages of its summary and its
// backend.
type statsOnlyCase struct {
	name string
	run  func(l *cclabel.Labeler, dir string) (LabelStages, string, error)
}

// statsOnlyCases writes the inputs of stats-only volume and image jobs
// into dir: a cells volume with an intensity of its own, ordered by size,
// and an image of cells in first-occurrence order, with statistics and
// contacts.
func statsOnlyCases(t *testing.T, dir string) []statsOnlyCase {
	t.Helper()
	cells, err := gen.CellsRaster(40, 36, 30, 60, 7)
	if err != nil {
		t.Fatal(err)
	}
	flat, err := gen.CellsRaster(70, 50, 1, 40, 9)
	if err != nil {
		t.Fatal(err)
	}
	vol, img := filepath.Join(dir, "cells.npy"), filepath.Join(dir, "flat.npy")
	for path, r := range map[string]*imagegraph.Raster{vol: cells, img: flat} {
		if err := formats.WriteRasterFile(path, r); err != nil {
			t.Fatal(err)
		}
	}
	multi := Settings{Rule: imagegraph.Rule{Mode: imagegraph.Multilabel}, DType: "auto",
		Measures: raster.Measures{Shape: true}, Order: raster.BySize}
	return []statsOnlyCase{
		{"volume", func(l *cclabel.Labeler, out string) (LabelStages, string, error) {
			j := Volume{Inputs: []string{vol}, Stats: filepath.Join(out, "s.csv"), Contacts: filepath.Join(out, "c.csv"),
				Intensity: vol, StatsOnly: true, Settings: multi, Connectivity: 26}
			s, err := j.Run(context.Background(), l, Progress{Quiet: true})
			if err != nil {
				return LabelStages{}, "", err
			}
			return s[0].LabelStages, s[0].Backend, nil
		}},
		{"image", func(l *cclabel.Labeler, out string) (LabelStages, string, error) {
			first := multi
			first.Order = raster.FirstOccurrence
			j := Image{Inputs: []string{img}, Stats: filepath.Join(out, "s.json"), Contacts: filepath.Join(out, "c.json"),
				StatsOnly: true, Settings: first, Connectivity: 4}
			s, err := j.Run(context.Background(), l, Progress{Quiet: true})
			if err != nil {
				return LabelStages{}, "", err
			}
			return s[0].LabelStages, s[0].Backend, nil
		}},
	}
}

// TestStatsOnlyMeasuresWhileLabeling forces the path of a labeling on the
// GPU (measured as labeled) on the CPU, whose fallback measures the labels
// it made: the files are the label path's, byte for byte, and the summary
// reports the measuring in the label stage.
func TestStatsOnlyMeasuresWhileLabeling(t *testing.T) {
	dir := t.TempDir()
	orig := measuresWhileLabeling
	defer func() { measuresWhileLabeling = orig }()
	l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, c := range statsOnlyCases(t, dir) {
		t.Run(c.name, func(t *testing.T) {
			runs := map[bool]string{}
			for _, forced := range []bool{false, true} {
				measuresWhileLabeling = func(_ func() bool, labelOutputs bool, stats, contacts string, s Settings) bool {
					return orig(func() bool { return forced }, labelOutputs, stats, contacts, s)
				}
				out := filepath.Join(dir, c.name, map[bool]string{false: "labels", true: "measured"}[forced])
				if err := os.MkdirAll(out, 0o755); err != nil {
					t.Fatal(err)
				}
				st, _, err := c.run(l, out)
				if err != nil {
					t.Fatal(err)
				}
				if (st.Measure != nil) != forced || forced && st.Measure.Kernel <= 0 {
					t.Errorf("measured %v: label stages %+v, measure %+v", forced, st, st.Measure)
				}
				runs[forced] = out
			}
			files, err := os.ReadDir(runs[false])
			if err != nil || len(files) != 2 {
				t.Fatalf("%d files, %v", len(files), err)
			}
			for _, f := range files {
				want, err := os.ReadFile(filepath.Join(runs[false], f.Name()))
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(filepath.Join(runs[true], f.Name()))
				if err != nil || !bytes.Equal(got, want) || len(want) < 100 {
					t.Errorf("%s: %d bytes measured while labeling, %d from the labels (%v)", f.Name(), len(got), len(want), err)
				}
			}
		})
	}
}

// TestStatsOnlyOnGPU runs on a machine with a GPU: a stats-only job on
// the GPU writes the CPU's files, byte for byte (no intensity from the
// device here: the cases measure the input's own integer samples, which
// the device sums exactly), and reports the device's measuring.
func TestStatsOnlyOnGPU(t *testing.T) {
	if s := cclabel.Devices(); !s.Available {
		t.Skip("no GPU: " + s.Reason)
	}
	dir := t.TempDir()
	for _, c := range statsOnlyCases(t, dir) {
		t.Run(c.name, func(t *testing.T) {
			runs := map[cclabel.Backend]string{}
			for _, b := range []cclabel.Backend{cclabel.BackendCPU, cclabel.BackendGPU} {
				l, err := cclabel.New(cclabel.Options{Backend: b})
				if err != nil {
					t.Fatal(err)
				}
				out := filepath.Join(dir, c.name, string(b))
				if err := os.MkdirAll(out, 0o755); err != nil {
					t.Fatal(err)
				}
				st, backend, err := c.run(l, out)
				l.Close()
				if err != nil {
					t.Fatal(err)
				}
				if backend != string(b) || (b == cclabel.BackendGPU) != (st.Measure != nil) {
					t.Errorf("%s: backend %s, label stages %+v, measure %+v", b, backend, st, st.Measure)
				}
				runs[b] = out
			}
			files, err := os.ReadDir(runs[cclabel.BackendCPU])
			if err != nil || len(files) != 2 {
				t.Fatalf("%d files, %v", len(files), err)
			}
			for _, f := range files {
				want, err := os.ReadFile(filepath.Join(runs[cclabel.BackendCPU], f.Name()))
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(filepath.Join(runs[cclabel.BackendGPU], f.Name()))
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s: the GPU's %d bytes differ from the CPU's %d (%v)", f.Name(), len(got), len(want), err)
				}
			}
		})
	}
}

// TestMeasuresWhileLabeling: only tables, with no size filter, of a
// labeling on the GPU are measured as it is labeled; the GPU is asked
// last.
func TestMeasuresWhileLabeling(t *testing.T) {
	for _, c := range []struct {
		name            string
		gpu, labels     bool
		stats, contacts string
		s               Settings
		want, asked     bool
	}{
		{"stats", true, false, "s.csv", "", Settings{}, true, true},
		{"contacts", true, false, "", "c.csv", Settings{Order: raster.BySize}, true, true},
		{"cpu", false, false, "s.csv", "c.csv", Settings{}, false, true},
		{"labels too", true, true, "s.csv", "", Settings{}, false, false},
		{"no table", true, false, "", "", Settings{}, false, false},
		{"min size", true, false, "s.csv", "", Settings{MinSize: 5}, false, false},
		{"largest", true, false, "s.csv", "", Settings{Largest: 2}, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			asked := false
			got := measuresWhileLabeling(func() bool { asked = true; return c.gpu }, c.labels, c.stats, c.contacts, c.s)
			if got != c.want || asked != c.asked {
				t.Errorf("got %v (GPU asked %v), want %v (%v)", got, asked, c.want, c.asked)
			}
		})
	}
}
