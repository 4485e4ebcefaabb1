package fileprogress

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the bar's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// fakeClock is a clock that moves only when told.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestTerminalLine(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		name      string
		s         status
		width     int
		want      []string
		wantNot   []string
		wantStart string
	}{
		{"half read", status{name: "vol.nii.gz", stage: "reading", done: 50 * mib, total: 100 * mib, unit: Bytes, elapsed: 10 * time.Second, inStage: 10 * time.Second}, 80,
			[]string{"vol.nii.gz: reading", " 50%", "50/100 MiB", "10s", "ETA 10 s"}, nil, ""},
		{"early: no ETA", status{name: "v", stage: "reading", done: 1, total: 100, unit: Bytes, elapsed: 5 * time.Second, inStage: 5 * time.Second}, 80,
			[]string{"  1%"}, []string{"ETA"}, ""},
		{"young stage: no ETA", status{name: "v", stage: "writing", done: 50, total: 100, unit: Bytes, elapsed: 9 * time.Second, inStage: 900 * time.Millisecond}, 80,
			[]string{" 50%", "9s"}, []string{"ETA"}, ""},
		{"planes", status{name: "v.npy", stage: "labeling", done: 12, total: 40, unit: Planes, elapsed: 4 * time.Second, inStage: 3 * time.Second}, 80,
			[]string{"v.npy: labeling", " 30%", "12/40 planes", "ETA 7 s"}, nil, ""},
		{"bytes, total unknown", status{name: "x.png", stage: "writing", done: 3 * mib, unit: Bytes, elapsed: time.Second, inStage: time.Second}, 80,
			[]string{" 3 MiB", "1s"}, []string{"[", "%", "ETA"}, ""},
		{"nothing counted", status{name: "x.png", stage: "labeling", elapsed: 3 * time.Second, inStage: time.Second}, 80,
			[]string{"x.png: labeling    3s"}, []string{"MiB", "%", "["}, ""},
		{"done", status{name: "v", stage: "writing", done: 100, total: 100, unit: Bytes, elapsed: 9 * time.Second, inStage: 4 * time.Second}, 80,
			[]string{"100%", "ETA 0 s"}, nil, ""},
		{"long name cut from the left", status{name: strings.Repeat("d/", 60) + "f.nii", stage: "labeling", total: 10, unit: Planes, elapsed: time.Second}, 60,
			[]string{"f.nii: labeling", "[" + strings.Repeat(" ", barMin) + "]", "0/10 planes"}, nil, "..."},
		{"long name, no total", status{name: strings.Repeat("d/", 60) + "f.nii", stage: "labeling", elapsed: time.Second}, 60,
			[]string{"f.nii: labeling"}, []string{"["}, "..."},
		{"narrow: no room for a bar", status{name: "v.nii", stage: "writing", done: 1 << 30, total: 1 << 31, unit: Bytes, elapsed: time.Hour, inStage: time.Hour}, 40,
			[]string{"v.nii: writing", "50%", "ETA 1 h 00 min"}, []string{"MiB"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			line := c.s.terminalLine(c.width)
			if len(line) != c.width-1 {
				t.Errorf("line is %d columns, want %d: %q", len(line), c.width-1, line)
			}
			for _, w := range c.want {
				if !strings.Contains(line, w) {
					t.Errorf("line %q lacks %q", line, w)
				}
			}
			for _, w := range c.wantNot {
				if strings.Contains(line, w) {
					t.Errorf("line %q has %q", line, w)
				}
			}
			if f, ok := c.s.fraction(); ok && c.width >= 80 {
				lo, hi := strings.Index(line, "["), strings.Index(line, "]")
				if lo < 0 || hi < lo {
					t.Fatalf("line %q has no bar", line)
				}
				bar := line[lo+1 : hi]
				if want := int(f * float64(len(bar))); strings.Count(bar, "=") != want || strings.TrimLeft(bar, "=") != strings.Repeat(" ", len(bar)-want) {
					t.Errorf("bar %q for %.0f%%: want %d of %d filled", bar, 100*f, want, len(bar))
				}
			}
			if !strings.HasPrefix(line, c.wantStart) {
				t.Errorf("line %q does not start with %q", line, c.wantStart)
			}
		})
	}
}

