package batch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/job"
	"github.com/cclabel/cclabel/job/raster"
	"golang.org/x/term"
)

// progressInterval is how often a progress line is printed when the
// progress writer is not a terminal, and barInterval how often the bar is
// redrawn.
const (
	progressInterval = 5 * time.Second
	barInterval      = 200 * time.Millisecond
)

// Job labels many image and volume files into one folder. It is the job of
// "cclabel batch". Images get the outputs of a [job.Image], volumes those of
// a [job.Volume], named after the inputs; inputs whose outputs are up to date
// are skipped, so a run stopped early is finished by running it again, and
// runs started together on one folder share the inputs.
type Job struct {
	// Args are the inputs: files, folders (searched recursively for known
	// extensions), globs and @list files ([ReadList]).
	Args []string
	// Dir is the output folder, made when missing; outputs mirror the
	// inputs' paths below their arguments (Input.Rel).
	Dir string
	// Settings say how every input is labeled and written.
	Settings job.Settings
	// Connectivity is 4 or 8 for images and 6, 18 or 26 for volumes, the
	// other kind taking its counterpart (6, 18 and 26 give images 4, 8
	// and 8; 4 and 8 give volumes 6 and 26); 0 is 8 and 26.
	Connectivity int
	// LabelsExt (.npy or .png) adds the label arrays of images, PreviewExt
	// (.png) the previews of volumes, StatsExt (.csv or .json) the
	// statistics of both; "" adds none.
	LabelsExt, PreviewExt, StatsExt string
	// Summary, when not "", receives one row per input (.csv or .json).
	Summary string
	// Overwrite redoes inputs whose outputs are up to date.
	Overwrite bool
	// Pipeline bounds the inputs in flight (Workers, 0 for the number of
	// cores, and MaxMemory); [Job.Run] sets its Labelers.
	Pipeline Pipeline
	// Shard selects this run's share of the sorted inputs; ShardSource
	// names where it came from ("--shard", an environment variable), ""
	// when no shard was asked for.
	Shard       Shard
	ShardSource string
}

// InterruptedError reports a run stopped by its context before every input
// started. The inputs in flight were finished, and running the same job again
// does the rest.
type InterruptedError struct{ NotStarted, Inputs int }

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("batch: interrupted: %d of %d inputs not started; run the same command again to finish them", e.NotStarted, e.Inputs)
}

// Run labels the shard's inputs and writes the summary. It labels with a
// labeler made from opts and reports on p: a progress bar on a terminal,
// plain lines elsewhere, the failures, and a closing report. When ctx is
// cancelled it says so on p, finishes the inputs in flight, starts no more
// and returns an [*InterruptedError].
func (j Job) Run(ctx context.Context, opts cclabel.Options, p job.Progress) error {
	r := &planned{Job: j, std: p.W, quiet: p.Quiet}
	if r.std == nil {
		r.std = io.Discard
	}
	opts.Warnings = &r.warnings
	if err := r.plan(opts); err != nil {
		if r.files.labeler != nil {
			r.files.labeler.Close()
		}
		return err
	}
	return r.run(ctx)
}

// CheckArgs checks that the job has inputs and an output folder, the
// usage errors a command reports before any other.
func (j *Job) CheckArgs() error {
	if len(j.Args) == 0 {
		return usagef("batch: want at least one INPUT (a file, folder, glob or @list)")
	}
	if j.Dir == "" {
		return usagef("batch: give -o OUTDIR for the outputs")
	}
	return nil
}

// planned is a planned [Job]: its files and how it reports.
type planned struct {
	Job
	files    files
	warnings progressWriter // the labeler's warnings, once the run starts
	total    int            // inputs before sharding
	std      io.Writer
	quiet    bool
}

