package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/job"
)

// TestVolumeMaxMemory: a volume over the budget is labeled out of core
// into the same bytes as in memory; one within it is labeled in memory
// (its summary names no slabs); outputs that need the whole labels are
// refused out of core.
func TestVolumeMaxMemory(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "v.npy")
	if r := runCLI(t, "", "gen", "volume", "--size", "64,48,40", "--kind", "random", "--density", "0.3", "--seed", "2", "-o", in); r.code != 0 {
		t.Fatalf("gen: %s", r.stderr)
	}
	for _, ext := range []string{".nii.gz", ".npy"} {
		mem, ooc := filepath.Join(dir, "mem"+ext), filepath.Join(dir, "ooc"+ext)
		if r := runCLI(t, "", "volume", in, "-c", "18", "-o", mem, "-q"); r.code != 0 {
			t.Fatalf("in memory: %s", r.stderr)
		}
		r := runCLI(t, "", "volume", in, "-c", "18", "-o", ooc, "--max-memory", "300K", "--json")
		if r.code != 0 {
			t.Fatalf("out of core: %s", r.stderr)
		}
		var s job.VolumeSummary
		if err := json.Unmarshal([]byte(r.stdout), &s); err != nil || s.Slabs < 2 || s.Format != "npy" {
			t.Fatalf("summary %s (%v): want several slabs of an npy input", r.stdout, err)
		}
		a, _ := os.ReadFile(mem)
		b, _ := os.ReadFile(ooc)
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Fatalf("%s: out-of-core output differs from the in-memory one", ext)
		}
	}
	r := runCLI(t, "", "volume", in, "-o", filepath.Join(dir, "big.npy"), "--max-memory", "1G", "--json")
	if r.code != 0 || strings.Contains(r.stdout, "slabs") {
		t.Fatalf("within the budget: exit %d, %s %s", r.code, r.stdout, r.stderr)
	}
	for _, args := range [][]string{
		{"--stats", filepath.Join(dir, "s.csv")},
		{"--min-size", "3"},
		{"--max-memory", "lots"},
	} {
		full := append([]string{"volume", in, "-o", filepath.Join(dir, "x.npy"), "--max-memory", "300K"}, args...)
		if r := runCLI(t, "", full...); r.code != 2 {
			t.Errorf("%v: exit %d (%s), want a usage error", args, r.code, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.npy")); err == nil {
		t.Error("a refused run wrote x.npy")
	}
}

// TestVolumeChunksAndMerge: three chunk runs (one from a SLURM array
// index) and a merge give the whole volume's labels, byte for byte.
func TestVolumeChunksAndMerge(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "v.nii.gz")
	if r := runCLI(t, "", "gen", "volume", "--size", "40,30,25", "--kind", "blobs", "--density", "0.5", "--seed", "4", "-o", in); r.code != 0 {
		t.Fatalf("gen: %s", r.stderr)
	}
	whole := filepath.Join(dir, "whole.nii.gz")
	if r := runCLI(t, "", "volume", in, "--binary", "-c", "6", "-o", whole, "-q"); r.code != 0 {
		t.Fatalf("whole: %s", r.stderr)
	}
	chunks := filepath.Join(dir, "chunks")
	for _, i := range []string{"2/3", "0/3"} {
		if r := runCLI(t, "", "volume", in, "--binary", "-c", "6", "--chunk", i, "-o", chunks, "-q"); r.code != 0 {
			t.Fatalf("chunk %s: %s", i, r.stderr)
		}
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "1")
	r := runCLI(t, "", "volume", in, "--binary", "-c", "6", "--chunks", "3", "-o", chunks, "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"chunk": "1/3"`) {
		t.Fatalf("chunk from SLURM: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	merged := filepath.Join(dir, "merged.nii.gz")
	if r := runCLI(t, "", "merge", in, chunks, "-o", merged); r.code != 0 {
		t.Fatalf("merge: %s", r.stderr)
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(merged)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatal("merged labels differ from the whole volume's")
	}
	for _, args := range [][]string{
		{"merge", in, chunks},
		{"merge", in},
		{"volume", in, "--chunk", "3/3", "-o", chunks},
		{"volume", in, "--chunk", "0/3"},
	} {
		if r := runCLI(t, "", args...); r.code != 2 {
			t.Errorf("%v: exit %d (%s), want a usage error", args, r.code, r.stderr)
		}
	}
}

// TestVolumeOutOfCoreNRRDFolder: NRRD inputs labeled out of core into a
// folder get .nii.gz label volumes (NRRD is not written out of core), and
// those that fit in memory keep their family.
func TestVolumeOutOfCoreNRRDFolder(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.npy")
	if r := runCLI(t, "", "gen", "volume", "--size", "30,20,16", "--density", "0.4", "-o", src); r.code != 0 {
		t.Fatal(r.stderr)
	}
	a, b := filepath.Join(dir, "a.nrrd"), filepath.Join(dir, "b.nrrd")
	for _, p := range []string{a, b} {
		if r := runCLI(t, "", "volume", src, "-o", p, "-q"); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	if r := runCLI(t, "", "volume", a, b, "-o", out, "--max-memory", "100K", "-q"); r.code != 0 {
		t.Fatalf("out of core: %s", r.stderr)
	}
	for _, name := range []string{"a.nii.gz", "b.nii.gz"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
	if r := runCLI(t, "", "volume", a, b, "-o", out, "--max-memory", "1G", "-q"); r.code != 0 {
		t.Fatalf("in memory: %s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "a.nrrd")); err != nil {
		t.Error(err)
	}
}
