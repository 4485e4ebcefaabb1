package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/batch"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/job"
	"github.com/urfave/cli/v3"
)

// quietFlag silences the progress display and summary lines of the
// commands that print them.
var quietFlag = &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"},
	Usage: "no progress display for long files and no summary line (errors and warnings are still printed)"}

// labelingFlags are the flags shared by the commands that label rasters.
func labelingFlags(defaultConn int, connUsage string) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "connectivity", Aliases: []string{"c"}, Value: defaultConn, Usage: connUsage},
		&cli.BoolFlag{Name: "binary", Usage: "any nonzero value is foreground (default: multilabel, equal nonzero values connect)"},
		&cli.FloatFlag{Name: "threshold", Usage: "values >= T are foreground"},
		&cli.BoolFlag{Name: "invert", Usage: "with --threshold: values < T are foreground"},
		&cli.Int64Flag{Name: "min-size", Usage: "drop components smaller than N pixels, then renumber"},
		&cli.IntFlag{Name: "largest", Usage: "keep only the K largest components, then renumber"},
		&cli.FloatFlag{Name: "background", Usage: "multilabel: the sample value V is background instead of 0 (0 is then a value like any other)"},
		&cli.StringFlag{Name: "order", Value: "first", Usage: "numbering of the components: first (first occurrence) or size (decreasing size, ties by first occurrence)"},
		&cli.StringFlag{Name: "stats", Usage: "per-component statistics: .csv or .json", TakesFile: true},
		&cli.StringFlag{Name: "measure", Usage: "--stats also measures: a list of intensity (sum, mean, min, max, std, weighted centroid; " +
			"of --intensity, or of the input under --threshold) and shape (surface_mm2 in 3D or perimeter in 2D, eq_diameter)"},
		&cli.StringFlag{Name: "backend", Value: "auto", Usage: "auto (the GPU when one is usable and expected to be faster, else cpu), gpu, cpu (parallel Go) or serial"},
		&cli.IntFlag{Name: "threads", Usage: "goroutines for the cpu backend (0: all cores)"},
		&cli.BoolFlag{Name: "json", Usage: "print a JSON summary on stdout"},
	}
}

// tableFlags are the flags of the tables of "label" and "volume" beyond
// --stats and --measure.
func tableFlags(what string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "intensity", TakesFile: true, Usage: "an " + what + " of the same shape whose samples give the intensity statistics (--measure intensity)"},
		&cli.StringFlag{Name: "contacts", TakesFile: true, Usage: "pairs of touching components (faces shared, 6/4-neighbours): .csv or .json; label_a,label_b,faces,area_mm2"},
		&cli.BoolFlag{Name: "stats-only", Usage: "write only the tables (--stats, --contacts), no labels"},
	}
}

// settingsFromFlags reads the foreground rule (--binary, --threshold,
// --invert), the size filters, --dtype (one of dtypes) and --overlay;
// command names the command in errors.
func settingsFromFlags(cmd *cli.Command, command string, dtypes ...string) (job.Settings, error) {
	var s job.Settings
	var err error
	if s.Rule, err = job.RuleOf(cmd.Bool("binary"), cmd.IsSet("threshold"), cmd.Float("threshold"), cmd.Bool("invert")); err != nil {
		return s, err
	}
	s.MinSize, s.Largest, s.DType, s.Overlay = cmd.Int64("min-size"), cmd.Int("largest"), cmd.String("dtype"), cmd.Bool("overlay")
	if s.MinSize < 0 || s.Largest < 0 {
		return job.Settings{}, usagef("%s: --min-size and --largest must not be negative", command)
	}
	if s.Order, err = job.ParseOrder(cmd.String("order")); err != nil {
		return job.Settings{}, err
	}
	if s.Measures, err = job.ParseMeasures(cmd.String("measure")); err != nil {
		return job.Settings{}, err
	}
	s.Background = cmd.Float("background")
	if err := s.Validate(); err != nil {
		return job.Settings{}, job.UsageError{Err: err}
	}
	if !slices.Contains(dtypes, s.DType) {
		return job.Settings{}, usagef("--dtype %q: want %s", s.DType, strings.Join(dtypes, ", "))
	}
	return s, nil
}

