package batch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/job"
	"github.com/cclabel/cclabel/job/raster"
)

func newLabeler(t *testing.T) *cclabel.Labeler {
	t.Helper()
	l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func TestBatchConnectivity(t *testing.T) {
	for c, want := range map[int][2]int{0: {8, 26}, 4: {4, 6}, 8: {8, 26}, 6: {4, 6}, 18: {8, 18}, 26: {8, 26}} {
		img, vol, err := connectivities(c)
		if err != nil || img != want[0] || vol != want[1] {
			t.Errorf("-c %d: %d, %d, %v; want %v", c, img, vol, err, want)
		}
	}
	if _, _, err := connectivities(5); err == nil || err.Error() != "batch: --connectivity 5: want 4, 8, 6, 18 or 26" {
		t.Errorf("-c 5: %v", err)
	}
}

func TestBatchOutputsAndChecks(t *testing.T) {
	b := &files{dir: "out", labelsExt: ".npy", previewExt: ".png", statsExt: ".csv"}
	img, vol := b.outputs(Input{Path: "data/img/a.tif", Rel: "img/a.tif"}, formats.KindImage)
	if want := (raster.ImageOutputs{Input: "data/img/a.tif", Output: "out/img/a.png", Labels: "out/img/a.labels.npy", Stats: "out/img/a.stats.csv"}); img != want || vol != (raster.VolumeOutputs{}) {
		t.Errorf("image outputs %+v, %+v; want %+v", img, vol, want)
	}
	for rel, want := range map[string][2]string{ // main output, stem
		"s1/t1.nii.gz": {"out/s1/t1.nii.gz", "out/s1/t1"}, "s1/t1.hdr": {"out/s1/t1.nii.gz", "out/s1/t1"},
		"t.nhdr": {"out/t.nrrd", "out/t"}, "stack.npy": {"out/stack.npy", "out/stack"}, "p.tif": {"out/p.npy", "out/p"},
	} {
		_, vol := b.outputs(Input{Path: "data/" + rel, Rel: rel}, formats.KindVolume)
		want := raster.VolumeOutputs{Input: "data/" + rel, Output: want[0], Preview: want[1] + ".preview.png", Stats: want[1] + ".stats.csv"}
		if vol != want {
			t.Errorf("%s: %+v, want %+v", rel, vol, want)
		}
	}

	clash := []Input{{Path: "d/a.nii", Rel: "a.nii"}, {Path: "d/a.nii.gz", Rel: "a.nii.gz"}}
	if err := b.checkOutputs(clash); err == nil || !strings.HasPrefix(err.Error(), "batch: d/a.nii and d/a.nii.gz would write the same outputs (a.*)") {
		t.Errorf("same stem: %v", err)
	}
	over := &files{dir: "d"}
	if err := over.checkOutputs([]Input{{Path: "d/a.nii.gz", Rel: "a.nii.gz"}}); err == nil ||
		!strings.HasPrefix(err.Error(), "batch: the output d/a.nii.gz would replace the input d/a.nii.gz") {
		t.Errorf("output over its input: %v", err)
	}
	// Nor may an output replace another input.
	if err := over.checkOutputs([]Input{{Path: "src/a.tif", Rel: "a.tif"}, {Path: "d/a.png", Rel: "sub/a.png"}}); err == nil ||
		!strings.HasPrefix(err.Error(), "batch: the output d/a.png would replace the input d/a.png") {
		t.Errorf("output over another input: %v", err)
	}
	if err := b.checkOutputs(clash[1:]); err != nil {
		t.Errorf("outputs elsewhere: %v", err)
	}
}

// runBatch runs every input of b through the pipeline, recording the
// outcomes in b.rows.
func runBatch(t *testing.T, b *files) {
	t.Helper()
	b.rows = PendingRows(b.inputs)
	err := Run(context.Background(), Pipeline{Workers: 2}, len(b.inputs), b.stages(),
		func(o Outcome) { b.rows[o.Index].Record(o) })
	if err != nil {
		t.Fatal(err)
	}
}

func TestBatchStagesLabelSkipAndOverwrite(t *testing.T) {
	dir := t.TempDir()
	in := func(rel string) Input { return Input{Path: filepath.Join(dir, "in", rel), Rel: rel} }
	image, volume, missing := in("img/a.png"), in("s0/v.npy"), in("gone.nii.gz")
	os.MkdirAll(filepath.Dir(image.Path), 0o755)
	os.MkdirAll(filepath.Dir(volume.Path), 0o755)
	r2, err := gen.RandomRaster(40, 30, 1, 0.5, 3)
	if err != nil {
		t.Fatal(err)
	}
	r3, err := gen.RandomRaster(12, 10, 8, 0.3, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := formats.WriteRasterFile(image.Path, r2); err != nil {
		t.Fatal(err)
	}
	if err := formats.WriteRasterFile(volume.Path, r3); err != nil {
		t.Fatal(err)
	}
	// The inputs are dated a minute back: file times come from a coarse
	// clock (a few ms), so outputs written at once could share their
	// inputs' time and not count as newer.
	past := time.Now().Add(-time.Minute)
	for _, p := range []string{image.Path, volume.Path} {
		if err := os.Chtimes(p, past, past); err != nil {
			t.Fatal(err)
		}
	}
	l := newLabeler(t)
	s := job.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Binary}, DType: "auto"}
	out := filepath.Join(dir, "out")
	b := &files{settings: s, imageConn: 4, volumeConn: 6, labeler: l, dir: out, labelsExt: ".npy", statsExt: ".csv",
		inputs: []Input{image, volume, missing}}
	runBatch(t, b)

	// The outputs are those of labeling each file on its own.
	img, err := formats.ReadImageFile(image.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	want2, err := raster.LabelImage(l, img, s, 4)
	if err != nil {
		t.Fatal(err)
	}
	vol, err := formats.ReadVolumeFile(volume.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	want3, err := raster.LabelVolume(l, vol, s, 6)
	if err != nil {
		t.Fatal(err)
	}
	rows := b.rows
	if r := rows[0]; r.Status != OK || r.Output != filepath.Join(out, "img", "a.png") || r.Components != int64(want2.Labels.Count) || r.Voxels != 1200 {
		t.Errorf("image row %+v, want ok with %d components", r, want2.Labels.Count)
	}
	if r := rows[1]; r.Status != OK || r.Output != filepath.Join(out, "s0", "v.npy") || r.Components != int64(want3.Total) || r.Voxels != 960 {
		t.Errorf("volume row %+v, want ok with %d components", r, want3.Total)
	}
	if r := rows[2]; r.Status != Failed || !strings.Contains(r.Error, "no such file") || r.Output != "" {
		t.Errorf("missing input's row %+v, want failed", r)
	}
	labels, err := npy.ReadFile(filepath.Join(out, "img", "a.labels.npy"))
	if err != nil || !slices.Equal(labels.Data.(imagegraph.Samples[uint16]), toUint16(want2.Labels.Data)) {
		t.Errorf("image label array: %v", err)
	}
	back, err := npy.ReadFile(filepath.Join(out, "s0", "v.npy"))
	if err != nil || !slices.Equal(back.Data.(imagegraph.Samples[uint16]), toUint16(want3.Frames[0])) {
		t.Errorf("label volume: %v", err)
	}
	for _, p := range []string{filepath.Join(out, "img", "a.png"), filepath.Join(out, "img", "a.stats.csv"), filepath.Join(out, "s0", "v.stats.csv")} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}

	// A rerun skips the inputs whose outputs are newer; a preview asked
	// for only now is missing, so the volume is redone.
	b.inputs = b.inputs[:2]
	runBatch(t, b)
	if b.rows[0].Status != Skipped || b.rows[1].Status != Skipped || b.rows[0].Output == "" {
		t.Errorf("rerun: %+v", b.rows)
	}
	b.previewExt = ".png"
	runBatch(t, b)
	if b.rows[0].Status != Skipped || b.rows[1].Status != OK {
		t.Errorf("rerun with --preview: %+v", b.rows)
	}
	b.overwrite = true
	runBatch(t, b)
	if b.rows[0].Status != OK || b.rows[1].Status != OK {
		t.Errorf("overwrite: %+v", b.rows)
	}
}

func toUint16(labels []uint32) []uint16 {
	out := make([]uint16, len(labels))
	for i, v := range labels {
		out[i] = uint16(v)
	}
	return out
}

func TestBatchReusesLabelArrays(t *testing.T) {
	dir := t.TempDir()
	var inputs []Input
	var want [][]uint32
	l := newLabeler(t)
	s := job.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Binary}, DType: "uint32"}
	for i, density := range []float64{0.2, 0.6, 0.05, 0.4, 0.3} {
		r, err := gen.RandomRaster(30, 20, 10, density, uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		in := Input{Path: filepath.Join(dir, "in", fmt.Sprintf("v%d.npy", i)), Rel: fmt.Sprintf("v%d.npy", i)}
		os.MkdirAll(filepath.Dir(in.Path), 0o755)
		if err := formats.WriteRasterFile(in.Path, r); err != nil {
			t.Fatal(err)
		}
		vl, err := raster.LabelVolume(l, imagegraph.NewVolume(r, "npy"), s, 26)
		if err != nil {
			t.Fatal(err)
		}
		inputs, want = append(inputs, in), append(want, vl.Frames[0])
	}
	out := filepath.Join(dir, "out")
	b := &files{settings: s, imageConn: 8, volumeConn: 26, labeler: l, dir: out, inputs: inputs,
		buffers: &raster.LabelBuffers{Keep: 1}}
	runBatch(t, b)
	for i, in := range inputs {
		if b.rows[i].Status != OK {
			t.Fatalf("%s: %+v", in.Rel, b.rows[i])
		}
		got, err := npy.ReadFile(filepath.Join(out, in.Rel))
		if err != nil || !slices.Equal(got.Data.(imagegraph.Samples[uint32]), want[i]) {
			t.Errorf("%s: labels differ from labeling it alone (%v)", in.Rel, err)
		}
	}
}
