package fileprogress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// DefaultDelay is how long a file runs before its bar appears on a
// terminal.
const DefaultDelay = 2 * time.Second

// PlainEvery is the shortest time between two plain lines.
//
// A file also runs this long before the first.
const PlainEvery = 10 * time.Second

// redrawEvery is the period of the bar's checks: a terminal bar is
// redrawn this often.
const redrawEvery = 100 * time.Millisecond

// Bar is the progress display of one file.
//
// A Bar follows a file through its stages (reading, labeling, writing).
// On a terminal it is a line redrawn in place with the stage, a bar, the
// percentage, the bytes or planes done out of the total and, once the
// stage has run a while, the time left (ETA); elsewhere (a log, a pipe) it
// prints a plain line such as "in.nii.gz: reading 45% (ETA 12 s)" now and
// then. Either way nothing appears for a file done within a delay, so
// quick files print nothing.
//
// A nil *Bar is valid and shows nothing, so callers need not check. Its
// methods are safe for concurrent use.
type Bar struct {
	w     io.Writer
	width int // the terminal's columns; 0 prints plain lines
	delay time.Duration
	every time.Duration // between plain lines
	now   func() time.Time
	start time.Time

	closeOnce   sync.Once
	stop, ended chan struct{} // nil without a redrawing goroutine

	mu         sync.Mutex
	name       string
	stage      string
	stageStart time.Time
	meter      *Meter
	unwatch    []func()
	drawn      bool      // terminal: a bar is on the current line
	printed    time.Time // plain: when the last line was printed
}

// Start returns the display of the file called name on w.
//
// It is a bar drawn in place when w is a terminal ([New]), plain lines
// otherwise ([NewPlain], the first after [PlainEvery]).
func Start(w io.Writer, name string) *Bar {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		width := 80
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
			width = cols
		}
		return New(w, name, width, DefaultDelay)
	}
	return NewPlain(w, name, PlainEvery, PlainEvery)
}

// New starts the display for the file called name on a terminal w.
//
// width is the terminal's columns; less than 40 means 80. The bar appears
// after delay and is redrawn until [Bar.Close].
func New(w io.Writer, name string, width int, delay time.Duration) *Bar {
	if width < 40 {
		width = 80
	}
	b := newBar(w, name, width, delay, 0, time.Now)
	b.run()
	return b
}

// NewPlain starts the display for the file called name as plain lines.
//
// It prints them on w one at a time, for logs and pipes: the first after
// delay, then at most one every period. [Bar.Close] prints nothing.
func NewPlain(w io.Writer, name string, delay, every time.Duration) *Bar {
	b := newBar(w, name, 0, delay, every, time.Now)
	b.run()
	return b
}

// newBar returns a bar reading the time from now, without the goroutine
// that redraws it (run starts it; tests call tick).
func newBar(w io.Writer, name string, width int, delay, every time.Duration, now func() time.Time) *Bar {
	start := now()
	return &Bar{w: w, width: width, delay: delay, every: every, now: now, start: start,
		name: name, stageStart: start, meter: &Meter{}}
}

// run starts the goroutine that redraws the bar until Close.
func (b *Bar) run() {
	b.stop, b.ended = make(chan struct{}), make(chan struct{})
	go b.loop()
}

// Stage starts a stage, such as "reading", with a fresh [Meter].
//
// The meter watches each of watch until the next stage or [Bar.Close]: a
// string is a file ([WatchFile]; "" and "-" are skipped), anything else a
// key of [Watch].
func (b *Bar) Stage(stage string, watch ...any) {
	if b == nil {
		return
	}
	m := &Meter{}
	var stops []func()
	for _, k := range watch {
		if path, ok := k.(string); ok {
			stops = append(stops, WatchFile(path, m))
		} else {
			stops = append(stops, Watch(k, m))
		}
	}
	b.mu.Lock()
	old := b.unwatch
	b.stage, b.meter, b.unwatch, b.stageStart = stage, m, stops, b.now()
	b.mu.Unlock()
	for _, stop := range old {
		stop()
	}
}

// Meter returns the current stage's meter.
//
// It is for work reported to the bar directly; a nil bar gives nil.
func (b *Bar) Meter() *Meter {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.meter
}

// Close stops the display and clears the bar from a terminal's line.
//
// It ends the stage's watches; later calls do nothing.
func (b *Bar) Close() {
	if b == nil {
		return
	}
	b.closeOnce.Do(b.close)
}

// close is [Bar.Close]'s first call.
func (b *Bar) close() {
	if b.stop != nil {
		close(b.stop)
		<-b.ended
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, stop := range b.unwatch {
		stop()
	}
	b.unwatch = nil
	if b.drawn {
		fmt.Fprintf(b.w, "\r%s\r", strings.Repeat(" ", b.width-1))
		b.drawn = false
	}
}

// loop calls tick until Close.
func (b *Bar) loop() {
	defer close(b.ended)
	tick := time.NewTicker(redrawEvery)
	defer tick.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-tick.C:
			b.tick()
		}
	}
}

// tick draws the bar when it is due: on a terminal at every call once the
// delay has passed; as plain lines once the delay has passed and then
// once every period.
func (b *Bar) tick() {
	now := b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if now.Sub(b.start) < b.delay {
		return
	}
	done, total, unit := b.meter.Progress()
	s := status{name: b.name, stage: b.stage, done: done, total: total, prior: b.meter.prior.Load(), unit: unit,
		elapsed: now.Sub(b.start), inStage: now.Sub(b.stageStart)}
	if b.width > 0 {
		fmt.Fprintf(b.w, "\r%s", s.terminalLine(b.width))
		b.drawn = true
		return
	}
	if !b.printed.IsZero() && now.Sub(b.printed) < b.every {
		return
	}
	fmt.Fprintln(b.w, s.plainLine())
	b.printed = now
}
