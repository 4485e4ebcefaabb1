package batch

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Progress reports how far a batch is, as a bar or as plain lines. On a
// terminal it draws a bar redrawn in place (done/total, failures, MVx/s,
// ETA), elsewhere (a log file, a cluster job's output) one plain line every
// Interval. Its methods are safe for concurrent use.
type Progress struct {
	w        io.Writer
	live     bool
	width    int
	interval time.Duration
	now      func() time.Time

	mu        sync.Mutex
	state     ProgressState
	start     time.Time
	lastPrint time.Time
	drawn     bool // a bar is on the current terminal line
}

// ProgressState is what a progress line shows.
type ProgressState struct {
	Total                  int
	Done                   int // finished inputs, of any status
	Failed, Skipped        int
	Voxels                 int64 // labeled voxels of the OK inputs
	Elapsed                time.Duration
	ProcessedForETA        int // finished inputs that were not skipped
	ProcessedElapsedForETA time.Duration
}

// NewProgress returns a reporter of total inputs writing to w. It draws a
// live bar of the given terminal width when live, else a plain line every
// interval.
func NewProgress(w io.Writer, total int, live bool, width int, interval time.Duration) *Progress {
	if width < 40 {
		width = 80
	}
	p := &Progress{w: w, live: live, width: width, interval: interval, now: time.Now}
	p.start = p.now()
	p.lastPrint = p.start
	p.state.Total = total
	return p
}

// Add records one finished input and its labeled voxels ([OK] inputs).
func (p *Progress) Add(status Status, voxels int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state.Done++
	switch status {
	case Failed:
		p.state.Failed++
	case Skipped:
		p.state.Skipped++
	case OK:
		p.state.Voxels += voxels
	}
	if status != Skipped {
		p.state.ProcessedForETA++
		p.state.ProcessedElapsedForETA = p.now().Sub(p.start)
	}
	if p.live {
		p.drawLocked()
	}
}

// Tick updates the report; call it periodically. It prints a plain line when
// Interval has passed since the last one, or redraws the bar.
func (p *Progress) Tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live {
		p.drawLocked()
		return
	}
	if now := p.now(); now.Sub(p.lastPrint) >= p.interval {
		p.lastPrint = now
		p.state.Elapsed = now.Sub(p.start)
		fmt.Fprintln(p.w, "batch: "+p.state.Line())
	}
}

// Printf prints a message line, such as a failure, above the bar. The bar
// stays below it.
func (p *Progress) Printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
	fmt.Fprintf(p.w, format, args...)
	if p.live {
		p.drawLocked()
	}
}

// Finish clears the bar; the caller prints its closing report after it.
func (p *Progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
}

// drawLocked redraws the bar.
func (p *Progress) drawLocked() {
	p.state.Elapsed = p.now().Sub(p.start)
	fmt.Fprint(p.w, "\r"+p.state.Bar(p.width-1)+"\x1b[K")
	p.drawn = true
}

// clearLocked erases the bar line.
func (p *Progress) clearLocked() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// MVxPerSecond is the labeled voxels per second, in millions.
func (s ProgressState) MVxPerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Voxels) / 1e6 / s.Elapsed.Seconds()
}

// ETA estimates the time left from the pace of the inputs so far. The pace
// leaves skipped inputs out; ok is false before there is a pace.
func (s ProgressState) ETA() (eta time.Duration, ok bool) {
	if s.ProcessedForETA == 0 || s.ProcessedElapsedForETA <= 0 {
		return 0, false
	}
	left := s.Total - s.Done
	per := s.ProcessedElapsedForETA / time.Duration(s.ProcessedForETA)
	return per * time.Duration(left), true
}

// Line is the plain progress line. It reads, for instance, "12/40 done, 1
// failed, 3 skipped, 45.2 MVx/s, ETA 0:12".
func (s ProgressState) Line() string {
	return fmt.Sprintf("%d/%d done, %d failed, %d skipped, %.1f MVx/s, ETA %s",
		s.Done, s.Total, s.Failed, s.Skipped, s.MVxPerSecond(), s.etaText())
}

// Bar is the terminal bar, at most width characters. It reads, for instance,
// "[#######.......] 12/40 1 failed 45.2 MVx/s ETA 0:12".
func (s ProgressState) Bar(width int) string {
	tail := fmt.Sprintf(" %d/%d  %d failed  %.1f MVx/s  ETA %s", s.Done, s.Total, s.Failed, s.MVxPerSecond(), s.etaText())
	cells := width - len(tail) - 2
	if cells < 5 {
		return strings.TrimSpace(tail)
	}
	filled := 0
	if s.Total > 0 {
		filled = cells * s.Done / s.Total
	}
	return "[" + strings.Repeat("#", filled) + strings.Repeat(".", cells-filled) + "]" + tail
}

// etaText formats the ETA as h:mm:ss or m:ss, "--" when unknown.
func (s ProgressState) etaText() string {
	eta, ok := s.ETA()
	if !ok {
		return "--"
	}
	t := int64(eta.Round(time.Second) / time.Second)
	if t >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", t/3600, t/60%60, t%60)
	}
	return fmt.Sprintf("%d:%02d", t/60, t%60)
}
