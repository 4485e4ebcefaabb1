package raster

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// TestChunksMergeToLabel: chunks labeled separately (1 to all planes
// each, in sub-slabs or whole) and merged give Label's file, byte for
// byte, on every input format.
func TestChunksMergeToLabel(t *testing.T) {
	dir := t.TempDir()
	d := 29
	inputs, rawOpts := writeInputs(t, dir, 19, 13, d, 0.4, 5)
	for ii, input := range inputs {
		ro := rawOpts
		if !strings.HasSuffix(input, ".raw") {
			ro = nil
		}
		for ri, rule := range []imagegraph.Rule{{Mode: imagegraph.Multilabel}, {Mode: imagegraph.Binary}} {
			conn := []int{26, 6, 18}[(ii+ri)%3]
			want := filepath.Join(dir, fmt.Sprintf("want%d%d.nii.gz", ii, ri))
			opts := OutOfCoreOptions{Rule: rule, Connectivity: conn, DType: "auto", TempDir: dir, SlabPlanes: 4}
			if _, err := LabelOutOfCore(input, ro, want, opts); err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{1, 2, 3, 10, d} {
				chunkDir := filepath.Join(dir, fmt.Sprintf("chunks%d%d-%d", ii, ri, n))
				if err := os.Mkdir(chunkDir, 0o755); err != nil {
					t.Fatal(err)
				}
				for i := n - 1; i >= 0; i-- { // any order
					o := opts
					o.SlabPlanes = 1 + i%3
					if _, _, err := LabelChunk(input, ro, chunkDir, i, n, o); err != nil {
						t.Fatal(err)
					}
				}
				got := filepath.Join(chunkDir, "merged.nii.gz")
				if _, err := Merge(input, ro, chunkDir, got, "auto"); err != nil {
					t.Fatal(err)
				}
				sameFiles(t, got, want, fmt.Sprintf("%s %v c%d in %d chunks", filepath.Base(input), rule, conn, n))
			}
		}
	}
}

func TestMergeErrors(t *testing.T) {
	dir := t.TempDir()
	inputs, _ := writeInputs(t, dir, 7, 5, 9, 0.4, 6)
	in := inputs[0]
	opts := OutOfCoreOptions{Rule: imagegraph.Rule{Mode: imagegraph.Binary}, Connectivity: 26, TempDir: dir}
	chunkDir := filepath.Join(dir, "c")
	os.Mkdir(chunkDir, 0o755)
	out := filepath.Join(dir, "o.npy")
	if _, err := Merge(in, nil, chunkDir, out, "auto"); err == nil || !strings.Contains(err.Error(), "no chunk") {
		t.Errorf("empty folder: %v", err)
	}
	for _, i := range []int{0, 2} {
		if _, _, err := LabelChunk(in, nil, chunkDir, i, 3, opts); err != nil {
			t.Fatal(err)
		}
	}
	var missing *MissingChunksError
	if _, err := Merge(in, nil, chunkDir, out, "auto"); !errors.As(err, &missing) || !slices.Equal(missing.Missing, []int{1}) ||
		missing.Chunks != 3 || !strings.Contains(err.Error(), "chunk 1 (") {
		t.Errorf("chunk 1 missing: %v", err)
	}
	other := opts
	other.Connectivity = 6
	if _, _, err := LabelChunk(in, nil, chunkDir, 1, 3, other); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(in, nil, chunkDir, out, "auto"); err == nil || !strings.Contains(err.Error(), "otherwise") {
		t.Errorf("chunk 1 at another connectivity: %v", err)
	}
	if _, _, err := LabelChunk(in, nil, chunkDir, 1, 3, opts); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(chunkDir, "chunk-00001.labels"), 8); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(in, nil, chunkDir, out, "auto"); err == nil || !strings.Contains(err.Error(), "does not hold") {
		t.Errorf("truncated labels: %v", err)
	}
	if _, _, err := LabelChunk(in, nil, chunkDir, 3, 3, opts); err == nil {
		t.Error("chunk 3/3 accepted")
	}
	if _, _, err := LabelChunk(in, nil, chunkDir, 0, 10, opts); err == nil {
		t.Error("10 chunks of 9 planes accepted")
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed merge wrote its output")
	}
}
