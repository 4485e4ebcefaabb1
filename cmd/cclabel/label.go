package main

import (
	"context"

	"github.com/cclabel/cclabel/job"
	"github.com/urfave/cli/v3"
)

// labelCommand is "cclabel label".
func labelCommand(std stdio) *cli.Command {
	flags := labelingFlags(8, "4 or 8")
	flags = append(flags,
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, TakesFile: true,
			Usage: "coloured label map (.png; '-' for stdout); with several inputs, an existing folder"},
		&cli.StringFlag{Name: "labels", TakesFile: true,
			Usage: "label array: .npy or 16-bit .png; with several inputs, just the extension (.npy, .png)"},
		&cli.BoolFlag{Name: "overlay", Usage: "-o shows label colours blended over the input"},
		&cli.StringFlag{Name: "dtype", Value: "auto", Usage: ".npy label type: auto (uint16 when it fits, else uint32), uint16, uint32 or int32"},
		quietFlag,
	)
	flags = append(flags, tableFlags("image")...)
	return &cli.Command{
		Name:      "label",
		Usage:     "label the connected components of 2D images",
		ArgsUsage: "IMAGE...",
		Description: "IMAGE is PNG, JPEG (EXIF orientation applied), GIF, BMP, TIFF, WebP or a 2D .npy; '-' reads stdin. " +
			"Grey samples are used as stored (8 or 16 bit); colour with R=G=B is grey, other colour is packed 0xRRGGBB. " +
			"Default mode multilabel: equal nonzero values connect. With several inputs, -o is a folder and each " +
			"input's outputs are named after it (a.png, a.labels.npy, a.stats.csv); a failing input is reported " +
			"and the others go on (exit status 1).",
		OnUsageError: onUsageError,
		Flags:        flags,
		Action:       func(ctx context.Context, cmd *cli.Command) error { return runLabel(ctx, cmd, std) },
	}
}

// runLabel labels every input.
func runLabel(ctx context.Context, cmd *cli.Command, std stdio) error {
	if cmd.NArg() == 0 {
		return usagef("label: want at least one IMAGE")
	}
	settings, err := settingsFromFlags(cmd, "label", "auto", "uint16", "uint32", "int32")
	if err != nil {
		return err
	}
	labeler, err := newLabeler(cmd, std.Err)
	if err != nil {
		return err
	}
	defer labeler.Release() // in the background: the exit does not wait for it
	j := job.Image{Inputs: cmd.Args().Slice(), Output: cmd.String("output"), Labels: cmd.String("labels"),
		Stats: cmd.String("stats"), Contacts: cmd.String("contacts"), Intensity: cmd.String("intensity"), StatsOnly: cmd.Bool("stats-only"), Settings: settings, Connectivity: cmd.Int("connectivity"),
		Stdin: std.In, Stdout: std.Out, JSON: cmd.Bool("json")}
	s, err := j.Run(ctx, labeler, std.progress(cmd))
	return printSummaries(std, j.JSON, len(j.Inputs), s, err)
}
