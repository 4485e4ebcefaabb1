package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/cclabel/cclabel/batch"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/labelfile"
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
		Action:       func(ctx context.Context, cmd *cli.Command) error { return runBatchCommand(ctx, cmd, std) },
	}
}

// runBatchCommand merges summaries or runs a batch.
func runBatchCommand(ctx context.Context, cmd *cli.Command, std stdio) error {
	if out := cmd.String("merge-summaries"); out != "" {
		return mergeSummaries(out, cmd.Args().Slice(), cmd.Bool("quiet"), std)
	}
	b, err := planBatch(cmd, std)
	if err != nil {
		return err
	}
	return b.run(ctx)
}

// mergeSummaries joins shard summaries into one.
func mergeSummaries(out string, inputs []string, quiet bool, std stdio) error {
	if len(inputs) == 0 {
		return usagef("batch: --merge-summaries %s: give the summaries to merge as arguments", out)
	}
	if err := batch.CheckSummaryPath(out); err != nil {
		return usageError{Err: err}
	}
	if err := checkClobber("batch", inputFiles(inputs...), []atomicfile.Named{outputFile("--merge-summaries", out)}); err != nil {
		return err
	}
	rows, replaced, err := batch.MergeFiles(out, inputs)
	if err != nil {
		return err
	}
	if replaced > 0 { // even with -q: it may hide a mistake, such as overlapping shards
		fmt.Fprintf(std.Err, "batch: %d inputs had rows in several summaries; the rows of the summaries given last were kept\n", replaced)
	}
	if !quiet {
		counts, _ := batch.Tally(rows)
		fmt.Fprintf(std.Err, "batch: merged %d summaries into %s: %d inputs, %d ok, %d failed, %d skipped, %d cancelled\n",
			len(inputs), out, len(rows), counts[batch.OK], counts[batch.Failed], counts[batch.Skipped], counts[batch.Cancelled])
	}
	return nil
}

// batchRun is a planned batch: its files, its shard and how it reports.
type batchRun struct {
	files       labelfile.Batch
	warnings    progressWriter // the labeler's warnings, once the run starts
	summary     string
	quiet       bool
	pipeline    batch.Pipeline
	shard       batch.Shard
	shardSource string
	total       int // inputs before sharding
	std         stdio
}

// planBatch checks the flags, expands the inputs and selects the shard,
// before any work is done.
func planBatch(cmd *cli.Command, std stdio) (*batchRun, error) {
	if cmd.NArg() == 0 {
		return nil, usagef("batch: want at least one INPUT (a file, folder, glob or @list)")
	}
	b := &batchRun{summary: cmd.String("summary"), quiet: cmd.Bool("quiet"), std: std}
	f := &b.files
	f.Dir, f.Overwrite, f.Summary = cmd.String("output"), cmd.Bool("overwrite"), b.summary
	if f.Dir == "" {
		return nil, usagef("batch: give -o OUTDIR for the outputs")
	}
	var err error
	if f.Settings, err = labelSettingsFromFlags(cmd, "batch", "auto", "uint16", "uint32"); err != nil {
		return nil, err
	}
	labelerOpts, err := labelerOptions(cmd, &b.warnings)
	if err != nil {
		return nil, err
	}
	if f.ImageConn, f.VolumeConn, err = labelfile.BatchConnectivity(cmd.Int("connectivity")); err != nil {
		return nil, usageError{Err: err}
	}
	for _, c := range []struct {
		flag string
		dst  *string
		exts []string
	}{
		{"--labels", &f.LabelsExt, []string{".npy", ".png"}},
		{"--preview", &f.PreviewExt, []string{".png"}},
		{"--stats", &f.StatsExt, []string{".csv", ".json"}},
	} {
		v := strings.ToLower(cmd.String(strings.TrimPrefix(c.flag, "--")))
		if v != "" && !slices.Contains(c.exts, v) {
			return nil, usagef("batch: %s %s: give just the extension (%s); outputs are named after the inputs", c.flag, v, strings.Join(c.exts, " or "))
		}
		*c.dst = v
	}
	if b.summary != "" {
		if err := batch.CheckSummaryPath(b.summary); err != nil {
			return nil, usageError{Err: err}
		}
	}
	if b.pipeline, err = pipelineFromFlags(cmd); err != nil {
		return nil, err
	}
	if f.Labeler, b.pipeline.Labelers, err = labelfile.NewBatchLabeler(labelerOpts, b.pipeline.Workers); err != nil {
		return nil, err
	}
	f.Buffers = &labelfile.LabelBuffers{Keep: b.pipeline.Labelers + 1}
	if b.shard, b.shardSource, err = shardFromFlags(cmd); err != nil {
		return nil, err
	}
	all, err := batch.Expand(cmd.Args().Slice(), batch.ExpandOptions{Known: formats.IsInputName, Skip: f.Dir})
	if errors.Is(err, batch.ErrOutputIsInput) {
		return nil, usageError{Err: err}
	}
	if err != nil {
		return nil, err
	}
	if err := f.CheckOutputs(all); err != nil {
		return nil, usageError{Err: err}
	}
	b.total = len(all)
	f.Inputs = b.shard.Select(all)
	f.Rows = batch.PendingRows(f.Inputs)
	return b, nil
}

// pipelineFromFlags reads --workers and --max-memory.
func pipelineFromFlags(cmd *cli.Command) (batch.Pipeline, error) {
	p := batch.Pipeline{Workers: cmd.Int("workers"), Labelers: 1}
	if p.Workers < 0 {
		return p, usagef("batch: --workers %d: must be 1 or more (0: the number of cores)", p.Workers)
	}
	if p.Workers == 0 {
		p.Workers = runtime.NumCPU()
	}
	if m := cmd.String("max-memory"); m != "" {
		n, err := batch.ParseBytes(m)
		if err != nil {
			return p, usageError{Err: err}
		}
		p.MaxMemory = n
	}
	return p, nil
}

// shardFromFlags reads --shard and --shards, or the scheduler's
// environment.
func shardFromFlags(cmd *cli.Command) (batch.Shard, string, error) {
	shards := cmd.Int("shards")
	if shards < 0 {
		return batch.Shard{}, "", usagef("batch: --shards %d: must be 1 or more", shards)
	}
	if spec := cmd.String("shard"); spec != "" {
		if cmd.IsSet("shards") {
			return batch.Shard{}, "", usagef("batch: give --shard i/n or --shards n, not both")
		}
		s, err := batch.ParseShard(spec)
		if err != nil {
			return s, "", usageError{Err: err}
		}
		return s, "--shard", nil
	}
	s, source, ok, err := batch.ShardFromEnv(os.Getenv, shards)
	if err != nil {
		return s, "", usageError{Err: err}
	}
	if !ok && shards > 0 {
		return s, "", usagef("batch: --shards %d: the shard index comes from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, and neither is set (or give --shard i/n)", shards)
	}
	return s, source, nil
}
