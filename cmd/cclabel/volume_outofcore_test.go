package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		var s volumeSummary
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
