package main

import (
	"slices"
	"strings"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/labelfile"
	"github.com/urfave/cli/v3"
)

// labelingFlags are the flags shared by the commands that label rasters.
func labelingFlags(defaultConn int, connUsage string) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "connectivity", Aliases: []string{"c"}, Value: defaultConn, Usage: connUsage},
		&cli.BoolFlag{Name: "binary", Usage: "any nonzero value is foreground (default: multilabel, equal nonzero values connect)"},
		&cli.FloatFlag{Name: "threshold", Usage: "values >= T are foreground"},
		&cli.BoolFlag{Name: "invert", Usage: "with --threshold: values < T are foreground"},
		&cli.Int64Flag{Name: "min-size", Usage: "drop components smaller than N pixels, then renumber"},
		&cli.IntFlag{Name: "largest", Usage: "keep only the K largest components, then renumber"},
		&cli.StringFlag{Name: "stats", Usage: "per-component statistics: .csv or .json", TakesFile: true},
		&cli.StringFlag{Name: "backend", Value: "auto", Usage: "auto (GPU when present and the input is large, else cpu), gpu, cpu (parallel Go) or serial"},
		&cli.IntFlag{Name: "threads", Usage: "goroutines for the cpu backend (0: all cores)"},
		&cli.BoolFlag{Name: "json", Usage: "print a JSON summary on stdout"},
	}
}

// ruleFromFlags reads --binary, --threshold and --invert.
func ruleFromFlags(cmd *cli.Command) (imagegraph.Rule, error) {
	binary, hasThreshold, invert := cmd.Bool("binary"), cmd.IsSet("threshold"), cmd.Bool("invert")
	switch {
	case binary && hasThreshold:
		return imagegraph.Rule{}, usagef("--binary and --threshold exclude each other")
	case invert && !hasThreshold:
		return imagegraph.Rule{}, usagef("--invert needs --threshold")
	case hasThreshold:
		r := imagegraph.Rule{Mode: imagegraph.Threshold, Threshold: cmd.Float("threshold"), Invert: invert}
		if err := r.Validate(); err != nil {
			return r, usageError{Err: err}
		}
		return r, nil
	case binary:
		return imagegraph.Rule{Mode: imagegraph.Binary}, nil
	}
	return imagegraph.Rule{Mode: imagegraph.Multilabel}, nil
}

// labelSettingsFromFlags reads the foreground rule, the size filters,
// --dtype (one of dtypes) and --overlay; command names the command in
// errors.
func labelSettingsFromFlags(cmd *cli.Command, command string, dtypes ...string) (labelfile.Settings, error) {
	rule, err := ruleFromFlags(cmd)
	if err != nil {
		return labelfile.Settings{}, err
	}
	s := labelfile.Settings{Rule: rule, MinSize: cmd.Int64("min-size"), Largest: cmd.Int("largest"),
		DType: cmd.String("dtype"), Overlay: cmd.Bool("overlay")}
	if s.MinSize < 0 || s.Largest < 0 {
		return labelfile.Settings{}, usagef("%s: --min-size and --largest must not be negative", command)
	}
	if !slices.Contains(dtypes, s.DType) {
		return labelfile.Settings{}, usagef("--dtype %q: want %s", s.DType, strings.Join(dtypes, ", "))
	}
	return s, nil
}
