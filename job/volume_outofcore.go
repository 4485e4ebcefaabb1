package job

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/job/inmemory"
	"github.com/cclabel/cclabel/job/outofcore"
	"github.com/cclabel/cclabel/slabs"
)

// inMemoryBytes estimates what labeling a volume in memory holds: its
// samples, the labels and the labeler's work.
func inMemoryBytes(voxels int64, sampleSize int) int64 {
	return voxels * int64(sampleSize+outofcore.BytesPerVoxel)
}

// fitsInMemory reports whether the volume at job.Input can be labeled in
// memory within maxMemory. Inputs that cannot be read
// plane by plane (TIFF stacks, folders, 4D or paired NIfTI) are read in
// memory as without --max-memory, and their reader reports what it finds.
func fitsInMemory(job inmemory.VolumeOutputs, raw *formats.RawOptions, maxMemory int64) bool {
	s, _, err := formats.OpenVolumeStream(job.Input, raw)
	if err != nil {
		return true
	}
	defer s.Close()
	voxels := int64(s.Width) * int64(s.Height) * int64(s.Depth)
	return inMemoryBytes(voxels, s.Kind.Size()) <= maxMemory
}

// labelVolumeOutOfCore labels one volume slab by slab within maxMemory,
// showing the planes of its slabs labeled and the bytes of its labels
// written on bar (which may be nil); quiet drops the summary line.
func labelVolumeOutOfCore(job inmemory.VolumeOutputs, settings Settings, conn int, raw *formats.RawOptions, labeler *cclabel.Labeler, maxMemory int64, std stdio, bar *fileprogress.Bar, quiet bool) (volumeSummary, error) {
	defer bar.Close()
	switch {
	case job.Output == "":
		return volumeSummary{}, usagef("volume: %s is labeled out of core (--max-memory): give -o for its labels", job.Input)
	case job.Labels != "" || job.Preview != "" || job.Stats != "" || settings.MinSize > 0 || settings.Largest > 0:
		return volumeSummary{}, usagef("volume: %s is labeled out of core (--max-memory): only -o is written (no --labels, --preview, --stats, --min-size or --largest)", job.Input)
	}
	clock := newStopwatch()
	threads := cpuThreads(labeler)
	backend := cclabel.BackendCPU
	bar.Stage("labeling")
	res, err := outofcore.Label(job.Input, raw, job.Output, outofcore.Options{MaxMemory: maxMemory, Rule: settings.Rule,
		Connectivity: conn, Threads: threads, DType: settings.DType, Label: slabLabeler(labeler, conn, &backend),
		Progress: slabProgress(bar, job.Output)})
	if err != nil {
		return volumeSummary{}, err
	}
	bar.Close()
	s := outOfCoreSummary(job.Input, res, res.Count, settings, conn, threads, backend, clock)
	times := s.Seconds
	if !quiet {
		fmt.Fprintf(std.Err, "%s: %dx%dx%d %s, %d components [%s c%d, out of core: %d slabs of %d planes, %s, %d threads]; read %.3fs, label %.3fs, write %.3fs\n",
			job.Input, res.Width, res.Height, res.Depth, res.Kind, res.Count, s.Mode, conn, res.Slabs, res.SlabPlanes, backend, threads,
			times.Read, times.Label, times.Write)
	}
	return s, nil
}

// slabLabeler labels out-of-core slabs through the labeler when it may
// use the GPU, recording the last slab's backend in ran; nil (the CPU
// labeler) otherwise.
func slabLabeler(l *cclabel.Labeler, conn int, ran *cclabel.Backend) func(imagegraph.Rule) slabs.LabelFunc {
	if !l.MayUseGPU() {
		return nil
	}
	return outofcore.SlabLabeler(l, conn, ran)
}

// cpuThreads is the labeler's CPU thread count (1 for the serial backend).
func cpuThreads(l *cclabel.Labeler) int {
	if l.Backend() == cclabel.BackendSerial {
		return 1
	}
	return l.Threads()
}

// outOfCoreSummary is the --json object of an out-of-core or chunk run
// that found components, its slabs labeled on backend.
func outOfCoreSummary(input string, res *outofcore.Result, components int, settings Settings, conn, threads int, backend cclabel.Backend, clock *stopwatch) volumeSummary {
	times := stageTimes{Read: res.Read.Seconds(), Label: res.Label.Seconds(), Write: res.Write.Seconds(), Total: clock.total()}
	return volumeSummary{Input: input, Format: res.Format, Width: res.Width, Height: res.Height, Depth: res.Depth,
		Frames: 1, Components: components, Connectivity: conn, Mode: settings.Rule.String(), Backend: string(backend),
		Threads: threads, Seconds: times, LabelStages: labelStages{Kernel: times.Label}, Slabs: res.Slabs, SlabPlanes: res.SlabPlanes}
}

// outOfCoreNames renames the NRRD label volumes of the jobs (named after
// their inputs) that are labeled out of core to .nii.gz, which is written
// out of core and NRRD is not; it reports whether it renamed any.
func outOfCoreNames(jobs []inmemory.VolumeOutputs, raw *formats.RawOptions, maxMemory int64) bool {
	renamed := false
	for i, job := range jobs {
		if strings.HasSuffix(strings.ToLower(job.Output), ".nrrd") && !fitsInMemory(job, raw, maxMemory) {
			jobs[i].Output = strings.TrimSuffix(job.Output, filepath.Ext(job.Output)) + ".nii.gz"
			renamed = true
		}
	}
	return renamed
}
