package batch

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// pipelineCase runs n items through a pipeline whose stages square the
// index and record the peak number of items in flight.
type pipelineCase struct {
	mu       sync.Mutex
	inFlight int
	peak     int
	results  map[int]int
	labelers sync.Map // goroutines seen labeling
}

func (c *pipelineCase) stages(fail, skip int, labelHook func(int)) Stages[*int] {
	return Stages[*int]{
		Decode: func(i int) (*int, bool, error) {
			c.mu.Lock()
			c.inFlight++
			c.peak = max(c.peak, c.inFlight)
			c.mu.Unlock()
			if i == skip {
				c.leave()
				return nil, true, nil
			}
			v := i
			return &v, false, nil
		},
		Label: func(v *int) error {
			if labelHook != nil {
				labelHook(*v)
			}
			if *v == fail {
				c.leave()
				return fmt.Errorf("item %d is bad", *v)
			}
			if *v == fail+1 {
				c.leave()
				panic("boom")
			}
			*v *= *v
			return nil
		},
		Encode: func(v *int) error {
			c.mu.Lock()
			c.results[len(c.results)] = *v
			c.mu.Unlock()
			c.leave()
			return nil
		},
	}
}

func (c *pipelineCase) leave() {
	c.mu.Lock()
	c.inFlight--
	c.mu.Unlock()
}

func TestPipelineRunsEveryItemOnce(t *testing.T) {
	c := &pipelineCase{results: map[int]int{}}
	outcomes := map[int]Outcome{}
	p := Pipeline{Workers: 3, Labelers: 1}
	err := Run(context.Background(), p, 50, c.stages(7, 11, nil), func(o Outcome) {
		if _, dup := outcomes[o.Index]; dup {
			t.Errorf("item %d finished twice", o.Index)
		}
		outcomes[o.Index] = o
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(outcomes) != 50 {
		t.Fatalf("%d outcomes, want 50", len(outcomes))
	}
	sum := 0
	for _, v := range c.results {
		sum += v
	}
	want := 0
	for i := range 50 {
		if i != 7 && i != 8 && i != 11 {
			want += i * i
		}
	}
	if sum != want || len(c.results) != 47 {
		t.Fatalf("results sum %d over %d items, want %d over 47", sum, len(c.results), want)
	}
	if o := outcomes[7]; o.Err == nil || o.Err.Error() != "item 7 is bad" {
		t.Errorf("item 7: %+v", o)
	}
	if o := outcomes[8]; o.Err == nil || o.Err.Error() != "batch: internal error: boom" {
		t.Errorf("item 8 (panic): %+v", o)
	}
	if o := outcomes[11]; !o.Skipped || o.Err != nil {
		t.Errorf("item 11: %+v", o)
	}
	if c.peak > p.Workers+2 {
		t.Errorf("%d items in flight, want at most %d", c.peak, p.Workers+2)
	}
}

func TestPipelineMemoryBound(t *testing.T) {
	c := &pipelineCase{results: map[int]int{}}
	st := c.stages(-10, -10, nil)
	st.Cost = func(i int) int64 { return 100 }
	n := 0
	err := Run(context.Background(), Pipeline{Workers: 4, MaxMemory: 250}, 30, st, func(Outcome) { n++ })
	if err != nil || n != 30 {
		t.Fatalf("err %v, %d outcomes", err, n)
	}
	if c.peak > 2 {
		t.Fatalf("%d items of 100 bytes in flight under a 250-byte bound", c.peak)
	}
	// An item larger than the bound still runs, alone.
	st.Cost = func(i int) int64 { return 1000 }
	c.peak = 0
	n = 0
	if err := Run(context.Background(), Pipeline{Workers: 4, MaxMemory: 250}, 5, st, func(Outcome) { n++ }); err != nil || n != 5 || c.peak != 1 {
		t.Fatalf("err %v, %d outcomes, peak %d", err, n, c.peak)
	}
}

func TestPipelineCancelFinishesItemsInFlight(t *testing.T) {
	c := &pipelineCase{results: map[int]int{}}
	ctx, cancel := context.WithCancel(context.Background())
	var labeled atomic.Int32
	st := c.stages(-10, -10, func(v int) {
		if labeled.Add(1) == 5 {
			cancel()
		}
	})
	var finished []int
	var mu sync.Mutex
	err := Run(ctx, Pipeline{Workers: 2, MaxInFlight: 3}, 100, st, func(o Outcome) {
		mu.Lock()
		defer mu.Unlock()
		finished = append(finished, o.Index)
		if o.Err != nil || o.Skipped {
			t.Errorf("item %d: %+v", o.Index, o)
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	// Items 0..4 were labeled before the cancel; at most MaxInFlight more
	// had started, and every started item finished (Encode ran).
	if len(finished) < 5 || len(finished) > 5+3 || len(c.results) != len(finished) {
		t.Fatalf("%d finished, %d encoded", len(finished), len(c.results))
	}
	if c.inFlight != 0 {
		t.Fatalf("%d items left in flight", c.inFlight)
	}
}

func TestPipelineNeedsStages(t *testing.T) {
	if err := Run(context.Background(), Pipeline{}, 1, Stages[int]{}, func(Outcome) {}); err == nil {
		t.Fatal("no error without stages")
	}
}
