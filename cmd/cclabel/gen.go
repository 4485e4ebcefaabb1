package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/gen"
	"github.com/urfave/cli/v3"
)

// genCommand is "cclabel gen".
func genCommand(std stdio) *cli.Command {
	return &cli.Command{
		Name:         "gen",
		Usage:        "make synthetic inputs for tests and benchmarks",
		OnUsageError: onUsageError,
		Commands: []*cli.Command{
			{
				Name:         "graph",
				Usage:        "write a synthetic graph as .egr",
				OnUsageError: onUsageError,
				Commands: []*cli.Command{
					genGraphCommand(std, "grid", "4-neighbour grid, like ECL-CC's 2d-2e20.sym (1024x1024)",
						[]cli.Flag{
							&cli.IntFlag{Name: "width", Value: 1024, Usage: "vertices per row"},
							&cli.IntFlag{Name: "height", Value: 1024, Usage: "rows"},
						},
						func(cmd *cli.Command) (*ecl.Graph, error) {
							return gen.GridGraph(cmd.Int("width"), cmd.Int("height"))
						}),
					genGraphCommand(std, "random", "each vertex joined to K random others, like r4-2e23.sym (K=4)",
						[]cli.Flag{
							&cli.IntFlag{Name: "vertices", Value: 1 << 20, Usage: "number of vertices"},
							&cli.IntFlag{Name: "degree", Value: 4, Usage: "random neighbours picked per vertex (K)"},
						},
						func(cmd *cli.Command) (*ecl.Graph, error) {
							return gen.RandomGraph(cmd.Int("vertices"), cmd.Int("degree"), cmd.Uint64("seed"))
						}),
					genGraphCommand(std, "rmat", "R-MAT graph (a=0.57 b=0.19 c=0.19), like rmat22.sym (scale 22, edge factor 8)",
						[]cli.Flag{
							&cli.IntFlag{Name: "scale", Value: 20, Usage: "2^scale vertices"},
							&cli.IntFlag{Name: "edge-factor", Value: 8, Usage: "edges drawn per vertex"},
						},
						func(cmd *cli.Command) (*ecl.Graph, error) {
							return gen.RMATGraph(cmd.Int("scale"), cmd.Int("edge-factor"), cmd.Uint64("seed"))
						}),
				},
			},
		},
	}
}

// genGraphCommand builds one "cclabel gen graph KIND" command.
func genGraphCommand(std stdio, name, usage string, flags []cli.Flag,
	make func(*cli.Command) (*ecl.Graph, error)) *cli.Command {
	flags = append(flags,
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed (same seed, same graph)"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "output .egr file", Required: true, TakesFile: true},
	)
	return &cli.Command{
		Name:         name,
		Usage:        usage,
		Flags:        flags,
		OnUsageError: onUsageError,
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 0 {
				return usagef("gen graph %s: unexpected argument %q", name, cmd.Args().First())
			}
			out := cmd.String("output")
			if strings.ToLower(filepath.Ext(out)) != ".egr" {
				return usagef("gen graph %s: -o %s: want a .egr file", name, out)
			}
			if err := checkOutputDir(out); err != nil {
				return err
			}
			g, err := make(cmd)
			if err != nil {
				return usageError{err}
			}
			if err := formats.WriteGraphFile(out, g); err != nil {
				return err
			}
			fmt.Fprintf(std.err, "%s: %s graph, %d vertices, %d edges\n", out, name, g.NumVertices(), g.NumEdges())
			return nil
		},
	}
}
