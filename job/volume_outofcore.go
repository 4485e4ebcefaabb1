package job

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/job/raster"
)

// outOfCoreNames renames the NRRD label volumes of outs (named after their
// inputs) that are labeled out of core to .nii.gz, which is written out of
// core and NRRD is not; it reports whether it renamed any.
func outOfCoreNames(outs []raster.VolumeOutputs, raw *formats.RawOptions, maxMemory int64) bool {
	renamed := false
	for i, out := range outs {
		if strings.HasSuffix(strings.ToLower(out.Output), ".nrrd") && !raster.FitsInMemory(out.Input, raw, maxMemory) {
			outs[i].Output = strings.TrimSuffix(out.Output, filepath.Ext(out.Output)) + ".nii.gz"
			renamed = true
		}
	}
	return renamed
}

// outOfCore labels one volume slab by slab within MaxMemory, showing the
// planes of its slabs labeled and the bytes of its labels written.
func (j Volume) outOfCore(out raster.VolumeOutputs, l *cclabel.Labeler, p Progress) (VolumeSummary, error) {
	bar := p.bar(out.Input)
	defer bar.Close()
	switch {
	case out.Output == "":
		return VolumeSummary{}, usagef("volume: %s is labeled out of core (--max-memory): give -o for its labels", out.Input)
	case !j.labelsOnly(out):
		return VolumeSummary{}, usagef("volume: %s is labeled out of core (--max-memory): only -o is written (no --labels, --preview, --stats, --contacts, --min-size, --largest, --background or --order size)", out.Input)
	}
	clock := newStopwatch()
	bar.Stage("labeling")
	res, err := raster.LabelOutOfCore(out.Input, j.Raw, out.Output, j.outOfCoreOptions(l, slabProgress(bar, out.Output)))
	if err != nil {
		return VolumeSummary{}, err
	}
	bar.Close()
	s := j.outOfCoreSummary(out.Input, res, res.Count, l, clock)
	p.printf("%s: %dx%dx%d %s, %d components [%s c%d, out of core: %d slabs of %d planes, %s, %d threads]; read %.3fs, label %.3fs, write %.3fs\n",
		out.Input, res.Width, res.Height, res.Depth, res.Kind, res.Count, s.Mode, j.Connectivity, res.Slabs, res.SlabPlanes,
		res.Backend, s.Threads, s.Seconds.Read, s.Seconds.Label, s.Seconds.Write)
	return s, nil
}

// chunk labels one chunk of out.Input into the folder out.Output.
func (j Volume) chunk(out raster.VolumeOutputs, l *cclabel.Labeler, p Progress) (VolumeSummary, error) {
	switch {
	case out.Output == "" || formats.IsLabelVolumePath(out.Output):
		return VolumeSummary{}, usagef("volume: --chunk writes into a folder: give -o FOLDER (not a label volume's name)")
	case !j.labelsOnly(out):
		return VolumeSummary{}, usagef("volume: --chunk writes chunk labels only (no --labels, --preview, --stats, --contacts, --min-size, --largest, --background or --order size)")
	}
	if err := os.MkdirAll(out.Output, 0o755); err != nil {
		return VolumeSummary{}, err
	}
	clock := newStopwatch()
	c, res, err := raster.LabelChunk(out.Input, j.Raw, out.Output, j.Chunk.Index, j.Chunk.Count, j.outOfCoreOptions(l, nil))
	if err != nil {
		return VolumeSummary{}, err
	}
	s := j.outOfCoreSummary(out.Input, res, c.Count, l, clock)
	s.Chunk, s.ChunkPlanes = j.Chunk.String(), []int{c.Z0, c.Z1}
	p.printf("%s: chunk %s, planes %d..%d of %d: %d components in the chunk; labels in %s\n",
		out.Input, j.Chunk, c.Z0, c.Z1-1, res.Depth, c.Count, out.Output)
	return s, nil
}

// outOfCoreOptions are the options of an out-of-core or chunk run with l:
// its slabs are labeled through l, on the backend l chooses.
func (j Volume) outOfCoreOptions(l *cclabel.Labeler, progress func(done, planes int)) raster.OutOfCoreOptions {
	o := raster.OutOfCoreOptions{MaxMemory: j.MaxMemory, Rule: j.Settings.Rule, Connectivity: j.Connectivity,
		Threads: l.Threads(), Labeler: l, Progress: progress}
	if j.Chunk == nil {
		o.DType = j.Settings.DType
	}
	return o
}

// outOfCoreSummary is the summary of an out-of-core or chunk run that
// found components.
func (j Volume) outOfCoreSummary(input string, res *raster.OutOfCoreResult, components int, l *cclabel.Labeler, clock *stopwatch) VolumeSummary {
	times := StageTimes{Read: res.Read.Seconds(), Label: res.Label.Seconds(), Write: res.Write.Seconds(), Total: clock.total()}
	return VolumeSummary{Input: input, Format: res.Format, Width: res.Width, Height: res.Height, Depth: res.Depth,
		Frames: 1, Components: components, Connectivity: j.Connectivity, Mode: j.Settings.Rule.String(), Backend: string(res.Backend),
		Threads: l.Threads(), Seconds: times, LabelStages: LabelStages{Kernel: times.Label}, Slabs: res.Slabs, SlabPlanes: res.SlabPlanes}
}

// labelsOnly reports whether out and the settings ask for the label volume
// Output alone, all that labeling out of core or by chunks writes: no other
// output, size filter, background value or order.
func (j Volume) labelsOnly(out raster.VolumeOutputs) bool {
	s := j.Settings
	return out.Labels+out.Preview+out.Stats+out.Contacts == "" && s.MinSize <= 0 && s.Largest <= 0 && s.Background == 0 && s.Order == raster.FirstOccurrence
}
