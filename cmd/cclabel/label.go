package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/internal/parallel"
	"github.com/cclabel/cclabel/labelfile"
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
		Action:       func(_ context.Context, cmd *cli.Command) error { return runLabel(cmd, std) },
	}
}

// labelSummary is the --json object of one labeled image.
type labelSummary struct {
	Input        string      `json:"input"`
	Width        int         `json:"width"`
	Height       int         `json:"height"`
	Depth        int         `json:"depth,omitempty"`
	Components   int         `json:"components"`
	Connectivity int         `json:"connectivity"`
	Mode         string      `json:"mode"`
	Backend      string      `json:"backend"`
	Threads      int         `json:"threads"`
	Seconds      stageTimes  `json:"seconds"`
	LabelStages  labelStages `json:"label_seconds"`
	GPU          *gpuTimes   `json:"gpu_seconds,omitempty"`
}

// runLabel labels every input.
func runLabel(cmd *cli.Command, std stdio) error {
	if cmd.NArg() == 0 {
		return usagef("label: want at least one IMAGE")
	}
	settings, err := labelSettingsFromFlags(cmd, "label", "auto", "uint16", "uint32", "int32")
	if err != nil {
		return err
	}
	labeler, err := newLabeler(cmd, std.Err)
	if err != nil {
		return err
	}
	defer labeler.Close()
	conn := cmd.Int("connectivity")
	if conn != 4 && conn != 8 {
		return usagef("label: --connectivity %d: want 4 or 8 (use 'cclabel volume' for 6, 18 or 26)", conn)
	}
	jobs, err := planLabelJobs(cmd)
	if err != nil {
		return err
	}
	quiet := cmd.Bool("quiet")
	outputs := func(job labelfile.ImageOutputs) []string { return []string{job.Output, job.Labels, job.Stats} }
	err = runJobs(jobs, cmd.Bool("json"), std, outputs, func(job labelfile.ImageOutputs) (labelSummary, error) {
		bar := fileBar(cmd, std, job.Input)
		defer bar.Close()
		return labelOne(job, settings, conn, labeler, std, bar, quiet)
	})
	if err == nil && !quiet && cmd.String("output")+cmd.String("labels")+cmd.String("stats") == "" {
		fmt.Fprintln(std.Err, "cclabel: label: nothing was written (give -o, --labels or --stats)")
	}
	return err
}

// runJobs runs every job of a command with several inputs: a failing job is
// reported on stderr and the others go on (with a single input its error
// is the command's). The outputs of one job appear together when it
// succeeds, and none of them when it fails or is interrupted. With asJSON
// the summaries go to stdout: one object for one input, an array for
// several.
func runJobs[J, S any](jobs []J, asJSON bool, std stdio, outputs func(J) []string, run func(J) (S, error)) error {
	var summaries []S
	failed := 0
	for _, job := range jobs {
		var s S
		err := allOrNothing(outputs(job), func() (err error) {
			s, err = run(job)
			return err
		})
		if err != nil {
			if len(jobs) == 1 {
				return err
			}
			fmt.Fprintf(std.Err, "cclabel: %v\n", err)
			failed++
			continue
		}
		summaries = append(summaries, s)
	}
	if asJSON {
		var v any = summaries
		if len(jobs) == 1 {
			v = summaries[0]
		}
		if err := writeJSON(std.Out, v); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d inputs failed", failed, len(jobs))
	}
	return nil
}

// planLabelJobs checks the output flags and names every input's outputs
// before any work is done.
func planLabelJobs(cmd *cli.Command) ([]labelfile.ImageOutputs, error) {
	inputs := cmd.Args().Slice()
	out, labels, stats := cmd.String("output"), cmd.String("labels"), cmd.String("stats")
	if len(inputs) == 1 {
		job := labelfile.ImageOutputs{Input: inputs[0], Output: out, Labels: labels, Stats: stats}
		if err := checkExt("-o", out, ".png"); err != nil {
			return nil, err
		}
		if err := checkExt("--labels", labels, ".npy", ".png"); err != nil {
			return nil, err
		}
		if err := checkExt("--stats", stats, ".csv", ".json"); err != nil {
			return nil, err
		}
		stdouts := 0
		for _, p := range []string{out, labels, stats} {
			if p == "-" {
				stdouts++
			}
		}
		if stdouts > 1 || (stdouts == 1 && cmd.Bool("json")) {
			return nil, usagef("label: only one output can go to stdout")
		}
		jobs := []labelfile.ImageOutputs{job}
		return jobs, checkClobber("label", inputFiles(inputs...), imageOutputFiles(jobs))
	}
	if out == "" && (labels != "" || stats != "") {
		return nil, usagef("label: with several inputs, give -o FOLDER for the outputs")
	}
	if out != "" {
		if st, err := os.Stat(out); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("-o %s: with several inputs, -o must be an existing folder", out)
		}
	}
	if err := cmp.Or(checkJustExt("--labels", labels, ".npy", ".png"), checkJustExt("--stats", stats, ".csv", ".json")); err != nil {
		return nil, err
	}
	jobs, err := labelfile.ImageOutputsIn(out, inputs, labels, stats)
	if err != nil {
		return nil, usagef("label: %v", err)
	}
	return jobs, checkClobber("label", inputFiles(inputs...), imageOutputFiles(jobs))
}

