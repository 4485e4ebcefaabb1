package job

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/job/raster"
)

// Image labels 2D images and writes their outputs. It is the job of "cclabel
// label".
type Image struct {
	// Inputs are the image files; "-" reads Stdin (a single input only).
	Inputs []string
	// Output (a coloured label map, .png), Labels (a label array, .npy or
	// 16-bit .png) and Stats (per-component statistics, .csv or .json) name
	// the outputs of a single input: "" writes none, "-" writes to Stdout.
	// With several inputs Output is an existing folder and Labels and Stats
	// are only extensions: each input's outputs are named after it
	// ([raster.ImageOutputsIn]).
	Output, Labels, Stats string
	// Contacts (.csv or .json) lists the touching components, named as
	// Stats is.
	Contacts string
	// Intensity is the image of a single input's intensity statistics
	// (Settings.Measures); "" measures the input itself, under a threshold
	// rule only.
	Intensity string
	// StatsOnly asks for the tables alone: no Output or Labels.
	StatsOnly bool
	// Settings say how the images are labeled and written.
	Settings Settings
	// Connectivity is 4 or 8.
	Connectivity int
	// Stdin and Stdout are the standard streams; JSON reports that a
	// summary goes to Stdout, so that no output may.
	Stdin  io.Reader
	Stdout io.Writer
	JSON   bool
}

// Run labels every input with l and writes its outputs. It writes all of them
// or, when it fails or the process is interrupted, none. With several inputs
// a failing one is reported on p and the others go on, and the error is a
// [*FailedError]. Run returns the summaries of the inputs labeled.
func (j Image) Run(ctx context.Context, l *cclabel.Labeler, p Progress) ([]ImageSummary, error) {
	if len(j.Inputs) == 0 {
		return nil, usagef("label: want at least one IMAGE")
	}
	if j.Connectivity != 4 && j.Connectivity != 8 {
		return nil, usagef("label: --connectivity %d: want 4 or 8 (use 'cclabel volume' for 6, 18 or 26)", j.Connectivity)
	}
	if j.Intensity != "" { // an intensity image asks for intensity statistics
		j.Settings.Measures.Intensity = true
	}
	j.Settings.Threads = l.Threads()
	outs, err := j.plan()
	if err != nil {
		return nil, err
	}
	files := func(out raster.ImageOutputs) []string {
		return []string{out.Output, out.Labels, out.Stats, out.Contacts}
	}
	summaries, err := runFiles(ctx, outs, p, files, func(out raster.ImageOutputs, last bool, commit func() error) (ImageSummary, error) {
		return j.one(out, l, p, last, commit)
	})
	if err == nil && j.Output+j.Labels+j.Stats+j.Contacts == "" {
		p.printf("cclabel: label: nothing was written (give -o, --labels, --stats or --contacts)\n")
	}
	return summaries, err
}

// runFiles runs one job's files: a failing file is reported on p and the
// others go on (with a single file its error is the job's). The outputs of
// one file appear together when it succeeds, and none of them when it
// fails or is interrupted. Once ctx is done no further file starts, and the
// summaries so far come back with ctx's cause. run is told whether its file
// is the last, and given the function that puts the file's outputs in place
// once they are all written (allOrNothingCommit), so that it may count that
// in its time.
func runFiles[O, S any](ctx context.Context, outs []O, p Progress, files func(O) []string, run func(out O, last bool, commit func() error) (S, error)) ([]S, error) {
	var summaries []S
	failed := 0
	for i, out := range outs {
		if ctx.Err() != nil {
			return summaries, context.Cause(ctx)
		}
		var s S
		err := allOrNothingCommit(files(out), func(commit func() error) (err error) {
			s, err = run(out, i == len(outs)-1, commit)
			return err
		})
		if err != nil {
			if len(outs) == 1 {
				return nil, err
			}
			p.warnf("cclabel: %v\n", err)
			failed++
			continue
		}
		summaries = append(summaries, s)
	}
	if failed > 0 {
		return summaries, &FailedError{Failed: failed, Inputs: len(outs)}
	}
	return summaries, nil
}

// plan checks the outputs and names every input's outputs before any work
// is done.
func (j Image) plan() ([]raster.ImageOutputs, error) {
	inputs, out, labels, stats, contacts := j.Inputs, j.Output, j.Labels, j.Stats, j.Contacts
	t := tableFlags{command: "label", settings: j.Settings, inputs: inputs, stats: stats, contacts: contacts,
		intensity: j.Intensity, labelOutputs: labels != "" || out != "" && len(inputs) == 1, statsOnly: j.StatsOnly}
	ins, err := t.check()
	if err != nil {
		return nil, err
	}
	if len(inputs) == 1 {
		outs := []raster.ImageOutputs{{Input: inputs[0], Output: out, Labels: labels, Stats: stats, Contacts: contacts, Intensity: j.Intensity}}
		if err := cmp.Or(checkExt("-o", out, ".png"), checkExt("--labels", labels, ".npy", ".png"),
			checkExt("--stats", stats, ".csv", ".json"), checkExt("--contacts", contacts, ".csv", ".json")); err != nil {
			return nil, err
		}
		stdouts := len(slices.DeleteFunc([]string{out, labels, stats, contacts}, func(p string) bool { return p != "-" }))
		if stdouts > 1 || (stdouts == 1 && j.JSON) {
			return nil, usagef("label: only one output can go to stdout")
		}
		return outs, checkClobber("label", ins, imageOutputFiles(outs))
	}
	if out == "" && (labels != "" || stats != "" || contacts != "") {
		return nil, usagef("label: with several inputs, give -o FOLDER for the outputs")
	}
	if out != "" {
		if st, err := os.Stat(out); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("-o %s: with several inputs, -o must be an existing folder", out)
		}
	}
	if err := cmp.Or(checkJustExt("--labels", labels, ".npy", ".png"), checkJustExt("--stats", stats, ".csv", ".json"),
		checkJustExt("--contacts", contacts, ".csv", ".json")); err != nil {
		return nil, err
	}
	outs, err := raster.ImageOutputsIn(out, inputs, labels, stats, contacts)
	if err != nil {
		return nil, usagef("label: %v", err)
	}
	for i := range outs {
		if j.StatsOnly {
			outs[i].Output = ""
		}
	}
	return outs, checkClobber("label", ins, imageOutputFiles(outs))
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
	return CheckOutputDir(path)
}