// labelerOptions reads --backend, --algo, --threads and --gpus into the
// facade's options; warnings go to stderr.
func labelerOptions(cmd *cli.Command, stderr io.Writer) (cclabel.Options, error) {
	opts := cclabel.Options{Warnings: stderr, StartGPU: true}
	if name := cmd.String("algo"); name != "" { // commands without --algo use ECL-CC
		algo, err := cclabel.ParseAlgorithm(name)
		if err != nil {
			return opts, job.UsageError{Err: err}
		}
		opts.Algorithm = algo
	}
	if opts.Threads = cmd.Int("threads"); opts.Threads < 0 {
		return opts, usagef("--threads %d: must be 0 (all cores) or more", opts.Threads)
	}
	backend, err := cclabel.ParseBackend(cmd.String("backend"))
	if err != nil {
		return opts, usagef("--backend %q: want auto, gpu, cpu or serial", cmd.String("backend"))
	}
	opts.Backend = backend
	if spec := cmd.String("gpus"); spec != "" { // only volume has --gpus
		if opts.GPUs, err = job.ParseGPUs(spec); err != nil {
			return opts, err
		}
		if len(opts.GPUs) > 1 && backend != cclabel.BackendGPU && backend != cclabel.BackendAuto {
			return opts, usagef("--gpus %s: needs --backend gpu or auto", spec)
		}
	}
	return opts, nil
}

// opened holds the labelers of the run, closed at exit (job.ExitGPU).
var opened, openedMu = []*cclabel.Labeler(nil), sync.Mutex{}

// newLabeler returns the labeler the flags ask for, closed when the
// process exits; --backend gpu fails when no GPU can be used.
func newLabeler(cmd *cli.Command, stderr io.Writer) (*cclabel.Labeler, error) {
	opts, err := labelerOptions(cmd, stderr)
	if err != nil {
		return nil, err
	}
	l, err := cclabel.New(opts)
	if err == nil {
		openedMu.Lock()
		opened = append(opened, l)
		openedMu.Unlock()
	}
	return l, err
}

// rawFlags returns the flags of a raw volume input.
func rawFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "shape", Usage: "raw input: X,Y,Z"},
		&cli.StringFlag{Name: "raw-dtype", Usage: "raw input sample type (uint8, int16, float32, ...)"},
		&cli.BoolFlag{Name: "big-endian", Usage: "raw input is big-endian"},
	}
}

// rawOptions reads --shape, --raw-dtype and --big-endian.
func rawOptions(cmd *cli.Command) (*formats.RawOptions, error) {
	shape, dtype := cmd.String("shape"), cmd.String("raw-dtype")
	if shape == "" && dtype == "" {
		return nil, nil
	}
	if shape == "" || dtype == "" {
		return nil, usagef("volume: raw input needs both --shape X,Y,Z and --raw-dtype")
	}
	var o formats.RawOptions
	if _, err := fmt.Sscanf(shape, "%d,%d,%d", &o.Shape[0], &o.Shape[1], &o.Shape[2]); err != nil {
		return nil, usagef("volume: --shape %q: want X,Y,Z", shape)
	}
	o.DType, o.BigEndian = dtype, cmd.Bool("big-endian")
	return &o, nil
}

// shardFlag reads a shard i/n from flag (--shard or --chunk), or the count
// from countFlag (--shards or --chunks) and the index from the scheduler's
// environment; ok is false when neither is given, source names where the
// shard came from.
func shardFlag(cmd *cli.Command, flag, countFlag string) (s batch.Shard, source string, ok bool, err error) {
	if spec := cmd.String(flag); spec != "" {
		s, err := batch.ParseShard(spec)
		return s, "--" + flag, err == nil, err
	}
	s, source, ok, err = batch.ShardFromEnv(os.Getenv, cmd.Int(countFlag))
	return s, source, ok, err
}
