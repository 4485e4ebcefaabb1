package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/job"
)

// TestVolumeGPUsFlag: --gpus takes a count or a list of ordinals, refuses
// CPU backends and bad values as usage errors, and (on the CPU here, under
// auto) leaves the labels as they are.
func TestVolumeGPUsFlag(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "v.nii")
	if r := runCLI(t, "", "gen", "volume", "--size", "30,20,12", "--kind", "random", "-o", in); r.code != 0 {
		t.Fatalf("gen: %s", r.stderr)
	}
	plain, spread := filepath.Join(dir, "a.npy"), filepath.Join(dir, "b.npy")
	if r := runCLI(t, "", "volume", in, "-o", plain); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if r := runCLI(t, "", "volume", in, "-o", spread, "--gpus", "0,1"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	a, _ := os.ReadFile(plain)
	b, _ := os.ReadFile(spread)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Error("--gpus changed the labels")
	}
	for _, args := range [][]string{{"--gpus", "0"}, {"--gpus", "x"}, {"--gpus", "0,-1"}, {"--gpus", "2", "--backend", "cpu"}, {"--gpus", "2", "--backend", "serial"}} {
		full := append([]string{"volume", in, "-o", filepath.Join(dir, "x.npy")}, args...)
		if r := runCLI(t, "", full...); r.code != 2 {
			t.Errorf("%v: exit %d (%s), want a usage error", args, r.code, r.stderr)
		}
	}
	if got, err := job.ParseGPUs("3"); err != nil || !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("job.ParseGPUs(3) = %v, %v", got, err)
	}
}
