package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel/bench"
	"github.com/cclabel/cclabel/job"
	"github.com/urfave/cli/v3"
)

// genCommand is "cclabel gen".
func genCommand(std stdio) *cli.Command {
	return &cli.Command{
		Name:         "gen",
		Usage:        "make synthetic inputs for tests and benchmarks",
		OnUsageError: onUsageError,
		Commands: []*cli.Command{
			genImageCommand(std),
			genVolumeCommand(std),
			{
				Name:         "graph",
				Usage:        "write a synthetic graph as .egr (.egr64 for 2^31 arcs or more)",
				OnUsageError: onUsageError,
				Commands: []*cli.Command{
					genGraphCommand(std, "grid", "4-neighbour grid, like ECL-CC's 2d-2e20.sym (1024x1024)",
						[]cli.Flag{
							&cli.IntFlag{Name: "width", Value: 1024, Usage: "vertices per row"},
							&cli.IntFlag{Name: "height", Value: 1024, Usage: "rows"},
						},
						"width", "height"),
					genGraphCommand(std, "random", "each vertex joined to K random others, like r4-2e23.sym (K=4)",
						[]cli.Flag{
							&cli.IntFlag{Name: "vertices", Value: 1 << 20, Usage: "number of vertices"},
							&cli.IntFlag{Name: "degree", Value: 4, Usage: "random neighbours picked per vertex (K)"},
						},
						"vertices", "degree"),
					genGraphCommand(std, "rmat", "R-MAT graph (a=0.57 b=0.19 c=0.19), like rmat22.sym (scale 22, edge factor 8)",
						[]cli.Flag{
							&cli.IntFlag{Name: "scale", Value: 20, Usage: "2^scale vertices"},
							&cli.IntFlag{Name: "edge-factor", Value: 8, Usage: "edges drawn per vertex"},
						},
						"scale", "edge-factor"),
				},
			},
		},
	}
}

// genGraphCommand builds one "cclabel gen graph KIND" command, whose flags
// a and b are its size (bench.NewGraph).
func genGraphCommand(std stdio, name, usage string, flags []cli.Flag, a, b string) *cli.Command {
	flags = append(flags,
		seedFlag("graph"),
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "output .egr file (.egr64: 64-bit offsets, for 2^31 arcs or more)", Required: true, TakesFile: true},
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
			if ext := strings.ToLower(filepath.Ext(out)); ext != ".egr" && ext != ".egr64" {
				return usagef("gen graph %s: -o %s: want a .egr or .egr64 file", name, out)
			}
			if err := job.CheckOutputDir(out); err != nil {
				return err
			}
			g, err := bench.NewGraph(name, cmd.Int(a), cmd.Int(b), cmd.Uint64("seed"))
			if err != nil {
				return err
			}
			if err := bench.WriteGraph(out, g); err != nil {
				return err
			}
			fmt.Fprintf(std.Err, "%s: %s graph, %d vertices, %d edges\n", out, name, g.NumVertices(), g.NumEdges())
			return nil
		},
	}
}

// genImageCommand is "cclabel gen image".
func genImageCommand(std stdio) *cli.Command {
	return &cli.Command{
		Name:         "image",
		Usage:        "write a synthetic image: .npy (uint8 0/1, or uint32 cells) or .png (masks only, 0/255)",
		OnUsageError: onUsageError,
		Flags:        syntheticFlags("image", "pixels", "1024x1024", "WIDTHxHEIGHT", 0.5, 4, "output .npy or .png"),
		Action: func(_ context.Context, cmd *cli.Command) error {
			var w, h int
			if _, err := fmt.Sscanf(cmd.String("size"), "%dx%d", &w, &h); err != nil {
				return usagef("gen image: --size %q: want WIDTHxHEIGHT", cmd.String("size"))
			}
			out := cmd.String("output")
			ext := strings.ToLower(filepath.Ext(out))
			if ext != ".npy" && ext != ".png" {
				return usagef("gen image: -o %s: want .npy or .png", out)
			}
			s, err := writeSynthetic(cmd, std, out, w, h, 1)
			if err != nil {
				return err
			}
			if !cmd.Bool("quiet") {
				fmt.Fprintf(std.Err, "%s: %dx%d %s image, %s\n", out, w, h, s.Kind, s.Note())
			}
			return nil
		},
	}
}

// seedFlag is the --seed of a generator of what (graph, image or volume):
// a decimal number, so that "08" is eight and "010" ten (the flag's
// default base would read a leading 0 as octal).
func seedFlag(what string) *cli.Uint64Flag {
	return &cli.Uint64Flag{Name: "seed", Value: 1, Config: cli.IntegerConfig{Base: 10},
		Usage: "random seed, decimal (same seed, same " + what + ")"}
}

