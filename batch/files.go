package labelfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/batch"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
)

// Batch labels the files of "cclabel batch": it names every input's
// outputs under Dir, checks them before the run, and supplies the
// pipeline's stages (batch.Run), which skip inputs whose outputs are up
// to date, and read, label and write the others as "cclabel label" and
// "cclabel volume" do.
type Batch struct {
	// Settings are the labeling settings of every input.
	Settings Settings
	// ImageConn (4 or 8) and VolumeConn (6, 18 or 26) are the
	// connectivities of images and of volumes (BatchConnectivity).
	ImageConn, VolumeConn int
	// Labeler labels every input; the labeling goroutines share it.
	Labeler *cclabel.Labeler
	// Dir is the output folder.
	Dir string
	// LabelsExt (.npy or .png) adds the label arrays of images,
	// PreviewExt (.png) the previews of volumes, StatsExt (.csv or .json)
	// the statistics of both; "" adds none.
	LabelsExt, PreviewExt, StatsExt string
	// Summary is the run's summary file, checked with the outputs
	// (CheckOutputs); "" when there is none.
	Summary string
	// Overwrite redoes inputs whose outputs are up to date.
	Overwrite bool
	// Buffers, when not nil, passes the label arrays of written inputs
	// on to the next inputs (see LabelBuffers).
	Buffers *LabelBuffers
	// Inputs are the run's inputs and Rows their summary rows: the stages
	// fill in Output, Components and Voxels, the caller the outcome
	// (batch.Row.Record).
	Inputs []batch.Input
	Rows   []batch.Row

	claimsMu sync.Mutex
	claims   map[int]func() // input -> the release of its claim
	notes    map[int]string // input -> why another run labels it
}

