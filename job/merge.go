package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/outofcore"
	"github.com/urfave/cli/v3"
)

// mergeCommand is "cclabel merge".
func mergeCommand(std stdio) *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "join the chunks of 'cclabel volume --chunk' into one label volume",
		ArgsUsage: "VOLUME CHUNKDIR",
		Description: "VOLUME is the volume the chunks were labeled from (read again for the planes at the chunks' seams: " +
			".npy, .nii, .nii.gz, .nrrd, .nhdr or raw with --shape and --raw-dtype); CHUNKDIR holds every chunk's chunk-IIIII.json and " +
			".labels. The labels written to -o (.nii, .nii.gz or .npy) are those 'cclabel volume' gives the whole volume.",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, TakesFile: true, Usage: "label volume: .nii, .nii.gz or .npy"},
			&cli.StringFlag{Name: "dtype", Value: "auto", Usage: "label type: auto (uint16 when it fits, else uint32), uint16 or uint32"},
			&cli.StringFlag{Name: "shape", Usage: "raw input: X,Y,Z"},
			&cli.StringFlag{Name: "raw-dtype", Usage: "raw input sample type (uint8, int16, float32, ...)"},
			&cli.BoolFlag{Name: "big-endian", Usage: "raw input is big-endian"},
			&cli.BoolFlag{Name: "json", Usage: "print a JSON summary on stdout"},
			quietFlag,
		},
		Action: func(_ context.Context, cmd *cli.Command) error { return runMerge(cmd, std) },
	}
}

// runMerge merges the chunks of one volume.
func runMerge(cmd *cli.Command, std stdio) error {
	if cmd.NArg() != 2 {
		return usagef("merge: want VOLUME CHUNKDIR")
	}
	out := cmd.String("output")
	if out == "" {
		return usagef("merge: give -o for the label volume")
	}
	if lower := strings.ToLower(out); !strings.HasSuffix(lower, ".nii") && !strings.HasSuffix(lower, ".nii.gz") && !strings.HasSuffix(lower, ".npy") {
		return usagef("merge: -o %s: want .nii, .nii.gz or .npy", out)
	}
	raw, err := rawOptions(cmd)
	if err != nil {
		return err
	}
	input, dir := cmd.Args().Get(0), cmd.Args().Get(1)
	inputs := []string{input}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "chunk-") {
			inputs = append(inputs, filepath.Join(dir, e.Name()))
		}
	}
	if err := checkClobber("merge", inputFiles(inputs...), []atomicfile.Named{outputFile("-o", out)}); err != nil {
		return err
	}
	clock := newStopwatch()
	res, err := outofcore.Merge(input, raw, dir, out, cmd.String("dtype"))
	if err != nil {
		return err
	}
	times := stageTimes{Label: res.Label.Seconds(), Write: res.Write.Seconds(), Total: clock.total()}
	s := volumeSummary{Input: input, Format: res.Format, Width: res.Width, Height: res.Height, Depth: res.Depth, Frames: 1,
		Components: res.Count, Connectivity: res.Connectivity, Mode: res.Rule.String(), Backend: string(cclabel.BackendCPU),
		Seconds: times, Slabs: res.Slabs}
	if cmd.Bool("json") {
		return writeJSON(std.Out, s)
	}
	if !cmd.Bool("quiet") {
		fmt.Fprintf(std.Err, "%s: %d chunks merged, %d components; join %.3fs, write %.3fs\n", input, res.Slabs, res.Count, times.Label, times.Write)
	}
	return nil
}
