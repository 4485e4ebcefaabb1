package fileprogress

import (
	"bytes"
	"io"
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

func TestLineShowsStageBytesAndBar(t *testing.T) {
	line := Line("vol.nii.gz", "reading", 50<<20, 100<<20, 2500*time.Millisecond, 80)
	for _, want := range []string{"vol.nii.gz: reading", "[" + strings.Repeat("=", 15) + strings.Repeat(" ", 15) + "]", "50/100 MiB", "2.5s"} {
		if !strings.Contains(line, want) {
			t.Errorf("line %q lacks %q", line, want)
		}
	}
	if len(line) != 79 {
		t.Errorf("line is %d columns, want 79", len(line))
	}
	unknown := Line("x.png", "writing", 3<<20, 0, time.Second, 80)
	if strings.Contains(unknown, "[") || !strings.Contains(unknown, " 3 MiB") {
		t.Errorf("unknown total: %q", unknown)
	}
	noBytes := Line("x.png", "labeling", 0, 0, 3*time.Second, 80)
	if strings.Contains(noBytes, "MiB") || !strings.Contains(noBytes, "x.png: labeling  3s") {
		t.Errorf("a stage without bytes: %q", noBytes)
	}
	long := Line(strings.Repeat("d/", 60)+"f.nii", "labeling", 0, 10, time.Second, 60)
	if len(long) != 59 || !strings.HasPrefix(long, "...") {
		t.Errorf("a long name is not cut to the width from the left: %q (%d)", long, len(long))
	}
}

func TestQuickFileDrawsNothing(t *testing.T) {
	var out syncBuffer
	b := New(&out, "f", 80, time.Hour)
	b.Stage("reading", 10)
	b.Add(5)
	b.Close()
	if out.String() != "" {
		t.Errorf("a file quicker than the delay drew %q", out.String())
	}
}

func TestSlowFileDrawsAndClears(t *testing.T) {
	var out syncBuffer
	b := New(&out, "big.nii.gz", 80, 0)
	b.Stage("reading", 1<<20)
	if _, err := io.Copy(io.Discard, Reader(strings.NewReader(strings.Repeat("x", 1<<19)), b)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "big.nii.gz: reading") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	b.Close()
	b.Close() // a second Close does nothing
	s := out.String()
	if !strings.Contains(s, "big.nii.gz: reading") {
		t.Fatalf("no bar drawn: %q", s)
	}
	if !strings.HasSuffix(s, "\r"+strings.Repeat(" ", 79)+"\r") {
		t.Errorf("the bar is not cleared at Close: %q", s[max(0, len(s)-100):])
	}
}

func TestNilBarAndCounting(t *testing.T) {
	var b *Bar
	b.Stage("reading", 1)
	b.Add(1)
	b.Close()
	var sink bytes.Buffer
	if w := Writer(&sink, nil); w != io.Writer(&sink) {
		t.Error("Writer with a nil bar wraps")
	}
	live := New(io.Discard, "f", 80, time.Hour)
	defer live.Close()
	live.Stage("writing", 0)
	if _, err := Writer(&sink, live).Write(make([]byte, 1234)); err != nil {
		t.Fatal(err)
	}
	if got := live.done.Load(); got != 1234 {
		t.Errorf("counted %d bytes, want 1234", got)
	}
}