// plan checks the job, makes its labeler, expands the inputs and selects
// the shard, before any work is done.
func (r *planned) plan(opts cclabel.Options) error {
	if err := r.CheckArgs(); err != nil {
		return err
	}
	if r.Pipeline.Workers < 0 {
		return usagef("batch: --workers %d: must be 1 or more (0: the number of cores)", r.Pipeline.Workers)
	}
	if r.Pipeline.Workers == 0 {
		r.Pipeline.Workers = runtime.NumCPU()
	}
	f := &r.files
	f.settings, f.dir, f.summary, f.overwrite = r.Settings, r.Dir, r.Summary, r.Overwrite
	var err error
	if f.imageConn, f.volumeConn, err = connectivities(r.Connectivity); err != nil {
		return job.UsageError{Err: err}
	}
	for _, c := range []struct {
		flag, value string
		dst         *string
		exts        []string
	}{
		{"--labels", r.LabelsExt, &f.labelsExt, []string{".npy", ".png"}},
		{"--preview", r.PreviewExt, &f.previewExt, []string{".png"}},
		{"--stats", r.StatsExt, &f.statsExt, []string{".csv", ".json"}},
	} {
		v := strings.ToLower(c.value)
		if v != "" && !slices.Contains(c.exts, v) {
			return usagef("batch: %s %s: give just the extension (%s); outputs are named after the inputs", c.flag, v, strings.Join(c.exts, " or "))
		}
		*c.dst = v
	}
	if m := r.Settings.Measures; (m.Intensity || m.Shape) && f.statsExt == "" || m.Intensity && r.Settings.Rule.Mode != cclabel.Threshold {
		return usagef("batch: --measure adds statistics columns (give --stats); intensity measures the input under --threshold")
	}
	if r.Summary != "" {
		if err := CheckSummaryPath(r.Summary); err != nil {
			return job.UsageError{Err: err}
		}
	}
	if f.labeler, err = cclabel.New(opts); err != nil {
		return err
	}
	r.Pipeline.Labelers = f.labeler.Share(r.Pipeline.Workers)
	f.buffers = &raster.LabelBuffers{Keep: r.Pipeline.Labelers + 1}
	all, err := Expand(r.Args, ExpandOptions{Known: formats.IsInputName, Skip: f.dir})
	if errors.Is(err, ErrOutputIsInput) {
		return job.UsageError{Err: err}
	}
	if err != nil {
		return err
	}
	if err := f.checkOutputs(all); err != nil {
		return job.UsageError{Err: err}
	}
	r.total = len(all)
	f.inputs = r.Shard.Select(all)
	f.rows = PendingRows(f.inputs)
	return nil
}

// usagef returns a job.UsageError.
func usagef(format string, args ...any) error {
	return job.UsageError{Err: fmt.Errorf(format, args...)}
}

// run processes the shard's inputs and writes the summary.
func (r *planned) run(ctx context.Context) error {
	f := &r.files
	defer f.labeler.Close()
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		return fmt.Errorf("batch: -o %s: %w", f.dir, err)
	}
	if r.Summary != "" { // before the work, not after it
		if err := os.MkdirAll(filepath.Dir(r.Summary), 0o755); err != nil {
			return fmt.Errorf("batch: --summary %s: %w", r.Summary, err)
		}
	}
	progress := r.newProgress()
	if !r.quiet && r.ShardSource != "" {
		progress.Printf("batch: shard %s (from %s): %d of %d inputs\n", r.Shard, r.ShardSource, len(f.inputs), r.total)
	}
	ticking := make(chan struct{})
	go r.tick(progress, ticking)
	said := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(said)
		progress.Printf("cclabel: batch: %v: finishing the inputs in flight, starting no more (signal again to stop at once)\n", context.Cause(ctx))
	})

	r.warnings.p = progress
	if f.labeler.MayUseGPU() {
		// The GPU starts while the first inputs are read; an error shows
		// again, as the labeling's, on the first input that needs it.
		f.labeler.Start()
	}
	start := time.Now()
	interrupted := Run(ctx, r.Pipeline, len(f.inputs), f.stages(), func(o Outcome) { r.finish(o, progress) })
	elapsed := time.Since(start)
	if !stop() { // the note on the stop comes before the report
		<-said
	}
	close(ticking)
	progress.Finish()

	if r.Summary != "" {
		if err := WriteSummaryFile(r.Summary, f.rows); err != nil {
			return err
		}
	}
	counts, voxels := Tally(f.rows)
	if !r.quiet {
		r.report(counts, voxels, elapsed)
	}
	switch {
	case interrupted != nil:
		return &InterruptedError{NotStarted: counts[Cancelled], Inputs: len(f.rows)}
	case counts[Failed] > 0:
		return fmt.Errorf("batch: %d of %d inputs failed%s", counts[Failed], len(f.rows), r.summaryNote())
	}
	return nil
}

