package job

import (
	"fmt"
	"os"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/batch"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/job/outofcore"
	"github.com/urfave/cli/v3"
)

// chunkFlags are volume's --chunk and --chunks.
var chunkFlags = []cli.Flag{
	&cli.StringFlag{Name: "chunk", Usage: "i/n: label only chunk i (0-based) of n chunks of planes and write its labels " +
		"into the folder -o, for 'cclabel merge'; default from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX with --chunks"},
	&cli.IntFlag{Name: "chunks", Usage: "the number of chunks, with a SLURM array or a Kubernetes Indexed Job"},
}

// chunkFromFlags reads --chunk, or --chunks and the scheduler's index; ok
// is false when the run labels whole volumes.
func chunkFromFlags(cmd *cli.Command) (batch.Shard, bool, error) {
	if spec := cmd.String("chunk"); spec != "" {
		s, err := batch.ParseShard(spec)
		if err != nil {
			return batch.Shard{}, false, usagef("volume: --chunk: %v", err)
		}
		if n := cmd.Int("chunks"); n != 0 && n != s.Count {
			return batch.Shard{}, false, usagef("volume: --chunk %s and --chunks %d disagree", spec, n)
		}
		return s, true, nil
	}
	n := cmd.Int("chunks")
	if n == 0 {
		return batch.Shard{}, false, nil
	}
	s, _, ok, err := batch.ShardFromEnv(os.Getenv, n)
	if err != nil {
		return batch.Shard{}, false, usagef("volume: --chunks: %v", err)
	}
	if !ok {
		return batch.Shard{}, false, usagef("volume: --chunks %d needs --chunk i/n or a scheduler's array index (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX)", n)
	}
	return s, true, nil
}

// labelChunk labels one chunk of job.Input into the folder job.Output.
func labelChunk(job VolumeOutputs, chunk batch.Shard, settings Settings, conn int, raw *formats.RawOptions, labeler *cclabel.Labeler, maxMemory int64, std stdio, quiet bool) (volumeSummary, error) {
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