func TestETA(t *testing.T) {
	for _, c := range []struct {
		done, total int64
		inStage     time.Duration
		want        time.Duration
		ok          bool
	}{
		{50, 100, 10 * time.Second, 10 * time.Second, true},
		{25, 100, 10 * time.Second, 30 * time.Second, true},
		{1, 10, 2 * time.Second, 18 * time.Second, true},
		{3, 100, 2 * time.Second, 2*time.Second*100/3 - 2*time.Second, true},
		{2, 100, time.Minute, 0, false},             // at 2%: not yet
		{50, 100, 999 * time.Millisecond, 0, false}, // under a second
		{100, 100, 5 * time.Second, 0, true},
		{150, 100, 5 * time.Second, 0, true}, // past the total: done
		{50, 0, 10 * time.Second, 0, false},  // no total
	} {
		s := status{done: c.done, total: c.total, inStage: c.inStage}
		got, ok := s.eta()
		if ok != c.ok || (ok && (got-c.want).Abs() > time.Millisecond) {
			t.Errorf("%d/%d after %v: ETA %v, %v; want %v, %v", c.done, c.total, c.inStage, got, ok, c.want, c.ok)
		}
	}
}

// TestETAWithPriorWork: work done before the stage counts as done, not in
// the rate.
func TestETAWithPriorWork(t *testing.T) {
	for _, c := range []struct {
		done, prior, total int64
		inStage            time.Duration
		want               time.Duration
		ok                 bool
	}{
		{60, 40, 100, 10 * time.Second, 20 * time.Second, true}, // 20 in 10 s, 40 left
		{40, 40, 100, 10 * time.Second, 0, false},               // nothing yet in the stage
		{42, 40, 100, 10 * time.Second, 0, false},               // 2%: not yet
		{100, 40, 100, 10 * time.Second, 0, true},
		{50, 0, 100, 10 * time.Second, 10 * time.Second, true}, // no prior: elapsed/fraction - elapsed
	} {
		s := status{done: c.done, prior: c.prior, total: c.total, inStage: c.inStage}
		got, ok := s.eta()
		if ok != c.ok || (ok && (got-c.want).Abs() > time.Millisecond) {
			t.Errorf("%d (%d prior) of %d after %v: ETA %v, %v; want %v, %v", c.done, c.prior, c.total, c.inStage, got, ok, c.want, c.ok)
		}
	}
	var m Meter
	m.Expect(100, Steps)
	m.AddPrior(30)
	m.AddPrior(-5) // nothing
	m.Add(10)
	if done, _, _ := m.Progress(); done != 40 || m.prior.Load() != 30 {
		t.Errorf("done %d, prior %d; want 40, 30", done, m.prior.Load())
	}
	var nilMeter *Meter
	nilMeter.AddPrior(3)
}

