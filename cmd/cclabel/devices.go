package main

import (
	"context"
	"fmt"

	"github.com/cclabel/cclabel"
	"github.com/urfave/cli/v3"
)

// devicesCommand is "cclabel devices".
func devicesCommand(std stdio) *cli.Command {
	return &cli.Command{
		Name:         "devices",
		Usage:        "list the GPUs cclabel can use, or say why it cannot use any",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print a JSON object on stdout"},
		},
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 0 {
				return usagef("devices: unexpected argument %q", cmd.Args().First())
			}
			s := cclabel.Devices()
			if cmd.Bool("json") {
				return writeJSON(std.Out, s)
			}
			if !s.Available {
				fmt.Fprintf(std.Out, "no usable GPU: %s\n", s.Reason)
				return nil
			}
			fmt.Fprintf(std.Out, "CUDA driver %s\n", s.Driver)
			for _, d := range s.Devices {
				fmt.Fprintf(std.Out, "%d: %s, %.1f GiB, compute capability %s, %d multiprocessors\n",
					d.Ordinal, d.Name, float64(d.MemoryBytes)/(1<<30), d.ComputeCapability(), d.Multiprocessors)
			}
			return nil
		},
	}
}
