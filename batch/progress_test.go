package batch

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgressState(t *testing.T) {
	s := ProgressState{Total: 40, Done: 10, Failed: 1, Skipped: 2, Voxels: 90e6, Elapsed: 2 * time.Second,
		ProcessedForETA: 8, ProcessedElapsedForETA: 2 * time.Second}
	if got, want := s.Line(), "10/40 done, 1 failed, 2 skipped, 45.0 MVx/s, ETA 0:08"; got != want {
		t.Fatalf("Line %q, want %q", got, want)
	}
	bar := s.Bar(70)
	if len(bar) > 70 || !strings.HasPrefix(bar, "[######") || !strings.HasSuffix(bar, "] 10/40  1 failed  45.0 MVx/s  ETA 0:08") {
		t.Fatalf("Bar %q", bar)
	}
	if got := (ProgressState{Total: 3}).Line(); !strings.HasSuffix(got, "ETA --") {
		t.Fatalf("no pace yet: %q", got)
	}
	long := ProgressState{Total: 10000, Done: 1, ProcessedForETA: 1, ProcessedElapsedForETA: 2 * time.Second}
	if got := long.etaText(); got != "5:33:18" {
		t.Fatalf("eta %q", got)
	}
}

func TestProgressPlainLines(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Unix(0, 0)
	p := NewProgress(&buf, 4, false, 80, 5*time.Second)
	p.now = func() time.Time { return clock }
	p.start, p.lastPrint = clock, clock
	p.Add(OK, 1e6)
	clock = clock.Add(time.Second)
	p.Tick()
	if buf.Len() != 0 {
		t.Fatalf("printed before the interval: %q", buf.String())
	}
	clock = clock.Add(5 * time.Second)
	p.Tick()
	p.Tick()
	if got := buf.String(); strings.Count(got, "\n") != 1 || !strings.HasPrefix(got, "batch: 1/4 done, 0 failed") {
		t.Fatalf("got %q", got)
	}
	if strings.Contains(buf.String(), "\r") {
		t.Fatal("a bar on a non-terminal")
	}
}

func TestProgressBarKeepsMessagesAbove(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, 2, true, 60, time.Second)
	p.Add(Failed, 0)
	p.Printf("cclabel: bad file\n")
	p.Finish()
	out := buf.String()
	if !strings.Contains(out, "\r\x1b[Kcclabel: bad file\n") || !strings.HasSuffix(out, "\r\x1b[K") {
		t.Fatalf("got %q", out)
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"512": 512, "1k": 1024, "512M": 512 << 20, "1.5G": 3 << 29, "2GiB": 2 << 30, "1TB": 1 << 40,
		"512MiB": 512 << 20, "2G": 2 << 30, "1 KiB": 1024, "100B": 100, " 3 mb ": 3 << 20} {
		if got, err := ParseBytes(in); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "0", "-1G", "G", "1X", "NaN", "1e30T", "2iB", "iB", "B", "1GG", "1.5.2M", "Inf"} {
		if _, err := ParseBytes(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