func TestFormatETA(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0 s"}, {-time.Second, "0 s"}, {100 * time.Millisecond, "1 s"}, {12 * time.Second, "12 s"},
		{59*time.Second + 500*time.Millisecond, "1 min 00 s"}, {185 * time.Second, "3 min 05 s"},
		{time.Hour, "1 h 00 min"}, {2*time.Hour + 6*time.Minute + time.Second, "2 h 07 min"},
	} {
		if got := formatETA(c.d); got != c.want {
			t.Errorf("formatETA(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestPlainLine(t *testing.T) {
	for _, c := range []struct {
		s    status
		want string
	}{
		{status{name: "in.nii.gz", stage: "reading", done: 45, total: 100, unit: Bytes, inStage: 9 * time.Second}, "in.nii.gz: reading 45% (ETA 11 s)"},
		{status{name: "in.nii.gz", stage: "reading", done: 1, total: 100, unit: Bytes, inStage: 9 * time.Second}, "in.nii.gz: reading 1%"},
		{status{name: "in.npy", stage: "labeling", inStage: 12 * time.Second}, "in.npy: labeling (12 s so far)"},
		{status{name: "in.npy", stage: "labeling", done: 3, total: 4, unit: Frames, inStage: 3 * time.Second}, "in.npy: labeling 75% (ETA 1 s)"},
	} {
		if got := c.s.plainLine(); got != c.want {
			t.Errorf("plainLine = %q, want %q", got, c.want)
		}
	}
}

// TestPlainLinesThrottled ticks a plain bar every 100 ms of a fake clock
// through a 35 s file: lines come at 10, 20 and 30 s only, with the
// progress of their time.
func TestPlainLinesThrottled(t *testing.T) {
	clock := newFakeClock()
	var out bytes.Buffer
	b := newBar(&out, "in.nii.gz", 0, PlainEvery, PlainEvery, clock.now)
	b.Stage("reading")
	b.Meter().Expect(350, Bytes)
	for step := 1; step <= 350; step++ {
		clock.advance(100 * time.Millisecond)
		b.Meter().Add(1)
		b.tick()
	}
	b.Close()
	want := "in.nii.gz: reading 28% (ETA 25 s)\n" + // 100 of 350 at 10 s: 35 s in all
		"in.nii.gz: reading 57% (ETA 15 s)\n" +
		"in.nii.gz: reading 85% (ETA 5 s)\n"
	if got := out.String(); got != want {
		t.Errorf("plain lines:\n%s\nwant:\n%s", got, want)
	}
}

// TestPlainLinesQuickFile: a file done before the delay prints nothing.
func TestPlainLinesQuickFile(t *testing.T) {
	clock := newFakeClock()
	var out bytes.Buffer
	b := newBar(&out, "f", 0, PlainEvery, PlainEvery, clock.now)
	for range 99 {
		clock.advance(100 * time.Millisecond)
		b.tick()
	}
	b.Close()
	if out.Len() != 0 {
		t.Errorf("a 9.9 s file printed %q", out.String())
	}
}

// TestTerminalBarStages follows a bar on a fake clock: nothing before the
// delay, then the stage's line (its ETA from the stage's own start), and
// the line cleared at Close.
func TestTerminalBarStages(t *testing.T) {
	clock := newFakeClock()
	var out bytes.Buffer
	b := newBar(&out, "big.nii.gz", 80, DefaultDelay, 0, clock.now)
	b.Stage("reading")
	b.Meter().Expect(100<<20, Bytes)
	b.Meter().Add(10 << 20)
	clock.advance(time.Second)
	b.tick()
	if out.Len() != 0 {
		t.Fatalf("drawn before the delay: %q", out.String())
	}
	clock.advance(time.Second)
	b.Meter().Add(10 << 20)
	b.tick()
	if s := out.String(); !strings.HasPrefix(s, "\rbig.nii.gz: reading") || !strings.Contains(s, " 20%") || !strings.Contains(s, "ETA 8 s") {
		t.Errorf("reading line %q", s)
	}
	out.Reset()
	b.Stage("writing")
	b.Meter().Expect(4, Planes)
	b.Meter().Add(1)
	clock.advance(2 * time.Second)
	b.tick()
	if s := out.String(); !strings.Contains(s, "writing") || !strings.Contains(s, " 25%") || !strings.Contains(s, "1/4 planes") || !strings.Contains(s, "4s") || !strings.Contains(s, "ETA 6 s") {
		t.Errorf("writing line %q", s)
	}
	out.Reset()
	b.Close()
	b.Close()
	if s := out.String(); s != "\r"+strings.Repeat(" ", 79)+"\r" {
		t.Errorf("Close wrote %q, want the line cleared", s)
	}
}

func TestQuickFileDrawsNothing(t *testing.T) {
	for _, b := range []func(io.Writer) *Bar{
		func(w io.Writer) *Bar { return New(w, "f", 80, time.Hour) },
		func(w io.Writer) *Bar { return NewPlain(w, "f", time.Hour, time.Hour) },
	} {
		var out syncBuffer
		bar := b(&out)
		bar.Stage("reading")
		bar.Meter().Expect(10, Bytes)
		bar.Meter().Add(5)
		bar.Close()
		if out.String() != "" {
			t.Errorf("a file quicker than the delay drew %q", out.String())
		}
	}
}

func TestSlowFileDrawsAndClears(t *testing.T) {
	var out syncBuffer
	b := New(&out, "big.nii.gz", 80, 0)
	b.Stage("reading")
	b.Meter().Expect(1<<20, Bytes)
	if _, err := io.Copy(io.Discard, Reader(strings.NewReader(strings.Repeat("x", 1<<19)), b.Meter())); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "big.nii.gz: reading") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	b.Close()
	s := out.String()
	if !strings.Contains(s, "big.nii.gz: reading") || !strings.Contains(s, " 50%") {
		t.Fatalf("no bar drawn: %q", s)
	}
	if !strings.HasSuffix(s, "\r"+strings.Repeat(" ", 79)+"\r") {
		t.Errorf("the bar is not cleared at Close: %q", s[max(0, len(s)-100):])
	}
}

func TestStartPlainOffTerminal(t *testing.T) {
	var out bytes.Buffer
	b := Start(&out, "f")
	defer b.Close()
	if b.width != 0 || b.delay != PlainEvery || b.every != PlainEvery {
		t.Errorf("Start on a buffer: width %d, delay %v, every %v; want plain lines after %v", b.width, b.delay, b.every, PlainEvery)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if b := Start(f, "f"); b.width != 0 {
		t.Errorf("Start on a regular file draws a terminal bar")
	} else {
		b.Close()
	}
}

func TestNilBarAndMeter(t *testing.T) {
	var b *Bar
	b.Stage("reading", "x")
	b.Meter().Expect(1, Bytes)
	b.Meter().Add(1)
	b.Close()
	if d, total, unit := b.Meter().Progress(); d != 0 || total != 0 || unit != "" {
		t.Errorf("nil meter progress %d/%d %q", d, total, unit)
	}
	var sink bytes.Buffer
	if w := Writer(&sink, nil); w != io.Writer(&sink) {
		t.Error("Writer with a nil meter wraps")
	}
	if r := Reader(&sink, nil); r != io.Reader(&sink) {
		t.Error("Reader with a nil meter wraps")
	}
	ra := bytes.NewReader(nil)
	if r := ReaderAt(ra, nil); r != io.ReaderAt(ra) {
		t.Error("ReaderAt with a nil meter wraps")
	}
}

func TestMeterCounts(t *testing.T) {
	var m Meter
	m.Expect(1000, Bytes)
	m.Expect(0, Planes) // nothing: keeps the unit
	m.Expect(234, Planes)
	var sink bytes.Buffer
	if _, err := Writer(&sink, &m).Write(make([]byte, 1200)); err != nil {
		t.Fatal(err)
	}
	if done, total, unit := m.Progress(); done != 1200 || total != 1234 || unit != Bytes {
		t.Errorf("progress %d/%d %s, want 1200/1234 bytes", done, total, unit)
	}
	if _, err := io.Copy(io.Discard, Reader(bytes.NewReader(make([]byte, 100)), &m)); err != nil {
		t.Fatal(err)
	}
	if _, err := ReaderAt(bytes.NewReader(make([]byte, 50)), &m).ReadAt(make([]byte, 10), 40); err != nil {
		t.Fatal(err)
	}
	if done, _, _ := m.Progress(); done != 1234 || m.done.Load() != 1310 {
		t.Errorf("done %d past the total, want it capped at 1234", done)
	}
	var wg sync.WaitGroup
	var c Meter
	c.Expect(8000, Planes)
	for range 8 {
		wg.Go(func() {
			for range 1000 {
				c.Add(1)
			}
		})
	}
	wg.Wait()
	if done, _, _ := c.Progress(); done != 8000 {
		t.Errorf("concurrent adds counted %d, want 8000", done)
	}
}

func TestStageWatches(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.nii.gz")
	t.Chdir(dir)
	type volume struct{ n int }
	key := &volume{}
	b := NewPlain(io.Discard, "in.nii.gz", time.Hour, time.Hour)
	b.Stage("reading", "in.nii.gz", "", "-")
	reading := b.Meter()
	if ForFile(in) != reading || ForFile("./sub/../in.nii.gz") != reading {
		t.Error("the input is not watched under its other names")
	}
	if ForFile("other.nii.gz") != nil || ForFile("-") != nil || ForFile("") != nil || For(key) != nil {
		t.Error("something else is watched")
	}
	b.Stage("labeling", key)
	if ForFile(in) != nil {
		t.Error("the input is still watched after its stage")
	}
	if For(key) != b.Meter() || For(&volume{}) != nil {
		t.Error("the labeling key is not watched, or another is")
	}
	// A second watcher of the same key takes over until it stops; the
	// first one's stop then leaves it alone.
	var other Meter
	stop := Watch(key, &other)
	if For(key) != &other {
		t.Error("a later Watch did not take over")
	}
	b.Close()
	if For(key) != &other {
		t.Error("the bar's Close removed another watcher's meter")
	}
	stop()
	stop()
	if For(key) != nil || watching.Load() != 0 {
		t.Errorf("watches left after every stop: %d", watching.Load())
	}
}

func TestReporter(t *testing.T) {
	var nilMeter *Meter
	if nilMeter.Reporter(Steps) != nil {
		t.Error("a nil meter gives a reporter")
	}
	var m Meter
	report := m.Reporter(Steps)
	for _, done := range []int64{0, 10, 10, 55, 130} {
		report(done, 130)
		if d, total, unit := m.Progress(); d != done || total != 130 || unit != Steps {
			t.Errorf("after %d: %d/%d %s", done, d, total, unit)
		}
	}
	s := status{name: "v.npy", stage: "generating", done: 65, total: 130, unit: Steps, elapsed: 4 * time.Second, inStage: 4 * time.Second}
	if line := s.terminalLine(80); !strings.Contains(line, " 50%  4s  ETA 4 s") || strings.Contains(line, "steps") {
		t.Errorf("steps line %q: want the percentage alone", line)
	}
}