// syntheticFlags are the flags of "gen image" and "gen volume": what
// (image or volume) is made of units (pixels or voxels), the default size
// in the size syntax, the default density and blob radius, and -o's usage.
func syntheticFlags(what, units, size, syntax string, density float64, radius int, output string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "size", Value: size, Usage: syntax},
		&cli.FloatFlag{Name: "density", Value: density, Usage: "fraction of foreground " + units},
		&cli.StringFlag{Name: "kind", Value: "random", Usage: "random (independent " + units + "), blobs (smoothed noise, thresholded), cells (a dense segmentation: Voronoi cells with distinct random uint32 values, background walls between about half of them) or neurites (an EM-like segmentation: thin anisotropic tubes, branching, cut into fragments)"},
		&cli.IntFlag{Name: "cells", Value: 4000, Usage: "cells, neurites: about how many cells or fragments (labels)"},
		&cli.IntFlag{Name: "radius", Value: radius, Usage: "blobs: smoothing radius in " + units},
		seedFlag(what),
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: output, Required: true, TakesFile: true},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress display and no summary line"},
	}
}

// genProgress is where "gen image" and "gen volume" show how far they
// are: std.Err, or nil with --quiet.
func genProgress(cmd *cli.Command, std stdio) io.Writer {
	if cmd.Bool("quiet") {
		return nil
	}
	return std.Err
}

// writeSynthetic makes the raster of "gen image" or "gen volume" that the
// flags describe and writes it to out.
func writeSynthetic(cmd *cli.Command, std stdio, out string, w, h, d int) (bench.Synthetic, error) {
	s := bench.Synthetic{Kind: cmd.String("kind"), Density: cmd.Float("density"), Radius: cmd.Int("radius"),
		Cells: cmd.Int("cells"), Seed: cmd.Uint64("seed")}
	return s, bench.WriteSynthetic(out, s, w, h, d, genProgress(cmd, std))
}

// genVolumeCommand is "cclabel gen volume".
func genVolumeCommand(std stdio) *cli.Command {
	return &cli.Command{
		Name:         "volume",
		Usage:        "write a synthetic volume: .npy (uint8 0/1 or uint32 cells, shape (Z, Y, X)) or .nii/.nii.gz (1 mm voxels)",
		OnUsageError: onUsageError,
		Flags:        syntheticFlags("volume", "voxels", "128,128,128", "X,Y,Z", 0.3, 3, "output .npy, .nii or .nii.gz"),
		Action: func(_ context.Context, cmd *cli.Command) error {
			var x, y, z int
			if _, err := fmt.Sscanf(cmd.String("size"), "%d,%d,%d", &x, &y, &z); err != nil {
				return usagef("gen volume: --size %q: want X,Y,Z", cmd.String("size"))
			}
			out := cmd.String("output")
			lower := strings.ToLower(out)
			nifti := strings.HasSuffix(lower, ".nii") || strings.HasSuffix(lower, ".nii.gz")
			if !nifti && !strings.HasSuffix(lower, ".npy") {
				return usagef("gen volume: -o %s: want .npy, .nii or .nii.gz", out)
			}
			if bench.Streamed(x, y, z) {
				// More voxels than fit in memory as one raster: streamed.
				return writeLargeRandom(cmd, std, out, x, y, z)
			}
			s, err := writeSynthetic(cmd, std, out, x, y, z)
			if err != nil {
				return err
			}
			if !cmd.Bool("quiet") {
				fmt.Fprintf(std.Err, "%s: %dx%dx%d %s volume, %s\n", out, x, y, z, s.Kind, s.Note())
			}
			return nil
		},
	}
}

// writeLargeRandom writes a random volume too large for one raster to a
// .npy file as it is generated (bench.WriteRandomStream), for out-of-core
// labeling.
func writeLargeRandom(cmd *cli.Command, std stdio, out string, x, y, z int) error {
	density := cmd.Float("density")
	s := bench.Synthetic{Kind: cmd.String("kind"), Density: density, Seed: cmd.Uint64("seed")}
	if err := bench.WriteRandomStream(out, s, x, y, z, genProgress(cmd, std)); err != nil {
		return err
	}
	if !cmd.Bool("quiet") {
		fmt.Fprintf(std.Err, "%s: %dx%dx%d random volume, density %g (written as generated)\n", out, x, y, z, density)
	}
	return nil
}
