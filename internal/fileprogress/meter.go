package fileprogress

import (
	"io"
	"sync"
	"sync/atomic"
)

// Unit is what a [Meter] counts.
type Unit string

// Units a stage is counted in: bytes are shown in MiB, steps (units of
// work of no interest in themselves) only as a percentage, the others as
// counts ("12/40 planes").
const (
	Bytes  Unit = "bytes"
	Planes Unit = "planes"
	Frames Unit = "frames"
	Steps  Unit = "steps"
)

// Meter counts the work done in one stage on one file.
//
// The work is bytes read or written, planes or frames labeled, out of an
// expected total. Reporters announce their work with [Meter.Expect] before
// doing it and count it with [Meter.Add]. A [Bar]'s stage watches the
// files (or other things) it names with [Watch] and [WatchFile], and the
// readers, writers and labelers of this module that find a meter for what
// they work on ([For], [ForFile]) report their progress on it. Nothing is
// counted when nothing is watched.
//
// Its methods are safe for concurrent use and do nothing on a nil *Meter,
// so reporters need not check whether anyone watches.
type Meter struct {
	done, total atomic.Int64
	prior       atomic.Int64 // of done, counted by AddPrior
	unit        atomic.Pointer[Unit]
}

// Expect adds n units of work to the total; the first call sets the unit.
// A stage that reads or writes several files expects each one's bytes.
func (m *Meter) Expect(n int64, unit Unit) {
	if m == nil || n <= 0 {
		return
	}
	m.unit.CompareAndSwap(nil, &unit)
	m.total.Add(n)
}

// Add counts n more units done.
func (m *Meter) Add(n int64) {
	if m != nil && n != 0 {
		m.done.Add(n)
	}
}

// AddPrior counts n units done before the stage began.
//
// Such work went on while the file was still being read, say: it counts
// toward the share done but not toward the rate that gives the time left.
func (m *Meter) AddPrior(n int64) {
	if m != nil && n > 0 {
		m.prior.Add(n)
		m.done.Add(n)
	}
}

// Progress returns the units done, the total expected and the unit.
//
// The units done are at most the total, when one is known. When nothing
// was expected, the total is 0 and the unit "".
func (m *Meter) Progress() (done, total int64, unit Unit) {
	if m == nil {
		return 0, 0, ""
	}
	done, total = m.done.Load(), m.total.Load()
	if total > 0 {
		done = min(done, total)
	}
	if u := m.unit.Load(); u != nil {
		unit = *u
	}
	return max(done, 0), total, unit
}

// Reporter returns a function that reports progress told as totals on m.
//
// The function is told done of total units, in calls one at a time, done
// never falling: the first call expects the total, each call adds what is
// new. A nil m gives nil, for callers that then skip their reports.
func (m *Meter) Reporter(unit Unit) func(done, total int64) {
	if m == nil {
		return nil
	}
	var counted int64
	expected := false
	return func(done, total int64) {
		if !expected {
			m.Expect(total, unit)
			expected = true
		}
		m.Add(done - counted)
		counted = done
	}
}

// StepReporter is [Meter.Reporter] for reports from several goroutines at
// once.
//
// The reports may come out of order: only a report of more done than any
// before counts.
func (m *Meter) StepReporter(unit Unit) func(done, total int) {
	report := m.Reporter(unit)
	if report == nil {
		return nil
	}
	var mu sync.Mutex
	most := 0
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if done > most {
			most = done
			report(int64(done), int64(total))
		}
	}
}

// Reader counts the bytes read through r on m; a nil m returns r itself.
func Reader(r io.Reader, m *Meter) io.Reader {
	if m == nil {
		return r
	}
	return &countingReader{r: r, m: m}
}

// Writer counts the bytes written through w on m; a nil m returns w
// itself.
func Writer(w io.Writer, m *Meter) io.Writer {
	if m == nil {
		return w
	}
	return &countingWriter{w: w, m: m}
}

// ReaderAt counts the bytes read through r on m; a nil m returns r
// itself.
func ReaderAt(r io.ReaderAt, m *Meter) io.ReaderAt {
	if m == nil {
		return r
	}
	return &countingReaderAt{r: r, m: m}
}

type countingReaderAt struct {
	r io.ReaderAt
	m *Meter
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.m.Add(int64(n))
	return n, err
}

type countingReader struct {
	r io.Reader
	m *Meter
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.m.Add(int64(n))
	return n, err
}

type countingWriter struct {
	w io.Writer
	m *Meter
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.m.Add(int64(n))
	return n, err
}
