package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/batch"
	"golang.org/x/term"
)

// progressInterval is how often a progress line is printed when stderr
// is not a terminal, and barInterval how often the bar is redrawn.
const (
	progressInterval = 5 * time.Second
	barInterval      = 200 * time.Millisecond
)

// run processes the shard's inputs and writes the summary. The first
// SIGINT or SIGTERM stops it after the inputs in flight, the next one at
// once, leaving no temporary file (catchSignals).
func (b *batchRun) run(ctx context.Context) error {
	if err := os.MkdirAll(b.files.Dir, 0o755); err != nil {
		return fmt.Errorf("batch: -o %s: %w", b.files.Dir, err)
	}
	if b.summary != "" { // before the work, not after it
		if err := os.MkdirAll(filepath.Dir(b.summary), 0o755); err != nil {
			return fmt.Errorf("batch: --summary %s: %w", b.summary, err)
		}
	}
	progress := b.newProgress()
	if !b.quiet && b.shardSource != "" {
		progress.Printf("batch: shard %s (from %s): %d of %d inputs\n", b.shard, b.shardSource, len(b.files.Inputs), b.total)
	}
	ticking := make(chan struct{})
	go b.tick(progress, ticking)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var caught atomic.Value // the first signal
	defer onFirstSignal(func(sig os.Signal) {
		caught.Store(sig)
		progress.Printf("cclabel: batch: %s: finishing the inputs in flight, starting no more (signal again to stop at once)\n", signalName(sig))
		cancel()
	})()

	b.warnings.p = progress
	defer b.files.Labeler.Close()
	if b.files.Labeler.MayUseGPU() {
		// The GPU starts while the first inputs are read; an error shows
		// again, as the labeling's, on the first input that needs it.
		go func() { _ = b.files.Labeler.Prepare() }()
	}
	start := time.Now()
	interrupted := batch.Run(ctx, b.pipeline, len(b.files.Inputs), b.files.Stages(), func(o batch.Outcome) { b.finish(o, progress) })
	elapsed := time.Since(start)
	close(ticking)
	progress.Finish()

	if b.summary != "" {
		if err := batch.WriteSummaryFile(b.summary, b.files.Rows); err != nil {
			return err
		}
	}
	counts, voxels := batch.Tally(b.files.Rows)
	if !b.quiet {
		b.report(counts, voxels, elapsed)
	}
	switch {
	case interrupted != nil:
		err := fmt.Errorf("batch: interrupted: %d of %d inputs not started; run the same command again to finish them", counts[batch.Cancelled], len(b.files.Rows))
		if sig, ok := caught.Load().(os.Signal); ok {
			return interruptedError{Signal: sig, Err: err}
		}
		return err
	case counts[batch.Failed] > 0:
		return fmt.Errorf("batch: %d of %d inputs failed%s", counts[batch.Failed], len(b.files.Rows), b.summaryNote())
	}
	return nil
}

// finish records one input's outcome in its summary row.
func (b *batchRun) finish(o batch.Outcome, progress *batch.Progress) {
	row := &b.files.Rows[o.Index]
	row.Record(o)
	if note := b.files.SkipNote(o.Index); note != "" && row.Status == batch.Skipped {
		row.Error = note
	}
	if row.Status == batch.Failed {
		progress.Printf("cclabel: %s\n", row.Error)
	}
	progress.Add(row.Status, row.Voxels)
}

// newProgress returns the run's progress reporter: a bar on a terminal,
// plain lines elsewhere, nothing with --quiet.
func (b *batchRun) newProgress() *batch.Progress {
	w, live, width := b.std.Err, false, 80
	if f, ok := b.std.Err.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		live = true
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
			width = cols
		}
	}
	if b.quiet {
		w, live = quietWriter{b.std.Err}, false
	}
	return batch.NewProgress(w, len(b.files.Inputs), live, width, progressInterval)
}

// tick drives the progress display until done is closed.
func (b *batchRun) tick(p *batch.Progress, done chan struct{}) {
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
func (b *batchRun) report(counts map[batch.Status]int, voxels int64, elapsed time.Duration) {
	s := elapsed.Seconds()
	done := counts[batch.OK] + counts[batch.Failed]
	fmt.Fprintf(b.std.Err, "batch: %d inputs in %.2f s: %d ok, %d failed, %d skipped", len(b.files.Rows), s,
		counts[batch.OK], counts[batch.Failed], counts[batch.Skipped])
	if counts[batch.Cancelled] > 0 {
		fmt.Fprintf(b.std.Err, ", %d not started", counts[batch.Cancelled])
	}
	fmt.Fprintf(b.std.Err, "; %.1f files/s, %.1f MVx/s [%s, %d workers]\n", float64(done)/s, float64(voxels)/1e6/s,
		b.backendNote(), b.pipeline.Workers)
}

// backendNote names the backend in the closing report: "cpu", "gpu",
// "serial", or under auto the one it may use, as "gpu (auto)".
func (b *batchRun) backendNote() string {
	if b.files.Labeler.Backend() != cclabel.BackendAuto {
		return string(b.files.Labeler.Backend())
	}
	if b.files.Labeler.MayUseGPU() {
		return "gpu (auto)"
	}
	return "cpu (auto)"
}

// summaryNote points at the summary file in the closing error.
func (b *batchRun) summaryNote() string {
	if b.summary == "" {
		return ""
	}
	return " (see " + b.summary + ")"
}

// progressWriter writes through the progress reporter, so that warnings
// keep the bar below them.
type progressWriter struct{ p *batch.Progress }

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
