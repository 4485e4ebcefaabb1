package band

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// idleLabeler links, merges and labels nothing: RunStreamed's schedule
// alone is under test.
type idleLabeler struct{}

func (idleLabeler) LinkBand(*Band)                {}
func (idleLabeler) MergeBorder([]Band, int)       {}
func (idleLabeler) LabelBand(*Band, *CrossLabels) {}

// TestRunStreamedStopsOnEarlyFailure checks that a wait failing on the
// second band (as a multilabel volume's second value stops its binary
// attempt) ends the run without waiting for rows that have not arrived:
// the goroutine that joins after the read waits band by band.
func TestRunStreamedStopsOnEarlyFailure(t *testing.T) {
	bands := make([]Band, 8)
	for i := range bands {
		bands[i].First, bands[i].End = 4*i, 4*i+4
	}
	errStop := errors.New("a second value")
	rest := make(chan struct{}) // the rows past band 1 arrive only at the test's end
	wait := func(end int) error {
		switch {
		case end > bands[1].End:
			<-rest
			return errStop
		case end > bands[0].End:
			return errStop // band 1's rows arrived and hold the second value
		}
		return nil
	}
	done := make(chan error, 1)
	go func() {
		_, err := RunStreamed(idleLabeler{}, bands, make([]uint32, 32), 1, 2, wait, func() {}, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, errStop) {
			t.Errorf("RunStreamed returned %v, want %v", err, errStop)
		}
		close(rest)
	case <-time.After(10 * time.Second):
		close(rest)
		<-done
		t.Fatal("RunStreamed waited for the rows after the failure")
	}
}

// TestRunStreamedProgress: progress is told once per band of each pass,
// every count from 1 to twice the bands once, the total each time.
func TestRunStreamedProgress(t *testing.T) {
	for _, threads := range []int{1, 2, 5} {
		bands := make([]Band, 9)
		for i := range bands {
			bands[i].First, bands[i].End = 2*i, 2*i+2
		}
		var mu sync.Mutex
		seen := map[int]int{}
		_, err := RunStreamed(idleLabeler{}, bands, make([]uint32, 18), 1, threads, func(int) error { return nil }, func() {},
			func(done, total int) {
				mu.Lock()
				defer mu.Unlock()
				if total != 18 {
					t.Errorf("total %d, want 18", total)
				}
				seen[done]++
			})
		if err != nil {
			t.Fatal(err)
		}
		for done := 1; done <= 18; done++ {
			if seen[done] != 1 {
				t.Errorf("%d threads: %d told %d times", threads, done, seen[done])
			}
		}
		if len(seen) != 18 {
			t.Errorf("%d threads: told %d counts, want 18", threads, len(seen))
		}
	}
}
