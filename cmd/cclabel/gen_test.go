package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/imagegraph"
)

func TestGenCells(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.npy"), filepath.Join(dir, "b.npy")
	for _, out := range []string{a, b} {
		if r := runCLI(t, "", "gen", "volume", "--kind", "cells", "--cells", "50", "--size", "40,30,20", "--seed", "3", "-o", out); r.code != 0 {
			t.Fatalf("gen volume --kind cells: exit %d: %s", r.code, r.stderr)
		}
	}
	r, err := npy.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind != imagegraph.Uint32 || r.Width != 40 || r.Height != 30 || r.Depth != 20 {
		t.Fatalf("cells volume: %s %dx%dx%d", r.Kind, r.Width, r.Height, r.Depth)
	}
	values := map[uint32]bool{}
	for _, v := range r.Data.(imagegraph.Samples[uint32]) {
		values[v] = true
	}
	if !values[0] || len(values) < 30 || len(values) > 80 {
		t.Errorf("%d distinct values (background included: %v), want about 50 cells and walls", len(values), values[0])
	}
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if !bytes.Equal(ab, bb) {
		t.Error("same seed, different volumes")
	}
	nii := filepath.Join(dir, "c.nii.gz")
	if r := runCLI(t, "", "gen", "volume", "--kind", "cells", "--cells", "50", "--size", "40,30,20", "--seed", "3", "-o", nii); r.code != 0 {
		t.Fatalf("cells as NIfTI: exit %d: %s", r.code, r.stderr)
	}
	vol, err := formats.ReadVolumeFile(nii, nil)
	if err != nil || vol.Frames[0].Kind != imagegraph.Uint32 {
		t.Fatalf("cells NIfTI read back: %v", err)
	}
	if r := runCLI(t, "", "gen", "image", "--kind", "cells", "--size", "64x64", "-o", filepath.Join(dir, "c.png")); r.code != 1 || !strings.Contains(r.stderr, "uint32") {
		t.Errorf("cells as PNG: exit %d, %q", r.code, r.stderr)
	}
	if r := runCLI(t, "", "gen", "image", "--kind", "voronoi", "-o", filepath.Join(dir, "x.npy")); r.code != 2 {
		t.Errorf("unknown kind: exit %d", r.code)
	}
}

func TestGenSeedIsDecimal(t *testing.T) {
	dir := t.TempDir()
	gen := func(t *testing.T, what, seed string) []byte {
		t.Helper()
		out := filepath.Join(dir, what+"-"+seed+".npy")
		args := []string{"gen", "volume", "--size", "20,10,5", "-o", out}
		if what == "graph" {
			out = filepath.Join(dir, what+"-"+seed+".egr")
			args = []string{"gen", "graph", "random", "--vertices", "500", "-o", out}
		}
		r := runCLI(t, "", append(args, "--seed", seed)...)
		if r.code != 0 {
			t.Fatalf("%s --seed %s: exit %d: %s", what, seed, r.code, r.stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, what := range []string{"volume", "graph"} {
		t.Run(what, func(t *testing.T) {
			if !bytes.Equal(gen(t, what, "08"), gen(t, what, "8")) {
				t.Error("--seed 08 is not --seed 8")
			}
			ten := gen(t, what, "10")
			if !bytes.Equal(gen(t, what, "010"), ten) {
				t.Error("--seed 010 is not --seed 10")
			}
			if bytes.Equal(gen(t, what, "8"), ten) {
				t.Error("seeds 8 and 10 give the same output")
			}
		})
	}
	if r := runCLI(t, "", "gen", "volume", "--seed", "0x10", "-o", filepath.Join(dir, "x.npy")); r.code != 2 {
		t.Errorf("--seed 0x10: exit %d, want a usage error", r.code)
	}
}

func TestGenQuiet(t *testing.T) {
	dir := t.TempDir()
	for _, c := range [][]string{
		{"volume", "--kind", "blobs", "--size", "30,20,10"},
		{"volume", "--kind", "cells", "--size", "30,20,10", "--cells", "20"},
		{"volume", "--kind", "neurites", "--size", "60,50,12", "--cells", "20"},
		{"image", "--kind", "random", "--size", "40x30"},
	} {
		loud, quiet := filepath.Join(dir, "loud.npy"), filepath.Join(dir, "quiet.npy")
		r := runCLI(t, "", append(append([]string{"gen"}, c...), "-o", loud)...)
		if r.code != 0 || !strings.Contains(r.stderr, "loud.npy: ") {
			t.Fatalf("%v: exit %d, stderr %q", c, r.code, r.stderr)
		}
		r = runCLI(t, "", append(append([]string{"gen"}, c...), "-q", "-o", quiet)...)
		if r.code != 0 || r.stderr != "" {
			t.Errorf("%v -q: exit %d, stderr %q", c, r.code, r.stderr)
		}
		a, _ := os.ReadFile(loud)
		b, _ := os.ReadFile(quiet)
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%v: -q changed the output", c)
		}
	}
}
