package fileprogress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultDelay is how long a file runs before its bar appears.
const DefaultDelay = 2 * time.Second

// redrawEvery is the bar's refresh period.
const redrawEvery = 100 * time.Millisecond

// Bar is the progress display of one file. A nil *Bar is valid and shows
// nothing, so callers need not check. Its methods are safe for concurrent
// use: stages are set by the caller, bytes counted from any goroutine.
type Bar struct {
	w     io.Writer
	width int
	start time.Time
	delay time.Duration

	done  atomic.Int64 // bytes of the current stage so far
	total atomic.Int64 // its expected bytes, 0 if unknown

	closeOnce sync.Once

	mu    sync.Mutex
	name  string // the file
	stage string
	drawn bool // a bar is on the current line
	stop  chan struct{}
	ended chan struct{}
}

// New starts the display for the file called name on w, a terminal of
// the given width (columns; less than 40 means 80). The bar appears after
// delay and is redrawn until Close.
func New(w io.Writer, name string, width int, delay time.Duration) *Bar {
	if width < 40 {
		width = 80
	}
	b := &Bar{w: w, width: width, start: time.Now(), delay: delay, name: name,
		stop: make(chan struct{}), ended: make(chan struct{})}
	go b.loop()
	return b
}

// Stage starts a stage (for example "reading") of total bytes (0 when
// unknown) and resets the byte count.
func (b *Bar) Stage(stage string, total int64) {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.stage = stage
	b.done.Store(0)
	b.total.Store(max(total, 0))
	b.mu.Unlock()
}

// Add counts n more bytes done in the current stage.
func (b *Bar) Add(n int64) {
	if b != nil {
		b.done.Add(n)
	}
}

// Close stops the display and clears the bar from the line; later calls
// do nothing.
func (b *Bar) Close() {
	if b == nil {
		return
	}
	b.closeOnce.Do(b.close)
}

// close is Close's first call.
func (b *Bar) close() {
	close(b.stop)
	<-b.ended
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drawn {
		fmt.Fprintf(b.w, "\r%s\r", strings.Repeat(" ", b.width-1))
		b.drawn = false
	}
}

// loop redraws the bar until Close.
func (b *Bar) loop() {
	defer close(b.ended)
	wait := time.NewTimer(b.delay)
	defer wait.Stop()
	select {
	case <-b.stop:
		return
	case <-wait.C:
	}
	tick := time.NewTicker(redrawEvery)
	defer tick.Stop()
	for {
		b.draw(time.Since(b.start))
		select {
		case <-b.stop:
			return
		case <-tick.C:
		}
	}
}

// draw writes the current line.
func (b *Bar) draw(elapsed time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	line := Line(b.name, b.stage, b.done.Load(), b.total.Load(), elapsed, b.width)
	fmt.Fprintf(b.w, "\r%s", line)
	b.drawn = true
}

// Line formats one progress line of at most width-1 columns: the file,
// the stage, a bar when the total is known, the bytes and the elapsed time.
func Line(name, stage string, done, total int64, elapsed time.Duration, width int) string {
	tail := " " + elapsed.Round(100*time.Millisecond).String()
	if done > 0 || total > 0 {
		tail = " " + formatBytes(done, total) + tail
	}
	head := fmt.Sprintf("%s: %-9s", name, stage)
	room := width - 1 - len(tail)
	if total > 0 {
		barWidth := min(30, room-len(head)-3)
		if barWidth >= 10 {
			filled := int(min(done, total) * int64(barWidth) / total)
			head += " [" + strings.Repeat("=", filled) + strings.Repeat(" ", barWidth-filled) + "]"
		}
	}
	if len(head) > room {
		head = "..." + head[len(head)-max(room-3, 0):]
	}
	line := head + tail
	return line + strings.Repeat(" ", max(0, width-1-len(line)))
}

// formatBytes writes done (and total when known) in MiB.
func formatBytes(done, total int64) string {
	const mib = 1 << 20
	if total > 0 {
		return fmt.Sprintf("%.0f/%.0f MiB", float64(done)/mib, float64(total)/mib)
	}
	return fmt.Sprintf("%.0f MiB", float64(done)/mib)
}