// checkVolumeExt validates a label volume's extension (.nii, .nii.gz, .nrrd
// or .npy) and folder.
func checkVolumeExt(flag, path string) error {
	switch {
	case path == "":
		return nil
	case !formats.IsLabelVolumePath(path):
		return usagef("%s %s: unknown extension (want .nii, .nii.gz, .nrrd or .npy)", flag, path)
	}
	return CheckOutputDir(path)
}

// one reads, labels and writes one image; last says that no image follows,
// and commit puts the outputs in place.
func (j Image) one(out raster.ImageOutputs, l *cclabel.Labeler, p Progress, last bool, commit func() error) (ImageSummary, error) {
	bar := p.bar(out.Input)
	defer bar.Close()
	var times StageTimes
	clock := newStopwatch()
	bar.Stage("reading", out.Input)
	measured := measuresWhileLabeling(l.MayUseGPU, out.Output+out.Labels != "", out.Stats, out.Contacts, j.Settings)
	// The label array is made, and its pages faulted in on a spare core,
	// while the pixels are decoded; not for labels that may come back as
	// uint16, whose labeler touches only what it writes.
	counted := out.Output+out.Labels+out.Stats+out.Contacts == "" // no outputs: the count alone
	narrow := counted || raster.NarrowImageWrites(out, j.Settings)
	dst, stop := labelArrayFor(measured || narrow || inPlace(out.Input, nil, l), func() (int, bool) { return formats.ImagePixels(out.Input) })
	defer stop()
	img, release, err := formats.MapImageFile(out.Input, j.Stdin)
	if err != nil {
		return ImageSummary{}, err
	}
	defer release()
	r := img.Raster
	times.Read = clock.lap()

	bar.Stage("labeling", img.Raster)
	var res *cclabel.RasterResult
	var m *cclabel.MeasuredRaster
	written := false // every output, as it was labeled
	switch {
	case measured:
		if m, err = raster.LabelImageMeasured(l, out, img, j.Settings, j.Connectivity); err == nil {
			res = m.RasterResult
		}
	case counted:
		res, err = raster.CountImage(l, img, j.Settings, j.Connectivity)
		written = true
	case narrow:
		res, written, err = raster.LabelImageToFile(l, img, out, j.Settings, j.Connectivity)
	default:
		res, err = raster.LabelImageIn(l, img, j.Settings, j.Connectivity, raster.OneBuffer(dst))
	}
	if err != nil {
		return ImageSummary{}, fmt.Errorf("%s: %w", out.Input, err)
	}
	labels := res.Labels
	times.Label = clock.lap()
	releaseAfter(l, last)

	bar.Stage("writing")
	switch {
	case written: // every output (the label array, or none)
	case m != nil:
		err = raster.WriteImageMeasured(out, img, m, j.Settings, j.Stdout)
	case res.Narrow != nil:
		err = raster.WriteImageNarrow(out, labels, res.Narrow, j.Settings)
	default:
		err = raster.WriteImage(out, img, labels, j.Settings, j.Stdout)
	}
	if err != nil {
		return ImageSummary{}, err
	}
	release() // the input's samples, unmapped within the time
	if err := commitDiscarding(commit, last, func() { discardLabels(l.Threads(), res.Narrow, labels.Data) }); err != nil {
		return ImageSummary{}, err
	}
	times.Write = clock.lap()
	times.Total = clock.total()
	s := ImageSummary{Input: out.Input, Width: r.Width, Height: r.Height, Components: labels.Count,
		Connectivity: j.Connectivity, Mode: j.Settings.Rule.String(), Backend: string(res.Backend),
		Threads: l.Threads(), Seconds: times, LabelStages: labelStagesOf(times.Label, res.Timing, m),
		GPU: gpuTimesOf(res.Backend, res.Timing)}
	bar.Close()
	p.printf("%s: %dx%d %s, %d components [%s c%d, %s, %d threads]; read %.3fs, label %.3fs, write %.3fs\n",
		out.Input, r.Width, r.Height, r.Kind, labels.Count, s.Mode, s.Connectivity,
		s.Backend, s.Threads, times.Read, times.Label, times.Write)
	return s, nil
}