// BatchConnectivity turns the -c of "cclabel batch" into the
// connectivity of images and of volumes: 0 (not given) is 8 and 26; 3D
// values give images their in-plane part, as "cclabel volume" does for a
// 2D file; 4 and 8 give volumes the face (6) and full (26)
// neighbourhoods.
func BatchConnectivity(c int) (image, volume int, err error) {
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

// NewBatchLabeler returns the labeler of a batch run on workers decoding
// and encoding goroutines, and the number of labeling goroutines that
// share it. When the GPU may be used (BackendGPU, or BackendAuto with a
// usable GPU) or the backend is serial, that is one, with the configured
// threads, so inputs queue for the GPU context. Otherwise every worker
// labels and the threads are split between them: on the CPU, labeling
// several files at once on fewer threads each beats labeling one at a
// time on all of them.
func NewBatchLabeler(opts cclabel.Options, workers int) (l *cclabel.Labeler, labelers int, err error) {
	l, err = cclabel.New(opts)
	if err != nil || l.MayUseGPU() || opts.Backend == cclabel.BackendSerial {
		return l, 1, err
	}
	opts.Threads = max(1, l.Threads()/workers)
	l, err = cclabel.New(opts)
	return l, workers, err
}

// Outputs names the outputs of an input of the given kind under Dir, at
// its path below its argument (in.Rel) less its Stem: an image writes
// what "cclabel label -o FOLDER" does (stem.png, stem.labels.EXT,
// stem.stats.EXT), a volume what "cclabel volume -o FOLDER" does
// (stem.nii.gz, .nrrd or .npy by the input's family, stem.preview.EXT,
// stem.stats.EXT).
func (b *Batch) Outputs(in batch.Input, kind formats.Kind) (ImageOutputs, VolumeOutputs) {
	base := filepath.Join(b.Dir, filepath.Dir(in.Rel), Stem(in.Rel))
	stats := ""
	if b.StatsExt != "" {
		stats = base + ".stats" + b.StatsExt
	}
	if kind == formats.KindImage {
		job := ImageOutputs{Input: in.Path, Output: base + ".png", Stats: stats}
		if b.LabelsExt != "" {
			job.Labels = base + ".labels" + b.LabelsExt
		}
		return job, VolumeOutputs{}
	}
	job := VolumeOutputs{Input: in.Path, Output: base + formats.FamilyExt(in.Path), Stats: stats}
	if b.PreviewExt != "" {
		job.Preview = base + ".preview" + b.PreviewExt
	}
	return ImageOutputs{}, job
}

// CheckOutputs fails when two inputs would write the same outputs (a.nii
// and a.nii.gz, a.png and a.tif in one folder), or when an output would
// replace an input, such as with Dir a folder of inputs given by a glob
// or a list: every output an input may write (either kind's, as TIFF and
// .npy are told apart only by reading them) is compared with every
// input's path. Give it all the inputs, before any shard is selected, so
// that every shard fails alike.
func (b *Batch) CheckOutputs(inputs []batch.Input) error {
	seen := map[string]string{}
	for _, in := range inputs {
		key := filepath.Join(filepath.Dir(in.Rel), Stem(in.Rel))
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
		image, _ := b.Outputs(in, formats.KindImage)
		_, volume := b.Outputs(in, formats.KindVolume)
		for _, out := range []string{image.Output, image.Labels, image.Stats, volume.Output, volume.Preview} {
			outs = append(outs, atomicfile.Named{Role: "the output", Path: out})
		}
	}
	outs = append(outs, atomicfile.Named{Role: "--summary", Path: b.Summary})
	if err := atomicfile.CheckDistinct(ins, outs); err != nil {
		return fmt.Errorf("batch: %w: give -o a folder outside the inputs", err)
	}
	return nil
}

// Task is one input of a Batch on its way through the pipeline.
type Task struct {
	index  int // in Inputs and Rows
	kind   formats.Kind
	image  ImageOutputs
	volume VolumeOutputs

	img    *formats.Image // an image input
	labels *imagegraph.Labels

	vol *imagegraph.Volume // a volume input
	vl  *VolumeLabels

	// release unmaps the input's samples when they were mapped from the
	// file (formats.MapImageFile); called once the task is written or
	// has failed.
	release func()
}

// Paths returns the task's output paths, the main one first.
func (t *Task) Paths() []string {
	all := []string{t.volume.Output, t.volume.Preview, t.volume.Stats}
	if t.kind == formats.KindImage {
		all = []string{t.image.Output, t.image.Labels, t.image.Stats}
	}
	out := all[:0]
	for _, p := range all {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Stages returns the pipeline stages of the batch's inputs.
func (b *Batch) Stages() batch.Stages[*Task] {
	return batch.Stages[*Task]{
		Decode: b.decode,
		Label:  b.label,
		Encode: b.encode,
		Cost:   func(i int) int64 { return formats.EstimateBytes(b.Inputs[i].Path) },
	}
}

// decode claims the input's outputs, names them, skips the input when
// they are up to date (without Overwrite) or another run holds them, and
// reads it.
func (b *Batch) decode(i int) (*Task, bool, error) {
	in := b.Inputs[i]
	if _, err := os.Stat(in.Path); err != nil { // a list line naming no file
		return nil, false, fmt.Errorf("batch: %w", err)
	}
	// Claimed by stem, before the kind is known: telling it may read.
	if skip, err := b.claim(i, filepath.Join(b.Dir, filepath.Dir(in.Rel), Stem(in.Rel))); skip || err != nil {
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
// (without Overwrite), and reads it.
func (b *Batch) read(i int) (*Task, bool, error) {
	in := b.Inputs[i]
	kind, err := formats.KindOf(in.Path)
	if err != nil {
		return nil, false, err
	}
	t := &Task{index: i, kind: kind}
	t.image, t.volume = b.Outputs(in, kind)
	b.Rows[i].Output = t.Paths()[0]
	if !b.Overwrite && batch.UpToDate(in.Path, t.Paths()) {
		return nil, true, nil
	}
	if kind == formats.KindImage {
		t.img, t.release, err = formats.MapImageFile(in.Path, nil)
	} else {
		t.vol, t.release, err = formats.MapVolumeFileStreaming(in.Path, nil, nil)
	}
	return t, false, err
}

// claim claims input i's outputs, named after base (their path less the
// extensions), for this run (atomicfile.Claim), so that concurrent runs
// on one folder label each input once; skip reports that another run
// holds them, noted for the input's row (SkipNote).
func (b *Batch) claim(i int, base string) (skip bool, err error) {
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
func (b *Batch) release(i int) {
	b.claimsMu.Lock()
	release := b.claims[i]
	delete(b.claims, i)
	b.claimsMu.Unlock()
	if release != nil {
		release()
	}
}

// SkipNote returns why input i was skipped when another run labels it
// ("" otherwise), for its summary row.
func (b *Batch) SkipNote(i int) string {
	b.claimsMu.Lock()
	defer b.claimsMu.Unlock()
	return b.notes[i]
}

// label labels a decoded input on a labeling goroutine; a task that
// fails here is not encoded, so its samples are released.
func (b *Batch) label(t *Task) (err error) {
	returned := false
	defer func() {
		if err != nil || !returned { // a failure, or a panic (the pipeline recovers it)
			t.release()
			b.release(t.index)
		}
	}()
	err = b.labelTask(t)
	returned = true
	return err
}

// labelTask is label's labeling.
func (b *Batch) labelTask(t *Task) error {
	row := &b.Rows[t.index]
	if t.kind == formats.KindImage {
		res, err := labelImage(b.Labeler, t.img, b.Settings, b.ImageConn, b.Buffers)
		if err != nil {
			return fmt.Errorf("%s: %w", t.image.Input, err)
		}
		t.labels = res.Labels
		row.Components, row.Voxels = int64(res.Labels.Count), int64(t.img.Raster.Len())
		return nil
	}
	vl, err := labelVolume(b.Labeler, t.vol, b.Settings, b.VolumeConn, b.Buffers, NarrowWrites(t.volume, b.Settings.DType))
	if err != nil {
		return fmt.Errorf("%s: %w", t.volume.Input, err)
	}
	t.vl = vl
	row.Components, row.Voxels = int64(vl.Total), int64(t.vol.Frames[0].Len())*int64(len(t.vol.Frames))
	return nil
}

// encode writes a labeled input's outputs, each through a temporary file,
// then hands its label arrays to Buffers.
func (b *Batch) encode(t *Task) error {
	defer b.release(t.index)
	defer t.release()
	defer b.recycle(t)
	g, err := atomicfile.NewGroup(t.Paths()...)
	if err != nil {
		return err
	}
	defer g.Abort()
	if t.kind == formats.KindImage {
		err = WriteImage(t.image, t.img, t.labels, b.Settings, io.Discard)
	} else {
		err = WriteVolume(t.volume, t.vol, t.vl, b.Settings.DType)
	}
	if err != nil {
		return err
	}
	return g.Commit()
}

// recycle passes a written task's label arrays to Buffers and drops the
// task's references to them.
func (b *Batch) recycle(t *Task) {
	if t.labels != nil {
		b.Buffers.Put(t.labels.Data)
		t.labels = nil
	}
	if t.vl != nil {
		for _, f := range t.vl.Frames {
			b.Buffers.Put(f)
		}
		b.Buffers.Put16(t.vl.Narrow)
		t.vl = nil
	}
}
