package job

import (
	"fmt"
	"os"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/job/inmemory"
	"github.com/cclabel/cclabel/job/outofcore"
)

// labelChunk labels one chunk of job.Input into the folder job.Output.
func labelChunk(job inmemory.VolumeOutputs, chunk Chunk, settings Settings, conn int, raw *formats.RawOptions, labeler *cclabel.Labeler, maxMemory int64, std stdio, quiet bool) (volumeSummary, error) {
	switch {
	case job.Output == "" || formats.IsLabelVolumePath(job.Output):
		return volumeSummary{}, usagef("volume: --chunk writes into a folder: give -o FOLDER (not a label volume's name)")
	case job.Labels != "" || job.Preview != "" || job.Stats != "" || settings.MinSize > 0 || settings.Largest > 0:
		return volumeSummary{}, usagef("volume: --chunk writes chunk labels only (no --labels, --preview, --stats, --min-size or --largest)")
	}
	if err := os.MkdirAll(job.Output, 0o755); err != nil {
		return volumeSummary{}, err
	}
	clock := newStopwatch()
	threads := cpuThreads(labeler)
	backend := cclabel.BackendCPU
	c, res, err := outofcore.LabelChunk(job.Input, raw, job.Output, chunk.Index, chunk.Count, outofcore.Options{MaxMemory: maxMemory,
		Rule: settings.Rule, Connectivity: conn, Threads: threads, Label: slabLabeler(labeler, conn, &backend)})
	if err != nil {
		return volumeSummary{}, err
	}
	s := outOfCoreSummary(job.Input, res, c.Count, settings, conn, threads, backend, clock)
	s.Chunk, s.ChunkPlanes = chunk.String(), []int{c.Z0, c.Z1}
	if !quiet {
		fmt.Fprintf(std.Err, "%s: chunk %s, planes %d..%d of %d: %d components in the chunk; labels in %s\n",
			job.Input, chunk, c.Z0, c.Z1-1, res.Depth, c.Count, job.Output)
	}
	return s, nil
}
