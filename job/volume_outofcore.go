package job

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/job/raster"
)

// inMemoryBytes estimates what labeling a volume in memory holds: its
// samples, the labels and the labeler's work.
func inMemoryBytes(voxels int64, sampleSize int) int64 {
	return voxels * int64(sampleSize+raster.BytesPerVoxel)
}

// fitsInMemory reports whether the volume at input can be labeled in
// memory within maxMemory. Inputs that cannot be read plane by plane
// (TIFF stacks, folders, 4D or paired NIfTI) are read in memory as
// without a memory bound, and their reader reports what it finds.
func fitsInMemory(input string, raw *formats.RawOptions, maxMemory int64) bool {
	s, _, err := formats.OpenVolumeStream(input, raw)
	if err != nil {
		return true
	}
	defer s.Close()
	voxels := int64(s.Width) * int64(s.Height) * int64(s.Depth)
	return inMemoryBytes(voxels, s.Kind.Size()) <= maxMemory
}

// outOfCoreNames renames the NRRD label volumes of outs (named after their
// inputs) that are labeled out of core to .nii.gz, which is written out of
// core and NRRD is not; it reports whether it renamed any.
func outOfCoreNames(outs []raster.VolumeOutputs, raw *formats.RawOptions, maxMemory int64) bool {
	renamed := false
	for i, out := range outs {
		if strings.HasSuffix(strings.ToLower(out.Output), ".nrrd") && !fitsInMemory(out.Input, raw, maxMemory) {
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
	case out.Labels != "" || out.Preview != "" || out.Stats != "" || out.Contacts != "" || j.Settings.MinSize > 0 || j.Settings.Largest > 0 || !plainOrder(j.Settings):
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
	case out.Labels != "" || out.Preview != "" || out.Stats != "" || out.Contacts != "" || j.Settings.MinSize > 0 || j.Settings.Largest > 0 || !plainOrder(j.Settings):
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

// plainOrder reports whether s numbers components as the labelers do, with
// 0 as background: what out-of-core and chunk runs can give.
func plainOrder(s Settings) bool { return s.Background == 0 && s.Order == raster.FirstOccurrence }