// checkJustExt fails unless value is "" or one of exts, in any case: with
// several inputs, the output flags give just the extension.
func checkJustExt(flag, value string, exts ...string) error {
	if value != "" && !slices.Contains(exts, strings.ToLower(value)) {
		return usagef("%s %s: with several inputs, give just the extension (%s)", flag, value, strings.Join(exts, " or "))
	}
	return nil
}

// checkExt validates an output path's extension and folder.
func checkExt(flag, path string, exts ...string) error {
	if path == "" || path == "-" {
		return nil
	}
	if !slices.Contains(exts, strings.ToLower(filepath.Ext(path))) {
		return usagef("%s %s: unknown extension (want %s)", flag, path, strings.Join(exts, " or "))
	}
	return labelfile.CheckOutputDir(path)
}

// labelOne reads, labels and writes one image, showing its stages on bar
// (which may be nil); quiet drops the summary line.
func labelOne(job labelfile.ImageOutputs, settings labelfile.Settings, conn int, labeler *cclabel.Labeler, std stdio, bar *fileprogress.Bar, quiet bool) (labelSummary, error) {
	var times stageTimes
	clock := newStopwatch()
	bar.Stage("reading", job.Input)
	// The label array is made, and its pages faulted in on a spare core,
	// while the pixels are decoded.
	dst, stop := labelArrayFor(inPlace(job.Input, nil, labeler), func() (int, bool) { return formats.ImagePixels(job.Input) })
	defer stop()
	img, release, err := formats.MapImageFile(job.Input, std.In)
	if err != nil {
		return labelSummary{}, err
	}
	defer release()
	raster := img.Raster
	times.Read = clock.lap()

	bar.Stage("labeling", img.Raster)
	res, err := labelfile.LabelImageInto(labeler, img, settings, conn, dst)
	if err != nil {
		return labelSummary{}, fmt.Errorf("%s: %w", job.Input, err)
	}
	labels := res.Labels
	times.Label = clock.lap()

	bar.Stage("writing")
	if err := labelfile.WriteImage(job, img, labels, settings, std.Out); err != nil {
		return labelSummary{}, err
	}
	times.Write = clock.lap()
	times.Total = clock.total()
	s := labelSummary{Input: job.Input, Width: raster.Width, Height: raster.Height, Components: labels.Count,
		Connectivity: conn, Mode: settings.Rule.String(), Backend: string(res.Backend),
		Threads: labeler.Threads(), Seconds: times, LabelStages: labelStagesOf(times.Label, res.Timing),
		GPU: gpuTimesOf(res.Backend, res.Timing)}
	bar.Close()
	if quiet {
		return s, nil
	}
	fmt.Fprintf(std.Err, "%s: %dx%d %s, %d components [%s c%d, %s, %d threads]; read %.3fs, label %.3fs, write %.3fs\n",
		job.Input, raster.Width, raster.Height, raster.Kind, labels.Count, s.Mode, s.Connectivity,
		s.Backend, s.Threads, times.Read, times.Label, times.Write)
	return s, nil
}

// labelArrayFor returns a label array for the number of labels size reads
// from the input's header, with its pages being faulted in on a background
// goroutine while the input is read, and the function that stops that; a
// nil array when the size is unknown, the machine has fewer than
// prefaultMinCores cores, or mapped is set (size is not called then).
func labelArrayFor(mapped bool, size func() (int, bool)) ([]uint32, func()) {
	if mapped || runtime.GOMAXPROCS(0) < prefaultMinCores {
		return nil, func() {}
	}
	n, ok := size()
	if !ok || n < 1 {
		return nil, func() {}
	}
	return parallel.AllocPopulated[uint32](n)
}

// inPlace reports whether input's samples will be mapped rather than read
// (formats.MapsSamples) and labeled on the CPU on every core: such a read
// takes milliseconds, so there is nothing to overlap the label array's
// page faults with, and labelArrayFor leaves the array to the labeler's
// own allocation (parallel.AllocFor), which touches it on every labeling
// thread rather than on a goroutine competing with them. With fewer
// threads, or where the GPU may label (its setup leaves the cores idle),
// the array is made during the read on a core the labeling leaves free.
func inPlace(input string, raw *formats.RawOptions, labeler *cclabel.Labeler) bool {
	return formats.MapsSamples(input, raw) && labeler.Threads() >= runtime.GOMAXPROCS(0) && !labeler.MayUseGPU()
}

// prefaultMinCores is the fewest cores with which the label array is
// faulted in during the read, on a core the read leaves idle at least in
// part: the label stage then finds its array's pages in place, for a
// slightly longer read.
const prefaultMinCores = 2
