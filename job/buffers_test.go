package labelfile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/batch"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/labelfile"
)

func TestLabelBuffersGetPut(t *testing.T) {
	var none *labelfile.LabelBuffers
	none.Put(make([]uint32, 4))
	if none.Get(4) != nil {
		t.Error("a nil LabelBuffers returned an array")
	}
	b := &labelfile.LabelBuffers{Keep: 2}
	if b.Get(10) != nil {
		t.Error("an empty LabelBuffers returned an array")
	}
	small, big, bigger := make([]uint32, 10), make([]uint32, 100), make([]uint32, 1000)
	b.Put(small)
	b.Put(bigger)
	b.Put(big) // over Keep: the smallest (small) is dropped
	if got := b.Get(5); len(got) != 5 || cap(got) != 100 {
		t.Errorf("Get(5) = len %d cap %d; want the 100-entry array (the smallest that fits, small was dropped)", len(got), cap(got))
	}
	if got := b.Get(500); len(got) != 500 || &got[0] != &bigger[0] {
		t.Errorf("Get(500) did not return the 1000-entry array")
	}
	if b.Get(1) != nil {
		t.Error("Get after every array was taken returned one")
	}
	b.Keep = 0
	b.Put(small)
	if b.Get(1) != nil {
		t.Error("Keep 0 kept an array")
	}
}

// TestBatchReusesLabelArrays labels several volumes of one size through a
// batch whose label arrays are passed on: the stale contents of a reused
// array must not leak into the next file's labels.
func TestBatchReusesLabelArrays(t *testing.T) {
	dir := t.TempDir()
	var inputs []batch.Input
	var want [][]uint32
	l := newLabeler(t)
	s := labelfile.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Binary}, DType: "uint32"}
	for i, density := range []float64{0.2, 0.6, 0.05, 0.4, 0.3} {
		r, err := gen.RandomRaster(30, 20, 10, density, uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		in := batch.Input{Path: filepath.Join(dir, "in", fmt.Sprintf("v%d.npy", i)), Rel: fmt.Sprintf("v%d.npy", i)}
		os.MkdirAll(filepath.Dir(in.Path), 0o755)
		if err := formats.WriteRasterFile(in.Path, r); err != nil {
			t.Fatal(err)
		}
		vl, err := labelfile.LabelVolume(l, imagegraph.NewVolume(r, "npy"), s, 26)
		if err != nil {
			t.Fatal(err)
		}
		inputs, want = append(inputs, in), append(want, vl.Frames[0])
	}
	out := filepath.Join(dir, "out")
	b := &labelfile.Batch{Settings: s, ImageConn: 8, VolumeConn: 26, Labeler: l, Dir: out, Inputs: inputs,
		Buffers: &labelfile.LabelBuffers{Keep: 1}}
	runBatch(t, b)
	for i, in := range inputs {
		if b.Rows[i].Status != batch.OK {
			t.Fatalf("%s: %+v", in.Rel, b.Rows[i])
		}
		got, err := npy.ReadFile(filepath.Join(out, in.Rel))
		if err != nil || !slices.Equal(got.Data.([]uint32), want[i]) {
			t.Errorf("%s: labels differ from labeling it alone (%v)", in.Rel, err)
		}
	}
}
