package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cclabel/cclabel/batch"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/labelfile"
)

// batchOutputs are the output paths of one input, named after it under
// the output folder: an image writes what "cclabel label -o FOLDER" does
// (stem.png, stem.labels.EXT, stem.stats.EXT), a volume what "cclabel
// volume -o FOLDER" does (stem.nii.gz, .nrrd or .npy by the input's
// family, stem.preview.png, stem.stats.EXT).
func (b *batchRun) outputs(in batch.Input, kind formats.Kind) (labelfile.ImageOutputs, labelfile.VolumeOutputs) {
	base := filepath.Join(b.outDir, filepath.Dir(in.Rel), volumeStem(in.Rel))
	stats := ""
	if b.statsExt != "" {
		stats = base + ".stats" + b.statsExt
	}
	if kind == formats.KindImage {
		job := labelfile.ImageOutputs{Input: in.Path, Output: base + ".png", Stats: stats}
		if b.labelsExt != "" {
			job.Labels = base + ".labels" + b.labelsExt
		}
		return job, labelfile.VolumeOutputs{}
	}
	job := labelfile.VolumeOutputs{Input: in.Path, Output: base + formats.FamilyExt(in.Path), Stats: stats}
	if b.previewExt != "" {
		job.Preview = base + ".preview" + b.previewExt
	}
	return labelfile.ImageOutputs{}, job
}

// batchTask is one input on its way through the pipeline.
type batchTask struct {
	index int // in the shard's inputs and summary rows
	kind  formats.Kind
	ljob  labelfile.ImageOutputs
	vjob  labelfile.VolumeOutputs

	img    *formats.Image // an image input
	labels *imagegraph.Labels

	vol *imagegraph.Volume // a volume input
	vl  *labelfile.VolumeLabels
}

// paths returns the task's output paths, the main one first.
func (t *batchTask) paths() []string {
	var all []string
	if t.kind == formats.KindImage {
		all = []string{t.ljob.Output, t.ljob.Labels, t.ljob.Stats}
	} else {
		all = []string{t.vjob.Output, t.vjob.Preview, t.vjob.Stats}
	}
	out := all[:0]
	for _, p := range all {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// upToDate reports whether every output exists and is newer than the
// input.
func upToDate(input string, outputs []string) bool {
	in, err := os.Stat(input)
	if err != nil {
		return false
	}
	for _, p := range outputs {
		st, err := os.Stat(p)
		if err != nil || !st.ModTime().After(in.ModTime()) {
			return false
		}
	}
	return true
}

// decode names the input's outputs, skips it when they are up to date
// (without --overwrite), and reads it.
func (b *batchRun) decode(i int) (*batchTask, bool, error) {
	in := b.inputs[i]
	if _, err := os.Stat(in.Path); err != nil { // a list line naming no file
		return nil, false, fmt.Errorf("batch: %w", err)
	}
	kind, err := formats.KindOf(in.Path)
	if err != nil {
		return nil, false, err
	}
	t := &batchTask{index: i, kind: kind}
	t.ljob, t.vjob = b.outputs(in, kind)
	b.rows[i].Output = t.paths()[0]
	if !b.overwrite && upToDate(in.Path, t.paths()) {
		return nil, true, nil
	}
	if kind == formats.KindImage {
		t.img, err = formats.ReadImageFile(in.Path, nil)
		return t, false, err
	}
	t.vol, err = formats.ReadVolumeFile(in.Path, nil)
	return t, false, err
}

// label labels a decoded input on a labeling goroutine.
func (b *batchRun) label(t *batchTask) error {
	labeler := b.labeler
	if t.kind == formats.KindImage {
		res, err := labelfile.LabelImage(labeler, t.img, b.settings, b.imageConn)
		if err != nil {
			return fmt.Errorf("%s: %w", t.ljob.Input, err)
		}
		t.labels = res.Labels
		b.rows[t.index].Components, b.rows[t.index].Voxels = int64(res.Labels.Count), int64(t.img.Raster.Len())
		return nil
	}
	vl, err := labelfile.LabelVolume(labeler, t.vol, b.settings, b.volumeConn)
	if err != nil {
		return fmt.Errorf("%s: %w", t.vjob.Input, err)
	}
	t.vl = vl
	b.rows[t.index].Components = int64(vl.Total)
	b.rows[t.index].Voxels = int64(t.vol.Frames[0].Len()) * int64(len(t.vol.Frames))
	return nil
}

// encode writes a labeled input's outputs, each through a temporary file.
func (b *batchRun) encode(t *batchTask) error {
	if err := os.MkdirAll(filepath.Dir(t.paths()[0]), 0o755); err != nil {
		return fmt.Errorf("batch: %w", err)
	}
	if t.kind == formats.KindImage {
		return labelfile.WriteImage(t.ljob, t.img, t.labels, b.settings, io.Discard)
	}
	return labelfile.WriteVolume(t.vjob, t.vol, t.vl, b.settings.DType)
}
