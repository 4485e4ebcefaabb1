package job

import (
	"cmp"
	"context"
	"fmt"
	"os"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/job/raster"
)

// Volume labels 3D volumes and 4D NIfTI and writes their outputs. It labels
// 4D NIfTI frame by frame and is the job of "cclabel volume". A volume is
// labeled while it is read where that pays, out of core where MaxMemory asks,
// and a chunk of its planes at a time where Chunk asks.
type Volume struct {
	// Inputs are the volume files; Raw describes raw ones.
	Inputs []string
	Raw    *formats.RawOptions
	// Output and Labels are label volumes (.nii, .nii.gz, .nrrd or .npy, with
	// the input's geometry), Preview a PNG of the mid-slices and Stats
	// per-component statistics (.csv or .json), of a single input; "" writes
	// none. With several inputs Output is an existing folder, Labels is "",
	// and Preview and Stats are only extensions: each input's outputs are
	// named after it ([raster.VolumeOutputsIn]).
	Output, Labels, Preview, Stats string
	// Contacts (.csv or .json) lists the touching components of every
	// frame, named as Stats is.
	Contacts string
	// Intensity is the volume of a single input's intensity statistics
	// (Settings.Measures); "" measures the input itself, under a threshold
	// rule only.
	Intensity string
	// StatsOnly asks for the tables alone: no Output, Labels or Preview.
	StatsOnly bool
	// Settings say how the volumes are labeled and written.
	Settings Settings
	// Connectivity is 6, 18 or 26 (a 2D file uses its in-plane part).
	Connectivity int
	// MaxMemory, when positive, labels out of core, slab by slab, a
	// volume whose labeling in memory would hold more bytes; only Output
	// is written then (.nii, .nii.gz or .npy).
	MaxMemory int64
	// Chunk, when not nil, labels only that chunk of the planes of the
	// single input into the folder Output, for a [Merge].
	Chunk *Chunk
}

// Chunk is chunk Index, from 0, of Count chunks of a volume's planes.
type Chunk struct{ Index, Count int }

// String returns the chunk as "i/n".
func (c Chunk) String() string { return fmt.Sprintf("%d/%d", c.Index, c.Count) }

// Run labels every input with l and writes its outputs. It writes all of them
// or, when it fails or the process is interrupted, none. With several inputs
// a failing one is reported on p and the others go on, and the error is a
// [*FailedError]. Run returns the summaries of the inputs labeled.
func (j Volume) Run(ctx context.Context, l *cclabel.Labeler, p Progress) ([]VolumeSummary, error) {
	if len(j.Inputs) == 0 {
		return nil, usagef("volume: want at least one VOLUME")
	}
	if c := j.Connectivity; c != 6 && c != 18 && c != 26 {
		return nil, usagef("volume: --connectivity %d: want 6, 18 or 26 (use 'cclabel label' for 2D images)", c)
	}
	if j.Intensity != "" { // an intensity image asks for intensity statistics
		j.Settings.Measures.Intensity = true
	}
	j.Settings.Threads = l.Threads()
	var outs []raster.VolumeOutputs
	if j.Chunk != nil { // Output is a folder
		if len(j.Inputs) != 1 {
			return nil, usagef("volume: --chunk takes a single input")
		}
		outs = []raster.VolumeOutputs{{Input: j.Inputs[0], Output: j.Output, Labels: j.Labels, Preview: j.Preview, Stats: j.Stats, Contacts: j.Contacts}}
	} else {
		var err error
		if outs, err = j.plan(); err != nil {
			return nil, err
		}
	}
	if j.MaxMemory > 0 && len(outs) > 1 && outOfCoreNames(outs, j.Raw, j.MaxMemory) {
		if err := checkClobber("volume", inputFiles(j.Inputs...), volumeOutputFiles(outs)); err != nil {
			return nil, err
		}
	}
	files := func(out raster.VolumeOutputs) []string {
		if j.Chunk != nil { // a folder of chunk files, the last written marking it complete
			return nil
		}
		return []string{out.Output, out.Labels, out.Preview, out.Stats, out.Contacts}
	}
	summaries, err := runFiles(ctx, outs, p, files, func(out raster.VolumeOutputs, last bool, commit func() error) (VolumeSummary, error) {
		if j.Chunk != nil {
			return j.chunk(out, l, p)
		}
		if j.MaxMemory > 0 && !raster.FitsInMemory(out.Input, j.Raw, j.MaxMemory) {
			return j.outOfCore(out, l, p)
		}
		return j.one(out, l, p, last, commit)
	})
	if err == nil && j.Chunk == nil && j.Output+j.Labels+j.Preview+j.Stats+j.Contacts == "" {
		p.printf("cclabel: volume: nothing was written (give -o, --labels, --preview, --stats or --contacts)\n")
	}
	return summaries, err
}