// finish records one input's outcome in its summary row.
func (r *planned) finish(o Outcome, progress *Progress) {
	row := &r.files.rows[o.Index]
	row.Record(o)
	if note := r.files.skipNote(o.Index); note != "" && row.Status == Skipped {
		row.Error = note
	}
	if row.Status == Failed {
		progress.Printf("cclabel: %s\n", row.Error)
	}
	progress.Add(row.Status, row.Voxels)
}

// newProgress returns the run's progress reporter: a bar on a terminal,
// plain lines elsewhere, nothing but failures when quiet.
func (r *planned) newProgress() *Progress {
	w, live, width := r.std, false, 80
	if f, ok := r.std.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		live = true
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
			width = cols
		}
	}
	if r.quiet {
		w, live = quietWriter{r.std}, false
	}
	return NewProgress(w, len(r.files.inputs), live, width, progressInterval)
}

// tick drives the progress display until done is closed.
func (r *planned) tick(p *Progress, done chan struct{}) {
	t := time.NewTicker(barInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			p.Tick()
		case <-done:
			return
		}
	}
}

// report prints the closing report: counts, files/s and MVx/s.
func (r *planned) report(counts map[Status]int, voxels int64, elapsed time.Duration) {
	s := elapsed.Seconds()
	done := counts[OK] + counts[Failed]
	fmt.Fprintf(r.std, "batch: %d inputs in %.2f s: %d ok, %d failed, %d skipped", len(r.files.rows), s,
		counts[OK], counts[Failed], counts[Skipped])
	if counts[Cancelled] > 0 {
		fmt.Fprintf(r.std, ", %d not started", counts[Cancelled])
	}
	fmt.Fprintf(r.std, "; %.1f files/s, %.1f MVx/s [%s, %d workers]\n", float64(done)/s, float64(voxels)/1e6/s,
		r.backendNote(), r.Pipeline.Workers)
}

// backendNote names the backend in the closing report: "cpu", "gpu",
// "serial", or under auto the one it may use, as "gpu (auto)".
func (r *planned) backendNote() string {
	l := r.files.labeler
	if l.Backend() != cclabel.BackendAuto {
		return string(l.Backend())
	}
	if l.MayUseGPU() {
		return "gpu (auto)"
	}
	return "cpu (auto)"
}

// summaryNote points at the summary file in the closing error.
func (r *planned) summaryNote() string {
	if r.Summary == "" {
		return ""
	}
	return " (see " + r.Summary + ")"
}

// progressWriter writes through the progress reporter, so that warnings
// keep the bar below them.
type progressWriter struct{ p *Progress }

func (w *progressWriter) Write(b []byte) (int, error) {
	w.p.Printf("%s", b)
	return len(b), nil
}

// quietWriter passes on failure lines ("cclabel: ...") only.
type quietWriter struct{ w io.Writer }

func (q quietWriter) Write(b []byte) (int, error) {
	if strings.HasPrefix(string(b), "cclabel: ") {
		return q.w.Write(b)
	}
	return len(b), nil
}
