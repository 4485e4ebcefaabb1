package batch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/job"
	"github.com/cclabel/cclabel/job/raster"
)

// files labels the files of a [Job]: it names every input's outputs under
// dir, checks them before the run, and supplies the pipeline's stages
// (Run), which skip inputs whose outputs are up to date, and read, label
// and write the others as "cclabel label" and "cclabel volume" do.
type files struct {
	// settings are the labeling settings of every input.
	settings job.Settings
	// imageConn (4 or 8) and volumeConn (6, 18 or 26) are the
	// connectivities of images and of volumes (connectivities).
	imageConn, volumeConn int
	// labeler labels every input; the labeling goroutines share it.
	labeler *cclabel.Labeler
	// dir is the output folder.
	dir string
	// labelsExt (.npy or .png) adds the label arrays of images,
	// previewExt (.png) the previews of volumes, statsExt (.csv or .json)
	// the statistics of both; "" adds none.
	labelsExt, previewExt, statsExt string
	// summary is the run's summary file, checked with the outputs
	// (checkOutputs); "" when there is none.
	summary string
	// overwrite redoes inputs whose outputs are up to date.
	overwrite bool
	// buffers, when not nil, passes the label arrays of written inputs on
	// to the next inputs (see raster.LabelBuffers).
	buffers *raster.LabelBuffers
	// inputs are the run's inputs and rows their summary rows: the stages
	// fill in Output, Components and Voxels, the caller the outcome
	// (Row.Record).
	inputs []Input
	rows   []Row

	claimsMu sync.Mutex
	claims   map[int]func() // input -> the release of its claim
	notes    map[int]string // input -> why another run labels it
}

// connectivities turns the -c of "cclabel batch" into the connectivity of
// images and of volumes: 0 (not given) is 8 and 26; 3D values give images
// their in-plane part, as "cclabel volume" does for a 2D file; 4 and 8
// give volumes the face (6) and full (26) neighbourhoods.
func connectivities(c int) (image, volume int, err error) {
	switch c {
	case 0, 8:
		return 8, 26, nil
	case 4, 6:
		return 4, 6, nil
	case 18, 26:
		return 8, c, nil
	}
	return 0, 0, fmt.Errorf("batch: --connectivity %d: want 4, 8, 6, 18 or 26", c)
}

// outputs names the outputs of an input of the given kind under dir, at
// its path below its argument (in.Rel) less its raster.Stem: an image writes
// what "cclabel label -o FOLDER" does (stem.png, stem.labels.EXT,
// stem.stats.EXT), a volume what "cclabel volume -o FOLDER" does
// (stem.nii.gz, .nrrd or .npy by the input's family, stem.preview.EXT,
// stem.stats.EXT).
func (b *files) outputs(in Input, kind formats.Kind) (raster.ImageOutputs, raster.VolumeOutputs) {
	base := filepath.Join(b.dir, filepath.Dir(in.Rel), raster.Stem(in.Rel))
	stats := ""
	if b.statsExt != "" {
		stats = base + ".stats" + b.statsExt
	}
	if kind == formats.KindImage {
		img := raster.ImageOutputs{Input: in.Path, Output: base + ".png", Stats: stats}
		if b.labelsExt != "" {
			img.Labels = base + ".labels" + b.labelsExt
		}
		return img, raster.VolumeOutputs{}
	}
	vol := raster.VolumeOutputs{Input: in.Path, Output: base + formats.FamilyExt(in.Path), Stats: stats}
	if b.previewExt != "" {
		vol.Preview = base + ".preview" + b.previewExt
	}
	return raster.ImageOutputs{}, vol
}

// checkOutputs fails when two inputs would write the same outputs (a.nii
// and a.nii.gz, a.png and a.tif in one folder), or when an output would
// replace an input, such as with dir a folder of inputs given by a glob
// or a list: every output an input may write (either kind's, as TIFF and
// .npy are told apart only by reading them) is compared with every
// input's path. Give it all the inputs, before any shard is selected, so
// that every shard fails alike.
func (b *files) checkOutputs(inputs []Input) error {
	seen := map[string]string{}
	for _, in := range inputs {
		key := filepath.Join(filepath.Dir(in.Rel), raster.Stem(in.Rel))
		if prev, dup := seen[key]; dup {
			return fmt.Errorf("batch: %s and %s would write the same outputs (%s.*): rename one, or give their folders as separate runs", prev, in.Path, key)
		}
		seen[key] = in.Path
	}
	var ins, outs []atomicfile.Named
	for _, in := range inputs {
		ins = append(ins, atomicfile.Named{Role: "input", Path: in.Path})
	}
	for _, in := range inputs {
		image, _ := b.outputs(in, formats.KindImage)
		_, volume := b.outputs(in, formats.KindVolume)
		for _, out := range []string{image.Output, image.Labels, image.Stats, volume.Output, volume.Preview} {
			outs = append(outs, atomicfile.Named{Role: "the output", Path: out})
		}
	}
	outs = append(outs, atomicfile.Named{Role: "--summary", Path: b.summary})
	if err := atomicfile.CheckDistinct(ins, outs); err != nil {
		return fmt.Errorf("batch: %w: give -o a folder outside the inputs", err)
	}
	return nil
}

