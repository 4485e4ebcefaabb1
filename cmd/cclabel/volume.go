package main

import (
	"context"

	"github.com/cclabel/cclabel/batch"
	"github.com/cclabel/cclabel/job"
	"github.com/urfave/cli/v3"
)

// volumeCommand is "cclabel volume".
func volumeCommand(std stdio) *cli.Command {
	flags := labelingFlags(26, "6, 18 or 26 (a 2D file uses 4 for 6, 8 otherwise)")
	flags = append(flags,
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, TakesFile: true,
			Usage: "label volume: .nii, .nii.gz, .nrrd or .npy (geometry kept); with several inputs, an existing folder"},
		&cli.StringFlag{Name: "labels", TakesFile: true, Usage: "a second label volume output, any of -o's formats"},
		&cli.StringFlag{Name: "preview", TakesFile: true, Usage: "colour montage of the axial, coronal and sagittal mid-slices (.png)"},
		&cli.StringFlag{Name: "dtype", Value: "auto", Usage: "label type: auto (uint16 when it fits, else uint32), uint16 or uint32"},
	)
	flags = append(append(flags, tableFlags("volume")...), rawFlags()...)
	flags = append(flags,
		&cli.StringFlag{Name: "max-memory",
			Usage: "label out of core when the volume would need more memory than SIZE (such as 6G), or has more than 2^31-1 " +
				"voxels: slabs of planes read from .npy, .nii, .nii.gz, .nrrd, .nhdr or raw input, labels written to one -o of " +
				".nii, .nii.gz or .npy (no --labels, --preview, --stats, --min-size or --largest then)"},
		&cli.StringFlag{Name: "gpus", Usage: "spread each volume over N GPUs (or a list of ordinals such as 0,1): a range of planes per GPU, labeled at once, joined at the seams; the labels of one GPU"},
		quietFlag,
		&cli.StringFlag{Name: "chunk", Usage: "i/n: label only chunk i (0-based) of n chunks of planes and write its labels " +
			"into the folder -o, for 'cclabel merge'; default from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX with --chunks"},
		&cli.IntFlag{Name: "chunks", Usage: "the number of chunks, with a SLURM array or a Kubernetes Indexed Job"},
	)
	return &cli.Command{
		Name:      "volume",
		Usage:     "label the connected components of 3D volumes",
		ArgsUsage: "VOLUME...",
		Description: "VOLUME is NIfTI-1/2 (.nii, .nii.gz, .hdr/.img), NRRD (.nrrd, .nhdr), a multi-page TIFF (pages are z), " +
			"a folder of 2D slices (sorted by name), a 3D .npy, or raw data with --shape and --raw-dtype. 4D NIfTI is " +
			"labeled frame by frame, numbering restarting in each frame. Thresholds apply to NIfTI-scaled values. " +
			"Label volumes keep the input's geometry; with several inputs -o is a folder and outputs are named " +
			"after the inputs in the input's family (.nii.gz, .nrrd, else .npy).",
		OnUsageError: onUsageError,
		Flags:        flags,
		Action:       func(ctx context.Context, cmd *cli.Command) error { return runVolume(ctx, cmd, std) },
	}
}

// runVolume labels every input volume.
func runVolume(ctx context.Context, cmd *cli.Command, std stdio) error {
	if cmd.NArg() == 0 {
		return usagef("volume: want at least one VOLUME")
	}
	settings, err := settingsFromFlags(cmd, "volume", "auto", "uint16", "uint32")
	if err != nil {
		return err
	}
	labeler, err := newLabeler(cmd, std.Err)
	if err != nil {
		return err
	}
	defer labeler.Release() // in the background: the exit does not wait for it
	j := job.Volume{Inputs: cmd.Args().Slice(), Output: cmd.String("output"), Labels: cmd.String("labels"),
		Preview: cmd.String("preview"), Stats: cmd.String("stats"), Contacts: cmd.String("contacts"), Intensity: cmd.String("intensity"),
		StatsOnly: cmd.Bool("stats-only"), Settings: settings, Connectivity: cmd.Int("connectivity")}
	if j.Raw, err = rawOptions(cmd); err != nil {
		return err
	}
	if j.Chunk, err = chunkFromFlags(cmd); err != nil {
		return err
	}
	if m := cmd.String("max-memory"); m != "" {
		if j.MaxMemory, err = batch.ParseBytes(m); err != nil {
			return usagef("volume: --max-memory: %v", err)
		}
	}
	s, err := j.Run(ctx, labeler, std.progress(cmd))
	return printSummaries(std, cmd.Bool("json"), len(j.Inputs), s, err)
}

// chunkFromFlags reads --chunk, or --chunks and the scheduler's index; nil
// when the run labels whole volumes.
func chunkFromFlags(cmd *cli.Command) (*job.Chunk, error) {
	spec, n := cmd.String("chunk"), cmd.Int("chunks")
	if spec == "" && n == 0 {
		return nil, nil
	}
	s, _, ok, err := shardFlag(cmd, "chunk", "chunks")
	switch {
	case err != nil && spec != "":
		return nil, usagef("volume: --chunk: %v", err)
	case err != nil:
		return nil, usagef("volume: --chunks: %v", err)
	case spec != "" && n != 0 && n != s.Count:
		return nil, usagef("volume: --chunk %s and --chunks %d disagree", spec, n)
	case !ok:
		return nil, usagef("volume: --chunks %d needs --chunk i/n or a scheduler's array index (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX)", n)
	}
	return &job.Chunk{Index: s.Index, Count: s.Count}, nil
}

// mergeCommand is "cclabel merge".
func mergeCommand(std stdio) *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, TakesFile: true, Usage: "label volume: .nii, .nii.gz or .npy"},
		&cli.StringFlag{Name: "dtype", Value: "auto", Usage: "label type: auto (uint16 when it fits, else uint32), uint16 or uint32"},
	}
	flags = append(append(flags, rawFlags()...),
		&cli.BoolFlag{Name: "json", Usage: "print a JSON summary on stdout"},
		quietFlag,
	)
	return &cli.Command{
		Name:      "merge",
		Usage:     "join the chunks of 'cclabel volume --chunk' into one label volume",
		ArgsUsage: "VOLUME CHUNKDIR",
		Description: "VOLUME is the volume the chunks were labeled from (read again for the planes at the chunks' seams: " +
			".npy, .nii, .nii.gz, .nrrd, .nhdr or raw with --shape and --raw-dtype); CHUNKDIR holds every chunk's chunk-IIIII.json and " +
			".labels. The labels written to -o (.nii, .nii.gz or .npy) are those 'cclabel volume' gives the whole volume.",
		OnUsageError: onUsageError,
		Flags:        flags,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 2 {
				return usagef("merge: want VOLUME CHUNKDIR")
			}
			j := job.Merge{Input: cmd.Args().Get(0), Dir: cmd.Args().Get(1), Output: cmd.String("output"), DType: cmd.String("dtype")}
			var err error
			if j.Raw, err = rawOptions(cmd); err != nil && j.Output != "" { // Run reports a missing -o first
				return err
			}
			asJSON := cmd.Bool("json")
			s, err := j.Run(ctx, job.Progress{W: std.Err, Quiet: cmd.Bool("quiet") || asJSON})
			if err != nil || !asJSON {
				return err
			}
			return writeJSON(std.Out, s)
		},
	}
}
