package main

import (
	"context"
	"errors"
	"os"
	"slices"
	"sync/atomic"

	"github.com/cclabel/cclabel/batch"
	"github.com/cclabel/cclabel/job"
	"github.com/urfave/cli/v3"
)

// batchCommand is "cclabel batch".
func batchCommand(std stdio) *cli.Command {
	var flags []cli.Flag
	for _, f := range labelingFlags(0, "4 or 8 for images, 6, 18 or 26 for volumes (default 8 and 26); "+
		"6, 18, 26 give images 4, 8, 8 and 4, 8 give volumes 6, 26") {
		if !slices.Contains(f.Names(), "json") {
			flags = append(flags, f)
		}
	}
	flags = append(flags,
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, TakesFile: true,
			Usage: "output folder (made when missing); outputs mirror the inputs' relative paths"},
		&cli.StringFlag{Name: "labels", Usage: "images: also a label array, stem.labels.EXT (.npy or .png)"},
		&cli.BoolFlag{Name: "overlay", Usage: "images: stem.png shows label colours blended over the input"},
		&cli.StringFlag{Name: "preview", Usage: "volumes: also stem.preview.png, the mid-slices (.png)"},
		&cli.StringFlag{Name: "dtype", Value: "auto", Usage: "label type: auto (uint16 when it fits, else uint32), uint16 or uint32"},
		&cli.StringFlag{Name: "summary", TakesFile: true, Usage: "one row per input (.csv or .json): input, output, status, error, components, voxels, seconds"},
		&cli.IntFlag{Name: "workers", Usage: "decoding and encoding goroutines (default: the number of cores)"},
		&cli.StringFlag{Name: "max-memory", Usage: "bound the inputs in flight by their estimated memory, such as 8G (default: workers+2 inputs)"},
		&cli.BoolFlag{Name: "overwrite", Usage: "redo inputs whose outputs exist and are newer than the input"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar, progress lines or closing report (failures are still printed)"},
		&cli.StringFlag{Name: "shard", Usage: "i/n: process every n-th of the sorted inputs, from the i-th (0-based); default from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX"},
		&cli.IntFlag{Name: "shards", Usage: "the number of shards, with JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID"},
		&cli.StringFlag{Name: "merge-summaries", TakesFile: true, Usage: "OUT: merge the summaries given as arguments into OUT (.csv or .json) and exit"},
	)
	return &cli.Command{
		Name:      "batch",
		Usage:     "label many images and volumes with a pipelined executor",
		ArgsUsage: "INPUT... -o OUTDIR",
		Description: "INPUT is a file, a folder (searched recursively for known extensions), a glob, or @LIST " +
			"(one path per line, # comments; relative paths from the current folder; a line naming no file " +
			"fails as one input). Images take 'cclabel label''s path and write stem.png; volumes take " +
			"'cclabel volume''s and write a label volume in their family (stem.nii.gz, stem.nrrd, else stem.npy), " +
			"under OUTDIR at the input's path below its folder argument (below a glob's leading folders; " +
			"the base name for files and list lines); -o must not be an input folder. Reading and writing run on --workers " +
			"goroutines; labeling runs on one goroutine that owns the GPU context when the GPU may be used, " +
			"else on one per worker with --threads split between them. Inputs whose outputs exist and are " +
			"newer are skipped; a failing input is recorded and the others go on (exit status 1). SIGINT and " +
			"SIGTERM stop after the inputs in flight (a second one at once, exit 130 or 143). Runs started together on one -o share the inputs: each claims an input before reading it (.STEM.claim). --shard i/n (or a SLURM array / Kubernetes Indexed Job) " +
			"takes a deterministic share of the sorted inputs; --merge-summaries OUT IN... joins shard summaries " +
			"(one row per input, the last summary given wins).",
		OnUsageError: onUsageError,
		Flags:        flags,
		Action:       func(ctx context.Context, cmd *cli.Command) error { return runBatch(ctx, cmd, std) },
	}
}

// runBatch merges summaries or runs a batch. The first SIGINT or SIGTERM
// stops it after the inputs in flight, the next one at once, leaving no
// temporary file (catchSignals).
func runBatch(ctx context.Context, cmd *cli.Command, std stdio) error {
	if out := cmd.String("merge-summaries"); out != "" {
		return batch.MergeSummaries(out, cmd.Args().Slice(), job.Progress{W: std.Err, Quiet: cmd.Bool("quiet")})
	}
	if cmd.NArg() == 0 {
		return usagef("batch: want at least one INPUT (a file, folder, glob or @list)")
	}
	j := batch.Job{Args: cmd.Args().Slice(), Dir: cmd.String("output"), Connectivity: cmd.Int("connectivity"),
		LabelsExt: cmd.String("labels"), PreviewExt: cmd.String("preview"), StatsExt: cmd.String("stats"),
		Summary: cmd.String("summary"), Overwrite: cmd.Bool("overwrite"), Pipeline: batch.Pipeline{Workers: cmd.Int("workers")}}
	if err := j.CheckArgs(); err != nil {
		return err
	}
	var err error
	if j.Settings, err = settingsFromFlags(cmd, "batch", "auto", "uint16", "uint32"); err != nil {
		return err
	}
	opts, err := labelerOptions(cmd, nil)
	if err != nil {
		return err
	}
	if m := cmd.String("max-memory"); m != "" {
		if j.Pipeline.MaxMemory, err = batch.ParseBytes(m); err != nil {
			return job.UsageError{Err: err}
		}
	}
	if j.Shard, j.ShardSource, err = shardFromFlags(cmd); err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var caught atomic.Value // the first signal
	defer onFirstSignal(func(sig os.Signal) {
		caught.Store(sig)
		cancel(errors.New(signalName(sig)))
	})()
	err = j.Run(ctx, opts, job.Progress{W: std.Err, Quiet: cmd.Bool("quiet")})
	var ie *batch.InterruptedError
	if sig, ok := caught.Load().(os.Signal); ok && errors.As(err, &ie) {
		return interruptedError{Signal: sig, Err: err}
	}
	return err
}

// shardFromFlags reads --shard and --shards, or the scheduler's
// environment.
func shardFromFlags(cmd *cli.Command) (batch.Shard, string, error) {
	shards := cmd.Int("shards")
	if shards < 0 {
		return batch.Shard{}, "", usagef("batch: --shards %d: must be 1 or more", shards)
	}
	if cmd.String("shard") != "" && cmd.IsSet("shards") {
		return batch.Shard{}, "", usagef("batch: give --shard i/n or --shards n, not both")
	}
	s, source, ok, err := shardFlag(cmd, "shard", "shards")
	if err != nil {
		return s, "", job.UsageError{Err: err}
	}
	if !ok && shards > 0 {
		return s, "", usagef("batch: --shards %d: the shard index comes from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, and neither is set (or give --shard i/n)", shards)
	}
	return s, source, nil
}
