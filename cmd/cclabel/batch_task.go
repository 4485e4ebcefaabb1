package main

import (
	"encoding/binary"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel/batch"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/formats/tiff"
	"github.com/cclabel/cclabel/imagegraph"
)

// inputKind says which command's path an input of "cclabel batch" takes.
type inputKind int

const (
	imageInput  inputKind = iota // "cclabel label"
	volumeInput                  // "cclabel volume"
)

// Input extensions a folder walk takes; .img halves of NIfTI pairs are
// reached through their .hdr.
var (
	imageExts  = []string{".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp"}
	volumeExts = []string{".nii", ".nii.gz", ".hdr", ".hdr.gz", ".nrrd", ".nhdr"}
	probedExts = []string{".tif", ".tiff", ".npy"} // 2D or 3D: the header says
)

// isBatchInput reports whether a file name has an extension batch takes.
func isBatchInput(name string) bool {
	lower := strings.ToLower(name)
	return hasSuffix(lower, imageExts) || hasSuffix(lower, volumeExts) || hasSuffix(lower, probedExts)
}

// hasSuffix reports whether s ends in one of the suffixes.
func hasSuffix(s string, suffixes []string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// inputKindOf decides whether a file is an image or a volume: by its
// extension, and for TIFF and .npy by its header (several pages or three
// axes make a volume). Other files are taken as volumes, whose reader
// then names the formats it knows.
func inputKindOf(path string) (inputKind, error) {
	lower := strings.ToLower(path)
	switch {
	case hasSuffix(lower, imageExts):
		return imageInput, nil
	case strings.HasSuffix(lower, ".npy"):
		dims, err := npy.FileDims(path)
		if err != nil {
			return 0, err
		}
		if dims == 2 {
			return imageInput, nil
		}
	case hasSuffix(lower, []string{".tif", ".tiff"}):
		f, err := os.Open(path)
		if err != nil {
			return 0, fmt.Errorf("formats: %w", err)
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return 0, fmt.Errorf("formats: %w", err)
		}
		pages, err := tiff.PageCount(f, st.Size())
		if err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
		if pages == 1 {
			return imageInput, nil
		}
	}
	return volumeInput, nil
}

// batchOutputs are the output paths of one input, named after it under
// the output folder: an image writes what "cclabel label -o FOLDER" does
// (stem.png, stem.labels.EXT, stem.stats.EXT), a volume what "cclabel
// volume -o FOLDER" does (stem.nii.gz, .nrrd or .npy by the input's
// family, stem.preview.png, stem.stats.EXT).
func (b *batchRun) outputs(in batch.Input, kind inputKind) (labelJob, volumeJob) {
	base := filepath.Join(b.outDir, filepath.Dir(in.Rel), volumeStem(in.Rel))
	stats := ""
	if b.statsExt != "" {
		stats = base + ".stats" + b.statsExt
	}
	if kind == imageInput {
		job := labelJob{input: in.Path, output: base + ".png", stats: stats}
		if b.labelsExt != "" {
			job.labels = base + ".labels" + b.labelsExt
		}
		return job, volumeJob{}
	}
	job := volumeJob{input: in.Path, output: base + volumeFamilyExt(in.Path), stats: stats}
	if b.previewExt != "" {
		job.preview = base + ".preview" + b.previewExt
	}
	return labelJob{}, job
}

// volumeFamilyExt is the label volume extension that keeps an input's
// family, as formats.LabelVolumeExt gives it after reading.
func volumeFamilyExt(path string) string {
	lower := strings.ToLower(path)
	switch {
	case hasSuffix(lower, []string{".nii", ".nii.gz", ".hdr", ".hdr.gz", ".img", ".img.gz"}):
		return ".nii.gz"
	case hasSuffix(lower, []string{".nrrd", ".nhdr"}):
		return ".nrrd"
	}
	return ".npy"
}

// batchTask is one input on its way through the pipeline.
type batchTask struct {
	index int // in the shard's inputs and summary rows
	kind  inputKind
	ljob  labelJob
	vjob  volumeJob

	raster *imagegraph.Raster // an image input
	src    *imageSource
	labels *imagegraph.Labels

	vol *imagegraph.Volume // a volume input
	vl  *volumeLabels
}

// paths returns the task's output paths, the main one first.
func (t *batchTask) paths() []string {
	var all []string
	if t.kind == imageInput {
		all = []string{t.ljob.output, t.ljob.labels, t.ljob.stats}
	} else {
		all = []string{t.vjob.output, t.vjob.preview, t.vjob.stats}
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
	kind, err := inputKindOf(in.Path)
	if err != nil {
		return nil, false, err
	}
	t := &batchTask{index: i, kind: kind}
	t.ljob, t.vjob = b.outputs(in, kind)
	b.rows[i].Output = t.paths()[0]
	if !b.overwrite && upToDate(in.Path, t.paths()) {
		return nil, true, nil
	}
	if kind == imageInput {
		t.raster, t.src, err = readImageInput(in.Path, nil)
		return t, false, err
	}
	t.vol, err = formats.ReadVolumeFile(in.Path, nil)
	return t, false, err
}

// label labels a decoded input on a labeling goroutine.
func (b *batchRun) label(t *batchTask) error {
	labeler := b.labeler
	if t.kind == imageInput {
		labels, _, _, err := labelImage(t.raster, b.settings, b.imageConn, labeler)
		if err != nil {
			return fmt.Errorf("%s: %w", t.ljob.input, err)
		}
		t.labels = labels
		b.rows[t.index].Components, b.rows[t.index].Voxels = int64(labels.Count), int64(t.raster.Len())
		return nil
	}
	vl, err := labelVolumeFrames(t.vol, b.settings, b.volumeConn, labeler)
	if err != nil {
		return fmt.Errorf("%s: %w", t.vjob.input, err)
	}
	t.vl = vl
	b.rows[t.index].Components = int64(vl.total)
	b.rows[t.index].Voxels = int64(t.vol.Frames[0].Len()) * int64(len(t.vol.Frames))
	return nil
}

// encode writes a labeled input's outputs, each through a temporary file.
func (b *batchRun) encode(t *batchTask) error {
	if err := os.MkdirAll(filepath.Dir(t.paths()[0]), 0o755); err != nil {
		return fmt.Errorf("batch: %w", err)
	}
	if t.kind == imageInput {
		return writeImageOutputs(t.ljob, t.raster, t.src, t.labels, b.settings, io.Discard)
	}
	return writeVolumeOutputs(t.vjob, t.vol, t.vl, b.settings.dtype)
}

// estimateInputBytes guesses the memory an input holds in flight: its
// samples plus 4-byte labels, taking one byte per sample. The sample
// bytes are the file's size, the uncompressed size from the gzip trailer
// for .gz files, or width x height x 4 from an image's header.
func estimateInputBytes(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0
	}
	size := st.Size()
	lower := strings.ToLower(path)
	switch {
	case strings.HasSuffix(lower, ".gz") && size >= 18:
		var isize [4]byte
		if _, err := f.ReadAt(isize[:], size-4); err == nil {
			size = max(size, int64(binary.LittleEndian.Uint32(isize[:]))) // ISIZE: length mod 2^32
		}
	case hasSuffix(lower, imageExts):
		if c, _, err := image.DecodeConfig(f); err == nil {
			size = int64(c.Width) * int64(c.Height) * 4
		}
	}
	return 5 * size
}