// plan checks the outputs before any work is done.
func (j Volume) plan() ([]raster.VolumeOutputs, error) {
	inputs, out, labels, preview, stats, contacts := j.Inputs, j.Output, j.Labels, j.Preview, j.Stats, j.Contacts
	t := tableFlags{command: "volume", settings: j.Settings, inputs: inputs, stats: stats, contacts: contacts, intensity: j.Intensity,
		labelOutputs: labels != "" || preview != "" || out != "" && len(inputs) == 1, statsOnly: j.StatsOnly}
	ins, err := t.check()
	if err != nil {
		return nil, err
	}
	for _, o := range [][2]string{{"--preview", preview}, {"--stats", stats}, {"--contacts", contacts}} {
		if o[1] == "-" {
			return nil, usagef("volume: %s -: volume writes files only (stdout is for --json)", o[0])
		}
	}
	if len(inputs) == 1 {
		if err := cmp.Or(checkVolumeExt("-o", out), checkVolumeExt("--labels", labels), checkExt("--preview", preview, ".png"),
			checkExt("--stats", stats, ".csv", ".json"), checkExt("--contacts", contacts, ".csv", ".json")); err != nil {
			return nil, err
		}
		outs := []raster.VolumeOutputs{{Input: inputs[0], Output: out, Labels: labels, Preview: preview, Stats: stats,
			Contacts: contacts, Intensity: j.Intensity}}
		return outs, checkClobber("volume", ins, volumeOutputFiles(outs))
	}
	if out == "" {
		return nil, usagef("volume: with several inputs, give -o FOLDER for the outputs")
	}
	if st, err := os.Stat(out); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("-o %s: with several inputs, -o must be an existing folder", out)
	}
	if labels != "" {
		return nil, usagef("volume: --labels takes a single input; with several, -o FOLDER names the label volumes")
	}
	if err := cmp.Or(checkJustExt("--preview", preview, ".png"), checkJustExt("--stats", stats, ".csv", ".json"),
		checkJustExt("--contacts", contacts, ".csv", ".json")); err != nil {
		return nil, err
	}
	outs, err := raster.VolumeOutputsIn(out, inputs, preview, stats, contacts)
	if err != nil {
		return nil, usagef("volume: %v", err)
	}
	for i := range outs {
		if j.StatsOnly {
			outs[i].Output = ""
		}
	}
	return outs, checkClobber("volume", ins, volumeOutputFiles(outs))
}

