package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/job"
)

// TestVolumeStreamedBands checks that a gzipped NIfTI volume labeled band
// by band while it is read (CPU, 2 threads, 2^23 voxels) gives the serial
// backend's labels and reports labeling while reading, and that the same
// file cut in its middle fails cleanly, writing nothing.
func TestVolumeStreamedBands(t *testing.T) {
	if testing.Short() {
		t.Skip("an 8M-voxel volume")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "v.nii.gz")
	if r := runCLI(t, "", "gen", "volume", "--size", "256,256,128", "--kind", "random", "--density", "0.3", "--seed", "5", "-o", in); r.code != 0 {
		t.Fatalf("gen: exit %d: %s", r.code, r.stderr)
	}
	for _, mode := range [][]string{{"--binary"}, nil, {"--threshold", "1"}} {
		got, want := filepath.Join(dir, "got.npy"), filepath.Join(dir, "want.npy")
		r := runCLI(t, "", append([]string{"volume", in, "--backend", "cpu", "--threads", "2", "-c", "18", "--labels", got, "--json"}, mode...)...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", mode, r.code, r.stderr)
		}
		var s job.VolumeSummary
		if err := json.Unmarshal([]byte(r.stdout), &s); err != nil || s.LabelStages.WhileReading <= 0 {
			t.Fatalf("%v: summary %q (%v): want labeling while reading", mode, r.stdout, err)
		}
		if r := runCLI(t, "", append([]string{"volume", in, "--backend", "serial", "-c", "18", "--labels", want, "-q"}, mode...)...); r.code != 0 {
			t.Fatalf("%v serial: exit %d: %s", mode, r.code, r.stderr)
		}
		_, a := readNPYLabels(t, got)
		_, b := readNPYLabels(t, want)
		if !slices.Equal(a, b) {
			t.Fatalf("%v: streamed labels differ from the serial backend's", mode)
		}
	}

	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.nii.gz")
	if err := os.WriteFile(cut, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "cut.out.nii.gz")
	assertCleanFailure(t, runCLI(t, "", "volume", cut, "--backend", "cpu", "--threads", "2", "--binary", "-o", out), cut)
	if _, err := os.Stat(out); err == nil {
		t.Fatal("output written for a cut input")
	}
	assertNoTempFiles(t, dir)
}