// task is one input on its way through the pipeline.
type task struct {
	index int // in inputs and rows
	*job.File
}

// stages returns the pipeline stages of the inputs.
func (b *files) stages() Stages[*task] {
	return Stages[*task]{
		Decode: b.decode,
		Label:  b.label,
		Encode: b.encode,
		Cost:   func(i int) int64 { return formats.EstimateBytes(b.inputs[i].Path) },
	}
}

// decode claims the input's outputs, names them, skips the input when
// they are up to date (without overwrite) or another run holds them, and
// reads it.
func (b *files) decode(i int) (*task, bool, error) {
	in := b.inputs[i]
	if _, err := os.Stat(in.Path); err != nil { // a list line naming no file
		return nil, false, fmt.Errorf("batch: %w", err)
	}
	// Claimed by stem, before the kind is known: telling it may read.
	if skip, err := b.claim(i, filepath.Join(b.dir, filepath.Dir(in.Rel), raster.Stem(in.Rel))); skip || err != nil {
		return nil, skip, err
	}
	read := false
	defer func() {
		if !read { // a panic (the pipeline recovers it)
			b.release(i)
		}
	}()
	t, skip, err := b.read(i)
	read = !skip && err == nil
	return t, skip, err
}

// read names input i's outputs, skips it when they are up to date
// (without overwrite), and reads it.
func (b *files) read(i int) (*task, bool, error) {
	in := b.inputs[i]
	kind, err := formats.KindOf(in.Path)
	if err != nil {
		return nil, false, err
	}
	t := &task{index: i, File: &job.File{Kind: kind}}
	t.Image, t.Volume = b.outputs(in, kind)
	b.rows[i].Output = t.Paths()[0]
	if !b.overwrite && UpToDate(in.Path, t.Paths()) {
		return nil, true, nil
	}
	return t, false, t.Read()
}

// claim claims input i's outputs, named after base (their path less the
// extensions), for this run (atomicfile.Claim), so that concurrent runs
// on one folder label each input once; skip reports that another run
// holds them, noted for the input's row (skipNote).
func (b *files) claim(i int, base string) (skip bool, err error) {
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return false, fmt.Errorf("batch: %w", err)
	}
	release, err := atomicfile.Claim(base)
	var held *atomicfile.ClaimedError
	if errors.As(err, &held) {
		b.claimsMu.Lock()
		if b.notes == nil {
			b.notes = map[int]string{}
		}
		b.notes[i] = fmt.Sprintf("being labeled by another run (process %d on %s)", held.Owner.PID, held.Owner.Name)
		b.claimsMu.Unlock()
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("batch: %w", err)
	}
	b.claimsMu.Lock()
	if b.claims == nil {
		b.claims = map[int]func(){}
	}
	b.claims[i] = release
	b.claimsMu.Unlock()
	return false, nil
}

// release ends input i's claim on its outputs, once it is written or has
// failed.
func (b *files) release(i int) {
	b.claimsMu.Lock()
	release := b.claims[i]
	delete(b.claims, i)
	b.claimsMu.Unlock()
	if release != nil {
		release()
	}
}

// skipNote returns why input i was skipped when another run labels it
// ("" otherwise), for its summary row.
func (b *files) skipNote(i int) string {
	b.claimsMu.Lock()
	defer b.claimsMu.Unlock()
	return b.notes[i]
}

// label labels a decoded input on a labeling goroutine; a task that
// fails here is not encoded, so its samples are released.
func (b *files) label(t *task) (err error) {
	returned := false
	defer func() {
		if err != nil || !returned { // a failure, or a panic (the pipeline recovers it)
			t.Release()
			b.release(t.index)
		}
	}()
	row := &b.rows[t.index]
	row.Components, row.Voxels, err = t.Label(b.labeler, b.settings, b.imageConn, b.volumeConn, b.buffers)
	returned = true
	return err
}

// encode writes a labeled input's outputs, each through a temporary file,
// then hands its label arrays to buffers.
func (b *files) encode(t *task) error {
	defer b.release(t.index)
	return t.Write(b.settings, b.buffers)
}