// one reads, labels and writes one volume in memory; last says that no
// volume follows, and commit puts the outputs in place.
func (j Volume) one(out raster.VolumeOutputs, l *cclabel.Labeler, p Progress, last bool, commit func() error) (VolumeSummary, error) {
	bar := p.bar(out.Input)
	defer bar.Close()
	var times StageTimes
	clock := newStopwatch()
	startVolumeGPU(l, out.Input, j.Raw, j.Settings.Rule)
	// Tables alone, of a labeling on the GPU, are measured there.
	measured := measuresWhileLabeling(l.GPUStarted, out.Output+out.Labels+out.Preview != "", out.Stats, out.Contacts, j.Settings)
	bar.Stage("reading", out.Input)
	// On the CPU, a NIfTI volume's first slabs are labeled while the rest
	// is still being read (raster.VolumeStream).
	stream := raster.NewVolumeStream(l, j.Settings, j.Connectivity)
	// A mapped volume whose outputs take uint16 labels is labeled with
	// no label array made ahead: the labels may come back as uint16, and
	// the labeler touches only what it writes.
	narrow := raster.NarrowWrites(out, j.Settings.DType) && formats.MapsSamples(out.Input, j.Raw)
	dst, stop := labelArrayFor(measured || narrow || inPlace(out.Input, j.Raw, l), func() (int, bool) { return formats.VolumeVoxels(out.Input, j.Raw) })
	defer stop()
	stream.Into(dst)
	stream.Narrow(narrow)
	samples := stream.Samples
	if measured {
		samples = nil
	}
	vol, release, err := formats.MapVolumeFileStreaming(out.Input, j.Raw, samples)
	if err != nil {
		_, _ = stream.Finish(nil, err)
		return VolumeSummary{}, err
	}
	defer release()
	times.Read = clock.lap()

	bar.Stage("labeling", labelWatch(vol)...)
	var vl *raster.VolumeLabels
	written := false // the label volume, as it was labeled
	if measured {
		vl, err = raster.LabelVolumeMeasured(l, out, vol, j.Settings, j.Connectivity)
	} else if path := raster.NarrowFile(out, j.Settings.DType); narrow && path != "" {
		vl, written, err = stream.FinishToFile(vol, path)
	} else {
		vl, err = stream.Finish(vol, nil)
	}
	if err != nil {
		return VolumeSummary{}, fmt.Errorf("%s: %w", out.Input, err)
	}
	times.Label = clock.lap()
	releaseAfter(l, last)

	bar.Stage("writing", volumeWrites(out)...)
	if !written {
		if err := raster.WriteVolume(out, vol, vl, j.Settings); err != nil {
			return VolumeSummary{}, err
		}
	}
	// The input's samples are unmapped, or (decoded, of the last file)
	// discarded, within the time, as are the labels.
	release()
	mapped := last && formats.MapsSamples(out.Input, j.Raw)
	if err := commitDiscarding(commit, last, func() {
		discardLabels(l.Threads(), vl.Narrow, vl.Frames...)
		if !mapped {
			discardSamples(vol, l.Threads())
		}
	}); err != nil {
		return VolumeSummary{}, err
	}
	times.Write = clock.lap()
	times.Total = clock.total()
	f0 := vol.Frames[0]
	s := VolumeSummary{Input: out.Input, Format: vol.Format, Width: f0.Width, Height: f0.Height, Depth: f0.Depth,
		Frames: len(vol.Frames), Components: vl.Total, Connectivity: vl.Conn, Mode: j.Settings.Rule.String(),
		Backend: string(vl.Backend), Threads: l.Threads(), Seconds: times,
		LabelStages: labelStagesOf(times.Label, vl.Timing, vl.Measured...)}
	s.LabelStages.WhileReading = vl.WhileReading.Seconds()
	if vl.GPU != nil {
		s.GPU = gpuTimesOf(cclabel.BackendGPU, *vl.GPU)
	}
	if len(vol.Frames) > 1 {
		s.PerFrame = vl.PerFrame
	}
	note := raster.PreviewNote(out, len(vol.Frames))
	if note != "" {
		f := raster.PreviewFrame
		s.PreviewFrame = &f
	}
	bar.Close()
	p.printf("%s: %dx%dx%d %s %s, %d frame(s), %d components [%s c%d, %s, %d threads]; read %.3fs, label %.3fs, write %.3fs\n",
		out.Input, s.Width, s.Height, s.Depth, f0.Kind, vol.Format, s.Frames, vl.Total, s.Mode, vl.Conn,
		s.Backend, s.Threads, times.Read, times.Label, times.Write)
	if note != "" {
		p.printf("%s: %s\n", out.Input, note)
	}
	return s, nil
}
